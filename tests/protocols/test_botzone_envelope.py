"""Botzone's interaction envelope at the bot's end: what the first input and each
keep-running line may be, and what is refused (the judge's end is tested with the mock)."""

from __future__ import annotations

import json

import pytest

from protocols.botzone_envelope import (
    MAX_HISTORY_REQUESTS,
    EnvelopeError,
    FirstInput,
    format_answer,
    read_first_input,
    read_next_request,
)


def lines_of(*lines: str):
    it = iter(lines)
    return lambda: next(it, None)


def test_simple_first_input_reads_exactly_its_history() -> None:
    more = lines_of("0 0 0", "PASS", "1 0 0 0 0 W1", "next turn's line")
    assert read_first_input("2", more) == FirstInput(False, ("0 0 0", "1 0 0 0 0 W1"),
                                                     ("PASS",))
    assert more() == "next turn's line"  # nothing beyond the announced lines was read


def test_json_first_input() -> None:
    text = json.dumps({"requests": ["0 0 0", "2 W1"], "responses": ["PASS"], "data": ""})
    assert read_first_input(text, lines_of()) == FirstInput(True, ("0 0 0", "2 W1"),
                                                            ("PASS",))


@pytest.mark.parametrize(("first", "says"), [
    ('{"requests": "0 0 0"}', '"requests" is str, not a list'),
    ('{"requests": ["0 0 0"], "responses": 3}', '"responses" is int, not a list'),
    ('{"requests": []}', '"requests" is empty'),
    ("[1, 2]", "neither a number nor a JSON object"),
    ("{", "not JSON"),
    ("1000000000", f"expected 1 to {MAX_HISTORY_REQUESTS}"),
    ("0", "expected 1 to"),
    ("2", "input ended after 1 of the 3 history lines"),
    ("x" * 500, "... (500 chars)"),
])
def test_bad_first_input_is_named(first: str, says: str) -> None:
    with pytest.raises(EnvelopeError) as caught:
        read_first_input(first, lines_of("0 0 0"))
    assert says in str(caught.value)
    assert len(str(caught.value)) < 200


def test_keep_running_lines() -> None:
    assert read_next_request("3 1 PLAY W1") == "3 1 PLAY W1"
    assert read_next_request('"3 1 PLAY W1"') == "3 1 PLAY W1"
    assert read_next_request('{"requests": ["0 0 0", "2 W1"]}') == "2 W1"
    assert read_next_request("   ") is None  # Botzone's empty data line
    assert read_next_request('{"requests": 7}') == '{"requests": 7}'  # decoded later, refused


def test_answers_are_one_line_with_bounded_debug() -> None:
    assert format_answer("PLAY W1", "why", json_mode=False) == "PLAY W1"
    line = format_answer("PASS", "x" * 5000, json_mode=True)
    assert "\n" not in line and len(json.loads(line)["debug"]) == 1000
