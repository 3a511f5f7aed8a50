"""``mjbot replay FILE``: rebuild a seat's view turn by turn and ask its player again.

FILE is a game record written by mjbot (JSON Lines, :mod:`arena.records.files`: from
self-play, the Botzone judge mock or the Olympiad referee, either rule set) or a
Botzone match log (the JSON a match page downloads: ``logs`` alternating judge
requests and the bots' answers).  For the chosen seat the replay feeds every
request to a fresh agent; at each turn where the seat had a decision it asks
the agent what it would play now, with its reasons.  The re-asked player answers through
the seat session a platform seat plays through (:class:`bot.session.SeatSession`): an answer
the seat's view does not call legal, or a strategy that fails, is replaced by the safest
legal answer with the reason, as in a live game.

- ``--turn N``: print the state at turn N (the seat's N-th request), what was
  played and what the re-asked player plays, with every candidate's numbers;
- ``--diff``: list every turn where the re-asked player disagrees with what was played;
- ``--player SPEC``: who is re-asked (an arena spec that decides by an agent: ``planner``,
  ``baseline-v1``, ``planner:rank=steps``).  By default the seat's own player as the
  record names it, with the budget it played with, so a seat of ours replays without a
  disagreement; anything else (a Botzone log's seat, greedy, an external program) is
  re-asked as the shipped bot (:func:`bot.planner.default_strategy`).
- ``--allow-incomplete``: replay a game cut short (a record without its result line, a
  match log the judge did not finish) instead of refusing it; the output says so.

Input that cannot be read exits with 2 and names what is wrong: the record's line and
field, the match log's entry (``logs[5].output.content.2``), or the turn the seat's view
could not follow.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from arena.players.lineup import agent_of, agent_player, agent_spec
from arena.records.files import Record, read_record
from bot.agent import Decision, Strategy
from bot.options import positive_int, seat_index
from bot.planner import default_strategy
from bot.seat import PlayerState
from bot.session import SeatSession
from game import events as ev
from game.rules import MCR_BOTZONE, Family, Ruleset
from game.tiles import format_tiles, tile_name
from protocols.botzone_codec import (
    ProtocolError,
    RequestDecoder,
    format_request,
    format_response,
    parse_response,
)
from protocols.botzone_matchlog import read_match_log
from protocols.bounded_json import MAX_DOCUMENT_CHARS, JsonInputError, loads_bounded
from protocols.olympiad_codec import joined_claims
from strategy.deadline import Deadline
from strategy.knowledge import KnowledgeError


@dataclass(frozen=True)
class ReplayStep:
    """One thing the seat was shown, and what it answered (None: nothing recorded)."""

    event: ev.Event
    shown: str
    played: ev.Action | None


@dataclass(frozen=True)
class Turn:
    index: int
    request: str
    played: str
    ours: Decision | None
    hand: str
    unseen_total: int
    played_action: ev.Action | None = None

    def disagrees(self) -> bool:
        """Today's agent answers otherwise than what was played.  An Olympiad record's step
        joins a claim and the discard asked after it (:func:`protocols.olympiad_codec.
        joined_claims`), where the seat answered the claim alone: that claim agrees."""
        if self.ours is None or self.played_action is None:
            return False
        ours, played = self.ours.action, self.played_action
        if isinstance(played, ev.ClaimAndDiscard) and ours == played.claim:
            return False
        return ours != played


def _starts_as_a_record(text: str) -> bool:
    """The first line is a game record's header, whatever the file is called."""
    first = text.lstrip().split("\n", 1)[0]
    try:
        data = loads_bounded(first, max_chars=MAX_DOCUMENT_CHARS)
    except JsonInputError:
        return False
    return isinstance(data, dict) and data.get("record") == "header"


@dataclass(frozen=True)
class Game:
    """A recorded game as one seat saw it: its rules, its steps, why it is incomplete
    (None: a whole game) and who played the seat (None: a Botzone log does not say)."""

    rules: Ruleset
    steps: list[ReplayStep]
    incomplete: str | None
    player: str | None = None


@dataclass(frozen=True)
class Reasked:
    """Who answers again at a replayed seat, and the name it is shown by."""

    name: str
    strategy: Strategy
    budget: int | None
    """The work budget it played with (a spec's, default 4,000 kernel calls: so a seat
    replays as it decided); None: the caller's."""

    def budget_or(self, default: int) -> int:
        return default if self.budget is None else self.budget


def reasked_player(player: str | None, rules: Ruleset) -> Reasked:
    """The player ``player`` names when it decides by an agent (an arena or self-play spec:
    ``planner``, ``baseline-v1``, ``planner:rank=steps``), so a seat is re-asked as the
    player it was; anything else (an external program, greedy, random, a Botzone log's
    seat) is re-asked as the shipped bot (:func:`bot.planner.default_strategy`)."""
    spec = None if player is None else agent_spec(player)
    if spec is not None:
        return Reasked(spec.text, agent_of(spec, rules), spec.budget)
    strategy = default_strategy(rules)
    return Reasked(f"the shipped bot ({type(strategy).__name__.lower()})", strategy, None)


def read_game(path: Path, seat: int) -> Game:
    """A game record (``.jsonl``, or any file whose first line is a record header) or a
    Botzone match log (anything else) for ``seat``.

    Unreadable input is a :class:`ValueError` (or :class:`OSError`) naming the line and
    field; a game cut short is returned with :attr:`Game.incomplete` saying so.
    """
    text = path.read_text()
    if path.suffix == ".jsonl" or _starts_as_a_record(text):
        record = read_record(path)
        rules, steps = _steps_of(record, seat)
        return Game(rules, steps, record.incomplete, record.header.names[seat])
    try:
        log = read_match_log(text)
        steps = steps_from_lines(log.seat_lines(seat))
    except ValueError as exc:  # a MatchLogError, or a request that does not decode
        raise ValueError(f"{path}: {exc}") from None
    return Game(MCR_BOTZONE, steps, log.incomplete)


def steps_from_lines(lines: list[tuple[str, str]]) -> list[ReplayStep]:
    """Botzone (request, response) lines as steps; a request that does not decode is an error
    naming its line."""
    decoder = RequestDecoder()
    steps = []
    for i, (request, response) in enumerate(lines, 1):
        try:
            event = decoder.decode(request)
        except ProtocolError as exc:
            raise ValueError(f"request {i} ({request!r}): {exc}") from exc
        played: ev.Action | None = None
        if response:
            with contextlib.suppress(ProtocolError):
                played = parse_response(response)
        steps.append(ReplayStep(event, request, played))
    return steps


def _played_by(event: ev.Event, seat: int) -> ev.Action | None:
    """The answer of ``seat`` that produced ``event``, if ``seat`` made it."""
    if getattr(event, "seat", None) != seat:
        return None
    if isinstance(event, ev.Discarded):
        return ev.Discard(event.tile)
    if isinstance(event, ev.Punged):
        return ev.ClaimAndDiscard(ev.ClaimPung(), event.discard)
    if isinstance(event, ev.Chowed):
        return ev.ClaimAndDiscard(ev.ClaimChow(event.middle), event.discard)
    if isinstance(event, ev.Konged):
        return ev.ClaimKong()
    if isinstance(event, ev.ConcealedKonged) and event.tile is not None:
        return ev.DeclareConcealedKong(event.tile)
    if isinstance(event, ev.KongAdded):
        return ev.DeclareAddedKong(event.tile)
    return None


def describe_event(event: ev.Event) -> str:
    """An event in compact tile notation (``Discarded seat=1 tile=5m``)."""
    if isinstance(event, ev.Dealt):
        fields = f"seat={event.seat} tiles={format_tiles(sorted(event.tiles))}"
    else:
        fields = " ".join(f"{k}={tile_name(v) if k in _TILE_FIELDS and isinstance(v, int) else v}"
                          for k, v in vars(event).items())
    return f"{type(event).__name__} {fields}"


_TILE_FIELDS = {"tile", "discard", "claimed", "middle", "flower"}


def steps_from_record(path: Path, seat: int) -> tuple[Ruleset, list[ReplayStep]]:
    """A game record's history as ``seat`` was shown it, with what it answered each time.

    What the seat played is read off the event that followed (its discard,
    claim or kong; a win when the result names it the winner); a claim that
    lost to another seat's shows as a pass.  Olympiad claims are joined with
    their discard, as the client shows them to the agent.
    """
    return _steps_of(read_record(path), seat)


def _steps_of(record: Record, seat: int) -> tuple[Ruleset, list[ReplayStep]]:
    header = record.header
    rules = MCR_BOTZONE if header.rules is None else header.rules
    ending = record.result.ending if record.result is not None else None
    winner = ending.seat if isinstance(ending, ev.Won | ev.Penalized) else None
    prevalent = 0 if header.prevalent_wind is None else header.prevalent_wind
    seen = ev.history_seen_by(joined_claims(record.events), seat, prevalent)
    botzone = _botzone(rules)
    steps = []
    for i, e in enumerate(seen):
        nxt = seen[i + 1] if i + 1 < len(seen) else None
        played = _played_by(nxt, seat) if nxt is not None else None
        if played is None and (nxt is not None or record.result is not None):
            # the last event of a game cut short: what the seat answered is unknown
            played = ev.DeclareWin() if nxt is None and winner == seat else ev.Pass()
        shown = format_request(e, seat) if botzone else describe_event(e)
        steps.append(ReplayStep(e, shown, played))
    return rules, steps


def _botzone(rules: Ruleset) -> bool:
    """Botzone's rules: requests and actions are shown in its wire text."""
    return rules.family is Family.MCR


def action_text(rules: Ruleset) -> Callable[[ev.Action], str]:
    """How actions are shown: Botzone's response text, or the action's notation (a claim
    by its meld, and the discard after it)."""
    return format_response if _botzone(rules) else _notation


def _notation(action: ev.Action) -> str:
    return action.notation()


REPLAY_BUDGET = 20_000
"""Kernel calls per re-asked decision of the shipped bot (a named player keeps its own)."""


@dataclass(frozen=True)
class SeatTurn:
    """One step of a replayed seat: its view has seen the step's event (and nothing after)."""

    index: int
    step: ReplayStep
    session: SeatSession

    @property
    def view(self) -> PlayerState:
        return self.session.view

    def reask(self, deadline: Deadline) -> Decision:
        """The session's player asked again here, through the session's checks (a strategy
        that fails or answers what the view does not call legal gets the safest answer)."""
        return self.session.answer_inline(deadline)


def seat_turns(steps: Iterable[ReplayStep], session: SeatSession,
               say: Callable[[ev.Action], str] = format_response) -> Iterator[SeatTurn]:
    """The steps fed to ``session`` (a fresh seat) one by one, each yielded once its view has
    seen the step's event; after it, the view is told what was played there, whatever the
    re-asked player answered.  An event the view cannot apply is a :class:`ValueError`
    naming the turn (``say`` shows what was played in it)."""
    for i, step in enumerate(steps, 1):
        session.observe([step.event])
        if session.lost:
            played = "" if step.played is None else f", played {say(step.played)}"
            raise ValueError(f"turn {i} ({step.shown}{played}): the seat's view cannot "
                             f"follow: {session.lost}")
        yield SeatTurn(i, step, session)
        if step.played is not None:
            session.answered(step.played)


def replay(steps: list[ReplayStep], budget: int = REPLAY_BUDGET, rules: Ruleset = MCR_BOTZONE,
           agent: Strategy | None = None) -> list[Turn]:
    """Feed the steps to a fresh seat session; where the seat had a decision, ask the
    strategy ``agent`` (fresh for this game; by default the shipped bot,
    :func:`bot.planner.default_strategy`) through it."""
    session = SeatSession(rules, agent, work_budget=budget)
    say = action_text(rules)
    turns = []
    for turn in seat_turns(steps, session, say):
        ours = turn.reask(Deadline(budget=budget)) if session.asked() else None
        step, view = turn.step, turn.view
        turns.append(Turn(turn.index, step.shown,
                          say(step.played) if step.played is not None else "", ours,
                          format_tiles(view.concealed_tiles()), view.kb.unseen_total(),
                          step.played))
    return turns


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", type=Path, help="a game record (.jsonl) or a Botzone match log (.json)")
    p.add_argument("--seat", type=seat_index, default=0, help="the seat to replay, 0-3")
    p.add_argument("--turn", type=positive_int, help="show this turn in full")
    p.add_argument("--diff", action="store_true", help="list the turns where we now disagree")
    p.add_argument("--player", metavar="SPEC",
                   help="re-ask this player (an arena spec that decides by an agent: "
                        "planner, baseline-v1, planner:rank=steps); default: the player "
                        "the record names for the seat, else the shipped bot")
    p.add_argument("--json", action="store_true")
    p.add_argument("--allow-incomplete", action="store_true",
                   help="replay a game cut short (no result) instead of refusing it; "
                   "the output says it is incomplete")


def run(args: argparse.Namespace) -> int:
    try:
        game = read_game(args.file, args.seat)
        if game.incomplete is not None and not args.allow_incomplete:
            raise ValueError(f"{args.file}: incomplete game: {game.incomplete} "
                             "(--allow-incomplete replays it anyway)")
        rules = game.rules
        if args.player is not None:
            agent_player(args.player)
        asked = reasked_player(game.player if args.player is None else args.player, rules)
        try:
            turns = replay(game.steps, budget=asked.budget_or(REPLAY_BUDGET), rules=rules,
                           agent=asked.strategy)
        except ValueError as exc:
            raise ValueError(f"{args.file}: {exc}") from None
    except (OSError, ValueError, KnowledgeError) as exc:
        print(f"mjbot replay: {exc}", file=sys.stderr)
        return 2
    if game.incomplete is not None:
        print(f"mjbot replay: {args.file}: incomplete game: {game.incomplete}", file=sys.stderr)
    decided = [t for t in turns if t.ours is not None]
    say = action_text(rules)
    if args.turn is not None:
        chosen = [t for t in turns if t.index == args.turn]
        if not chosen:
            print(f"mjbot replay: no turn {args.turn} (1-{len(turns)})", file=sys.stderr)
            return 2
        t = chosen[0]
        print(f"turn {t.index}: request {t.request!r}")
        print(f"hand {t.hand}  unseen {t.unseen_total}")
        print(f"played   {t.played or '-'}")
        if t.ours is not None:
            print(f"today    {say(t.ours.action)}  [{t.ours.describe_method()}] {t.ours.note}"
                  f"  ({asked.name})")
            for c in t.ours.reasons:
                print("  " + c.describe())
        return 0
    diffs = [t for t in decided if t.disagrees()]
    if args.json:
        print(json.dumps({"turns": len(turns), "decisions": len(decided), "player": asked.name,
                          "incomplete": game.incomplete, "disagreements": [
            {"turn": t.index, "request": t.request, "played": t.played,
             "today": say(t.ours.action) if t.ours else None} for t in diffs]}))
        return 0
    print(f"seat {args.seat}: {len(turns)} requests, {len(decided)} decisions, "
          f"{len(diffs)} where {asked.name} disagrees"
          f"{' (incomplete game)' if game.incomplete else ''}")
    if args.diff:
        for t in diffs:
            assert t.ours is not None
            print(f"  turn {t.index:>3}: {t.request:<22} played {t.played:<12} "
                  f"today {say(t.ours.action)}")
    return 0
