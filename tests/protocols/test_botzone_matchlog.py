"""The Botzone match-log reader on the 8 real logs, and on logs that are not right.

The real logs are checked against the raw JSON read by hand: the wall and wind of
``initdata``, every seat's request and answer in order, and the judge mock fed the log's
answers ends with the scores the judge wrote.  A log that is wrong anywhere is refused
with a :class:`MatchLogError` naming the entry and the field, and nothing else escapes.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from support import botzone_logs

import protocols.botzone_matchlog as matchlog
from game.events import InvalidAction, Pass, PlatformFault
from game.tiles import parse_tile
from protocols.botzone_matchlog import MatchLogError, judge_table, load_match_log, read_match_log

LOGS = botzone_logs()


def raw(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.name[:8])
def test_a_real_log_reads_as_its_json_says(path: Path) -> None:
    data, log = raw(path), load_match_log(path)
    init = json.loads(data["initdata"])
    assert log.walltiles == tuple(parse_tile(t) for t in init["walltiles"].split())
    assert len(log.walltiles) == 136 and log.prevalent_wind == init["quan"]
    assert log.names == tuple(p["name"] for p in data["players"])
    assert log.incomplete is None
    entries = data["logs"]
    for seat in range(4):
        expected = [(entries[k]["output"]["content"][str(seat)],
                     entries[k + 1][str(seat)].get("response", ""))
                    for k in range(0, len(entries) - 1, 2)
                    if entries[k]["output"]["command"] == "request"]
        assert log.seat_lines(seat) == expected
        assert expected[0][0] == f"0 {seat} {init['quan']}"


@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.name[:8])
def test_the_judge_mock_fed_a_real_log_scores_as_the_judge(path: Path) -> None:
    finish = raw(path)["logs"][-1]["output"]
    table = judge_table(load_match_log(path))
    assert table.finished and table.result is not None
    assert list(table.result.scores) == [finish["content"][str(s)] for s in range(4)]


def log_data() -> dict[str, Any]:
    return raw(LOGS[0])


def read(data: dict[str, Any]) -> matchlog.MatchLog:
    return read_match_log(json.dumps(data))


def test_an_answer_missing_or_timed_out_is_a_fault_and_no_response() -> None:
    data = log_data()
    del data["logs"][1]["2"]
    data["logs"][3]["1"] = {"verdict": "TLE"}
    log = read(data)
    first, second = log.stages()[:2]
    assert first[2] == PlatformFault("missing") and first[0] == Pass()
    assert second[1] == PlatformFault("TLE")
    assert log.seat_lines(2)[0] == ("0 2 2", "") and log.seat_lines(1)[1][1] == ""


def test_an_unreadable_response_is_an_invalid_action() -> None:
    data = log_data()
    data["logs"][1]["0"]["response"] = "PLAY X9"
    assert isinstance(read(data).stages()[0][0], InvalidAction)


def test_initdata_may_be_an_object() -> None:
    data = log_data()
    data["initdata"] = json.loads(data["initdata"])
    assert read(data) == read(log_data())


def test_a_log_cut_short_says_so() -> None:
    data = log_data()
    data["logs"] = data["logs"][:41]
    log = read(data)
    assert log.incomplete == ("the game was cut short: the judge's last output (of 21) is "
                              "a 'request', not 'finish'")
    assert len(log.answered) == 20 and not judge_table(log).finished
    data["logs"] = []
    assert read(data).incomplete == "the log holds no judge output"


def _set(*path: Any, to: Any) -> Callable[[dict[str, Any]], None]:
    def mangle(data: dict[str, Any]) -> None:
        node = data
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = to
    return mangle


def _drop(key: str) -> Callable[[dict[str, Any]], None]:
    return lambda data: data.pop(key) and None


@pytest.mark.parametrize(("mangle", "says"), [
    (_drop("logs"), "not a Botzone match log: expected an object with a 'logs' list"),
    (_set("logs", to={"0": 1}), "not a Botzone match log"),
    (_drop("initdata"), "initdata: expected the judge's start data (an object or its JSON "
                        "text), got NoneType"),
    (_set("initdata", to="{"), "initdata: not JSON"),
    (_set("initdata", to='{"quan": 1}'), "initdata.walltiles: expected the wall's tiles as text"),
    (_set("initdata", to='{"walltiles": "W1 W2 X9"}'),
     "initdata.walltiles[2]: unknown tile 'X9' in botzone notation"),
    (_set("initdata", to='{"walltiles": "W1", "quan": 4}'),
     "initdata.quan: expected the prevalent wind 0-3, got 4"),
    (_set("initdata", to='{"walltiles": "W1", "quan": true}'), "initdata.quan"),
    (_set("logs", 2, to=[1, 2]), "logs[2]: expected an object, got list"),
    (_set("logs", 2, "output", to="x"), "logs[2].output: expected the judge's output object"),
    (_set("logs", 2, "output", "command", to=None), "logs[2].output.command: expected text"),
    (_set("logs", 0, "output", "content", to=[]),
     "logs[0].output.content: expected each seat's request text"),
    (_set("logs", 0, "output", "content", "0", to=7),
     "logs[0].output.content.0: expected seat 0's request text, got 7"),
    (_set("logs", 1, "0", to="PASS"), "logs[1].0: expected seat 0's answer object, got str"),
    (_set("logs", 1, to="PASS"), "logs[1]: expected an object, got str"),
    (_set("logs", 1, "0", "response", to=3), "logs[1].0.response: expected text, got 3"),
    (_set("logs", 1, "3", "verdict", to=[]), "logs[1].3.verdict: expected text, got []"),
])
def test_a_wrong_log_is_refused_naming_the_entry_and_field(
        mangle: Callable[[dict[str, Any]], None], says: str) -> None:
    data = log_data()
    mangle(data)
    with pytest.raises(MatchLogError) as caught:
        read(data)
    assert says in str(caught.value)


@pytest.mark.parametrize(("text", "says"), [
    ("", "empty"), ("  \n", "empty"), ("[1, 2]", "not a Botzone match log"), ("{", "not JSON"),
    ('{"logs": ' + "[" * 40 + "]" * 40 + "}", "nested more than 32 deep"),
    (b'{"logs": []}\xff', "not UTF-8"),
])
def test_text_that_is_no_log_is_refused(text: str | bytes, says: str) -> None:
    with pytest.raises(MatchLogError) as caught:
        read_match_log(text)
    assert says in str(caught.value)


def test_size_is_checked_before_parsing(monkeypatch: pytest.MonkeyPatch,
                                        tmp_path: Path) -> None:
    text = LOGS[0].read_text(encoding="utf-8")
    monkeypatch.setattr(matchlog, "MAX_DOCUMENT_CHARS", len(text) - 1)
    with pytest.raises(MatchLogError, match=f"{len(text)} characters, more than the "
                                            f"{len(text) - 1} allowed"):
        read_match_log(text)
    path = tmp_path / "big.json"
    path.write_text(text + " " * 1000, encoding="utf-8")
    with pytest.raises(MatchLogError, match=rf"big.json: {len(text)} bytes, more than"):
        load_match_log(path)  # read no further than one byte past the limit
    monkeypatch.undo()
    assert load_match_log(path) == load_match_log(LOGS[0])


def test_damaged_logs_read_or_are_refused_and_nothing_else_escapes() -> None:
    """60 damaged copies of a real log (cut anywhere, characters flipped, entries swapped):
    each reads, or is refused with a MatchLogError."""
    text = LOGS[0].read_text(encoding="utf-8")
    entries = log_data()["logs"]
    rng = random.Random(39)
    refused = 0
    for _ in range(60):
        kind = rng.randrange(3)
        if kind == 0:
            damaged = text[:rng.randrange(len(text))]
        elif kind == 1:
            chars = list(text)
            for _ in range(rng.randint(1, 5)):
                chars[rng.randrange(len(chars))] = rng.choice('{}[]":,0Wx ')
            damaged = "".join(chars)
        else:
            data = log_data()
            i, j = rng.randrange(len(entries)), rng.randrange(len(entries))
            data["logs"][i], data["logs"][j] = entries[j], entries[i]
            damaged = json.dumps(data)
        try:
            log = read_match_log(damaged)
        except MatchLogError:
            refused += 1
            continue
        for seat in range(4):
            log.seat_lines(seat)
        log.stages()
    assert 0 < refused < 60
