"""The typed record lines (arena.records.lines): each writer's JSON reads back as the same
object and is written back key for key; a wrong field is named with its line."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from arena.records.decisions import (
    AskAnswer,
    CandidateRecord,
    DecisionLine,
    DecisionRecord,
    Fault,
    JudgeAnswer,
    OutlookRecord,
    Reasons,
    ViolationRecord,
    decision_from_json,
)
from arena.records.files import RecordError, read_record, record_lines
from arena.records.lines import HeaderLayout, RecordHeader, SeatReport
from game.events import ActionKind, FanItem, GameResult, Penalized, WallExhausted, Won
from game.rules import MCR_BOTZONE, TAIWAN_16
from game.stable_wall import WallMode
from game.tiles import parse_tiles, tile_name
from protocols.botzone_envelope import Interaction
from protocols.olympiad import Option

WALL = tuple(parse_tiles("123456789m123456789p123456789s1234567z", None))


HEADERS = [
    RecordHeader(HeaderLayout.SELFPLAY, rules=MCR_BOTZONE, seed=11, game=3, walltiles=WALL,
                 prevalent_wind=0, seats=("mjbot", "greedy", "mjbot", "random")),
    RecordHeader(HeaderLayout.ARENA_MCR, rules=MCR_BOTZONE, seed=1, wall_index=5, seating=2,
                 walltiles=WALL, prevalent_wind=1, seats=("a", "b", "a", "b"),
                 players=("mjbot", "greedy", "mjbot", "greedy")),
    RecordHeader(HeaderLayout.ARENA_TAIWAN, rules=TAIWAN_16, seed=1, walltiles=WALL,
                 wall_index=5, seating=2, wall_mode=WallMode.SDW, dealer=1, prevalent_wind=1,
                 seats=("a", "b", "a", "b"), players=("mjbot", "greedy", "mjbot", "greedy")),
    RecordHeader(HeaderLayout.BOTZONE_JUDGE, rules=MCR_BOTZONE, seed=None, game=0,
                 walltiles=WALL, prevalent_wind=0, interaction=Interaction.JSON,
                 time_limit=6.0, memory_limit=256,
                 judge_seats=tuple(SeatReport(s, f"bot{s}", "OK", "", 30, 0.25, 3.5, True)
                                   for s in range(4)),
                 verdicts=("OK",) * 4),
    RecordHeader(HeaderLayout.OLYMPIAD, rules=TAIWAN_16, table="t1", game=0, seed=1,
                 walltiles=WALL, dealer=0, prevalent_wind=0, seats=("s0", "s1", "s2", "s3"),
                 decision_ms=1000, policy="default", wall_mode=WallMode.SINGLE),
]


@pytest.mark.parametrize("header", HEADERS, ids=lambda h: h.layout.value)
def test_each_writers_header_reads_back_as_written(header: RecordHeader) -> None:
    data = json.loads(json.dumps(header.to_json()))
    assert RecordHeader.from_json(data) == header
    assert RecordHeader.from_json(data).to_json() == header.to_json()


def test_a_header_is_tagged_with_its_layout_and_its_wall_means_one_thing() -> None:
    for header in HEADERS:
        data = header.to_json()
        assert header.layout is not None
        assert next(iter(data)) == "layout" and data["layout"] == header.layout.value
        assert "wall" not in data and data["walltiles"][:3] == [0, 1, 2]
    assert HEADERS[1].to_json()["wall_index"] == 5
    with pytest.raises(ValueError, match="a selfplay header has no field 'wall_index'"):
        RecordHeader(HeaderLayout.SELFPLAY, rules=MCR_BOTZONE, wall_index=3)
    data = {**HEADERS[0].to_json(), "wall_index": 3}
    with pytest.raises(RecordError, match="a selfplay header: unknown field 'wall_index'"):
        RecordHeader.from_json(data)


OLD_HEADERS = [  # as each writer wrote them before the layout field: ``wall`` three ways
    ({"rules": "mcr-botzone", "seed": 1, "wall": 5, "seating": 2, "walltiles": list(WALL),
      "prevalent_wind": 1, "seats": ["a", "b", "a", "b"],
      "players": ["mjbot", "greedy", "mjbot", "greedy"]}, HEADERS[1]),
    ({"rules": "taiwan-16", "seed": 1, "wall": list(WALL), "wall_index": 5, "seating": 2,
      "wall_mode": "sdw", "dealer": 1, "prevalent_wind": 1, "seats": ["a", "b", "a", "b"],
      "players": ["mjbot", "greedy", "mjbot", "greedy"]}, HEADERS[2]),
    ({"rules": "taiwan-16", "table": "t1", "game": 0, "seed": 1,
      "wall": [tile_name(t) for t in WALL], "dealer": 0, "prevalent_wind": 0,
      "seats": ["s0", "s1", "s2", "s3"], "decision_ms": 1000, "policy": "default",
      "wall_mode": "single"}, HEADERS[4]),
]


@pytest.mark.parametrize(("old", "header"), OLD_HEADERS, ids=lambda x: "")
def test_a_header_written_before_the_layout_field_still_reads(old: dict,
                                                              header: RecordHeader) -> None:
    assert RecordHeader.from_json(old) == header


DECISIONS: list[DecisionLine] = [
    DecisionRecord(1, "mjbot", "discard tile=5m", "search",
                   Reasons("a note", None, True, ("discard 5m: 2",))),  # an old record's text
    DecisionRecord(0, "planner", "chow middle=2m discard=3z", "claim", Reasons(
        "claim by value", None, True,
        (CandidateRecord(ActionKind.PASS, None, 2, chance=0.0028),
         CandidateRecord(ActionKind.CHOW, 27, 1, 0.0246, 0.0246, None, 12, 35.5, "",
                         (0, 1, 2), OutlookRecord(1, 9, 0.25, 0.031, 3.5)),
         CandidateRecord(ActionKind.DISCARD, 4, 3, outlook=OutlookRecord(
             2, 7, 0.1, 0.02, -0.5, tai=3, route="half flush"))))),
    DecisionRecord(2, "mjbot", "win", "win"),
    JudgeAnswer(3, 7, "2 5m", "OK", "PLAY 5m", "", 0.0123),
    AskAnswer(0, "t1-0-4-0", "discard tile=5m",
              (Option(kind="discard", tiles=["5m", "6m"]), Option(kind="win"))),
    ViolationRecord(3, 9, Fault.TIMEOUT, "no answer within 1000 ms", "default"),
]


@pytest.mark.parametrize("decision", DECISIONS, ids=lambda d: type(d).__name__)
def test_each_decision_line_reads_back(decision: object) -> None:
    data = json.loads(json.dumps(decision.to_json()))  # type: ignore[attr-defined]
    assert decision_from_json(data) == decision


RESULTS = [
    GameResult(Won(2, 4, False, False, 0, (FanItem("Pure Straight", 16, 1, "pure straight"),)),
               (-24, -8, 40, -8)),
    GameResult(Penalized(3, "WA", "PLAY 9z"), (10, 10, 10, -30)),
    GameResult(WallExhausted(), (0, 0, 0, 0)),
]


@pytest.mark.parametrize("result", RESULTS, ids=lambda r: type(r.ending).__name__)
def test_a_record_reads_back_typed(tmp_path: Path, result: GameResult) -> None:
    path = tmp_path / "g.jsonl"
    lines = record_lines(HEADERS[0], (), DECISIONS, result)
    path.write_text("\n".join(lines) + "\n")
    record = read_record(path)
    assert record.decisions == tuple(DECISIONS) and record.result == result
    assert record_lines(record.header, (), record.decisions, record.result) == lines


@pytest.mark.parametrize(("line", "says"), [
    ({"record": "decision", "seat": 5, "player": "p", "action": "win", "method": "win"},
     ":2: field 'seat': a seat is 0-3, got 5"),
    ({"record": "decision", "seat": 0, "player": "p", "action": "win", "method": "win",
      "mood": "calm"}, ":2: decision: unknown field 'mood'"),
    ({"record": "decision", "violation": {"seat": 0, "step": 1, "kind": "late",
                                          "detail": "", "policy": "default"}},
     ":2: field 'kind': expected one of ['timeout', 'illegal'], got 'late'"),
    ({"record": "decision", "seat": 0}, ":2: a decision line needs 'action'"),
    ({"record": "result", "ending": "Won", "seat": 0, "tile": 3, "self_drawn": "yes",
      "scores": [0, 0, 0, 0]}, ":2: field 'self_drawn': expected true or false, got 'yes'"),
])
def test_a_wrong_field_is_named_with_its_line(tmp_path: Path, line: dict, says: str) -> None:
    path = tmp_path / "g.jsonl"
    path.write_text(json.dumps({"record": "header", "rules": "mcr-botzone"}) + "\n"
                    + json.dumps(line) + "\n")
    with pytest.raises(RecordError, match=f"g.jsonl{re.escape(says)}"):
        read_record(path)


def test_a_candidate_is_kept_as_its_fields_and_rendered_from_them() -> None:
    decision = DECISIONS[1]
    assert isinstance(decision, DecisionRecord) and decision.reasons is not None
    chow = decision.reasons.candidates[1]
    assert isinstance(chow, CandidateRecord)
    data = chow.to_json()
    assert data["tile"] == "1z" and data["meld"] == ["1m", "2m", "3m"]
    assert CandidateRecord.from_json(json.loads(json.dumps(data))) == chow
    assert chow.label == "chow 1m2m3m, then discard 1z"
    assert dict(chow.numbers()) == {
        "deficiency": "1", "val": "0.0246", "chance": "0.0246", "δ": "-", "work": "12",
        "µs": "36", "to win": "1", "turns": "9", "P(win)": "0.250", "P(deal in)": "0.031",
        "value": "+3.50"}
    with pytest.raises(RecordError, match="a candidate: unknown field 'mood'"):
        CandidateRecord.from_json({**data, "mood": "calm"})
