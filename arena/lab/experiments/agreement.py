"""``mjbot bench agreement``: how often a strategy decides as the bot of real Botzone logs did.

The 8 match logs in ``data/botzone-match-logs`` (:mod:`arena.tools.data`) are games of one strong
bot in
all four seats (a contest's rank-1 bot, "chunjiandu", as the logs' source names it).
Every seat of every log is rebuilt request by request (:func:`arena.review.replay.seat_turns`);
at each decision the strategy is asked on the same view, through the seat session a platform
seat plays through (:class:`bot.session.SeatSession`: an answer the view does not call legal
is replaced by the safest one, as in a live game), and:

- *discards*: where the logged bot played a tile after its draw, did the strategy discard
  the same tile?
- *calls*: where the logged bot called pung or chow on a discard, did the strategy make
  the same call (the same meld; the discard after it is not compared)?  And where the
  logged bot passed a call the strategy could make, did it pass too?

Strategies side by side in one run (a deterministic work budget, so the figures repeat).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import get_args

from arena.players.lineup import IN_PROCESS, PlayerSpecError, parse_player, strategy_of
from arena.review.replay import ReplayStep, seat_turns, steps_from_lines
from arena.tools.data import DataMissing, botzone_logs, pku_sample
from bot.agent import Strategy
from bot.seat import AskKind
from bot.session import SeatSession
from game.events import Action, ClaimChow, ClaimPung, Discard, Pass, claim_of
from game.rules import MCR_BOTZONE
from game.table import play_game
from protocols.botzone_codec import format_request
from protocols.botzone_matchlog import load_match_log
from protocols.pku_datatxt import botzone_responses, parse_pku_datatxt, walltiles_of
from strategy.deadline import Deadline
from strategy.deficiency.kernel import UNREACHABLE

DEFAULT_STRATEGIES = ("mjbot", "baseline-v1", "planner", "planner-calls", "planner:rank=steps",
                      f"planner:useful={UNREACHABLE}")
"""The strategies compared unless ``--strategies`` names others: players of the arena's
registry (:mod:`arena.players.lineup`; ``planner:useful=99``: close discards never ranked by their
useful draws)."""


class UnknownStrategy(ValueError):
    """A ``--strategies`` name that is not an in-process player of the arena's registry."""


def strategy_maker(name: str) -> Callable[[], Strategy]:
    """A fresh strategy of the arena's player ``name`` (:mod:`arena.players.lineup`) under
    mcr-botzone, per call; :class:`UnknownStrategy` names what is wrong and the players
    this bench can ask."""
    try:
        spec = parse_player(name)
    except PlayerSpecError as exc:
        raise UnknownStrategy(f"{exc}") from None
    if not spec.in_process:
        known = ", ".join(sorted(k.value for k in IN_PROCESS))
        raise UnknownStrategy(f"player {name!r} is a program, not a strategy this bench can "
                              f"ask; in-process players: {known}")
    return lambda: strategy_of(spec, MCR_BOTZONE)


@dataclass
class Agreement:
    name: str
    discards: int = 0
    same_discards: int = 0
    calls: int = 0
    same_calls: int = 0
    passes: int = 0
    same_passes: int = 0

    def row(self) -> dict[str, object]:
        def pct(k: int, n: int) -> float:
            return round(100.0 * k / n, 1) if n else float("nan")

        return {"strategy": self.name, "discards": self.discards,
                "discard_agreement_pct": pct(self.same_discards, self.discards),
                "calls": self.calls, "call_agreement_pct": pct(self.same_calls, self.calls),
                "passes": self.passes, "pass_agreement_pct": pct(self.same_passes, self.passes)}


def _meld(action: Action) -> object:
    """A call without the discard after it (pung of a tile; chow by its middle)."""
    claim = claim_of(action)
    return claim if isinstance(claim, ClaimPung | ClaimChow) else None


@dataclass(frozen=True)
class LoggedSeat:
    """One seat of one logged game: what it was shown, and what the logged bot answered
    (a step's ``played`` is None where the log has no answer of this seat)."""

    log: int
    seat: int
    steps: list[ReplayStep]


def logged_seats(logs: Sequence[Path]) -> Iterator[LoggedSeat]:
    """Every seat of every Botzone match log (:mod:`protocols.botzone_matchlog`), request by
    request; log ``k`` is the ``k``-th path."""
    for index, path in enumerate(logs):
        log = load_match_log(path)
        for seat in range(4):
            yield LoggedSeat(index, seat, steps_from_lines(log.seat_lines(seat)))


def pku_seats(path: Path, first_log: int = 0, matches: int | None = None
              ) -> Iterator[LoggedSeat]:
    """Every seat of every match of a PKU ``data.txt`` file (:mod:`protocols.pku_datatxt`:
    Botzone contest games of many bots) rebuilt event by event, as :func:`logged_seats`
    does for the match logs; match ``k`` is log ``first_log + k``.  ``matches``: the first
    that many only (the others are not replayed)."""
    parsed = parse_pku_datatxt(path.read_text(encoding="utf-8"))
    for k, match in enumerate(parsed[:matches]):
        stages = botzone_responses(match)
        table = play_game(walltiles_of(match), match.prevalent_wind, stages)
        for seat in range(4):
            steps = []
            for stage, event in enumerate(table.events_seen_by(seat)):
                answer = stages[stage][seat] if stage < len(stages) else None
                played = answer if isinstance(answer, get_args(Action)) else None
                steps.append(ReplayStep(event, format_request(event, seat), played))
            yield LoggedSeat(first_log + k, seat, steps)


def log_files(command: str) -> list[Path]:
    """The match logs; none says where it looked, on behalf of ``command``."""
    try:
        return botzone_logs()
    except DataMissing as exc:
        print(f"{command}: {exc}", file=sys.stderr)
        return []


def measure(name: str, make: Callable[[], Strategy], seats: Iterable[LoggedSeat],
            budget: int) -> Agreement:
    """``name``'s decisions against the logged ones (a fresh strategy for every seat, asked
    through the seat's session)."""
    tally = Agreement(name)
    for seat in seats:
        _tally_seat(tally, SeatSession(MCR_BOTZONE, make(), work_budget=budget), seat, budget)
    return tally


def _tally_seat(tally: Agreement, session: SeatSession, seat: LoggedSeat, budget: int) -> None:
    for turn in seat_turns(seat.steps, session):
        ask, played = turn.view.ask, turn.step.played
        if ask.kind not in (AskKind.DRAW, AskKind.DISCARD) or played is None:
            continue
        ours = turn.reask(Deadline(budget=budget)).action
        if ask.kind is AskKind.DRAW and isinstance(played, Discard):
            tally.discards += 1
            tally.same_discards += ours == played
        elif ask.kind is AskKind.DISCARD:
            if _meld(played) is not None:
                tally.calls += 1
                tally.same_calls += _meld(ours) == _meld(played)
            elif isinstance(played, Pass) and any(
                    _meld(a) is not None for a in ask.legal):
                tally.passes += 1
                tally.same_passes += isinstance(ours, Pass)


def main(args: argparse.Namespace) -> int:
    names = list(args.strategies or DEFAULT_STRATEGIES)
    try:
        makers = {name: strategy_maker(name) for name in names}
    except UnknownStrategy as exc:
        print(f"mjbot bench agreement: --strategies: {exc}", file=sys.stderr)
        return 2
    logs = log_files("mjbot bench agreement")
    if not logs:
        return 2
    if args.quick:
        logs = logs[:1]
    budget = 4_000 if args.quick else 20_000
    if args.data == "pku":
        try:
            pku = pku_sample()
        except DataMissing as exc:
            print(f"mjbot bench agreement: {exc}", file=sys.stderr)
            return 2
        what = "the PKU sample's contest games (many bots)"

        def seats() -> Iterator[LoggedSeat]:
            return pku_seats(pku, matches=1 if args.quick else None)
    else:
        what = f"the rank-1 bot of {len(logs)} Botzone logs"

        def seats() -> Iterator[LoggedSeat]:
            return logged_seats(logs)
    rows = [measure(n, makers[n], seats(), budget).row() for n in names]
    if args.json:
        print(json.dumps({"bench": "agreement", "data": args.data, "logs": len(logs),
                          "budget": budget, "rows": rows}))
        return 0
    print(f"agreement with {what} (work budget {budget})")
    print(f"{'strategy':<20} {'discards':>8} {'same %':>7} {'calls':>6} {'same %':>7} "
          f"{'passes':>7} {'same %':>7}")
    for r in rows:
        print(f"{r['strategy']:<20} {r['discards']:>8} {r['discard_agreement_pct']:>7} "
              f"{r['calls']:>6} {r['call_agreement_pct']:>7} {r['passes']:>7} "
              f"{r['pass_agreement_pct']:>7}")
    return 0
