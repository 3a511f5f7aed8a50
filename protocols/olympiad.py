"""The Olympiad-style protocol, version 1: messages and their JSON edge.

The contract is ``docs/olympiad-protocol.md`` (kept in step with this file).
Every message is a JSON object with ``"v": 1`` and ``"type"``; the referee's
also carry ``"table"`` and ``"seq"`` (1, 2, 3 ... per seat).  Tiles are
compact strings: ``1m``-``9m``, ``1p``-``9p``, ``1s``-``9s``, ``1z``-``7z``
and flowers ``1f``-``8f``.

pydantic validates at this edge only: :func:`parse_referee_message` and
:func:`parse_player_message` turn a text into one model or raise
:class:`MessageError` whose ``code`` is what the ``error`` message reports
(``malformed_json``, ``unknown_type``, ``invalid_message``, ``bad_version``).
Inside the program tiles are indices (``game.tiles``); :func:`tile_index`
and :func:`tile_str` convert.
"""

from __future__ import annotations

import hashlib
import unicodedata
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, field_validator

from game.tiles import NUM_INDICES, NUM_KINDS, Notation, TileError, parse_tile, tile_name
from protocols.bounded_json import JsonInputError, loads_bounded

VERSION = 1
MAX_MESSAGE_BYTES = 1 << 16
"""The longest message either side reads (a WebSocket frame, an MQTT payload, a line of
``mjbot wrap``'s program); no message of the protocol comes near it."""
MAX_MESSAGE_DEPTH = 16
"""The deepest nesting a message may have (an ``ask``'s chow options go 4 deep)."""

COMMITMENT_PREFIX = "mjbot-olympiad-walls-v1:"


def wall_commitment(seed: str, salt: str) -> str:
    """A table's wall commitment: ``sha256(COMMITMENT_PREFIX + salt + ":" + seed)`` in hex,
    ``seed`` in decimal (``docs/olympiad-protocol.md``, walls)."""
    return hashlib.sha256(f"{COMMITMENT_PREFIX}{salt}:{seed}".encode()).hexdigest()


MAX_NAME_CHARS = 64


def seat_name(text: str) -> str:
    """A player's name as the referee keeps and shows it: NFKC-normalised (full-width and
    other compatibility forms become their plain letters), at most 64 characters, printable
    only (no control, format, bidi, separator or unassigned character: no NUL, ESC, U+202E,
    zero-width space; plain spaces inside the name only).  :class:`MessageError`
    (``bad_name``) names the first character refused."""
    name = unicodedata.normalize("NFKC", text)
    for ch in name:
        if not ch.isprintable():
            raise MessageError("bad_name", f"name: U+{ord(ch):04X} "
                               f"({unicodedata.name(ch, 'unnamed')}) is not printable")
        if unicodedata.category(ch) in ("Cf", "Co", "Cn"):
            raise MessageError("bad_name", f"name: U+{ord(ch):04X} is invisible or unassigned")
    if not name.strip() or name != name.strip():
        raise MessageError("bad_name", "name: empty, or starting or ending with a space")
    if len(name) > MAX_NAME_CHARS:
        raise MessageError("bad_name", f"name: {len(name)} characters after NFKC "
                           f"normalisation (at most {MAX_NAME_CHARS})")
    return name


MeldKind = Literal["chow", "pong", "kong", "concealed_kong", "added_kong"]
OptionKind = Literal["discard", "win", "kong", "pong", "chow", "pass"]
ResultKind = Literal["win", "draw", "forfeit"]


class MessageError(ValueError):
    """A message that cannot be read; ``code`` names the kind of problem."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


# ---------------------------------------------------------------- tiles
def tile_str(tile: int) -> str:
    return tile_name(tile, Notation.COMPACT)


def tile_index(text: str, *, in_hand: bool = False) -> int:
    """The index of a compact tile string; ``in_hand`` refuses flowers."""
    try:
        tile = parse_tile(text, Notation.COMPACT)
    except TileError as exc:
        raise MessageError("invalid_message", f"unknown tile {text!r}: {exc}") from None
    if in_hand and tile >= NUM_KINDS:
        raise MessageError("invalid_message", f"tile {text!r} is a flower, not a playing tile")
    return tile


def _check_tile_text(text: str) -> str:
    try:
        parse_tile(text, Notation.COMPACT)
    except TileError:
        expected = "1m-9m, 1p-9p, 1s-9s, 1z-7z, 1f-8f"
        raise ValueError(f"unknown tile {text!r} (expected {expected})") from None
    return text


TileStr = Annotated[str, Field(min_length=2, max_length=2)]


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    v: Literal[1] = 1

    def to_json(self) -> str:
        return self.model_dump_json(exclude_none=True)


class _FromReferee(_Message):
    table: str
    seq: int = Field(ge=0)


# ---------------------------------------------------------------- referee -> player
class Welcome(_FromReferee):
    """The answer to every ``join``; its ``seq`` is the last seq this seat has been sent."""

    type: Literal["welcome"] = "welcome"
    seat: int = Field(ge=0, le=3)
    rules: str
    players: list[str]
    decision_ms: int = Field(gt=0)
    policy: Literal["default", "forfeit"] = "default"
    commitment: str | None = None
    """The table's wall commitment: sha256 of its secret seed and a salt, revealed in the
    table's last ``end`` (:func:`wall_commitment`)."""


class Deal(_FromReferee):
    type: Literal["deal"] = "deal"
    game: int = Field(ge=0)
    dealer: int = Field(ge=0, le=3)
    prevalent_wind: int = Field(ge=0, le=3)
    hand: list[TileStr]
    flowers: list[list[TileStr]] = Field(min_length=4, max_length=4)
    wall: int = Field(ge=0)


class Draw(_FromReferee):
    type: Literal["draw"] = "draw"
    seat: int = Field(ge=0, le=3)
    tile: TileStr | None = None
    replacement: bool = False
    wall: int = Field(ge=0)


class Flower(_FromReferee):
    type: Literal["flower"] = "flower"
    seat: int = Field(ge=0, le=3)
    flower: TileStr


class DiscardMsg(_FromReferee):
    type: Literal["discard"] = "discard"
    seat: int = Field(ge=0, le=3)
    tile: TileStr


class MeldMsg(_FromReferee):
    type: Literal["meld"] = "meld"
    seat: int = Field(ge=0, le=3)
    kind: MeldKind
    tiles: list[TileStr] | None = None
    from_seat: int | None = Field(default=None, ge=0, le=3)


class Option(BaseModel):
    """One legal answer kind of an ``ask``."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    kind: OptionKind
    tiles: list[TileStr] | list[list[TileStr]] | None = None


class AskMsg(_FromReferee):
    type: Literal["ask"] = "ask"
    id: str
    options: list[Option] = Field(min_length=1)
    deadline_ms: int = Field(ge=0)


class TaiItem(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    name: str
    tai: int
    count: int = 1


class WallsReveal(BaseModel):
    """A table's wall seed and salt, revealed after its last game: ``commitment`` (the one
    every ``welcome`` carried) is :func:`wall_commitment` of them."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    seed: str = Field(pattern=r"^[0-9]{1,100}$")
    """Decimal digits (a 256-bit number does not fit a JSON reader's doubles)."""
    salt: str = Field(max_length=64)
    commitment: str = Field(max_length=64)

    def opens(self, commitment: str | None) -> bool:
        """Whether this seed and salt open ``commitment`` (and it is the one revealed)."""
        return commitment == self.commitment == wall_commitment(self.seed, self.salt)


class End(_FromReferee):
    type: Literal["end"] = "end"
    game: int = Field(ge=0)
    result: ResultKind
    winner: int | None = None
    from_seat: int | None = None
    tai: list[TaiItem] = []
    scores: list[int] = Field(min_length=4, max_length=4)
    hands: list[list[TileStr]] = Field(min_length=4, max_length=4)
    reason: str = ""
    more: bool = False
    """Another game follows at this table."""
    walls: WallsReveal | None = None
    """On the table's last ``end`` (``more`` false): the seed its walls came from."""


class ErrorMsg(_FromReferee):
    type: Literal["error"] = "error"
    code: str
    message: str
    fatal: bool = False
    session: str | None = None
    """The ``session`` of the ``join`` this error answers (``forbidden``, ``replaced``...):
    over MQTT every client of a seat reads its ``down`` topic, and only that one acts on it."""


RefereeMessage = Annotated[
    Welcome | Deal | Draw | Flower | DiscardMsg | MeldMsg | AskMsg | End | ErrorMsg,
    Field(discriminator="type"),
]


# ---------------------------------------------------------------- player -> referee
class Join(_Message):
    type: Literal["join"] = "join"
    name: str = Field(min_length=1, max_length=64)
    table: str = Field(min_length=1, max_length=64)
    seat: int = Field(ge=0, le=3)
    resume_from: int | None = Field(default=None, ge=0)
    token: str | None = Field(default=None, max_length=256, repr=False)
    """The seat's secret, issued by the referee's organiser; never logged."""
    session: str | None = Field(default=None, min_length=1, max_length=64)
    """A random name the client picks once per run: a ``join`` from another session takes
    the seat over, and errors about a join carry its session."""


class Act(_Message):
    type: Literal["act"] = "act"
    id: str = Field(max_length=64)
    kind: OptionKind
    tile: TileStr | None = None
    tiles: list[TileStr] | None = None

    @field_validator("tile")
    @classmethod
    def _tile_known(cls, v: str | None) -> str | None:
        return None if v is None else _check_tile_text(v)

    @field_validator("tiles")
    @classmethod
    def _tiles_known(cls, v: list[str] | None) -> list[str] | None:
        return None if v is None else [_check_tile_text(t) for t in v]


PlayerMessage = Annotated[Join | Act, Field(discriminator="type")]

_REFEREE_TYPES = {"welcome", "deal", "draw", "flower", "discard", "meld", "ask", "end", "error"}
_PLAYER_TYPES = {"join", "act"}
_referee_adapter: TypeAdapter[Any] = TypeAdapter(RefereeMessage)
_player_adapter: TypeAdapter[Any] = TypeAdapter(PlayerMessage)


def _load(text: str | bytes, known: set[str]) -> dict[str, Any]:
    try:
        obj = loads_bounded(text, max_depth=MAX_MESSAGE_DEPTH, max_chars=MAX_MESSAGE_BYTES)
    except JsonInputError as exc:
        raise MessageError("malformed_json", str(exc)) from None
    if not isinstance(obj, dict):
        got = type(obj).__name__
        raise MessageError("malformed_json", f"a message is a JSON object, got {got}")
    if "type" not in obj:
        raise MessageError("invalid_message", "missing field 'type'")
    kind = obj["type"]
    if not isinstance(kind, str) or kind not in known:
        shown = repr(kind)[:40] if isinstance(kind, str) else f"a {type(kind).__name__}"
        raise MessageError("unknown_type", f"unknown message type {shown}; "
                                           f"expected one of {', '.join(sorted(known))}")
    if obj.get("v", VERSION) != VERSION:
        raise MessageError("bad_version", f"protocol version {obj.get('v')!r}; this is v{VERSION}")
    return obj


def _describe(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors()[:3]:
        where = ".".join(str(x) for x in err["loc"]) or "message"
        what = "missing field" if err["type"] == "missing" else err["msg"]
        parts.append(f"{where}: {what}")
    return "; ".join(parts)


def parse_player_message(text: str | bytes) -> Join | Act:
    obj = _load(text, _PLAYER_TYPES)
    try:
        msg: Join | Act = _player_adapter.validate_python(obj)
    except ValidationError as exc:
        raise MessageError("invalid_message", f"{obj['type']}: {_describe(exc)}") from None
    return msg


def parse_referee_message(text: str | bytes) -> Any:
    """One referee message model (``Welcome`` ... ``ErrorMsg``)."""
    obj = _load(text, _REFEREE_TYPES)
    try:
        return _referee_adapter.validate_python(obj)
    except ValidationError as exc:
        raise MessageError("invalid_message", f"{obj['type']}: {_describe(exc)}") from None


__all__ = [
    "MAX_MESSAGE_BYTES",
    "MAX_MESSAGE_DEPTH",
    "NUM_INDICES",
    "VERSION",
    "Act",
    "AskMsg",
    "Deal",
    "DiscardMsg",
    "Draw",
    "End",
    "ErrorMsg",
    "Flower",
    "Join",
    "MeldMsg",
    "MessageError",
    "Option",
    "TaiItem",
    "WallsReveal",
    "Welcome",
    "parse_player_message",
    "parse_referee_message",
    "seat_name",
    "tile_index",
    "tile_str",
    "wall_commitment",
]
