"""Reading a record line's fields: each reader takes the JSON object and a key and gives
the typed value, or raises :class:`RecordError` naming the field and what was wrong."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import Enum
from typing import Any, TypeVar

from game.tiles import Notation, TileError, parse_tile
from protocols.olympiad import MessageError, tile_index

JSON = dict[str, Any]
"""A JSON object as :mod:`json` reads and writes it (the edge of a record line)."""


class RecordError(ValueError):
    """A game record line that cannot be read; the message names the line and the field."""


# ---------------------------------------------------------------- field readers
def read_int(data: Mapping[str, Any], key: str, low: int | None = None,
         high: int | None = None, what: str = "") -> int:
    value = data.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise RecordError(f"field {key!r}: expected a whole number, got {value!r}")
    if (low is not None and value < low) or (high is not None and value > high):
        raise RecordError(f"field {key!r}: {what or 'a number'} is {low}-{high}, got {value!r}")
    return value


def read_opt_int(data: Mapping[str, Any], key: str, low: int | None = None,
             high: int | None = None, what: str = "") -> int | None:
    return None if data.get(key) is None else read_int(data, key, low, high, what)


def read_str(data: Mapping[str, Any], key: str) -> str:
    value = data.get(key)
    if not isinstance(value, str):
        raise RecordError(f"field {key!r}: expected text, got {value!r}")
    return value


def read_opt_str(data: Mapping[str, Any], key: str) -> str | None:
    return None if data.get(key) is None else read_str(data, key)


def read_bool(data: Mapping[str, Any], key: str) -> bool:
    value = data.get(key)
    if not isinstance(value, bool):
        raise RecordError(f"field {key!r}: expected true or false, got {value!r}")
    return value


def read_number(data: Mapping[str, Any], key: str) -> float:
    value = data.get(key)
    if not isinstance(value, int | float) or isinstance(value, bool):
        raise RecordError(f"field {key!r}: expected a number, got {value!r}")
    return value


def read_list(data: Mapping[str, Any], key: str) -> list[Any]:
    value = data.get(key)
    if not isinstance(value, list):
        raise RecordError(f"field {key!r}: expected a list, got {value!r}")
    return value


def read_strs(data: Mapping[str, Any], key: str) -> tuple[str, ...]:
    items = read_list(data, key)
    for i, x in enumerate(items):
        if not isinstance(x, str):
            raise RecordError(f"field {key!r}: item {i}: expected text, got {x!r}")
    return tuple(items)


def read_ints(data: Mapping[str, Any], key: str) -> tuple[int, ...]:
    items = read_list(data, key)
    for i, x in enumerate(items):
        if not isinstance(x, int) or isinstance(x, bool):
            raise RecordError(f"field {key!r}: item {i}: expected a whole number, got {x!r}")
    return tuple(items)


def read_tiles(data: Mapping[str, Any], key: str) -> tuple[int, ...]:
    """Tiles as indices, or as tile names (the Olympiad referee's header)."""
    items = read_list(data, key)
    if all(isinstance(x, str) for x in items) and items:
        try:
            return tuple(tile_index(x) for x in items)
        except MessageError as exc:
            raise RecordError(f"field {key!r}: {exc}") from None
    return read_ints(data, key)


def refuse_unknown(data: Mapping[str, Any], known: Sequence[str], what: str) -> None:
    for key in data:
        if key not in known:
            raise RecordError(f"{what}: unknown field {key!r}")


E = TypeVar("E", bound=Enum)


def read_enum(cls: type[E], data: Mapping[str, Any], key: str) -> E:
    value = data.get(key)
    try:
        return cls(value)
    except ValueError:
        raise RecordError(f"field {key!r}: expected one of {[k.value for k in cls]}, "
                          f"got {value!r}") from None


def read_opt_number(data: Mapping[str, Any], key: str) -> float | None:
    return None if data.get(key) is None else read_number(data, key)


def read_tile_names(data: Mapping[str, Any], key: str) -> tuple[int, ...]:
    """Tiles written by name (``["1m", "2m", "3m"]``)."""
    try:
        return tuple(parse_tile(t, Notation.COMPACT) for t in read_strs(data, key))
    except TileError as exc:
        raise RecordError(f"field {key!r}: {exc}") from None


def read_opt_tile(data: Mapping[str, Any], key: str) -> int | None:
    if data.get(key) is None:
        return None
    try:
        return parse_tile(read_str(data, key), Notation.COMPACT)
    except TileError as exc:
        raise RecordError(f"field {key!r}: {exc}") from None
