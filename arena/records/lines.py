"""The typed lines of a game record (:mod:`arena.records.files`): header, decisions, result.

Inside the code a record is these frozen dataclasses; JSON exists only in
``to_json``/``from_json``, which :func:`arena.records.files.write_record` and
:func:`arena.records.files.read_record` call.  ``to_json`` gives the objects each
writer has always written, key for key and in the same order, so records stay
byte-identical; ``from_json`` raises :class:`RecordError` naming the field
that cannot be read.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from enum import Enum
from typing import Any

from arena.records.fields import (
    JSON,
    RecordError,
    read_bool,
    read_enum,
    read_int,
    read_list,
    read_number,
    read_opt_int,
    read_opt_str,
    read_str,
    read_strs,
    read_tiles,
    refuse_unknown,
)
from game.events import FanItem, GameResult, Penalized, WallExhausted, Won
from game.rules import RULESETS, Ruleset
from game.stable_wall import WallMode
from protocols.botzone_envelope import Interaction


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
        refuse_unknown(data, [f.name for f in fields(cls)], "a judge seat")
        return cls(read_int(data, "seat", 0, 3, "a seat"), read_str(data, "command"),
                   read_str(data, "verdict"), read_str(data, "detail"), read_int(data, "turns"),
                   read_number(data, "max_seconds"), read_number(data, "total_seconds"),
                   read_bool(data, "kept_running"))


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
    """The Olympiad table's wall commitment (:mod:`arena.platforms.olympiad.walls`); its
    ``seed`` and ``salt`` are None until the table's last game has ended."""
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
        layout = read_enum(HeaderLayout, data, "layout")
        names = LAYOUT_FIELDS[layout]
        refuse_unknown(data, ["layout", "version", *(_JSON_KEY.get(n, n) for n in names)],
                 f"a {layout.value} header")
        read = cls._fields_json(data)
        return cls(layout=layout, version=read_opt_str(data, "version"),
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
            seats = read_strs(data, "seats")
        return dict(
            rules=rules, seed=read_opt_int(data, "seed"), game=read_opt_int(data, "game"),
            wall_index=read_opt_int(data, "wall_index"), seating=read_opt_int(data, "seating"),
            walltiles=read_tiles(data, "walltiles") if data.get("walltiles") is not None
            else None,
            wall_mode=read_enum(WallMode, data, "wall_mode")
            if data.get("wall_mode") is not None else None,
            dealer=read_opt_int(data, "dealer", 0, 3, "a seat"), prevalent_wind=wind,
            seats=seats, judge_seats=judge_seats,
            players=read_strs(data, "players") if data.get("players") is not None else None,
            verdicts=read_strs(data, "verdicts") if data.get("verdicts") is not None else None,
            interaction=read_enum(Interaction, data, "interaction")
            if data.get("interaction") is not None else None,
            time_limit=read_number(data, "time_limit") if data.get("time_limit") is not None
            else None,
            memory_limit=read_opt_int(data, "memory_limit"), table=read_opt_str(data, "table"),
            decision_ms=read_opt_int(data, "decision_ms"), policy=read_opt_str(data, "policy"),
            commitment=read_opt_str(data, "commitment"), salt=read_opt_str(data, "salt"))

    @classmethod
    def _from_old_json(cls, data: Mapping[str, Any]) -> RecordHeader:
        """A header written before the ``layout`` field: its writer told by its keys' order,
        its ``wall`` by its layout."""
        refuse_unknown(data, _ANY_ORDER, "header")
        keys = [k for k in data if k != "version"]
        layout = next((lay for lay, ks in _OLD_LAYOUT_KEYS.items() if tuple(keys) == ks), None)
        if layout is HeaderLayout.BOTZONE_JUDGE and data.get("referee") != BOTZONE_REFEREE:
            layout = None
        read = cls._fields_json({k: v for k, v in data.items() if k != "wall"})
        wall = data.get("wall")
        if isinstance(wall, list):
            read["walltiles"] = read_tiles(data, "wall")
        elif wall is not None:
            read["wall_index"] = read_int(data, "wall")
        return cls(layout=layout, version=read_opt_str(data, "version"), **read)


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
        refuse_unknown(data, ["name", "value", "count", "english_name"], "a fan")
        return FanItem(read_str(data, "name"), read_int(data, "value"),
                       read_int(data, "count") if "count" in data else 1,
                       read_str(data, "english_name") if "english_name" in data else "")
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
        refuse_unknown(data, ["ending", "seat", "tile", "self_drawn", "robbed_kong", "payer",
                        "fans", "scores"], "Won")
        fans = tuple(_fan(f, i) for i, f in enumerate(read_list(data, "fans"))) \
            if "fans" in data else ()
        return GameResult(Won(read_int(data, "seat", 0, 3, "a seat"), read_int(data, "tile"),
                              read_bool(data, "self_drawn"),
                              read_bool(data, "robbed_kong") if "robbed_kong" in data else False,
                              read_opt_int(data, "payer", 0, 3, "a seat"), fans), four)
    if ending == "Penalized":
        refuse_unknown(data, ["ending", "seat", "reason", "detail", "scores"], "Penalized")
        return GameResult(Penalized(read_int(data, "seat", 0, 3, "a seat"),
                                    read_str(data, "reason") if "reason" in data else "",
                                    read_str(data, "detail") if "detail" in data else ""), four)
    if ending == "WallExhausted":
        refuse_unknown(data, ["ending", "scores"], "WallExhausted")
        return GameResult(WallExhausted(), four)
    raise RecordError(f"field 'ending': unknown ending {ending!r} "
                      "(Won, Penalized or WallExhausted)")
