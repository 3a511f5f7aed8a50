"""The typed lines of a game record (:mod:`arena.records.files`): header, decisions, result.

Inside the code a record is these frozen dataclasses; JSON exists only in
``to_json``/``from_json``, which :func:`arena.records.files.write_record` and
:func:`arena.records.files.read_record` call.  ``to_json`` gives the objects each
writer has always written, key for key and in the same order, so records stay
byte-identical; ``from_json`` raises :class:`RecordError` naming the field
that cannot be read.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from enum import Enum
from typing import Any, TypeVar

from pydantic import ValidationError

from bot.agent import Decision, describe_action
from game import events as ev
from game.events import FanItem, GameResult, Penalized, WallExhausted, Won
from game.rules import RULESETS, Ruleset
from game.stable_wall import WallMode
from game.tiles import Notation, TileError, parse_tile, tile_name
from protocols.botzone_envelope import Interaction
from protocols.olympiad import MessageError, Option, tile_index
from strategy.deficiency.kernel import UNREACHABLE
from strategy.policy import Candidate
from strategy.tai import TaiOutlook
from strategy.value import Outlook, ValuedCandidate

JSON = dict[str, Any]
"""A JSON object as :mod:`json` reads and writes it (the edge of a record line)."""


class RecordError(ValueError):
    """A game record line that cannot be read; the message names the line and the field."""


# ---------------------------------------------------------------- field readers
def _int(data: Mapping[str, Any], key: str, low: int | None = None,
         high: int | None = None, what: str = "") -> int:
    value = data.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise RecordError(f"field {key!r}: expected a whole number, got {value!r}")
    if (low is not None and value < low) or (high is not None and value > high):
        raise RecordError(f"field {key!r}: {what or 'a number'} is {low}-{high}, got {value!r}")
    return value


def _opt_int(data: Mapping[str, Any], key: str, low: int | None = None,
             high: int | None = None, what: str = "") -> int | None:
    return None if data.get(key) is None else _int(data, key, low, high, what)


def _str(data: Mapping[str, Any], key: str) -> str:
    value = data.get(key)
    if not isinstance(value, str):
        raise RecordError(f"field {key!r}: expected text, got {value!r}")
    return value


def _opt_str(data: Mapping[str, Any], key: str) -> str | None:
    return None if data.get(key) is None else _str(data, key)


def _bool(data: Mapping[str, Any], key: str) -> bool:
    value = data.get(key)
    if not isinstance(value, bool):
        raise RecordError(f"field {key!r}: expected true or false, got {value!r}")
    return value


def _number(data: Mapping[str, Any], key: str) -> float:
    value = data.get(key)
    if not isinstance(value, int | float) or isinstance(value, bool):
        raise RecordError(f"field {key!r}: expected a number, got {value!r}")
    return value


def _list(data: Mapping[str, Any], key: str) -> list[Any]:
    value = data.get(key)
    if not isinstance(value, list):
        raise RecordError(f"field {key!r}: expected a list, got {value!r}")
    return value


def _strs(data: Mapping[str, Any], key: str) -> tuple[str, ...]:
    items = _list(data, key)
    for i, x in enumerate(items):
        if not isinstance(x, str):
            raise RecordError(f"field {key!r}: item {i}: expected text, got {x!r}")
    return tuple(items)


def _ints(data: Mapping[str, Any], key: str) -> tuple[int, ...]:
    items = _list(data, key)
    for i, x in enumerate(items):
        if not isinstance(x, int) or isinstance(x, bool):
            raise RecordError(f"field {key!r}: item {i}: expected a whole number, got {x!r}")
    return tuple(items)


def _tiles(data: Mapping[str, Any], key: str) -> tuple[int, ...]:
    """Tiles as indices, or as tile names (the Olympiad referee's header)."""
    items = _list(data, key)
    if all(isinstance(x, str) for x in items) and items:
        try:
            return tuple(tile_index(x) for x in items)
        except MessageError as exc:
            raise RecordError(f"field {key!r}: {exc}") from None
    return _ints(data, key)


def _unknown(data: Mapping[str, Any], known: Sequence[str], what: str) -> None:
    for key in data:
        if key not in known:
            raise RecordError(f"{what}: unknown field {key!r}")


E = TypeVar("E", bound=Enum)


def _enum(cls: type[E], data: Mapping[str, Any], key: str) -> E:
    value = data.get(key)
    try:
        return cls(value)
    except ValueError:
        raise RecordError(f"field {key!r}: expected one of {[k.value for k in cls]}, "
                          f"got {value!r}") from None


# ---------------------------------------------------------------- header
class HeaderLayout(Enum):
    """Which writer made a header, the tag of its ``layout`` field: each writer has its
    own fields (:data:`LAYOUT_FIELDS`)."""

    SELFPLAY = "selfplay"
    """``mjbot selfplay`` on mcr-botzone (:mod:`arena.tables.selfplay`)."""
    ARENA_MCR = "arena-mcr"
    """An arena game on mcr-botzone (:mod:`arena.tables.games`)."""
    ARENA_TAIWAN = "arena-taiwan"
    """An arena game on taiwan-16."""
    BOTZONE_JUDGE = "botzone-judge"
    """The Botzone judge mock (:mod:`arena.platforms.botzone_judge`)."""
    OLYMPIAD = "olympiad"
    """The Olympiad referee (:mod:`arena.platforms.olympiad.referee`)."""


LAYOUT_FIELDS: dict[HeaderLayout, tuple[str, ...]] = {
    HeaderLayout.SELFPLAY: ("rules", "seed", "game", "walltiles", "prevalent_wind", "seats"),
    HeaderLayout.ARENA_MCR: ("rules", "seed", "wall_index", "seating", "walltiles",
                             "prevalent_wind", "seats", "players"),
    HeaderLayout.ARENA_TAIWAN: ("rules", "seed", "wall_index", "seating", "walltiles",
                                "wall_mode", "dealer", "prevalent_wind", "seats", "players"),
    HeaderLayout.BOTZONE_JUDGE: ("rules", "seed", "game", "walltiles", "prevalent_wind",
                                 "interaction", "time_limit", "memory_limit", "judge_seats",
                                 "verdicts"),
    HeaderLayout.OLYMPIAD: ("rules", "table", "game", "seed", "salt", "commitment", "walltiles",
                            "dealer", "prevalent_wind", "seats", "decision_ms", "policy",
                            "wall_mode"),
}
"""Each layout's fields, in the order its header line writes them after ``layout``:
``wall_index`` is always the wall's number and ``walltiles`` always its tiles (as
indices); the judge's ``judge_seats`` are written as ``seats``."""
_JSON_KEY = {"judge_seats": "seats"}


# The headers written before the ``layout`` field: which writer wrote one is told by its
# keys' order, and ``wall`` was the wall's number (arena-mcr), its tiles (arena-taiwan)
# or its tiles by name (olympiad).  Read only.
_OLD_LAYOUT_KEYS: dict[HeaderLayout, tuple[str, ...]] = {
    HeaderLayout.SELFPLAY: ("rules", "seed", "game", "walltiles", "prevalent_wind", "seats"),
    HeaderLayout.ARENA_MCR: ("rules", "seed", "wall", "seating", "walltiles", "prevalent_wind",
                             "seats", "players"),
    HeaderLayout.ARENA_TAIWAN: ("rules", "seed", "wall", "wall_index", "seating", "wall_mode",
                                "dealer", "prevalent_wind", "seats", "players"),
    HeaderLayout.BOTZONE_JUDGE: ("rules", "referee", "seed", "game", "walltiles",
                                 "prevalent_wind", "interaction", "time_limit", "memory_limit",
                                 "seats", "verdicts"),
    HeaderLayout.OLYMPIAD: ("rules", "table", "game", "seed", "wall", "dealer", "prevalent_wind",
                            "seats", "decision_ms", "policy", "wall_mode"),
}
_ANY_ORDER = ("version", "rules", "referee", "table", "seed", "game", "wall", "wall_index",
              "seating", "walltiles", "wall_mode", "dealer", "prevalent_wind", "interaction",
              "time_limit", "memory_limit", "seats", "verdicts", "players", "decision_ms",
              "policy")
"""The fields an old header may hold."""
BOTZONE_REFEREE = "botzone"


@dataclass(frozen=True)
class SeatReport:
    """One seat of a Botzone judge game: its program, verdict and time (the judge's header
    keeps the four)."""

    seat: int
    command: str
    verdict: str
    detail: str
    turns: int
    max_seconds: float
    total_seconds: float
    kept_running: bool

    def to_json(self) -> JSON:
        return {"seat": self.seat, "command": self.command, "verdict": self.verdict,
                "detail": self.detail, "turns": self.turns,
                "max_seconds": round(self.max_seconds, 4),
                "total_seconds": round(self.total_seconds, 4),
                "kept_running": self.kept_running}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SeatReport:
        _unknown(data, [f.name for f in fields(cls)], "a judge seat")
        return cls(_int(data, "seat", 0, 3, "a seat"), _str(data, "command"),
                   _str(data, "verdict"), _str(data, "detail"), _int(data, "turns"),
                   _number(data, "max_seconds"), _number(data, "total_seconds"),
                   _bool(data, "kept_running"))


@dataclass(frozen=True)
class RecordHeader:
    """A record's first line: the rule set, the wall, the seats and how they were played.

    A tagged union: ``layout`` says which writer's header it is, and the fields of other
    layouts are ``None`` (:data:`LAYOUT_FIELDS`).  ``layout`` is ``None`` only for a
    header read from an old file (no ``layout`` field) whose keys match no writer's: it
    keeps the fields it had.
    """

    layout: HeaderLayout | None
    rules: Ruleset | None = None
    seed: int | None = None
    game: int | None = None
    wall_index: int | None = None
    """The wall's number (arena games)."""
    seating: int | None = None
    walltiles: tuple[int, ...] | None = None
    wall_mode: WallMode | None = None
    dealer: int | None = None
    prevalent_wind: int | None = None
    seats: tuple[str, ...] | None = None
    """The seats' names (players, programs or Olympiad seat names)."""
    judge_seats: tuple[SeatReport, ...] | None = None
    """The Botzone judge's seats (its header's ``seats``)."""
    players: tuple[str, ...] | None = None
    verdicts: tuple[str, ...] | None = None
    interaction: Interaction | None = None
    time_limit: float | None = None
    memory_limit: int | None = None
    table: str | None = None
    decision_ms: int | None = None
    policy: str | None = None
    commitment: str | None = None
    """The Olympiad table's wall commitment (:mod:`arena.platforms.olympiad.walls`); its ``seed`` and
    ``salt`` are None until the table's last game has ended."""
    salt: str | None = None
    version: str | None = None
    """The program that wrote the record (set when read; the writer adds its own)."""

    def __post_init__(self) -> None:
        if self.layout is None:
            return
        mine = LAYOUT_FIELDS[self.layout]
        for f in fields(self):
            if f.name not in (*mine, "layout", "version") and getattr(self, f.name) is not None:
                raise ValueError(f"a {self.layout.value} header has no field {f.name!r}")

    @property
    def names(self) -> tuple[str, str, str, str]:
        """The seats' names for display (``seat N`` where the header has none)."""
        names = [f"seat {s}" for s in range(4)]
        if self.judge_seats is not None and len(self.judge_seats) == 4:
            names = [s.command or names[i] for i, s in enumerate(self.judge_seats)]
        elif self.seats is not None and len(self.seats) == 4:
            names = list(self.seats)
        return (names[0], names[1], names[2], names[3])

    def _json_value(self, name: str) -> object:
        value = getattr(self, name)
        if name == "judge_seats" and value is not None:
            return [s.to_json() for s in value]
        if isinstance(value, Ruleset):
            return value.name
        if isinstance(value, Enum):
            return value.value
        if isinstance(value, tuple):
            return list(value)
        return value

    def to_json(self) -> JSON:
        """The header's fields after its ``layout`` tag (the writer puts ``record`` and
        ``version`` before them)."""
        if self.layout is None:  # an old header of no known layout: the fields it had
            return {_JSON_KEY.get(f.name, f.name): self._json_value(f.name)
                    for f in fields(self) if f.name not in ("layout", "version")
                    and getattr(self, f.name) is not None}
        return {"layout": self.layout.value,
                **{_JSON_KEY.get(name, name): self._json_value(name)
                   for name in LAYOUT_FIELDS[self.layout]}}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RecordHeader:
        """A header line: by its ``layout`` tag, or (written before it) by its keys."""
        if "layout" not in data:
            return cls._from_old_json(data)
        layout = _enum(HeaderLayout, data, "layout")
        names = LAYOUT_FIELDS[layout]
        _unknown(data, ["layout", "version", *(_JSON_KEY.get(n, n) for n in names)],
                 f"a {layout.value} header")
        read = cls._fields_json(data)
        return cls(layout=layout, version=_opt_str(data, "version"),
                   **{n: read[n] for n in names})

    @classmethod
    def _fields_json(cls, data: Mapping[str, Any]) -> dict[str, Any]:
        """Every field a header line may hold, read (``None`` where it has none)."""
        rules = None
        if data.get("rules") is not None:
            name = data["rules"]
            if not isinstance(name, str) or name not in RULESETS:
                raise RecordError(f"field 'rules': unknown rule set {name!r}; "
                                  f"known: {', '.join(sorted(RULESETS))}")
            rules = RULESETS[name]
        wind = data.get("prevalent_wind")
        if wind is not None and (not isinstance(wind, int) or isinstance(wind, bool)
                                 or not 0 <= wind < 4):
            raise RecordError(f"field 'prevalent_wind': a wind is 0-3, got {wind!r}")
        seats: tuple[str, ...] | None = None
        judge_seats: tuple[SeatReport, ...] | None = None
        raw_seats = data.get("seats")
        if isinstance(raw_seats, list) and raw_seats and all(isinstance(s, dict)
                                                             for s in raw_seats):
            try:
                judge_seats = tuple(SeatReport.from_json(s) for s in raw_seats)
            except RecordError as exc:
                raise RecordError(f"field 'seats': {exc}") from None
        elif raw_seats is not None:
            seats = _strs(data, "seats")
        return dict(
            rules=rules, seed=_opt_int(data, "seed"), game=_opt_int(data, "game"),
            wall_index=_opt_int(data, "wall_index"), seating=_opt_int(data, "seating"),
            walltiles=_tiles(data, "walltiles") if data.get("walltiles") is not None
            else None,
            wall_mode=_enum(WallMode, data, "wall_mode")
            if data.get("wall_mode") is not None else None,
            dealer=_opt_int(data, "dealer", 0, 3, "a seat"), prevalent_wind=wind,
            seats=seats, judge_seats=judge_seats,
            players=_strs(data, "players") if data.get("players") is not None else None,
            verdicts=_strs(data, "verdicts") if data.get("verdicts") is not None else None,
            interaction=_enum(Interaction, data, "interaction")
            if data.get("interaction") is not None else None,
            time_limit=_number(data, "time_limit") if data.get("time_limit") is not None
            else None,
            memory_limit=_opt_int(data, "memory_limit"), table=_opt_str(data, "table"),
            decision_ms=_opt_int(data, "decision_ms"), policy=_opt_str(data, "policy"),
            commitment=_opt_str(data, "commitment"), salt=_opt_str(data, "salt"))

    @classmethod
    def _from_old_json(cls, data: Mapping[str, Any]) -> RecordHeader:
        """A header written before the ``layout`` field: its writer told by its keys' order,
        its ``wall`` by its layout."""
        _unknown(data, _ANY_ORDER, "header")
        keys = [k for k in data if k != "version"]
        layout = next((lay for lay, ks in _OLD_LAYOUT_KEYS.items() if tuple(keys) == ks), None)
        if layout is HeaderLayout.BOTZONE_JUDGE and data.get("referee") != BOTZONE_REFEREE:
            layout = None
        read = cls._fields_json({k: v for k, v in data.items() if k != "wall"})
        wall = data.get("wall")
        if isinstance(wall, list):
            read["walltiles"] = _tiles(data, "wall")
        elif wall is not None:
            read["wall_index"] = _int(data, "wall")
        return cls(layout=layout, version=_opt_str(data, "version"), **read)


# ---------------------------------------------------------------- decisions
_OLD_KINDS = {"pong": "pung", "concealed_kong": "concealed kong", "added_kong": "added kong"}
"""Action words of records written before the one claim vocabulary."""


def parse_action(text: str) -> ev.Action:
    """A decision's ``action`` field (:func:`bot.agent.describe_action`'s compact text,
    ``chow middle=2m discard=3z``) as the action it names; :class:`RecordError` if it
    names none."""
    words = text.split()
    kind = " ".join(w for w in words if "=" not in w)
    kind = _OLD_KINDS.get(kind, kind)
    try:
        tiles = {k: parse_tile(v, Notation.COMPACT)
                 for k, v in (w.split("=", 1) for w in words if "=" in w)}
        if kind == "pass" and not tiles:
            return ev.Pass()
        if kind == "win" and not tiles:
            return ev.DeclareWin()
        if kind == "kong" and not tiles:
            return ev.ClaimKong()
        if kind == "pung" and not tiles:
            return ev.ClaimPung()
        if kind == "discard" and tiles.keys() == {"tile"}:
            return ev.Discard(tiles["tile"])
        if kind == "pung" and tiles.keys() == {"discard"}:
            return ev.ClaimAndDiscard(ev.ClaimPung(), tiles["discard"])
        if kind == "chow" and tiles.keys() == {"middle", "discard"}:
            return ev.ClaimAndDiscard(ev.ClaimChow(tiles["middle"]), tiles["discard"])
        if kind == "chow" and tiles.keys() == {"middle"}:
            return ev.ClaimChow(tiles["middle"])
        if kind == "concealed kong" and tiles.keys() == {"tile"}:
            return ev.DeclareConcealedKong(tiles["tile"])
        if kind == "added kong" and tiles.keys() == {"tile"}:
            return ev.DeclareAddedKong(tiles["tile"])
    except (TileError, ValueError) as exc:
        raise RecordError(f"field 'action': {text!r}: {exc}") from None
    raise RecordError(f"field 'action': {text!r} names no action")


def _opt_number(data: Mapping[str, Any], key: str) -> float | None:
    return None if data.get(key) is None else _number(data, key)


def _tile_names(data: Mapping[str, Any], key: str) -> tuple[int, ...]:
    """Tiles written by name (``["1m", "2m", "3m"]``)."""
    try:
        return tuple(parse_tile(t, Notation.COMPACT) for t in _strs(data, key))
    except TileError as exc:
        raise RecordError(f"field {key!r}: {exc}") from None


def _opt_tile(data: Mapping[str, Any], key: str) -> int | None:
    if data.get(key) is None:
        return None
    try:
        return parse_tile(_str(data, key), Notation.COMPACT)
    except TileError as exc:
        raise RecordError(f"field {key!r}: {exc}") from None


@dataclass(frozen=True)
class OutlookRecord:
    """The planner's numbers behind a candidate's value (:class:`strategy.value.Outlook`;
    ``tai`` and ``route`` for taiwan-16's :class:`strategy.tai.TaiOutlook`)."""

    distance: int
    turns: int
    win: float
    deal_in: float
    value: float
    tai: int | None = None
    route: str = ""

    @classmethod
    def of(cls, o: Outlook) -> OutlookRecord:
        if isinstance(o, TaiOutlook):
            return cls(o.distance, o.turns, o.win, o.deal_in, o.value, o.tai, o.route)
        return cls(o.distance, o.turns, o.win, o.deal_in, o.value)

    def numbers(self) -> tuple[tuple[str, str], ...]:
        """The numbers by name, as :meth:`strategy.value.Outlook.describe` shows them."""
        tai = () if self.tai is None else (("route", self.route), ("tai", str(self.tai)))
        dist = "∞" if self.distance >= UNREACHABLE else str(self.distance)
        return (*tai, ("to win", dist), ("turns", str(self.turns)),
                ("P(win)", f"{self.win:.3f}"), ("P(deal in)", f"{self.deal_in:.3f}"),
                ("value", f"{self.value:+.2f}"))

    def to_json(self) -> JSON:
        out: JSON = {"distance": self.distance, "turns": self.turns, "win": self.win,
                     "deal_in": self.deal_in, "value": self.value}
        if self.tai is not None:
            out.update(tai=self.tai, route=self.route)
        return out

    @classmethod
    def from_json(cls, data: Any) -> OutlookRecord:
        if not isinstance(data, dict):
            raise RecordError(f"field 'outlook': expected an object, got {data!r}")
        _unknown(data, [f.name for f in fields(cls)], "an outlook")
        return cls(_int(data, "distance"), _int(data, "turns"), _number(data, "win"),
                   _number(data, "deal_in"), _number(data, "value"), _opt_int(data, "tai"),
                   _str(data, "route") if "route" in data else "")


@dataclass(frozen=True)
class CandidateRecord:
    """One option a decision weighed, as its fields (:class:`strategy.policy.Candidate`,
    and the planner's :class:`OutlookRecord`): the record keeps these, and the viewer
    renders from them (:attr:`label`, :meth:`numbers`)."""

    action: ev.ActionKind
    tile: int | None
    deficiency: int
    value: float | None = None
    chance: float = 0.0
    delta: int | None = None
    work: int = 0
    time_us: float | None = None
    note: str = ""
    meld: tuple[int, ...] = ()
    outlook: OutlookRecord | None = None

    @classmethod
    def of(cls, c: Candidate) -> CandidateRecord:
        outlook = c.outlook if isinstance(c, ValuedCandidate) else None
        # a planner's candidate: the step-value ranking's plain deficiency where it has
        # one, else the value's distance (the outlook keeps that distance too)
        plain = c.plain_deficiency if isinstance(c, ValuedCandidate) else None
        deficiency = c.deficiency if plain is None else plain
        return cls(c.action, c.tile, deficiency, c.value, c.chance, c.delta, c.work,
                   c.time_us, c.note, tuple(c.meld),
                   None if outlook is None else OutlookRecord.of(outlook))

    def candidate(self) -> Candidate:
        return Candidate(self.action, self.tile, self.deficiency, self.value, self.chance,
                         self.delta, self.work, self.time_us, self.note, self.meld)

    @property
    def label(self) -> str:
        """``chow 1m2m3m, then discard 3z`` (:attr:`strategy.policy.Candidate.label`)."""
        return self.candidate().label

    def numbers(self) -> tuple[tuple[str, str], ...]:
        """The numbers by name, as shown (the outlook's after the candidate's own)."""
        own = self.candidate().numbers()
        return own if self.outlook is None else (*own, *self.outlook.numbers())

    def to_json(self) -> JSON:
        out: JSON = {"action": self.action.value,
                     "tile": None if self.tile is None else tile_name(self.tile),
                     "deficiency": self.deficiency, "value": self.value,
                     "chance": self.chance, "delta": self.delta, "work": self.work}
        if self.time_us is not None:
            out["time_us"] = self.time_us
        if self.note:
            out["note"] = self.note
        if self.meld:
            out["meld"] = [tile_name(t) for t in self.meld]
        if self.outlook is not None:
            out["outlook"] = self.outlook.to_json()
        return out

    @classmethod
    def from_json(cls, data: Any) -> CandidateRecord:
        if not isinstance(data, dict):
            raise RecordError(f"expected a candidate object, got {data!r}")
        _unknown(data, [f.name for f in fields(cls)], "a candidate")
        return cls(_enum(ev.ActionKind, data, "action"), _opt_tile(data, "tile"),
                   _int(data, "deficiency"), _opt_number(data, "value"),
                   _number(data, "chance"), _opt_int(data, "delta"), _int(data, "work"),
                   _opt_number(data, "time_us"),
                   _str(data, "note") if "note" in data else "",
                   _tile_names(data, "meld") if "meld" in data else (),
                   OutlookRecord.from_json(data["outlook"]) if "outlook" in data else None)


Considered = CandidateRecord | str
"""A candidate as a record keeps it: its fields, or (in records written before the fields
were kept) the text ``Candidate.describe()`` gave then, which only the viewer's reader of
such records (:func:`arena.review.viewer.build.parse_candidate`) still reads."""


def _candidates(data: Mapping[str, Any]) -> tuple[Considered, ...]:
    out: list[Considered] = []
    for i, item in enumerate(_list(data, "candidates")):
        if isinstance(item, str):
            out.append(item)
            continue
        try:
            out.append(CandidateRecord.from_json(item))
        except RecordError as exc:
            raise RecordError(f"field 'candidates': item {i}: {exc}") from None
    return tuple(out)


@dataclass(frozen=True)
class Reasons:
    """Why an agent chose its action: its note, fan and whether it finished, and every
    candidate it weighed."""

    note: str
    fan: int | None
    finished: bool
    candidates: tuple[Considered, ...]


@dataclass(frozen=True)
class SeatChoice:
    """An in-process seat's last choice as a record keeps it: the action in compact tile
    notation, how it was reached and (for the agent) its reasons."""

    action: str
    method: str
    reasons: Reasons | None = None

    @classmethod
    def of(cls, decision: Decision) -> SeatChoice:
        return cls(describe_action(decision.action), decision.describe_method(),
                   Reasons(decision.note, decision.fan, decision.finished,
                           tuple(CandidateRecord.of(c) for c in decision.reasons)))

    def at(self, seat: int, player: str) -> DecisionRecord:
        return DecisionRecord(seat, player, self.action, self.method, self.reasons)


@dataclass(frozen=True)
class DecisionRecord:
    """A decision of an in-process seat (self-play and arena games)."""

    seat: int
    player: str
    action: str
    method: str
    reasons: Reasons | None = None

    KEYS = ("seat", "player", "action", "method", "note", "fan", "finished", "candidates")

    def to_json(self) -> JSON:
        out: JSON = {"seat": self.seat, "player": self.player, "action": self.action,
                     "method": self.method}
        r = self.reasons
        if r is not None:
            out.update(note=r.note, fan=r.fan, finished=r.finished,
                       candidates=[c if isinstance(c, str) else c.to_json()
                                   for c in r.candidates])
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> DecisionRecord:
        _unknown(data, cls.KEYS, "decision")
        reasons = None
        if any(k in data for k in cls.KEYS[4:]):
            reasons = Reasons(_str(data, "note"), _opt_int(data, "fan"),
                              _bool(data, "finished"), _candidates(data))
        return cls(_int(data, "seat", 0, 3, "a seat"), _str(data, "player"),
                   _str(data, "action"), _str(data, "method"), reasons)


@dataclass(frozen=True)
class JudgeAnswer:
    """A Botzone program's answer the judge kept (every answer but a plain OK ``PASS``)."""

    seat: int
    turn: int
    request: str
    verdict: str
    response: str
    debug: str
    seconds: float
    """Wall clock, rounded to 0.1 ms (it differs from run to run)."""

    def to_json(self) -> JSON:
        return {"seat": self.seat, "turn": self.turn, "request": self.request,
                "verdict": self.verdict, "response": self.response, "debug": self.debug,
                "seconds": round(self.seconds, 4)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> JudgeAnswer:
        _unknown(data, [f.name for f in fields(cls)], "judge answer")
        return cls(_int(data, "seat", 0, 3, "a seat"), _int(data, "turn"),
                   _str(data, "request"), _str(data, "verdict"), _str(data, "response"),
                   _str(data, "debug"), _number(data, "seconds"))


@dataclass(frozen=True)
class AskAnswer:
    """An Olympiad ask and how the seat answered it (the referee's record)."""

    seat: int
    ask: str
    """The ask's deterministic name, ``TABLE-GAME-STEP-SEAT``."""
    answer: str
    options: tuple[Option, ...]

    def to_json(self) -> JSON:
        return {"seat": self.seat, "ask": self.ask, "answer": self.answer,
                "options": [o.model_dump(mode="json", exclude_none=True)
                            for o in self.options]}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> AskAnswer:
        _unknown(data, [f.name for f in fields(cls)], "ask answer")
        try:
            options = tuple(Option.model_validate(o) for o in _list(data, "options"))
        except ValidationError as exc:
            raise RecordError(f"field 'options': {exc.errors()[0]['msg']}") from None
        return cls(_int(data, "seat", 0, 3, "a seat"), _str(data, "ask"),
                   _str(data, "answer"), options)


class Fault(Enum):
    """What was wrong with an Olympiad answer."""

    TIMEOUT = "timeout"
    ILLEGAL = "illegal"


@dataclass(frozen=True)
class ViolationRecord:
    """An Olympiad answer the referee did not take: late, illegal or unreadable; the
    table played the default action instead (or the seat forfeited, by ``policy``)."""

    seat: int
    step: int
    kind: Fault
    detail: str
    policy: str

    def fields_json(self) -> JSON:
        """The violation's own fields (the ``--json`` summary lists these)."""
        return {"seat": self.seat, "step": self.step, "kind": self.kind.value,
                "detail": self.detail, "policy": self.policy}

    def to_json(self) -> JSON:
        return {"violation": self.fields_json()}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ViolationRecord:
        _unknown(data, ["violation"], "violation")
        inner = data.get("violation")
        if not isinstance(inner, dict):
            raise RecordError(f"field 'violation': expected an object, got {inner!r}")
        _unknown(inner, [f.name for f in fields(cls)], "violation")
        return cls(_int(inner, "seat", 0, 3, "a seat"), _int(inner, "step"),
                   _enum(Fault, inner, "kind"), _str(inner, "detail"), _str(inner, "policy"))


DecisionLine = DecisionRecord | JudgeAnswer | AskAnswer | ViolationRecord
"""A record's ``decision`` line, by its writer."""


def decision_from_json(data: Mapping[str, Any]) -> DecisionLine:
    """A ``decision`` line: its fields say which writer's it is."""
    if "violation" in data:
        return ViolationRecord.from_json(data)
    if "ask" in data:
        return AskAnswer.from_json(data)
    if "verdict" in data or "response" in data:
        return JudgeAnswer.from_json(data)
    if "action" in data:
        return DecisionRecord.from_json(data)
    raise RecordError("a decision line needs 'action' (a seat's decision), 'verdict' (a "
                      "judge's answer), 'ask' (an Olympiad answer) or 'violation'")


# ---------------------------------------------------------------- result
def result_to_json(result: GameResult) -> JSON:
    """A result line's fields: the ending's name and fields, then the scores."""
    ending = result.ending
    out: JSON = {"ending": type(ending).__name__}
    if isinstance(ending, Won):
        out.update(seat=ending.seat, tile=ending.tile, self_drawn=ending.self_drawn,
                   robbed_kong=ending.robbed_kong, payer=ending.payer,
                   fans=[{"name": f.name, "value": f.value, "count": f.count,
                          "english_name": f.english_name} for f in ending.fans])
    elif isinstance(ending, Penalized):
        out.update(seat=ending.seat, reason=ending.reason, detail=ending.detail)
    out["scores"] = list(result.scores)
    return out


def _fan(data: Any, i: int) -> FanItem:
    if not isinstance(data, dict):
        raise RecordError(f"field 'fans': item {i}: expected an object, got {data!r}")
    try:
        _unknown(data, ["name", "value", "count", "english_name"], "a fan")
        return FanItem(_str(data, "name"), _int(data, "value"),
                       _int(data, "count") if "count" in data else 1,
                       _str(data, "english_name") if "english_name" in data else "")
    except RecordError as exc:
        raise RecordError(f"field 'fans': item {i}: {exc}") from None


def result_from_json(data: Mapping[str, Any]) -> GameResult:
    """A result line as a :class:`GameResult` (older records may lack ``robbed_kong``,
    ``payer``, ``fans``, ``reason`` or ``detail``)."""
    ending = data.get("ending")
    if not isinstance(ending, str):
        raise RecordError(f"field 'ending': expected the name of how the game ended, "
                          f"got {ending!r}")
    scores = data.get("scores")
    if (not isinstance(scores, list) or len(scores) != 4
            or not all(isinstance(s, int) and not isinstance(s, bool) for s in scores)):
        raise RecordError(f"field 'scores': expected four whole numbers, got {scores!r}")
    four = (scores[0], scores[1], scores[2], scores[3])
    if ending == "Won":
        _unknown(data, ["ending", "seat", "tile", "self_drawn", "robbed_kong", "payer",
                        "fans", "scores"], "Won")
        fans = tuple(_fan(f, i) for i, f in enumerate(_list(data, "fans"))) \
            if "fans" in data else ()
        return GameResult(Won(_int(data, "seat", 0, 3, "a seat"), _int(data, "tile"),
                              _bool(data, "self_drawn"),
                              _bool(data, "robbed_kong") if "robbed_kong" in data else False,
                              _opt_int(data, "payer", 0, 3, "a seat"), fans), four)
    if ending == "Penalized":
        _unknown(data, ["ending", "seat", "reason", "detail", "scores"], "Penalized")
        return GameResult(Penalized(_int(data, "seat", 0, 3, "a seat"),
                                    _str(data, "reason") if "reason" in data else "",
                                    _str(data, "detail") if "detail" in data else ""), four)
    if ending == "WallExhausted":
        _unknown(data, ["ending", "scores"], "WallExhausted")
        return GameResult(WallExhausted(), four)
    raise RecordError(f"field 'ending': unknown ending {ending!r} "
                      "(Won, Penalized or WallExhausted)")
