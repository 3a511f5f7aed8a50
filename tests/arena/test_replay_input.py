"""``mjbot replay`` refuses bad input clearly: every malformed record line or match-log entry
is named (line and field) with exit 2, and a game cut short is refused unless
``--allow-incomplete``, which replays it and says it is incomplete."""

from __future__ import annotations

import contextlib
import io
import json
import random
import re
from pathlib import Path

import pytest
from support import botzone_logs

from arena.cli import main
from arena.records.files import RecordError, read_record
from arena.tables.selfplay import play_one

LOGS = botzone_logs()


@pytest.fixture(scope="module")
def record_lines(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """A whole mcr-botzone game record (cheap players), as its lines."""
    out = tmp_path_factory.mktemp("rec")
    play_one((0, 4, ["greedy", "random", "greedy", "random"], "mcr-botzone", str(out)))
    return (out / "game-4-00000.jsonl").read_text().splitlines()


def write(tmp_path: Path, lines: list[str], name: str = "game.jsonl") -> Path:
    path = tmp_path / name
    path.write_text("".join(line + "\n" for line in lines))
    return path


def replay_cli(capsys: pytest.CaptureFixture[str], path: Path, *extra: str) -> tuple[int, str,
                                                                                     str]:
    code = main(["replay", str(path), *extra])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def first_event(lines: list[str], kind: str) -> int:
    return next(i for i, line in enumerate(lines)
                if json.loads(line).get("type") == kind)


def test_a_whole_record_replays(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                record_lines: list[str]) -> None:
    code, out, err = replay_cli(capsys, write(tmp_path, record_lines), "--json")
    assert code == 0, err
    summary = json.loads(out)
    assert summary["turns"] > 10 and summary["incomplete"] is None


def test_a_line_that_is_a_json_array_is_named(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str],
                                              record_lines: list[str]) -> None:
    lines = list(record_lines)
    lines[3] = json.dumps(list(json.loads(lines[3]).values()))
    code, _, err = replay_cli(capsys, write(tmp_path, lines))
    assert code == 2
    assert "game.jsonl:4: expected a JSON object, got a list" in err


@pytest.mark.parametrize(("field", "value", "says"), [
    ("seat", "1", "field 'seat': expected a whole number, got '1'"),
    ("seat", 4, "field 'seat': a seat is 0-3, got 4"),
    ("seat", True, "field 'seat': expected a whole number, got True"),
    ("tile", 99, "field 'tile': a tile index is 0-41, got 99"),
    ("tile", [3], "field 'tile': expected a whole number, got [3]"),
    ("colour", 1, "unknown field 'colour'"),
])
def test_a_wrong_event_field_is_named_with_its_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], record_lines: list[str],
        field: str, value: object, says: str) -> None:
    lines = list(record_lines)
    i = first_event(lines, "Discarded")
    data = json.loads(lines[i])
    data[field] = value
    lines[i] = json.dumps(data)
    code, _, err = replay_cli(capsys, write(tmp_path, lines))
    assert code == 2
    assert f"game.jsonl:{i + 1}: Discarded: {says}" in err, err


def test_a_dealt_hand_of_strings_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                          record_lines: list[str]) -> None:
    lines = list(record_lines)
    i = first_event(lines, "Dealt")
    data = json.loads(lines[i])
    data["tiles"] = [str(t) for t in data["tiles"]]
    lines[i] = json.dumps(data)
    code, _, err = replay_cli(capsys, write(tmp_path, lines))
    assert code == 2 and f":{i + 1}: Dealt: field 'tiles': item 0: expected a whole" in err


@pytest.mark.parametrize(("line", "says"), [
    ({"record": "event", "type": "Shouted", "seat": 0}, "unknown event type 'Shouted'"),
    ({"record": "gossip"}, "field 'record': unknown record line 'gossip'"),
    ({"type": "Discarded", "seat": 0, "tile": 1}, "unknown record line None"),
    ({"record": "event", "type": "Discarded", "seat": 0}, "field 'tile' is missing"),
    ({"record": "header", "rules": "mcr"}, "a second header line"),
])
def test_a_wrong_line_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                               record_lines: list[str], line: dict, says: str) -> None:
    lines = [*record_lines[:2], json.dumps(line), *record_lines[2:]]
    code, _, err = replay_cli(capsys, write(tmp_path, lines))
    assert code == 2 and "game.jsonl:3: " in err and says in err, err


@pytest.mark.parametrize(("change", "says"), [
    ({"rules": "poker"}, "game.jsonl:1: field 'rules': unknown rule set 'poker'"),
    ({"prevalent_wind": "E"}, "game.jsonl:1: field 'prevalent_wind': a wind is 0-3, got 'E'"),
])
def test_a_wrong_header_field_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                       record_lines: list[str], change: dict,
                                       says: str) -> None:
    lines = list(record_lines)
    lines[0] = json.dumps({**json.loads(lines[0]), **change})
    code, _, err = replay_cli(capsys, write(tmp_path, lines))
    assert code == 2 and says in err, err


def test_a_wrong_result_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                 record_lines: list[str]) -> None:
    lines = list(record_lines)
    lines[-1] = json.dumps({**json.loads(lines[-1]), "scores": [1, 2, 3]})
    code, _, err = replay_cli(capsys, write(tmp_path, lines))
    assert code == 2
    assert f"game.jsonl:{len(lines)}: field 'scores': expected four whole numbers" in err


def test_an_event_after_the_result_is_refused(tmp_path: Path, record_lines: list[str]) -> None:
    lines = [*record_lines, record_lines[2]]
    with pytest.raises(RecordError, match=f":{len(lines)}: a 'event' line after the result"):
        read_record(write(tmp_path, lines))


def test_an_empty_file_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for extra in ((), ("--allow-incomplete",)):
        code, out, err = replay_cli(capsys, write(tmp_path, []), *extra)
        assert code == 2 and out == "" and "game.jsonl: empty: no header line" in err


def test_a_record_without_header_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                            record_lines: list[str]) -> None:
    code, _, err = replay_cli(capsys, write(tmp_path, record_lines[1:]))
    assert code == 2 and "game.jsonl:1: a 'event' line before the header line" in err


def test_a_game_cut_short_is_refused_unless_allowed(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], record_lines: list[str]) -> None:
    decisions = [i for i, line in enumerate(record_lines) if '"record": "decision"' in line]
    lines = record_lines[:40] if not decisions else record_lines[:min(40, decisions[0])]
    path = write(tmp_path, lines)
    code, out, err = replay_cli(capsys, path)
    assert code == 2 and out == ""
    assert "incomplete game: the game was cut short: no result line after 39 events" in err
    assert "--allow-incomplete" in err
    code, out, err = replay_cli(capsys, path, "--allow-incomplete", "--json")
    assert code == 0
    summary = json.loads(out)
    assert summary["turns"] > 5 and summary["incomplete"].startswith("the game was cut short")
    assert "incomplete game" in err
    code, out, err = replay_cli(capsys, path, "--allow-incomplete")
    assert code == 0 and "(incomplete game)" in out


def test_a_header_alone_is_incomplete(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                      record_lines: list[str]) -> None:
    code, _, err = replay_cli(capsys, write(tmp_path, record_lines[:1]))
    assert code == 2 and "incomplete game: the record holds no events" in err


# ------------------------------------------------------------------ Botzone match logs
def log_data() -> dict:
    data: dict = json.loads(LOGS[0].read_text())
    return data


def test_a_whole_match_log_replays(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "log.json"
    path.write_text(json.dumps(log_data()))
    code, out, err = replay_cli(capsys, path, "--json")
    assert code == 0, err
    assert json.loads(out)["incomplete"] is None


def test_a_match_log_cut_short_is_refused_unless_allowed(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = log_data()
    data["logs"] = data["logs"][:41]
    path = tmp_path / "log.json"
    path.write_text(json.dumps(data))
    code, _, err = replay_cli(capsys, path)
    assert code == 2 and "incomplete game: the game was cut short: the judge's last output" in err
    code, out, _ = replay_cli(capsys, path, "--allow-incomplete", "--json")
    assert code == 0 and json.loads(out)["incomplete"].startswith("the game was cut short")


@pytest.mark.parametrize(("mangle", "says"), [
    (lambda d: d["logs"].__setitem__(2, [1, 2]), "logs[2]: expected an object, got list"),
    (lambda d: d["logs"][0]["output"]["content"].__setitem__("0", 7),
     "logs[0].output.content.0: expected seat 0's request text"),
    (lambda d: d["logs"][1].__setitem__("0", "PASS"), "logs[1].0: expected seat 0's answer"),
    (lambda d: d["logs"][1]["0"].__setitem__("response", 3), "logs[1].0.response: expected text"),
    (lambda d: d.pop("logs"), "not a Botzone match log"),
])
def test_a_wrong_match_log_entry_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                          mangle: object, says: str) -> None:
    data = log_data()
    mangle(data)  # type: ignore[operator]
    path = tmp_path / "log.json"
    path.write_text(json.dumps(data))
    code, _, err = replay_cli(capsys, path)
    assert code == 2 and says in err, err


@pytest.mark.parametrize(("text", "says"), [("", "empty"), ("[1, 2]", "not a Botzone match log"),
                                            ("{", "not JSON")])
def test_a_match_log_that_is_not_one_is_refused(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str],
                                                text: str, says: str) -> None:
    path = tmp_path / "log.json"
    path.write_text(text)
    code, _, err = replay_cli(capsys, path)
    assert code == 2 and says in err, err


def test_mutated_records_are_replayed_or_refused_naming_where(
        tmp_path: Path, record_lines: list[str]) -> None:
    """40 records with well-typed but inconsistent events (a seat, a tile changed, a line
    dropped): each replays, or exits 2 naming the line or the turn; nothing else escapes."""
    rng = random.Random(14)
    codes = []
    for k in range(40):
        lines = list(record_lines)
        for _ in range(rng.randint(1, 3)):
            i = rng.randrange(1, len(lines) - 1)
            data = json.loads(lines[i])
            if data.get("record") != "event":
                continue
            key = rng.choice([x for x in data if x not in ("record", "type")])
            value = data[key]
            if isinstance(value, list):
                if value:
                    value[rng.randrange(len(value))] = rng.randrange(42)
            elif isinstance(value, bool):
                value = not value
            else:
                value = rng.randrange(4 if key in ("seat", "from_seat") else 42)
            data[key] = value
            lines[i] = json.dumps(data)
        if rng.random() < 0.3:
            del lines[rng.randrange(1, len(lines) - 1)]
        path = write(tmp_path, lines, f"m{k}.jsonl")
        err = io.StringIO()
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
            code = main(["replay", str(path), "--seat", str(k % 4)])
        codes.append(code)
        assert code in (0, 2)
        if code == 2:  # the line that cannot be read, or the turn the view cannot follow
            assert re.search(rf"m{k}\.jsonl:(\d+: | turn \d+ \()", err.getvalue()), \
                err.getvalue()
    assert 0 in codes and 2 in codes


def test_a_record_under_another_name_is_read_as_a_record(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], record_lines: list[str]) -> None:
    code, out, err = replay_cli(capsys, write(tmp_path, record_lines, "game.json"), "--json")
    assert code == 0, err
    assert json.loads(out)["incomplete"] is None
    lines = list(record_lines)
    lines[2] = "[]"
    code, _, err = replay_cli(capsys, write(tmp_path, lines, "game.txt"))
    assert code == 2 and "game.txt:3: expected a JSON object, got a list" in err


def test_a_missing_file_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = replay_cli(capsys, tmp_path / "nowhere.jsonl")
    assert code == 2 and "nowhere.jsonl" in err
