"""JSON from someone else is read in linear time (``protocols/bounded_json.py``).

The depth scan once removed strings with the regex ``"(?:[^"\\]|\\.)*"``: on an
unterminated string of ``\\"`` every quote starts a new attempt that runs to the end, so
64 KB took half a minute inside the referee's event loop.  The scan must cost about what
``json.loads`` costs on a flat string of the same size, and must still find exactly the
nesting ``json.loads`` would recurse through.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from protocols.bounded_json import JsonInputError, loads_bounded, nesting_depth

SIZES = (16 << 10, 32 << 10, 64 << 10, 1 << 20)
RELATIVE_BOUND = 20.0
"""How many times a flat string's parse of the same size a hostile input may take."""


def unterminated_escapes(size: int) -> str:
    """17 ``[`` and an unterminated string of ``\\"``: ``size`` characters."""
    head = "[" * 17 + '"'
    return head + '\\"' * ((size - len(head)) // 2)


def _fastest(parse: Callable[[], object], repeats: int = 5) -> float:
    best = float("inf")
    for _ in range(repeats):
        started = time.perf_counter()
        parse()
        best = min(best, time.perf_counter() - started)
    return best


def _refused(text: str) -> Callable[[], object]:
    def parse() -> object:
        with pytest.raises(JsonInputError, match="nested"):
            loads_bounded(text, max_depth=16, max_chars=2 << 20)
        return None
    return parse


@pytest.mark.parametrize("hostile", [
    unterminated_escapes,
    lambda n: "[" * 17 + '"' + "\\" * (n - 18),          # a run of backslashes
    lambda n: "[" * 17 + ('"\\"' * n)[: n - 17],           # quotes and escapes mixed
    lambda n: "[" * 17 + "]" * (n - 17) + "[" * 17,      # brackets only
])
def test_a_hostile_text_costs_what_a_flat_string_of_its_size_costs(
        hostile: Callable[[int], str]) -> None:
    """At 16 KB, 32 KB, 64 KB and 1 MB, refusing the hostile text takes at most
    ``RELATIVE_BOUND`` times parsing a flat JSON string of the same size (before: 16 KB
    took seconds, a flat string microseconds); the sizes go up, so a quadratic scan fails
    at the first one rather than running for hours."""
    ratios = {}
    for size in SIZES:
        text = hostile(size)
        flat = json.dumps("a" * (len(text) - 2))
        def flat_parse(flat: str = flat) -> object:
            return loads_bounded(flat, max_chars=2 << 20)

        baseline = _fastest(flat_parse)
        spent = _fastest(_refused(text), repeats=3)
        ratios[size] = spent / baseline
        assert ratios[size] <= RELATIVE_BOUND, ratios


def _reference_depth(text: str) -> int:
    """One character at a time, as a JSON reader sees strings and escapes."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(alphabet='ab"\\[]{}\n\u00e9', max_size=12),
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.text(alphabet='k"\\[]{}', max_size=4), inner, max_size=4),
    max_leaves=30)


@settings(max_examples=400, deadline=None)
@given(value=json_values, ensure_ascii=st.booleans())
def test_the_scan_finds_the_depth_a_reader_finds(value: object, ensure_ascii: bool) -> None:
    """Strings full of quotes, backslashes and brackets count for nothing; the depth is the
    reference scanner's, and ``loads_bounded`` reads back what ``json.dumps`` wrote."""
    text = json.dumps(value, ensure_ascii=ensure_ascii)
    assert nesting_depth(text) == _reference_depth(text)
    assert loads_bounded(text) == value


@pytest.mark.parametrize(("text", "depth"), [
    ('"[[["', 0), ('["\\\\"]', 1), ('["\\"[["]', 1), ('[["\\\\\\"[", [[]]]]', 4),
    ('{"a": [{"b": "}}}"}]}', 3), ('"unterminated [[[', 0), ("[[[", 3), ("", 0),
])
def test_the_scan_on_written_cases(text: str, depth: int) -> None:
    assert nesting_depth(text) == depth


def test_the_scan_stops_once_past_the_bound() -> None:
    """With ``stop_above``, the scan says only that the text is deeper (it need not read the
    rest); without, the whole depth."""
    text = "[" * 100 + "]" * 100
    assert nesting_depth(text) == 100
    assert nesting_depth(text, stop_above=16) == 17
    assert nesting_depth("[[]]", stop_above=16) == 2
    with pytest.raises(JsonInputError, match="nested more than 16 deep"):
        loads_bounded(text, max_depth=16)
