"""What happens at a table, what a seat may answer, and how a game ends.

Protocol-neutral: no wire text here (codecs live in ``protocols``), so the
same types serve Botzone's Chinese Standard Mahjong and the Taiwanese table.
Seats are absolute (0-3), tiles are indices (``game.tiles``).

- *Events* are what happened, as one seat is allowed to see it: a tile another
  seat drew, or the tile of another seat's concealed kong, is ``None``.
- *Actions* are a seat's answers.  ``InvalidAction`` is an answer the program
  could not read (it names what was wrong); ``PlatformFault`` is a platform
  verdict other than OK (time limit, crash).  A referee penalises both when it
  has to look at them.
- The *outcome* of a game: ``Won``, ``WallExhausted`` or ``Penalized``, with
  the scores, in ``GameResult``.
"""

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum
from typing import ClassVar, Union

from game.melds import chow_tiles
from game.tiles import NUM_INDICES, NUM_KINDS, tile_name
from game.turn_order import check_seat as _seat


def _tile(tile: int, what: str) -> None:
    if not 0 <= tile < NUM_INDICES:
        raise ValueError(f"{what}: tile index {tile} is outside 0-{NUM_INDICES - 1}")


def _wind(wind: int, what: str) -> None:
    if not 0 <= wind < 4:
        raise ValueError(f"{what}: wind {wind} is outside 0-3 (E S W N)")


# ---------------------------------------------------------------- events
class ActionKind(Enum):
    PASS = "pass"
    WIN = "win"
    DISCARD = "discard"
    CHOW = "chow"
    PUNG = "pung"
    KONG = "kong"
    CONCEALED_KONG = "concealed kong"
    ADDED_KONG = "added kong"


@dataclass(frozen=True)
class SeatAssigned:
    """The game starts: ``seat`` is the receiver's seat; the prevalent wind is 0-3."""

    seat: int
    prevalent_wind: int

    def __post_init__(self) -> None:
        _seat(self.seat, "seat assignment")
        _wind(self.prevalent_wind, "prevalent wind")


@dataclass(frozen=True)
class Dealt:
    """``seat`` receives its starting hand (in the order dealt), and everyone's flowers."""

    seat: int
    tiles: "tuple[int, ...]"
    flower_counts: "tuple[int, int, int, int]" = (0, 0, 0, 0)
    flowers: "tuple[int, ...]" = ()

    def __post_init__(self) -> None:
        _seat(self.seat, "deal")
        for t in self.tiles:
            if not 0 <= t < NUM_KINDS:
                raise ValueError(f"deal: tile index {t} cannot be in a hand")
        if sum(self.flower_counts) != len(self.flowers):
            raise ValueError(
                f"deal: flower counts {self.flower_counts} do not add up to "
                f"{len(self.flowers)} flowers"
            )


@dataclass(frozen=True)
class Drew:
    """``seat`` drew ``tile`` (``None`` when the viewer may not see it).

    ``replacement``: the tile came from the back of a single wall, after a
    flower or a kong (taiwan-16); Botzone's per-seat walls leave it False.
    """

    seat: int
    tile: "int | None"
    replacement: bool = False

    def __post_init__(self) -> None:
        _seat(self.seat, "draw")
        if self.tile is not None:
            _tile(self.tile, "draw")


@dataclass(frozen=True)
class FlowerReplaced:
    """``seat`` set ``flower`` aside and will draw a replacement."""

    seat: int
    flower: int

    def __post_init__(self) -> None:
        _seat(self.seat, "flower")
        if not NUM_KINDS <= self.flower < NUM_INDICES:
            raise ValueError(f"flower: tile index {self.flower} is not a flower")


@dataclass(frozen=True)
class Discarded:
    seat: int
    tile: int

    def __post_init__(self) -> None:
        _seat(self.seat, "discard")
        _tile(self.tile, "discard")


@dataclass(frozen=True)
class Chowed:
    """``seat`` chowed the last discard (``claimed``) around ``middle``, then discarded."""

    seat: int
    middle: int
    claimed: int
    discard: int

    def __post_init__(self) -> None:
        _seat(self.seat, "chow")
        for t in (self.middle, self.claimed, self.discard):
            _tile(t, "chow")


@dataclass(frozen=True)
class Punged:
    """``seat`` punged the last discard (``tile``), then discarded ``discard``."""

    seat: int
    tile: int
    discard: int

    def __post_init__(self) -> None:
        _seat(self.seat, "pung")
        _tile(self.tile, "pung")
        _tile(self.discard, "pung")


@dataclass(frozen=True)
class Konged:
    """``seat`` made an exposed kong with the last discard (``tile``); a replacement follows."""

    seat: int
    tile: int

    def __post_init__(self) -> None:
        _seat(self.seat, "kong")
        _tile(self.tile, "kong")


@dataclass(frozen=True)
class ConcealedKonged:
    """``seat`` declared a concealed kong of ``tile`` (``None`` when hidden from the viewer)."""

    seat: int
    tile: "int | None"

    def __post_init__(self) -> None:
        _seat(self.seat, "concealed kong")
        if self.tile is not None:
            _tile(self.tile, "concealed kong")


@dataclass(frozen=True)
class KongAdded:
    """``seat`` added ``tile`` to its pung; other seats may rob it."""

    seat: int
    tile: int

    def __post_init__(self) -> None:
        _seat(self.seat, "added kong")
        _tile(self.tile, "added kong")


@dataclass(frozen=True)
class Melded:
    """``seat`` claimed ``from_seat``'s discard ``claimed`` into a chow or pung ``tiles``.

    The Olympiad flow (taiwan-16): unlike Botzone's ``Punged``/``Chowed`` the
    claimer's discard is asked for and shown as a separate ``Discarded``.
    """

    seat: int
    kind: "ActionKind"
    tiles: "tuple[int, int, int]"
    claimed: int
    from_seat: int

    def __post_init__(self) -> None:
        _seat(self.seat, "meld")
        _seat(self.from_seat, "meld")
        if self.kind not in (ActionKind.CHOW, ActionKind.PUNG):
            raise ValueError(f"meld: kind {self.kind.value!r} is not chow or pung")
        for t in (*self.tiles, self.claimed):
            if not 0 <= t < NUM_KINDS:
                raise ValueError(f"meld: tile index {t} cannot be in a meld")
        if self.claimed not in self.tiles:
            raise ValueError(f"meld: claimed tile {self.claimed} is not among {self.tiles}")

    @property
    def from_hand(self) -> "list[int]":
        """The tiles the claim took out of its owner's hand."""
        tiles = list(self.tiles)
        tiles.remove(self.claimed)
        return tiles

    def with_discard(self, discard: int) -> "Punged | Chowed":
        """This claim and the discard that followed it, as one Botzone-shaped event."""
        if self.kind is ActionKind.PUNG:
            return Punged(self.seat, self.claimed, discard)
        return Chowed(self.seat, sorted(self.tiles)[1], self.claimed, discard)


Event = Union[
    SeatAssigned,
    Dealt,
    Drew,
    FlowerReplaced,
    Discarded,
    Chowed,
    Punged,
    Konged,
    ConcealedKonged,
    KongAdded,
    Melded,
]


def as_seen_by(event: "Event", viewer: int) -> "Event":
    """``event`` as ``viewer`` is shown it: another seat's drawn tile and concealed kong hidden.

    A hidden draw keeps its ``replacement`` flag: on a single wall it is public
    (the tile comes from the back); Botzone's per-seat walls never set it.
    """
    if isinstance(event, Drew) and event.seat != viewer:
        return Drew(event.seat, None, event.replacement)
    if isinstance(event, ConcealedKonged) and event.seat != viewer:
        return ConcealedKonged(event.seat, None)
    return event


def history_seen_by(history: "Iterable[Event]", seat: int,
                    prevalent_wind: int) -> "tuple[Event, ...]":
    """A table's whole history as ``seat`` was shown it: its seat and wind first, its own
    deal only, others' draws and concealed kongs hidden."""
    _seat(seat, "viewer")
    seen = tuple(as_seen_by(e, seat) for e in history
                 if not (isinstance(e, Dealt) and e.seat != seat))
    return (SeatAssigned(seat, prevalent_wind), *seen)


# ---------------------------------------------------------------- actions
# Each action names itself for people with ``notation()``: a claim by its meld
# (``chow 1m2m3m``), and the discard after it separately (``, then discard 3z``).
# ``claimed`` is the discard the answer is about, where the caller knows it: a pung
# or a kong does not name its tile itself.
def meld_notation(tiles: "Iterable[int]") -> str:
    """A meld's tiles in compact notation, one after another (``1m2m3m``)."""
    return "".join(tile_name(t) for t in tiles)


def _then(discard: int) -> str:
    return f", then discard {tile_name(discard)}"


@dataclass(frozen=True)
class Pass:
    kind: "ClassVar[ActionKind]" = ActionKind.PASS

    def notation(self, claimed: "int | None" = None) -> str:
        return "pass"


@dataclass(frozen=True)
class DeclareWin:
    """Win on the tile just drawn, the last discard, or the tile of an added kong."""

    kind: "ClassVar[ActionKind]" = ActionKind.WIN

    def notation(self, claimed: "int | None" = None) -> str:
        return "win" if claimed is None else f"win on {tile_name(claimed)}"


@dataclass(frozen=True)
class Discard:
    tile: int
    kind: "ClassVar[ActionKind]" = ActionKind.DISCARD

    def __post_init__(self) -> None:
        _tile(self.tile, "discard")

    def notation(self, claimed: "int | None" = None) -> str:
        return f"discard {tile_name(self.tile)}"


@dataclass(frozen=True)
class ClaimChow:
    """Chow the last discard into the chow around ``middle``."""

    middle: int
    kind: "ClassVar[ActionKind]" = ActionKind.CHOW

    def __post_init__(self) -> None:
        _tile(self.middle, "chow")

    @property
    def meld(self) -> "tuple[int, int, int]":
        return chow_tiles(self.middle)

    def notation(self, claimed: "int | None" = None) -> str:
        return f"chow {meld_notation(self.meld)}"


@dataclass(frozen=True)
class ClaimPung:
    """Pung the last discard with two of it from the hand."""

    kind: "ClassVar[ActionKind]" = ActionKind.PUNG

    def notation(self, claimed: "int | None" = None) -> str:
        return "pung" if claimed is None else f"pung {meld_notation((claimed,) * 3)}"


@dataclass(frozen=True)
class ClaimAndDiscard:
    """A chow or pung and the discard after it, as one answer: the form a table takes
    where the claim names its discard (Botzone's ``PENG T`` and ``CHI M T``;
    :attr:`game.rules.Ruleset.discard_with_claim`).  Where it does not (the Olympiad flow,
    taiwan-16), the table takes the claim alone and asks for the discard next."""

    claim: "ClaimPung | ClaimChow"
    discard: int

    def __post_init__(self) -> None:
        _tile(self.discard, self.claim.kind.value)

    @property
    def kind(self) -> "ActionKind":
        return self.claim.kind

    def fields(self) -> "dict[str, int]":
        """The claim's fields and the discard, by name (a record's form: ``chow middle=2m
        discard=3z``, as Botzone-shaped claims were always written)."""
        return {**vars(self.claim), "discard": self.discard}

    def notation(self, claimed: "int | None" = None) -> str:
        return f"{self.claim.notation(claimed)}{_then(self.discard)}"


@dataclass(frozen=True)
class ClaimKong:
    """Kong the last discard with three of it from the hand."""

    kind: "ClassVar[ActionKind]" = ActionKind.KONG

    def notation(self, claimed: "int | None" = None) -> str:
        return "kong" if claimed is None else f"kong {meld_notation((claimed,) * 4)}"


@dataclass(frozen=True)
class DeclareConcealedKong:
    tile: int
    kind: "ClassVar[ActionKind]" = ActionKind.CONCEALED_KONG

    def __post_init__(self) -> None:
        _tile(self.tile, "concealed kong")

    def notation(self, claimed: "int | None" = None) -> str:
        return f"concealed kong {meld_notation((self.tile,) * 4)}"


@dataclass(frozen=True)
class DeclareAddedKong:
    """Add ``tile`` to the pung of it."""

    tile: int
    kind: "ClassVar[ActionKind]" = ActionKind.ADDED_KONG

    def __post_init__(self) -> None:
        _tile(self.tile, "added kong")

    def notation(self, claimed: "int | None" = None) -> str:
        return f"added kong {meld_notation((self.tile,) * 4)}"


Action = Union[
    Pass,
    DeclareWin,
    Discard,
    ClaimChow,
    ClaimPung,
    ClaimAndDiscard,
    ClaimKong,
    DeclareConcealedKong,
    DeclareAddedKong,
]


def claim_of(action: "Action") -> "Action":
    """The claim an answer makes: a :class:`ClaimAndDiscard`'s claim, else the answer."""
    return action.claim if isinstance(action, ClaimAndDiscard) else action


@dataclass(frozen=True)
class InvalidAction:
    """An answer that could not be read.

    ``attempted`` is the action it was shaped like (the right verb and number
    of arguments, but e.g. an unknown tile), or ``None``.  A referee treats an
    attempted claim as a claim that fails.
    """

    text: str
    reason: str
    attempted: "ActionKind | None" = None


@dataclass(frozen=True)
class PlatformFault:
    """The platform's verdict on a seat's answer was not OK (``"TLE"``, ``"RE"``, ...)."""

    verdict: str


Response = Union[Action, InvalidAction, PlatformFault]


# ---------------------------------------------------------------- outcomes
@dataclass(frozen=True)
class FanItem:
    """One scoring element: ``count`` times ``name`` at ``value`` fan each."""

    name: str
    value: int
    count: int = 1
    english_name: str = ""

    @property
    def total(self) -> int:
        return self.value * self.count


@dataclass(frozen=True)
class Won:
    """``seat`` won on ``tile``; ``payer`` is the discarder (or the robbed konger)."""

    seat: int
    tile: int
    self_drawn: bool
    robbed_kong: bool
    payer: "int | None"
    fans: "tuple[FanItem, ...]"

    @property
    def fan_total(self) -> int:
        return sum(f.total for f in self.fans)


@dataclass(frozen=True)
class WallExhausted:
    """Nobody won before the wall ran out: a draw game."""


@dataclass(frozen=True)
class Penalized:
    """``seat`` made a wrong action: ``reason`` is ``"WA"``, ``"WH"`` or a platform verdict."""

    seat: int
    reason: str
    detail: str = ""


Ending = Union[Won, WallExhausted, Penalized]


@dataclass(frozen=True)
class GameResult:
    ending: "Ending"
    scores: "tuple[int, int, int, int]"
