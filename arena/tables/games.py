"""One arena game as a pure function of (rules, wall mode, seed, wall, seating, players).

:func:`play` builds the wall from ``(seed, wall)``, seats the players, plays
the game to its end and returns a :class:`PlayedGame`: the outcome the
statistics read (:class:`arena.stats.clustered.GameOutcome`), the figures of Tang, Chen
& Wu, "An Efficient Method for Assessing the Strength of Mahjong Programs"
(steals and draws per seat, consistent draws, reshuffles) and, when asked,
the game record's JSON lines (written by whoever collects the game, so a game
played on a remote worker is recorded where the match runs).

Nothing here reads a clock or draws randomness it was not handed: the wall
comes from ``numpy.random.default_rng([seed, wall])`` and each in-process
player's generator from ``[seed, wall, seating, seat]``, so the same spec gives
the same game in this process, in another, or on another machine.

- mcr-botzone: Botzone's duplicate walls (136 tiles, one 34-tile wall per
  seat, :func:`game.table.random_walltiles`), prevalent wind ``(wall // 4) % 4``;
  in-process players answer the judge table's requests directly; with a
  ``botzone:CMD`` player the game runs through the judge mock
  (:mod:`arena.platforms.botzone_judge`), the in-process players behind a channel.
- taiwan-16: one 144-tile wall (:func:`game.walls.shuffled_wall`), played as a
  single wall or as the stable draw wall (``WallMode``), dealer ``wall % 4``,
  prevalent wind ``(wall // 4) % 4``; our agent is driven as the Olympiad client
  drives it (claims folded with their discard, the discard after its own claim
  asked separately).

One seat's failure never ends a match: an exception while an in-process seat
observes or decides (:class:`SeatGuard`) becomes that seat's fallback answer
(the safest legal action, or taiwan-16's default action), is written in the
record as a ``fallback`` decision with its reason, and is reported in
:attr:`PlayedGame.failures`; a fallback the table refuses costs the seat a
penalty, which ends the game as any penalty does (:attr:`PlayedGame.penalty`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum

import numpy as np

from arena.players.lineup import ArenaSeat, parse_player
from arena.records.decisions import DecisionRecord, Reasons, SeatChoice
from arena.records.files import record_lines
from arena.records.lines import HeaderLayout, RecordHeader
from arena.stats.clustered import GameOutcome, outcome_of
from bot.agent import describe_action
from game.draw_consistency import (
    DrawConsistency,
    consistent_draws,
    draw_rounds,
    per_seat_wall_references,
    single_wall_references,
)
from game.events import (
    Action,
    Chowed,
    Dealt,
    Drew,
    Event,
    GameResult,
    Konged,
    Melded,
    Pass,
    Penalized,
    Punged,
    SeatAssigned,
    as_seen_by,
)
from game.rules import MCR_BOTZONE, TAIWAN_16, Ruleset
from game.stable_wall import Reshuffle, WallMode
from game.table import BotzoneTable, random_walltiles
from game.taiwan import TaiwanTable
from game.turn_order import SEATS
from game.walls import shuffled_wall


class Rules(Enum):
    MCR_BOTZONE = "mcr-botzone"
    TAIWAN_16 = "taiwan-16"

    @property
    def ruleset(self) -> Ruleset:
        return MCR_BOTZONE if self is Rules.MCR_BOTZONE else TAIWAN_16


@dataclass(frozen=True)
class GameSpec:
    """Everything a game depends on.  ``players[seat]`` are player arguments
    (:func:`arena.players.lineup.parse_player`); ``labels[seat]`` the names the statistics
    use (the same program on two seats has one label)."""

    rules: Rules
    seed: int
    wall: int
    seating: int
    players: tuple[str, str, str, str]
    labels: tuple[str, str, str, str]
    wall_mode: WallMode = WallMode.SINGLE
    record: bool = False

    def wall_tiles(self) -> tuple[int, ...]:
        rng = np.random.default_rng([self.seed, self.wall])
        if self.rules is Rules.MCR_BOTZONE:
            return random_walltiles(rng)
        return shuffled_wall(TAIWAN_16, rng)

    @property
    def prevalent_wind(self) -> int:
        return (self.wall // 4) % 4

    @property
    def dealer(self) -> int:
        """taiwan-16's dealer (Botzone's seat 0 always starts)."""
        return self.wall % 4 if self.rules is Rules.TAIWAN_16 else 0

    def player_seed(self, seat: int) -> list[int]:
        return [self.seed, self.wall, self.seating, seat]


@dataclass(frozen=True)
class SeatFailure:
    """An exception an in-process seat raised, which its fallback answer replaced."""

    seat: int
    player: str
    reason: str


@dataclass(frozen=True)
class PlayedGame:
    """A finished game: its outcome and the paper's per-game figures."""

    spec: GameSpec
    outcome: GameOutcome
    steals: tuple[int, int, int, int]
    """Discards claimed (chow, pong, kong) by each seat."""
    draws: tuple[int, int, int, int]
    """Normal draws (not replacements) by each seat."""
    consistency: DrawConsistency
    """Draws that followed the wall (``game.draw_consistency``)."""
    reshuffles: tuple[Reshuffle, ...] = ()
    replaced: tuple[int, int, int, int] = (0, 0, 0, 0)
    """Answers the table did not accept, replaced by its default action (taiwan-16)."""
    record: tuple[str, ...] | None = None
    """The game record's JSON lines (:mod:`arena.records.files`), when the spec asked for it."""
    failures: tuple[SeatFailure, ...] = ()
    """In-process seats' exceptions, each replaced by the seat's fallback answer."""
    penalty: str = ""
    """Why the table penalised a seat, when the game ended so (the reason and detail)."""

    @property
    def ending(self) -> str:
        if self.outcome.winner is not None:
            return "win"
        return "penalty" if self.outcome.penalized is not None else "draw"


class SeatGuard:
    """One in-process seat's events and answers, made safe for the match.

    An exception while the seat observes an event loses its view for the rest of the
    game: every later answer is the fallback.  An exception while it decides replaces
    that answer by the fallback.  Each is added to ``failures`` with its reason, and the
    fallback is the seat's recorded decision (method ``fallback``, the reason its note).
    A fallback the seat's own session chose (its decision recorded as ``fallback``) is
    added to ``failures`` too.
    """

    def __init__(self, seat: int, label: str, player: ArenaSeat,
                 failures: list[SeatFailure]) -> None:
        self.seat = seat
        self.label = label
        self.player = player
        self.failures = failures
        self.lost = ""
        """Why the seat's view cannot be trusted any more (empty while it can)."""
        self._told = False
        """Whether a fallback since the view was lost has been noted as a decision."""

    def observe(self, event: Event) -> None:
        if self.lost:
            return
        try:
            self.player.observe(event)
        except Exception as exc:  # the match goes on whatever one seat did
            self.lose(f"observing {type(event).__name__}: {_why(exc)}")

    def lose(self, why: str) -> None:
        """The seat missed an event (``why``): fallback answers to the end of the game."""
        if not self.lost:
            self.lost = why
            self._fail(why)

    def answer(self, decide: Callable[[], Action],
               fallback: Callable[[], Action] | None = None) -> Action:
        """``decide()``, or the fallback (``fallback()``, else the safest legal answer
        to the view's ask) when the view is lost or ``decide`` raises."""
        if self.lost:
            told, self._told = self._told, True
            return self._fallback(f"state lost: {self.lost}", fallback, quiet=told)
        try:
            action = decide()
        except Exception as exc:  # the match goes on whatever one seat did
            why = f"strategy failed: {_why(exc)}"
            self._fail(why)
            return self._fallback(why, fallback)
        last = self.player.last
        if last is not None and last.method == FALLBACK:  # the seat's own session fell back
            self._fail(last.reasons.note if last.reasons is not None else FALLBACK)
        return action

    def _fail(self, why: str) -> None:
        self.failures.append(SeatFailure(self.seat, self.label, why))

    def _fallback(self, why: str, fallback: Callable[[], Action] | None,
                  quiet: bool = False) -> Action:
        """The fallback answer, noted as the seat's decision (``quiet``: a pass is not, once
        the first answer of a lost view has been)."""
        player = self.player
        try:
            action = fallback() if fallback is not None else player.view.ask.safest()
        except Exception:  # a view that cannot even list its answers
            action = Pass()
        player.last = None if quiet and isinstance(action, Pass) else SeatChoice(
            describe_action(action), FALLBACK, Reasons(why, None, False, ()))
        player.view.answered(action)
        return action


FALLBACK = "fallback"
"""The recorded method of a fallback answer (``strategy.policy.Method.FALLBACK``)."""


def _why(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"


def _seats(spec: GameSpec) -> list[ArenaSeat]:
    parsed = [parse_player(p) for p in spec.players]
    for p in parsed:
        if not p.in_process:
            raise ValueError(f"{p.text!r} runs as a program: play it with play_external")
    return [ArenaSeat(p, spec.rules.ruleset, spec.player_seed(s), notes=spec.record)
            for s, p in enumerate(parsed)]


def _counts(history: tuple[Event, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    steals = [0] * SEATS
    draws = [0] * SEATS
    for e in history:
        if isinstance(e, Melded | Punged | Chowed | Konged):
            steals[e.seat] += 1
        elif isinstance(e, Drew) and not e.replacement:
            draws[e.seat] += 1
    return tuple(steals), tuple(draws)


def _four(xs: tuple[int, ...] | list[int]) -> tuple[int, int, int, int]:
    a, b, c, d = xs
    return (a, b, c, d)


def play_in_process(spec: GameSpec) -> PlayedGame:
    """Play the game ``spec`` describes, every seat an in-process player (a game with
    programs in it is :func:`arena.tables.external.play_external`'s; :func:`arena.tables.play.play`
    picks)."""
    if spec.rules is Rules.MCR_BOTZONE:
        return _play_mcr(spec)
    return _play_taiwan(spec)


# ---------------------------------------------------------------- mcr-botzone
_PASS = Pass()
"""The answer of a seat not asked (most seats at most requests; actions are frozen values)."""


def seat_answer(seat: int, player: ArenaSeat) -> Action:
    """An in-process seat's answer to the request it was just shown (pass if not asked)."""
    return player.decide() if player.asked else _PASS


def play_mcr_table(spec: GameSpec, answer: Callable[[int, ArenaSeat], Action] = seat_answer,
                   prepare: Callable[[list[ArenaSeat], BotzoneTable], None] | None = None,
                   ) -> BotzoneTable:
    """Play ``spec``'s mcr-botzone game in this process to its end: every seat is shown
    its request, then ``answer(seat, player)`` gives what it answers (the benchmarks time
    it or look at the view first; nothing guards the seats here).  ``prepare(seats,
    table)`` runs before the first request (a bench that lets a seat read the table)."""
    seats = _seats(spec)
    table = BotzoneTable(spec.wall_tiles(), spec.prevalent_wind)
    if prepare is not None:
        prepare(seats, table)
    while not table.finished:
        answers: list[Action] = []
        for s, request in enumerate(table.requests):
            seats[s].observe(request)
            answers.append(answer(s, seats[s]))
        table.respond(answers)
    return table


def _play_mcr(spec: GameSpec) -> PlayedGame:
    """Play as :func:`play_mcr_table` does, every seat behind a :class:`SeatGuard`."""
    decisions: list[DecisionRecord] = []
    failures: list[SeatFailure] = []
    seats = _seats(spec)
    guards = [SeatGuard(s, spec.labels[s], seats[s], failures) for s in range(SEATS)]
    table = BotzoneTable(spec.wall_tiles(), spec.prevalent_wind)
    while not table.finished:
        answers: list[Action] = []
        for s, request in enumerate(table.requests):
            player, guard = seats[s], guards[s]
            guard.observe(request)
            player.last = None
            answers.append(guard.answer(lambda: seat_answer(s, player)))  # noqa: B023
            if spec.record and player.last is not None:
                decisions.append(player.last.at(s, spec.labels[s]))
        table.respond(answers)
    return finish_mcr(spec, table.walltiles, table.history, table.result, decisions, failures)


def finish_mcr(spec: GameSpec, walls: tuple[int, ...], history: tuple[Event, ...],
               result: GameResult | None, decisions: list[DecisionRecord],
               failures: list[SeatFailure] | None = None) -> PlayedGame:
    assert result is not None
    steals, draws = _counts(history)
    rounds = draw_rounds(history, claims_take_rounds=False)
    consistency = consistent_draws(per_seat_wall_references(walls), rounds)
    record = None
    if spec.record:
        header = RecordHeader(
            HeaderLayout.ARENA_MCR, rules=spec.rules.ruleset, seed=spec.seed,
            wall_index=spec.wall, seating=spec.seating, walltiles=walls,
            prevalent_wind=spec.prevalent_wind, seats=spec.labels, players=spec.players)
        record = tuple(record_lines(header, history, decisions, result))
    return PlayedGame(spec, outcome_of(spec.wall, spec.labels, result), _four(steals),
                      _four(draws), consistency, record=record, failures=tuple(failures or ()),
                      penalty=penalty_of(result))


def penalty_of(result: GameResult) -> str:
    """Why the table penalised a seat (empty when the game did not end so)."""
    ending = result.ending
    if not isinstance(ending, Penalized):
        return ""
    return f"{ending.reason}: {ending.detail}" if ending.detail else ending.reason


# ---------------------------------------------------------------- taiwan-16
class SeatFeed:
    """The table's new events as one seat is shown them, as the Olympiad client's decoder
    gives them (a chow or pung, then the discard after it: the seat's view asks its own
    claimer's discard in between)."""

    def __init__(self, seat: int, prevalent_wind: int) -> None:
        self.seat = seat
        self.fed = 0
        self.start: list[Event] = [SeatAssigned(seat, prevalent_wind)]

    def new(self, history: tuple[Event, ...]) -> list[Event]:
        out, self.start = self.start, []
        for event in history[self.fed:]:
            if isinstance(event, Dealt) and event.seat != self.seat:
                continue
            out.append(as_seen_by(event, self.seat))
        self.fed = len(history)
        return out


def taiwan_decision(player: ArenaSeat, feed: SeatFeed, table: TaiwanTable) -> Action:
    """``player``'s answer at ``table``, once it has observed what ``feed`` has new for it
    (a claim's discard is the view's own ask after the claim)."""
    for event in feed.new(table.history):
        player.observe(event)
    return player.decide()


def _play_taiwan(spec: GameSpec) -> PlayedGame:
    wall = spec.wall_tiles()
    seats = _seats(spec)
    table = TaiwanTable(wall, spec.prevalent_wind, spec.dealer, wall_mode=spec.wall_mode)
    feeds = [SeatFeed(s, spec.prevalent_wind) for s in range(SEATS)]
    decisions: list[DecisionRecord] = []
    replaced = [0] * SEATS
    failures: list[SeatFailure] = []
    guards = [SeatGuard(s, spec.labels[s], seats[s], failures) for s in range(SEATS)]
    while not table.finished:
        answers: dict[int, Action] = {}
        for s in table.asked_seats:
            player = seats[s]
            player.last = None
            action = guards[s].answer(
                lambda: taiwan_decision(player, feeds[s], table),  # noqa: B023
                lambda: table.default_action(s))  # noqa: B023
            if action not in table.legal_actions(s):
                replaced[s] += 1
                action = table.default_action(s)
            answers[s] = action
            if spec.record and player.last is not None:
                decisions.append(player.last.at(s, spec.labels[s]))
        table.respond(answers)
    return finish_taiwan(spec, wall, table, decisions, replaced, failures)


def finish_taiwan(spec: GameSpec, wall: tuple[int, ...], table: TaiwanTable,
                  decisions: list[DecisionRecord], replaced: list[int],
                  failures: list[SeatFailure] | None = None) -> PlayedGame:
    result = table.result
    assert result is not None
    history = table.history
    steals, draws = _counts(history)
    rounds = draw_rounds(history, claims_take_rounds=True)
    consistency = consistent_draws(single_wall_references(wall, spec.dealer), rounds)
    sdw = table.stable_wall
    record = None
    if spec.record:
        header = RecordHeader(
            HeaderLayout.ARENA_TAIWAN, rules=spec.rules.ruleset, seed=spec.seed,
            walltiles=wall, wall_index=spec.wall, seating=spec.seating,
            wall_mode=spec.wall_mode, dealer=spec.dealer, prevalent_wind=spec.prevalent_wind,
            seats=spec.labels, players=spec.players)
        record = tuple(record_lines(header, history, decisions, result))
    return PlayedGame(spec, outcome_of(spec.wall, spec.labels, result), _four(steals),
                      _four(draws), consistency,
                      reshuffles=sdw.reshuffles if sdw is not None else (),
                      replaced=_four(replaced), record=record,
                      failures=tuple(failures or ()), penalty=penalty_of(result))


__all__ = ["GameSpec", "PlayedGame", "Rules", "SeatFailure", "SeatFeed", "SeatGuard",
           "penalty_of", "play_in_process", "taiwan_decision"]
