"""Every kernel without numba (MJBOT_NO_NUMBA=1: what a Botzone upload runs) gives the jitted
answers.  ``py_func`` alone is not enough: its inner calls would still be jitted."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np

from strategy.completions import completion_ways
from strategy.deficiency import shapes
from strategy.deficiency.kernel import kernel_deficiency
from strategy.stepvalue import delta_vector

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = r"""
import json, sys
import numpy as np
import strategy.jit as jit
assert not jit.HAVE_NUMBA, "numba was used"
from strategy.completions import completion_ways
from strategy.deficiency import shapes
from strategy.deficiency.kernel import kernel_deficiency
from strategy.stepvalue import delta_vector
cases = json.load(sys.stdin)
out = []
for hand, kb, melds in cases:
    h = np.array(hand, dtype=np.int8); k = np.array(kb, dtype=np.int8)
    a = (h + k).astype(np.int8)
    d = np.zeros(34, dtype=np.int64)
    row = [int(kernel_deficiency(h, k, melds)), list(map(float, completion_ways(h, k, melds)))]
    if int(h.sum()) == 3 * melds + 2:
        delta_vector(h, k, melds, d)
    row.append(d.tolist())
    if melds == 4:
        row += [int(shapes.seven_pairs(h, a)), int(shapes.thirteen_orphans(h, a)),
                int(shapes.honors_and_knitted(h, a)), int(shapes.knitted_straight(h, a, 4))]
    out.append(row)
json.dump(out, sys.stdout)
"""


def jitted(hand: list[int], kb: list[int], melds: int) -> list[object]:
    h = np.array(hand, dtype=np.int8)
    k = np.array(kb, dtype=np.int8)
    a = (h + k).astype(np.int8)
    d = np.zeros(34, dtype=np.int64)
    row: list[object] = [int(kernel_deficiency(h, k, melds)),
                         list(map(float, completion_ways(h, k, melds)))]
    if int(h.sum()) == 3 * melds + 2:
        delta_vector(h, k, melds, d)
    row.append(d.tolist())
    if melds == 4:
        row += [int(shapes.seven_pairs(h, a)), int(shapes.thirteen_orphans(h, a)),
                int(shapes.honors_and_knitted(h, a)), int(shapes.knitted_straight(h, a, 4))]
    return row


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
        cases.append((hand.tolist(), kb.tolist(), melds))
    env = {**os.environ, "MJBOT_NO_NUMBA": "1"}
    done = subprocess.run([sys.executable, "-c", SCRIPT], input=json.dumps(cases), cwd=ROOT,
                          capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    plain = json.loads(done.stdout)
    for case, row in zip(cases, plain, strict=True):
        assert row == jitted(*case), case
