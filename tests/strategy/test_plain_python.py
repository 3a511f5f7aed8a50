"""Every kernel without numba (MJBOT_NO_NUMBA=1: what a Botzone upload runs) gives the jitted
answers.  ``py_func`` alone is not enough: its inner calls would still be jitted."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]

ROW = r"""
import numpy as np
from strategy.candidates import best_shape_deficiency, discard_table
from strategy.completions import completion_ways, completion_ways_after_discards
from strategy.deficiency import shapes
from strategy.deficiency.changes import SuitCache, after_discards, after_draws
from strategy.deficiency.kernel import kernel_deficiency
from strategy.search import StepSearch
from strategy.deadline import Deadline, OutOfTime
from strategy.stepvalue import delta


def row(hand, kb, melds, search):
    h = np.array(hand, dtype=np.int8)
    k = np.array(kb, dtype=np.int8)
    a = (h + k).astype(np.int8)
    c = SuitCache(64)  # small: the table is emptied many times over
    out = [int(kernel_deficiency(h, k, melds)), list(map(float, completion_ways(h, k, melds)))]
    if int(h.sum()) == 3 * melds + 2:
        d = delta(h, k, melds, c)
        out.append([d.get(t, 0) for t in range(34)])
        regular, ways = np.zeros(34, np.int64), np.zeros(34)
        completion_ways_after_discards(h, k, melds, regular, ways)
        out += [regular.tolist(), ways.tolist()]
        best = np.zeros(34, np.int64)
        discard_table(h, k, melds, True, melds == 4, best, regular, ways, c.tables, c.rest,
                      c.keys, c.words, c.state, c.work)
        out += [best.tolist(), regular.tolist(), ways.tolist()]
        after_discards(h, k, melds, best, c.tables, c.rest, c.keys, c.words, c.state, c.work)
        out.append(best.tolist())
    else:
        after = np.zeros(34, np.int64)
        after_draws(h, k, melds, after, c.tables, c.rest, c.keys, c.words, c.state, c.work)
        out.append(after.tolist())
    if melds == 4:
        out += [int(shapes.seven_pairs(h, a)), int(shapes.thirteen_orphans(h, a)),
                int(shapes.honors_and_knitted(h, a)), int(shapes.knitted_straight(h, a, 4)),
                int(best_shape_deficiency(h, k, melds, True, True))]
    if search:  # the step-value walk: its value and the work it charged
        deadline = Deadline(budget=500)
        s = StepSearch(melds, k, deadline, lambda t: int(t[:9].sum()) % 2 == 0, memo=16,
                       cache=c)
        try:
            out.append(s.partial(h, k, max(1, min(2, out[0]))))
        except OutOfTime:
            out.append("out of time")
        out.append(deadline.spent)
    return out
"""

SCRIPT = ROW + r"""
import json, sys
import strategy.jit as jit
assert not jit.HAVE_NUMBA, "numba was used"
json.dump([row(*case) for case in json.load(sys.stdin)], sys.stdout)
"""


def jitted_rows(cases: list[tuple[list[int], list[int], int, bool]]) -> list[object]:
    space: dict[str, object] = {}
    exec(ROW, space)
    row = space["row"]
    return [row(*case) for case in cases]  # type: ignore[operator]


def test_plain_python_kernels_match_the_jitted_ones() -> None:
    rng = np.random.default_rng(21)
    cases = []
    for i in range(60):
        melds = [4, 4, 4, 5, 3, 1][i % 6]
        size = 3 * melds + 1 + (i % 2)
        hand = np.bincount(rng.choice(136, size, replace=False) // 4, minlength=34)
        if i % 5 == 0:  # a four of a kind
            hand[int(np.argmax(hand))] = 4
            while hand.sum() > size:
                hand[int(rng.choice(np.nonzero((hand > 0) & (hand < 4))[0]))] -= 1
        kb = np.minimum(rng.integers(0, 5, 34), 4 - hand)
        if i % 3 == 0:
            kb[rng.integers(0, 34, 12)] = 0  # empty KB rows
        cases.append((hand.tolist(), kb.tolist(), melds, False))
    for i in range(12):  # one or two tiles from complete, for the step-value walk
        melds = [4, 4, 3, 2][i % 4]
        hand = np.zeros(34, dtype=np.int64)
        for _ in range(melds):
            lo = int(rng.integers(0, 27))
            if lo % 9 <= 6 and i % 2:
                hand[lo:lo + 3] += 1
            else:
                hand[lo] += 3
        hand[int(rng.integers(0, 34))] += 1
        if i % 3:  # one tile changed
            hand[int(rng.choice(np.nonzero(hand)[0]))] -= 1
            hand[int(rng.integers(0, 34))] += 1
        if hand.max() > 4:
            continue
        kb = np.minimum(rng.integers(1, 5, 34), 4 - hand)
        cases.append((hand.tolist(), kb.tolist(), melds, True))
    env = {**os.environ, "MJBOT_NO_NUMBA": "1"}
    # numpy scalars that overflow (where numba would wrap) fail the run
    done = subprocess.run([sys.executable, "-W", "error::RuntimeWarning", "-c", SCRIPT],
                          input=json.dumps(cases), cwd=ROOT,
                          capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    plain = json.loads(done.stdout)
    searched = [row for case, row in zip(cases, plain, strict=True) if case[3]]
    assert len(searched) >= 6
    assert any(isinstance(row[-2], float) and row[-2] > 0 for row in searched)
    for case, want, got in zip(cases, plain, jitted_rows(cases), strict=True):
        assert want == got, case
