"""``mjbot bench agreement``: how often a strategy decides as the bot of real Botzone logs did.

The 8 match logs in ``data/botzone-match-logs`` (:mod:`arena.tools.data`) are games of one strong
bot in
all four seats (a contest's rank-1 bot, "chunjiandu", as the logs' source names it).
Every seat of every log is rebuilt request by request (:mod:`arena.review.replay`); at each
decision the strategy is asked on the same view, and:

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
from arena.review.replay import seat_lines_from_match_log, steps_from_lines
from arena.tools.data import DataMissing, botzone_logs, pku_sample
from bot.agent import Strategy
from bot.seat import AskKind, SeatView
from game.events import Action, ClaimChow, ClaimPung, Discard, Pass, claim_of
from game.rules import MCR_BOTZONE
from game.table import play_game
from protocols.pku_datatxt import botzone_responses, parse_pku_datatxt, walltiles_of
from strategy.deficiency.kernel import UNREACHABLE
from strategy.stepvalue import Deadline

DEFAULT_STRATEGIES = ("mjbot", "baseline-v1", "planner", "planner-calls", "planner:rank=steps",
                      f"planner:useful={UNREACHABLE}", "planner:fold=0.5,foldwin=0.3",
                      "planner:rank=pku", "planner:rank=both")
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
class LoggedTurn:
    """One request of a log as a seat saw it: the seat's view, and what the logged bot
    answered (None where the log has no answer of this seat)."""

    log: int
    seat: int
    view: SeatView
    played: Action | None


def logged_turns(logs: Sequence[Path]) -> Iterator[LoggedTurn]:
    """Every seat of every log rebuilt request by request (the view is the seat's own, and
    moves on with the logged answer after each turn is yielded)."""
    for index, path in enumerate(logs):
        data = json.loads(path.read_text())
        for seat in range(4):
            view = SeatView(MCR_BOTZONE)
            for step in steps_from_lines(seat_lines_from_match_log(data, seat)):
                view.observe(step.event)
                yield LoggedTurn(index, seat, view, step.played)
                if step.played is not None:
                    view.answered(step.played)


def pku_turns(path: Path, first_log: int = 0, matches: int | None = None
              ) -> Iterator[LoggedTurn]:
    """Every seat of every match of a PKU ``data.txt`` file (:mod:`protocols.pku_datatxt`:
    Botzone contest games of many bots) rebuilt event by event, as :func:`logged_turns`
    does for the match logs; match ``k`` is log ``first_log + k``.  ``matches``: the first
    that many only (the others are not replayed)."""
    parsed = parse_pku_datatxt(path.read_text(encoding="utf-8"))
    for k, match in enumerate(parsed[:matches]):
        stages = botzone_responses(match)
        table = play_game(walltiles_of(match), match.prevalent_wind, stages)
        for seat in range(4):
            view = SeatView(MCR_BOTZONE)
            for stage, event in enumerate(table.events_seen_by(seat)):
                view.observe(event)
                answer = stages[stage][seat] if stage < len(stages) else None
                played = answer if isinstance(answer, get_args(Action)) else None
                yield LoggedTurn(first_log + k, seat, view, played)
                if played is not None:
                    view.answered(played)


def log_files(command: str) -> list[Path]:
    """The match logs; none says where it looked, on behalf of ``command``."""
    try:
        return botzone_logs()
    except DataMissing as exc:
        print(f"{command}: {exc}", file=sys.stderr)
        return []


def measure(name: str, make: Callable[[], Strategy], turns: Iterable[LoggedTurn],
            budget: int) -> Agreement:
    """``name``'s decisions against the logged ones (a fresh strategy for every seat)."""
    tally = Agreement(name)
    strategy, seat = make(), (-1, -1)
    for turn in turns:
        if (turn.log, turn.seat) != seat:
            strategy, seat = make(), (turn.log, turn.seat)
        ask, played = turn.view.ask, turn.played
        if ask.kind not in (AskKind.DRAW, AskKind.DISCARD) or played is None:
            continue
        ours = strategy.decide(turn.view, Deadline(budget=budget)).action
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
    return tally


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

        def turns() -> Iterator[LoggedTurn]:
            return pku_turns(pku, matches=1 if args.quick else None)
    else:
        what = f"the rank-1 bot of {len(logs)} Botzone logs"

        def turns() -> Iterator[LoggedTurn]:
            return logged_turns(logs)
    rows = [measure(n, makers[n], turns(), budget).row() for n in names]
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
