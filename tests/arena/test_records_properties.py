"""Property-based tests of game records (hypothesis): any line reads as an event or is
refused with a RecordError naming the line; every event survives write -> read."""

from __future__ import annotations

import dataclasses
import json
import re
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arena.records.files import (
    EVENT_TYPES,
    RecordError,
    event_from_json,
    event_to_json,
    read_record,
)
from game import events as ev

SETTINGS = settings(max_examples=300, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])

scalars = st.none() | st.booleans() | st.integers(-3, 45) | st.text(max_size=6) | st.floats()
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=5), max_leaves=8)
FIELDS = sorted({f.name for cls in EVENT_TYPES.values() for f in dataclasses.fields(cls)})
event_like = st.fixed_dictionaries(
    {"type": st.sampled_from([*EVENT_TYPES, "Nope"]) | scalars},
    optional={name: values for name in FIELDS} | {"extra": values})


@SETTINGS
@given(event_like)
def test_any_event_object_reads_as_an_event_or_a_record_error(data: dict) -> None:
    try:
        event = event_from_json(data)
    except RecordError as exc:
        assert str(exc)
    else:
        # what was read is written back as the same object
        assert event_to_json(event) == {
            **{f.name: f.default for f in dataclasses.fields(type(event))
               if f.default is not dataclasses.MISSING},
            **data}


HEADER = json.dumps({"record": "header", "rules": "mcr-botzone"})
lines = st.lists(st.one_of(
    event_like.map(lambda d: json.dumps({"record": "event", **d})),
    st.just(HEADER),
    st.builds(lambda v: json.dumps(v), values),
    st.text(max_size=20),
    st.just(json.dumps({"record": "result", "ending": "WallExhausted", "scores": [0] * 4})),
), max_size=8)


@SETTINGS
@given(lines)
def test_any_file_reads_as_a_record_or_a_record_error_naming_the_line(body: list[str]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "g.jsonl"
        path.write_text("\n".join(body))
        try:
            record = read_record(path)
        except RecordError as exc:
            assert re.match(rf"{re.escape(str(path))}(:\d+: |: (empty: )?no header line)",
                            str(exc)), exc
        else:
            assert record.header and (record.incomplete is None) == (
                record.result is not None and bool(record.events))


seats = st.integers(0, 3)
tiles = st.integers(0, 33)
events = st.one_of(
    st.builds(ev.SeatAssigned, seats, seats),
    st.builds(ev.Drew, seats, st.none() | tiles, st.booleans()),
    st.builds(ev.Discarded, seats, tiles),
    st.builds(ev.Punged, seats, tiles, tiles),
    st.builds(ev.Konged, seats, tiles),
    st.builds(ev.ConcealedKonged, seats, st.none() | tiles),
    st.builds(ev.KongAdded, seats, tiles),
    st.builds(ev.FlowerReplaced, seats, st.integers(34, 41)),
    st.builds(ev.Dealt, seats, st.lists(tiles, min_size=13, max_size=16).map(tuple)),
)


@SETTINGS
@given(events)
def test_every_event_survives_write_and_read(event: ev.Event) -> None:
    assert event_from_json(json.loads(json.dumps(event_to_json(event)))) == event
