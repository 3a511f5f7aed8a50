"""Game records: one JSON Lines file per game.

Line 1 is the header (rule set, seed, walls, seats and program versions);
then one line per event as the referee saw it (every tile shown), and for
our own seats the decision with its reasons; the last line is the result.
``read_record`` gives the header, the events and the result back.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from game import events as ev
from game.events import Event, GameResult

EVENT_TYPES: dict[str, type] = {
    cls.__name__: cls
    for cls in (ev.SeatAssigned, ev.Dealt, ev.Drew, ev.FlowerReplaced, ev.Discarded, ev.Chowed,
                ev.Punged, ev.Konged, ev.ConcealedKonged, ev.KongAdded, ev.Melded)
}
VERSION = "mjbot 0.1.0"


def event_to_json(event: Event) -> dict[str, Any]:
    data = dataclasses.asdict(event)
    if isinstance(event, ev.Melded):
        data["kind"] = event.kind.value
    return {"type": type(event).__name__, **data}


def event_from_json(data: dict[str, Any]) -> Event:
    fields = dict(data)
    cls = EVENT_TYPES.get(str(fields.pop("type", "")))
    if cls is None:
        raise ValueError(f"unknown event type {data.get('type')!r} in a game record")
    for key, value in fields.items():
        if isinstance(value, list):
            fields[key] = tuple(value)
    if cls is ev.Melded:
        fields["kind"] = ev.ActionKind(fields["kind"])
    event: Event = cls(**fields)
    return event


def result_to_json(result: GameResult) -> dict[str, Any]:
    ending = result.ending
    return {"ending": type(ending).__name__, **dataclasses.asdict(ending),
            "scores": list(result.scores)}


@dataclass(frozen=True)
class Record:
    header: dict[str, Any]
    events: tuple[Event, ...]
    decisions: tuple[dict[str, Any], ...]
    result: dict[str, Any] | None


def write_record(path: Path, header: dict[str, Any], events: Iterable[Event],
                 decisions: Iterable[dict[str, Any]], result: GameResult | None) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w") as f:
        f.write(json.dumps({"record": "header", "version": VERSION, **header}) + "\n")
        for e in events:
            f.write(json.dumps({"record": "event", **event_to_json(e)}) + "\n")
        for d in decisions:
            f.write(json.dumps({"record": "decision", **d}) + "\n")
        if result is not None:
            f.write(json.dumps({"record": "result", **result_to_json(result)}) + "\n")


def read_record(path: Path) -> Record:
    header: dict[str, Any] = {}
    events: list[Event] = []
    decisions: list[dict[str, Any]] = []
    result = None
    for n, line in enumerate(path.read_text().splitlines(), 1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except json.JSONDecodeError as exc:
            raise ValueError(f"{path}:{n}: not JSON ({exc})") from None
        kind = data.pop("record", None)
        if kind == "header":
            header = data
        elif kind == "event":
            events.append(event_from_json(data))
        elif kind == "decision":
            decisions.append(data)
        elif kind == "result":
            result = data
        else:
            raise ValueError(f"{path}:{n}: unknown record line {kind!r}")
    return Record(header, tuple(events), tuple(decisions), result)
