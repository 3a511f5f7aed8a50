"""The viewer's model: a game as a list of steps, each the whole table after one event.

:class:`TableTracker` rebuilds the table from a full history (every tile shown, as
a referee saw it: ``BotzoneTable.history``, ``TaiwanTable.history`` or a game
record's events): the four concealed hands and the tile just drawn, the
discards in order with the ones claimed marked, the melds with the seat each
claimed tile came from, the flowers and the tiles left in the wall(s).

Everything here is a frozen value built from ``game`` types only; the readers
of files live in :mod:`arena.review.viewer.sources`, the decisions are attached in
:mod:`arena.review.viewer.build`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

from game.events import (
    ActionKind,
    Chowed,
    ConcealedKonged,
    Dealt,
    Discarded,
    Drew,
    Event,
    FanItem,
    FlowerReplaced,
    GameResult,
    KongAdded,
    Konged,
    Melded,
    Penalized,
    Punged,
    SeatAssigned,
    WallExhausted,
    Won,
)
from game.melds import chow_tiles
from game.rules import PER_SEAT_WALL, Family, Ruleset, WallLayout
from game.tiles import is_flower, tile_name
from game.turn_order import SEATS

WINDS = ("E", "S", "W", "N")


class ViewerError(ValueError):
    """A history the tracker cannot follow; the message names the event."""


# ---------------------------------------------------------------- table state
@dataclass(frozen=True)
class RiverTile:
    """One discard; ``claimed_by`` is the seat that took it (a meld or the win), if any."""

    tile: int
    claimed_by: int | None = None


@dataclass(frozen=True)
class MeldView:
    """A declared meld: ``kind`` is chow, pung, kong, concealed kong or added kong.

    ``claimed`` is the tile taken from ``from_seat``'s discards (``None`` for a
    concealed kong)."""

    kind: str
    tiles: tuple[int, ...]
    claimed: int | None = None
    from_seat: int | None = None


@dataclass(frozen=True)
class SeatState:
    """One seat at one step: ``hand`` is concealed and sorted, ``drawn`` the tile just drawn."""

    hand: tuple[int, ...]
    drawn: int | None
    melds: tuple[MeldView, ...]
    river: tuple[RiverTile, ...]
    flowers: tuple[int, ...]


# ---------------------------------------------------------------- decisions
@dataclass(frozen=True)
class CandidateRow:
    """One option the agent weighed: ``label`` (``discard 5m``), its numbers by name, a note."""

    label: str
    numbers: tuple[tuple[str, str], ...]
    note: str = ""


@dataclass(frozen=True)
class DecisionView:
    """What an agent answered at one decision and why: the chosen row is ``chosen``
    (an index into ``candidates``, or ``None`` when no row matches the action)."""

    action: str
    method: str
    candidates: tuple[CandidateRow, ...]
    chosen: int | None
    note: str = ""
    words: str = ""
    """The action for people (``chow 1m2m3m, then discard 3z``); ``action`` is the
    record's compact text, which the alignment compares."""


@dataclass(frozen=True)
class SeatDecision:
    """A seat's decision at a step: what it answered (``describe_action`` text), the
    recorded reasons (a record of mjbot's), the re-asked player's answer (``--reask``);
    ``played_row`` is the row of today's candidates that the answer matches, if any."""

    seat: int
    played: str
    recorded: DecisionView | None = None
    today: DecisionView | None = None
    disagrees: bool = False
    played_row: int | None = None
    lost: bool = False
    """The seat's claim lost to another seat's (the table shows it passing)."""
    played_words: str = ""
    """``played`` for people (a claim by its meld, the discard after it)."""


# ---------------------------------------------------------------- steps and games
@dataclass(frozen=True)
class Step:
    """The table after one event (``event`` says what happened, ``actor`` who did it)."""

    index: int
    event: str
    actor: int | None
    seats: tuple[SeatState, SeatState, SeatState, SeatState]
    wall: tuple[int, ...]
    """Tiles left to draw: one per seat (Botzone's per-seat walls) or one shared number."""
    decisions: tuple[SeatDecision, ...] = ()


@dataclass(frozen=True)
class FanLine:
    name: str
    english_name: str
    value: int
    count: int


@dataclass(frozen=True)
class Ending:
    """How the game ended: ``kind`` is ``Won``, ``WallExhausted`` or ``Penalized``."""

    kind: str
    scores: tuple[int, int, int, int]
    winner: int | None = None
    tile: int | None = None
    self_drawn: bool = False
    robbed_kong: bool = False
    payer: int | None = None
    fans: tuple[FanLine, ...] = ()
    fan_total: int = 0
    penalized: int | None = None
    detail: str = ""


@dataclass(frozen=True)
class GameView:
    title: str
    source: str
    rules: str
    prevalent_wind: int
    dealer: int
    names: tuple[str, str, str, str]
    steps: tuple[Step, ...]
    ending: Ending | None
    scores_before: tuple[int, int, int, int] = (0, 0, 0, 0)
    """The match's running totals before this game."""
    reasked: tuple[int, ...] = ()
    """Seats whose decisions were asked again (their own player, else the shipped bot)."""
    notes: tuple[str, ...] = ()

    @property
    def seat_winds(self) -> tuple[int, ...]:
        return tuple((s - self.dealer) % SEATS for s in range(SEATS))

    def disagreements(self) -> list[tuple[int, int]]:
        """``(step, seat)`` of every decision where the re-asked player plays otherwise."""
        return [(s.index, d.seat) for s in self.steps for d in s.decisions if d.disagrees]


@dataclass(frozen=True)
class MatchView:
    title: str
    games: tuple[GameView, ...]

    def running_scores(self) -> list[tuple[int, int, int, int]]:
        """Each seat's total after each game, starting from zero."""
        totals = [(0, 0, 0, 0)]
        for g in self.games:
            scores = g.ending.scores if g.ending is not None else (0, 0, 0, 0)
            last = totals[-1]
            totals.append((last[0] + scores[0], last[1] + scores[1], last[2] + scores[2],
                           last[3] + scores[3]))
        return totals


# ---------------------------------------------------------------- the tracker
@dataclass
class _Seat:
    hand: list[int] = field(default_factory=list)
    drawn: int | None = None
    melds: list[MeldView] = field(default_factory=list)
    river: list[RiverTile] = field(default_factory=list)
    flowers: list[int] = field(default_factory=list)

    def freeze(self) -> SeatState:
        return SeatState(tuple(sorted(self.hand)), self.drawn, tuple(self.melds),
                         tuple(self.river), tuple(self.flowers))

    def settle(self) -> None:
        """The drawn tile joins the hand (before a discard or a kong)."""
        if self.drawn is not None:
            self.hand.append(self.drawn)
            self.drawn = None

    def take(self, tiles: Iterable[int], what: str) -> None:
        self.settle()
        for t in tiles:
            if t not in self.hand:
                raise ViewerError(f"{what}: {tile_name(t)} is not in the hand "
                                  f"{' '.join(tile_name(x) for x in sorted(self.hand))}")
            self.hand.remove(t)


def _name(tile: int | None) -> str:
    return "?" if tile is None else tile_name(tile)


class TableTracker:
    """The whole table, event by event (events must show every tile)."""

    def __init__(self, rules: Ruleset) -> None:
        self.rules = rules
        self.seats = [_Seat() for _ in range(SEATS)]
        self.wall: list[int] = ([PER_SEAT_WALL - rules.hand_size] * SEATS
                                if rules.wall_layout is WallLayout.PER_SEAT else [0])
        self._dealt_flowers = False
        self._last_discard: tuple[int, int] | None = None
        """(seat, index in its river) of the discard others may claim."""

    def snapshot(self) -> tuple[SeatState, SeatState, SeatState, SeatState]:
        a, b, c, d = (s.freeze() for s in self.seats)
        return (a, b, c, d)

    def apply(self, event: Event) -> str:
        """Apply one event; returns what happened in words."""
        if isinstance(event, SeatAssigned):
            wind = WINDS[event.prevalent_wind]
            return f"seat {event.seat} takes its place, prevalent wind {wind}"
        if isinstance(event, Dealt):
            return self._deal(event)
        if isinstance(event, Drew):
            return self._draw(event)
        seat = self.seats[event.seat]
        if isinstance(event, FlowerReplaced):
            if seat.drawn == event.flower:
                seat.drawn = None
            elif event.flower in seat.hand:
                seat.hand.remove(event.flower)
            seat.flowers.append(event.flower)
            return f"seat {event.seat} sets aside flower {_name(event.flower)}"
        if isinstance(event, Discarded):
            self._discard(event.seat, event.tile)
            return f"seat {event.seat} discards {_name(event.tile)}"
        if isinstance(event, Punged):
            src = self._claim(event.seat, "pung", event.tile)
            seat.take([event.tile] * 2, "pung")
            seat.melds.append(MeldView("pung", (event.tile,) * 3, event.tile, src))
            self._discard(event.seat, event.discard)
            return (f"seat {event.seat} pungs {_name(event.tile)} from seat {src}, "
                    f"discards {_name(event.discard)}")
        if isinstance(event, Chowed):
            src = self._claim(event.seat, "chow", event.claimed)
            chow = chow_tiles(event.middle)
            seat.take([t for t in chow if t != event.claimed], "chow")
            seat.melds.append(MeldView("chow", chow, event.claimed, src))
            self._discard(event.seat, event.discard)
            return (f"seat {event.seat} chows {_name(event.claimed)} from seat {src} into "
                    f"{' '.join(_name(t) for t in chow)}, discards {_name(event.discard)}")
        if isinstance(event, Melded):
            src = self._claim(event.seat, event.kind.value, event.claimed, event.from_seat)
            seat.take(event.from_hand, event.kind.value)
            kind = "pung" if event.kind is ActionKind.PUNG else "chow"
            seat.melds.append(MeldView(kind, tuple(sorted(event.tiles)), event.claimed, src))
            return f"seat {event.seat} {kind}s {_name(event.claimed)} from seat {src}"
        if isinstance(event, Konged):
            src = self._claim(event.seat, "kong", event.tile)
            seat.take([event.tile] * 3, "kong")
            seat.melds.append(MeldView("kong", (event.tile,) * 4, event.tile, src))
            return f"seat {event.seat} kongs {_name(event.tile)} from seat {src}"
        if isinstance(event, ConcealedKonged):
            if event.tile is None:
                raise ViewerError(f"seat {event.seat}'s concealed kong hides its tile: "
                                  "the viewer needs a history with every tile shown")
            seat.take([event.tile] * 4, "concealed kong")
            seat.melds.append(MeldView("concealed kong", (event.tile,) * 4))
            return f"seat {event.seat} declares a concealed kong of {_name(event.tile)}"
        if isinstance(event, KongAdded):
            seat.take([event.tile], "added kong")
            for i, m in enumerate(seat.melds):
                if m.kind == "pung" and m.tiles[0] == event.tile:
                    seat.melds[i] = replace(m, kind="added kong", tiles=(event.tile,) * 4)
                    break
            else:
                raise ViewerError(f"seat {event.seat} adds {_name(event.tile)} to no pung")
            self._last_discard = None
            return f"seat {event.seat} adds {_name(event.tile)} to its pung"
        raise ViewerError(f"unknown event {event!r}")

    def _deal(self, event: Dealt) -> str:
        seat = self.seats[event.seat]
        seat.hand = list(event.tiles)
        if not self._dealt_flowers:
            # every Dealt carries the whole table's deal flowers, in seat order
            it = iter(event.flowers)
            for s, n in enumerate(event.flower_counts):
                self.seats[s].flowers = [next(it) for _ in range(n)]
            self._dealt_flowers = True
            if self.rules.wall_layout is WallLayout.SINGLE:
                left = self.rules.wall_after_deal(len(event.flowers)) - self.rules.dead_wall
                self.wall = [max(0, left)]
        return f"seat {event.seat} is dealt {len(event.tiles)} tiles"

    def _draw(self, event: Drew) -> str:
        if event.tile is None:
            raise ViewerError(f"seat {event.seat}'s draw hides its tile: "
                              "the viewer needs a history with every tile shown")
        seat = self.seats[event.seat]
        seat.settle()
        seat.drawn = event.tile
        if self.rules.wall_layout is WallLayout.PER_SEAT:
            self.wall[event.seat] -= 1
        else:
            self.wall = [max(0, self.wall[0] - 1)]
        how = " a replacement" if event.replacement else ""
        what = "flower " if is_flower(event.tile) else ""
        return f"seat {event.seat} draws{how} {what}{_name(event.tile)}"

    def _discard(self, seat_no: int, tile: int) -> None:
        seat = self.seats[seat_no]
        seat.take([tile], "discard")
        seat.river.append(RiverTile(tile))
        self._last_discard = (seat_no, len(seat.river) - 1)

    def _claim(self, claimer: int, what: str, tile: int,
               from_seat: int | None = None) -> int:
        """Mark the last discard, ``tile``, as taken by ``claimer``; returns the discarder."""
        if self._last_discard is None:
            raise ViewerError(f"seat {claimer}'s {what} claims no discard")
        src, i = self._last_discard
        if from_seat is not None and from_seat != src:
            raise ViewerError(f"seat {claimer}'s {what} names seat {from_seat}, "
                              f"but seat {src} discarded last")
        river = self.seats[src].river
        if river[i].tile != tile:
            raise ViewerError(f"seat {claimer}'s {what} claims {_name(tile)} but the last "
                              f"discard is seat {src}'s {_name(river[i].tile)}")
        river[i] = replace(river[i], claimed_by=claimer)
        self._last_discard = None
        return src

    def finish(self, result: GameResult) -> str:
        """The end: a win on a discard takes it into the winner's hand (as its drawn tile);
        a robbed kong goes back to a pung."""
        ending = result.ending
        if isinstance(ending, Won):
            winner = self.seats[ending.seat]
            if ending.robbed_kong and ending.payer is not None:
                konger = self.seats[ending.payer]
                for i, m in enumerate(konger.melds):
                    if m.kind == "added kong" and m.tiles[0] == ending.tile:
                        konger.melds[i] = replace(m, kind="pung", tiles=(ending.tile,) * 3)
                winner.settle()
                winner.drawn = ending.tile
            elif not ending.self_drawn:
                if self._last_discard is not None:
                    self._claim(ending.seat, "win", ending.tile)
                winner.settle()
                winner.drawn = ending.tile
            how = ("self-drawn" if ending.self_drawn else "robbing the kong"
                   if ending.robbed_kong else f"on seat {ending.payer}'s discard")
            return f"seat {ending.seat} wins on {_name(ending.tile)} ({how}), {ending.fan_total}"
        if isinstance(ending, Penalized):
            return f"seat {ending.seat} is penalised ({ending.reason}) {ending.detail}".strip()
        return "the wall is exhausted: a draw game"


def ending_of(result: GameResult) -> Ending:
    e = result.ending
    if isinstance(e, Won):
        return Ending("Won", result.scores, winner=e.seat, tile=e.tile, self_drawn=e.self_drawn,
                      robbed_kong=e.robbed_kong, payer=e.payer, fans=_fan_lines(e.fans),
                      fan_total=e.fan_total)
    if isinstance(e, Penalized):
        return Ending("Penalized", result.scores, penalized=e.seat,
                      detail=f"{e.reason} {e.detail}".strip())
    assert isinstance(e, WallExhausted)
    return Ending("WallExhausted", result.scores)


def _fan_lines(fans: Sequence[FanItem]) -> tuple[FanLine, ...]:
    return tuple(FanLine(f.name, f.english_name, f.value, f.count) for f in fans)


def table_steps(rules: Ruleset, history: Sequence[Event],
                result: GameResult | None) -> tuple[list[Step], list[int]]:
    """One step after the deal, one per later event, one for the end (when there is a result).

    Returns the steps and, per event of ``history``, the step that shows it (the
    deal's events all map to step 0)."""
    tracker = TableTracker(rules)
    steps: list[Step] = []
    step_of: list[int] = []
    for k, event in enumerate(history):
        in_deal = not steps and isinstance(event, Dealt | SeatAssigned)
        if not steps and not in_deal:
            steps.append(Step(0, "the deal", None, tracker.snapshot(), tuple(tracker.wall)))
        try:
            text = tracker.apply(event)
        except ViewerError as exc:
            raise ViewerError(f"event {k + 1} ({type(event).__name__}): {exc}") from None
        if in_deal:
            step_of.append(0)
            continue
        actor = getattr(event, "seat", None)
        steps.append(Step(len(steps), text, actor, tracker.snapshot(), tuple(tracker.wall)))
        step_of.append(len(steps) - 1)
    if not steps:
        steps.append(Step(0, "the deal", None, tracker.snapshot(), tuple(tracker.wall)))
    if result is not None:
        text = tracker.finish(result)
        ending = result.ending
        if isinstance(ending, Won):
            text += " fan" if rules.family is Family.MCR else " tai"
        actor = ending.seat if isinstance(ending, Won | Penalized) else None
        steps.append(Step(len(steps), text, actor, tracker.snapshot(), tuple(tracker.wall)))
    return steps, step_of

