"""Game records: one JSON Lines file per game.

Line 1 is the header (rule set, seed, walls, seats and program versions);
then one line per event as the referee saw it (every tile shown), and for
our own seats the decision with its reasons; the last line is the result.
``read_record`` gives them back typed (:mod:`arena.records.lines`): a
:class:`RecordHeader`, the events, the decision lines and the :class:`GameResult`.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import get_args, get_origin, get_type_hints

from arena.records.decisions import DecisionLine, decision_from_json
from arena.records.fields import JSON, RecordError
from arena.records.lines import RecordHeader, result_from_json, result_to_json
from arena.tools.output_files import replace_file
from game import events as ev
from game.events import Event, GameResult
from game.tiles import NUM_INDICES
from protocols.bounded_json import JsonInputError, loads_bounded

EVENT_TYPES: dict[str, type] = {
    cls.__name__: cls
    for cls in (ev.SeatAssigned, ev.Dealt, ev.Drew, ev.FlowerReplaced, ev.Discarded, ev.Chowed,
                ev.Punged, ev.Konged, ev.ConcealedKonged, ev.KongAdded, ev.Melded)
}
VERSION = "mjbot 0.1.0"
MAX_RECORD_LINE = 1 << 24
"""The longest record line read (16 MiB; a decision line with its reasons is far shorter)."""


def event_to_json(event: Event) -> JSON:
    data = dataclasses.asdict(event)
    if isinstance(event, ev.Melded):
        data["kind"] = event.kind.value
    return {"type": type(event).__name__, **data}


SEAT_FIELDS = frozenset({"seat", "from_seat"})
"""Event fields that hold a seat (0-3); every other integer field holds a tile index."""


def _field_problem(name: str, value: object, hint: object) -> str | None:
    """Why ``value`` cannot be the event field ``name`` of type ``hint`` (None: it can)."""
    if isinstance(hint, type) and issubclass(hint, Enum):
        known = [k.value for k in hint]
        return None if value in known else f"expected one of {known}, got {value!r}"
    if hint is bool:
        return None if isinstance(value, bool) else f"expected true or false, got {value!r}"
    if hint is int or hint == (int | None):
        if value is None:
            return None if hint is not int else "expected a number, got null"
        if not isinstance(value, int) or isinstance(value, bool):
            return f"expected a whole number, got {value!r}"
        if name in SEAT_FIELDS:
            return None if 0 <= value < 4 else f"a seat is 0-3, got {value}"
        return None if 0 <= value < NUM_INDICES else \
            f"a tile index is 0-{NUM_INDICES - 1}, got {value}"
    if get_origin(hint) is tuple:
        args = get_args(hint)
        if not isinstance(value, list):
            return f"expected a list, got {value!r}"
        if args[-1] is not Ellipsis and len(value) != len(args):
            return f"expected {len(args)} numbers, got {len(value)}"
        for i, item in enumerate(value):
            problem = _field_problem(name, item, int)
            if name == "flower_counts" and problem is None and item > 8:
                problem = f"at most 8 flowers, got {item}"
            if problem is not None:
                return f"item {i}: {problem}"
        return None
    raise TypeError(f"no check for field type {hint!r}")  # pragma: no cover - a new event type


def event_from_json(data: JSON) -> Event:
    """An event from its JSON object; :class:`RecordError` names the field that is wrong."""
    fields = dict(data)
    name = fields.pop("type", None)
    cls = EVENT_TYPES.get(name) if isinstance(name, str) else None
    if cls is None:
        raise RecordError(f"field 'type': unknown event type {name!r}; "
                          f"known: {', '.join(EVENT_TYPES)}")
    hints = get_type_hints(cls)
    declared = {f.name: f for f in dataclasses.fields(cls)}
    for key in fields:
        if key not in declared:
            raise RecordError(f"{name}: unknown field {key!r}")
    for key, f in declared.items():
        if key not in fields:
            if f.default is dataclasses.MISSING:
                raise RecordError(f"{name}: field {key!r} is missing")
            continue
        problem = _field_problem(key, fields[key], hints[key])
        if problem is not None:
            raise RecordError(f"{name}: field {key!r}: {problem}")
        if isinstance(fields[key], list):
            fields[key] = tuple(fields[key])
    if cls is ev.Melded:
        fields["kind"] = ev.ActionKind(fields["kind"])
    try:
        event: Event = cls(**fields)
    except (ValueError, TypeError) as exc:
        raise RecordError(f"{name}: {exc}") from None
    return event


@dataclass(frozen=True)
class Record:
    header: RecordHeader
    events: tuple[Event, ...]
    decisions: tuple[DecisionLine, ...]
    result: GameResult | None
    lines: int = 0
    """Lines read (the number of the last line)."""

    @property
    def incomplete(self) -> str | None:
        """Why the record does not hold a whole game (None: it does)."""
        if not self.events:
            return "the record holds no events"
        if self.result is None:
            return (f"the game was cut short: no result line after {len(self.events)} events "
                    f"(the record ends at line {self.lines})")
        return None


def record_lines(header: RecordHeader, events: Iterable[Event],
                 decisions: Iterable[DecisionLine], result: GameResult | None) -> list[str]:
    """A record's lines (JSON, without their line ends)."""
    lines = [json.dumps({"record": "header", "version": VERSION, **header.to_json()})]
    lines += [json.dumps({"record": "event", **event_to_json(e)}) for e in events]
    lines += [json.dumps({"record": "decision", **d.to_json()}) for d in decisions]
    if result is not None:
        lines.append(json.dumps({"record": "result", **result_to_json(result)}))
    return lines


def write_record(path: Path, header: RecordHeader, events: Iterable[Event],
                 decisions: Iterable[DecisionLine], result: GameResult | None,
                 mode: int = 0o644) -> None:
    """Write the record as ``path`` (``mode`` whatever the umask), never through a link
    planted there (:func:`arena.tools.output_files.replace_file`)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    text = "".join(line + "\n" for line in record_lines(header, events, decisions, result))
    replace_file(path, text, mode)


def read_record(path: Path) -> Record:
    """A game record; :class:`RecordError` names the line (and field) that cannot be read.

    A record cut short (no result line) is returned: :attr:`Record.incomplete` says why.
    """
    header: RecordHeader | None = None
    events: list[Event] = []
    decisions: list[DecisionLine] = []
    result: GameResult | None = None
    n = 0
    for n, line in enumerate(path.read_text().splitlines(), 1):
        if not line.strip():
            continue
        try:
            data = loads_bounded(line, max_chars=MAX_RECORD_LINE)
        except JsonInputError as exc:
            raise RecordError(f"{path}:{n}: {exc}") from None
        if not isinstance(data, dict):
            raise RecordError(f"{path}:{n}: expected a JSON object, got a "
                              f"{type(data).__name__}") from None
        kind = data.pop("record", None)
        try:
            if kind != "header" and header is None:
                raise RecordError(f"a {kind!r} line before the header line")
            if kind in ("event", "decision", "result") and result is not None:
                raise RecordError(f"a {kind!r} line after the result line")
            if kind == "header":
                if header is not None:
                    raise RecordError("a second header line")
                header = RecordHeader.from_json(data)
            elif kind == "event":
                events.append(event_from_json(data))
            elif kind == "decision":
                decisions.append(decision_from_json(data))
            elif kind == "result":
                result = result_from_json(data)
            else:
                raise RecordError(f"field 'record': unknown record line {kind!r} "
                                  "(header, event, decision or result)")
        except RecordError as exc:
            raise RecordError(f"{path}:{n}: {exc}") from None
    if header is None:
        raise RecordError(f"{path}: empty: no header line" if n == 0
                          else f"{path}: no header line")
    return Record(header, tuple(events), tuple(decisions), result, n)


__all__ = ["EVENT_TYPES", "VERSION", "Record", "RecordError", "RecordHeader", "event_from_json",
           "event_to_json", "read_record", "record_lines", "result_from_json", "result_to_json",
           "write_record"]
