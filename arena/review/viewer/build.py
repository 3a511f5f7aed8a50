"""A game's steps with its decisions: the reasons a record kept, and the re-asked answers.

A self-play record keeps, for mjbot's seats, every decision that was not a
plain pass (method ``pass``), and a planner's pass of a claim or a win it weighed,
in order but without the turn it was made at: :func:`align_recorded` walks the
seat's view again and gives each one its turn (a turn after a draw always had one;
any other turn had one when the seat did not pass, or passed a claim or a win),
checking that the recorded action is the one played.
With ``reask``, :func:`arena.review.viewer.sources.reask` asks the seat's own player
again (or the shipped bot, or ``--player``) at every turn of the chosen seats, as
``mjbot replay`` does.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from arena.players.lineup import agent_spec
from arena.records.decisions import CandidateRecord, Considered, parse_action
from arena.records.fields import RecordError
from arena.review.viewer.model import (
    CandidateRow,
    DecisionView,
    GameView,
    MatchView,
    SeatDecision,
    Step,
    ending_of,
    table_steps,
)
from arena.review.viewer.sources import GameSource, RecordedDecision, ReplayStep, reask
from bot.agent import Agent, Decision, describe_action
from bot.seat import AskKind, PlayerState
from game.events import (
    Action,
    ActionKind,
    Chowed,
    ClaimAndDiscard,
    ClaimChow,
    ClaimKong,
    ClaimPung,
    Dealt,
    DeclareWin,
    Discard,
    Discarded,
    Event,
    KongAdded,
    Konged,
    Melded,
    Pass,
    Punged,
    claim_of,
)
from game.rules import Ruleset
from game.tiles import Notation, TileError, parse_tile
from strategy.policy import Candidate, Method

DEFAULT_BUDGET = 20_000
"""Kernel calls per re-asked decision (as ``mjbot replay``)."""


# ---------------------------------------------------------------- candidates
_NUMBER = re.compile(r"^-?[\d.]+$")


def candidate_row(c: Considered) -> CandidateRow:
    """A candidate as a row: from its fields (:class:`arena.records.decisions.CandidateRecord`),
    or from the text records written before the fields were kept (:func:`parse_candidate`)."""
    if isinstance(c, str):
        return parse_candidate(c)
    return CandidateRow(c.label, c.numbers(), c.note)


def parse_candidate(text: str) -> CandidateRow:
    """The reader of records written before the candidates' fields were kept (their
    reasons are ``Candidate.describe()`` text): ``discard 1z: deficiency 4, val -, chance
    0.0008, δ 49, work 0 (a note)`` -> label, (name, value) pairs, note."""
    label, sep, rest = text.partition(": ")
    if not sep:
        return CandidateRow(text.strip(), ())
    note = ""
    body, paren, tail = rest.partition(" (")
    if paren and tail.endswith(")"):
        note = tail[:-1]
    else:
        body = rest
    numbers = []
    for item in body.split(", "):
        name, _, value = item.strip().partition(" ")
        if _NUMBER.match(name) and value:  # "123 µs": the unit names the number
            name, value = value, name
        numbers.append((name, value))
    label, note = _today(label.strip(), note)
    return CandidateRow(label, tuple(numbers), note)


_OLD_WORDS = {"pong": "pung", "concealed_kong": "concealed kong", "added_kong": "added kong"}
_MELD_NOTE = re.compile(r"^meld ((?:\S+ )*\S+), then discard (\S+)$")


def _today(label: str, note: str) -> tuple[str, str]:
    """A candidate label in today's words (:attr:`strategy.policy.Candidate.label`): older
    records said ``pong``, and named a claim by the discard after it (``chow 5s``, its
    meld in the note): the label names the meld, then the discard."""
    word, _, tile_text = label.partition(" ")
    word = _OLD_WORDS.get(word, word)
    if word == "concealed" or word == "added":
        more, _, tile_text = tile_text.partition(" ")
        word = f"{word} {more}"
    try:
        kind = ActionKind(word)
        tile = parse_tile(tile_text, Notation.COMPACT) if tile_text else None
        meld: tuple[int, ...] = ()
        said = _MELD_NOTE.match(note)
        if kind in (ActionKind.CHOW, ActionKind.PUNG) and said is not None:
            meld = tuple(parse_tile(t, Notation.COMPACT) for t in said.group(1).split())
            note = ""
        elif kind is ActionKind.KONG and tile is not None:
            meld = (tile,) * 4
    except (ValueError, TileError):
        return (f"{word} {tile_text}" if tile_text else word), note
    return Candidate(kind, tile, 0, meld=meld).label, note


def _claimed(step: ReplayStep) -> int | None:
    """The discard (or the tile of an added kong) a seat answers at ``step``."""
    e = step.event
    return e.tile if isinstance(e, Discarded | KongAdded) else None


def action_words(action: str, claimed: int | None = None) -> str:
    """A record's action text for people (:meth:`game.events.Pass.notation` and its
    siblings): ``chow middle=2m discard=3z`` -> ``chow 1m2m3m, then discard 3z``."""
    try:
        return parse_action(action).notation(claimed)
    except RecordError:
        return action


def _is_row(label: str, action: Action) -> bool:
    if isinstance(action, ClaimAndDiscard) and isinstance(action.claim, ClaimPung):
        # a pung's action does not name its tile
        return label.startswith("pung ") and label.endswith(action.notation()[4:])
    if isinstance(action, ClaimPung):  # a claim alone: its meld, with any discard after
        return label.split()[0] == "pung"
    if isinstance(action, ClaimChow):
        return label.split(",")[0] == action.notation()
    if isinstance(action, ClaimKong | DeclareWin):
        return label.split()[0] == action.kind.value
    return label == action.notation()


def matching_row(rows: Sequence[CandidateRow], action: str) -> int | None:
    """The row of ``rows`` that ``action`` (a record's action text) is (None if none is)."""
    try:
        played = parse_action(action)
    except RecordError:
        return None
    return next((i for i, r in enumerate(rows) if _is_row(r.label, played)), None)


def recorded_view(d: RecordedDecision, claimed: int | None = None) -> DecisionView:
    rows = tuple(candidate_row(c) for c in d.candidates)
    return DecisionView(d.action, d.method, rows, matching_row(rows, d.action), d.note,
                        action_words(d.action, claimed))


def today_view(decision: Decision, claimed: int | None = None) -> DecisionView:
    rows = tuple(candidate_row(CandidateRecord.of(c)) for c in decision.reasons)
    action = describe_action(decision.action)
    return DecisionView(action, decision.describe_method(), rows, matching_row(rows, action),
                        decision.note, decision.action.notation(claimed))


# ---------------------------------------------------------------- turns and steps
def seen_indices(history: Sequence[Event], seat: int) -> list[int]:
    """For each event ``seat`` was shown (as the replay shows them: its seat first, others'
    deals left out, an Olympiad claim joined with its discard), the index of the event
    of ``history`` after which the table looks as the seat saw it (-1: before the deal)."""
    out = [-1]
    k = 0
    while k < len(history):
        e = history[k]
        nxt = history[k + 1] if k + 1 < len(history) else None
        if isinstance(e, Melded) and isinstance(nxt, Discarded) and nxt.seat == e.seat:
            out.append(k + 1)
            k += 2
            continue
        if not (isinstance(e, Dealt) and e.seat != seat):
            out.append(k)
        k += 1
    return out


def align_recorded(rules: Ruleset, steps: Sequence[ReplayStep],
                   decisions: Iterable[RecordedDecision]) -> tuple[dict[int, RecordedDecision],
                                                                  str]:
    """Each recorded decision of one seat at its turn (0-based index into ``steps``);
    the text says where the alignment stopped, if it did."""
    queue = list(decisions)
    # an agent's record keeps every turn it played (but plain passes); greedy, random and
    # mjbot-eps keep only some (their wins, the agent's share), matched where they fit
    every_turn = bool(queue) and all(agent_spec(d.player) is not None for d in queue)
    view = PlayerState(rules)
    judge = Agent(rules)  # whether a pass let a win go (a planner's kept hand)
    separate_discard = not rules.discard_with_claim  # the Olympiad flow: a claim, its discard
    out: dict[int, RecordedDecision] = {}
    for j, step in enumerate(steps):
        if not queue:
            break
        view.observe(step.event)
        asked = view.ask.kind
        played = step.played
        if (asked in (AskKind.DISCARD, AskKind.ROB) and isinstance(played, Pass)
                and queue[0].action == "pass" and view.tile_in_play is not None
                and (any(isinstance(claim_of(a), ClaimPung | ClaimChow | ClaimKong)
                         for a in view.ask.legal)
                     or judge.can_win(view, view.tile_in_play, self_drawn=False,
                                      robbing=asked is AskKind.ROB)[0])):
            out[j] = queue.pop(0)  # a claim or a win the seat weighed and passed
        elif (asked in (AskKind.DISCARD, AskKind.ROB) and isinstance(played, Pass)
                and _claim_may_have_lost(steps, j, queue[0].seat, queue[0].action)
                and queue[0].action in {describe_action(a) for a in view.ask.legal}):
            out[j] = queue.pop(0)  # a claim that lost to another seat's
        elif asked is not AskKind.NOTHING and played is not None and (
                asked is AskKind.DRAW or not isinstance(played, Pass)):
            want = describe_action(played)
            if queue[0].action == want or (separate_discard
                                           and _same_claim(queue[0].action, played)):
                out[j] = queue.pop(0)
            elif every_turn:
                return out, (f"seat {queue[0].seat}: the recorded decision "
                             f"{queue[0].action!r} is not what was played at turn {j + 1} "
                             f"({want!r}); later reasons are not shown")
            # else a player whose record keeps some turns only (its wins): not this one
            if (separate_discard and j in out and isinstance(played, ClaimAndDiscard)
                    and queue and queue[0].action == describe_action(Discard(played.discard))):
                # the Olympiad flow asked for the claim's discard on its own: the step
                # joins them, and shows the claim's reasons
                queue.pop(0)
        if played is not None:
            view.answered(played)
    if queue:
        return out, f"seat {queue[0].seat}: {len(queue)} recorded decisions found no turn"
    return out, ""


def _same_claim(recorded: str, played: Action) -> bool:
    """The Olympiad flow, where a step joins a claim and the discard asked after it
    (``played``): the recorded answer (the claim alone; records written before the one
    claim vocabulary name the discard planned then, which may differ) makes its claim."""
    if not isinstance(played, ClaimAndDiscard):
        return False
    try:
        return claim_of(parse_action(recorded)) == played.claim
    except RecordError:
        return False


def _claim_may_have_lost(steps: Sequence[ReplayStep], j: int, seat: int, action: str) -> bool:
    """A claim ``action`` made at step ``j`` (a discard) may have lost, and the record keeps
    it though the seat is shown passing: a win, when another seat won on that discard (the
    game ends there); a chow, pung or kong, when another seat claimed it or won on it."""
    if action == "pass":
        return False
    if j + 1 >= len(steps):
        return True
    if action == "win":
        return False
    nxt = steps[j + 1].event
    return isinstance(nxt, Punged | Chowed | Konged) and nxt.seat != seat


@dataclass(frozen=True)
class BuildOptions:
    reask_seats: tuple[int, ...] = ()
    budget: int = DEFAULT_BUDGET
    player: str | None = None
    """Who is re-asked (an arena spec that decides by an agent); None: each seat's own
    player where the record names one that does, else the shipped bot
    (:func:`arena.review.replay.reasked_player`)."""


def build_game(src: GameSource, options: BuildOptions = BuildOptions(),
               scores_before: tuple[int, int, int, int] = (0, 0, 0, 0)) -> GameView:
    steps, step_of = table_steps(src.rules, src.history, src.result)
    notes = list(src.notes)
    found: dict[tuple[int, int], SeatDecision] = {}
    for seat in range(4):
        mine = [d for d in src.decisions if d.seat == seat]
        if not mine and seat not in options.reask_seats:
            continue
        seat_steps = src.seat_steps(seat)
        where = seen_indices(src.history, seat)
        if len(where) != len(seat_steps):
            notes.append(f"seat {seat}: {len(seat_steps)} requests but {len(where)} events "
                         "seen; its decisions are not shown")
            continue

        def step_at(j: int, where: list[int] = where) -> int:
            return 0 if where[j] < 0 else step_of[where[j]]

        recorded, problem = align_recorded(src.rules, seat_steps, mine)
        if problem:
            notes.append(problem)
        for j, d in recorded.items():
            action = seat_steps[j].played
            shown = describe_action(action) if action is not None else ""
            claimed = _claimed(seat_steps[j])
            found[(step_at(j), seat)] = SeatDecision(
                seat, d.action, recorded=recorded_view(d, claimed), lost=shown != d.action,
                played_words=action_words(d.action, claimed))
        if seat not in options.reask_seats:
            continue
        player = src.names[seat] if options.player is None else options.player
        for turn in reask(seat_steps, src.rules, options.budget, player):
            ours = turn.ours
            if ours is None:
                continue
            key = (step_at(turn.index - 1), seat)
            before = found.get(key)
            played_action = turn.played_action
            # what the seat answered: the record's decision where it kept one (a claim that
            # lost is still the seat's answer), else what the events show
            answered = before.played if before is not None else (
                describe_action(played_action) if played_action is not None else "")
            if ours.method is Method.PASS and answered in ("", "pass") and before is None:
                continue  # nothing to decide, and nothing done
            claimed = _claimed(seat_steps[turn.index - 1])
            today = today_view(ours, claimed)
            agrees = today.action == answered or (
                not src.rules.discard_with_claim and played_action is not None
                and _same_claim(today.action, played_action))  # a claim alone, its step joined
            found[key] = SeatDecision(seat, answered, before.recorded if before else None,
                                      today, not agrees and answered != "",
                                      matching_row(today.candidates, answered),
                                      before.lost if before else False,
                                      action_words(answered, claimed))
    with_decisions = [
        Step(s.index, s.event, s.actor, s.seats, s.wall,
             tuple(found[(s.index, seat)] for seat in range(4) if (s.index, seat) in found))
        for s in steps]
    return GameView(
        title=src.title, source=src.source, rules=src.rules.name,
        prevalent_wind=src.prevalent_wind, dealer=src.dealer, names=src.names,
        steps=tuple(with_decisions),
        ending=ending_of(src.result) if src.result is not None else None,
        scores_before=scores_before, reasked=tuple(options.reask_seats), notes=tuple(notes))


def build_match(games: Sequence[GameSource], title: str,
                options: BuildOptions = BuildOptions()) -> MatchView:
    views: list[GameView] = []
    totals = (0, 0, 0, 0)
    for src in games:
        view = build_game(src, options, totals)
        views.append(view)
        if view.ending is not None:
            s = view.ending.scores
            totals = (totals[0] + s[0], totals[1] + s[1], totals[2] + s[2], totals[3] + s[3])
    return MatchView(title, tuple(views))

