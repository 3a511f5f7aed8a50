"""The step-value search of :mod:`strategy.stepvalue` as one jitted state machine.

:class:`strategy.stepvalue.StepValue` is the reference: a memoised recursion in
Python that asks a kernel for the deficiency after every draw or discard of a
node.  :class:`StepSearch` computes the same P(S, l) / val_k, with the same
memo, the same pruning, the same work units charged in the same order and the
same point where a budget runs out (tests compare the two node for node), but
walks the tree inside one jitted function (:func:`_run`) over explicit frames:

- the tree walk keeps one hand and one KB and changes them in place on the way
  down and back;
- the memo is an open-addressing table in arrays, keyed exactly by the node's
  hand and KB (three bits per count) and the changes left;
- the deficiency after every draw or discard comes from the block kernel of
  :mod:`strategy.deficiency.changes` (one pass over the hand, then one suit or
  the honours per tile).

The walk returns to Python only when it needs something Python has: a fan
check for completed hands (a batch: every completion one draw away from the
node), a look at the wall clock (every 64 work units, as :class:`Deadline`
does), a bigger memo, or when the budget is spent.  The frames keep their
place, so the walk resumes where it stopped and stays anytime.
"""

from collections.abc import Callable

import numpy as np

from game.tiles import NUM_KINDS, Counts
from strategy.deadline import Cut, Deadline, OutOfTime
from strategy.deficiency.changes import SuitCache, after_discards, after_draws
from strategy.deficiency.kernel import UNREACHABLE
from strategy.jit import njit
from strategy.stepvalue import value_per_discard

MAX_CHANGES = 4
"""Deepest horizon the jitted walk takes (P(S, l) for l <= 4; StepValue takes any)."""
MAX_FRAMES = 2 * MAX_CHANGES + 2

# walk status
DONE, OUT, CLOCK, NEED, GROW = 0, 1, 2, 3, 4
# frame kinds: P(S, l) of a 3m+1 hand, val_l of a 3m+2 hand, and the memo's fan answers
PARTIAL, FULL, WIN = 0, 1, 2
# frame stages
ENTER, EXPAND, ITER, CHECKED = 0, 1, 2, 3
# frame fields
F_KIND, F_K, F_STAGE, F_CURSOR, F_TOTAL = 0, 1, 2, 3, 4
# walk state fields
S_DEPTH, S_SPENT, S_BUDGET, S_CLOCK, S_CHECK, S_FILLED, S_MELDS = 0, 1, 2, 3, 4, 5, 6
NODE_UNITS = NUM_KINDS
"""Work units per expanded node (one kernel answer per tile kind), as StepValue charges."""
_PRIME = 2_147_483_647


@njit()
def _slot(a: int, b: int, c: int, d: int, mask: int) -> int:
    h = a % _PRIME
    h = (h * 1_000_003 + b % _PRIME) % _PRIME
    h = (h * 1_000_003 + c % _PRIME) % _PRIME
    h = (h * 1_000_003 + d % _PRIME) % _PRIME
    return h & mask


@njit()
def _tag(code: "np.ndarray", kind: int, k: int) -> int:
    """Word 1 of a memo key: the hand's tiles 21-33, the node kind and the changes left
    (never 0, which marks an empty slot)."""
    return code[1] | ((kind + 1) << 40) | (k << 43)


@njit()
def _lookup(keys: "np.ndarray", vals: "np.ndarray", a: int, b: int, c: int, d: int) -> float:
    mask = keys.shape[0] - 1
    i = _slot(a, b, c, d, mask)
    while keys[i, 1] != 0:
        if keys[i, 0] == a and keys[i, 1] == b and keys[i, 2] == c and keys[i, 3] == d:
            return vals[i]
        i = (i + 1) & mask
    return -1.0


@njit()
def _insert(keys: "np.ndarray", vals: "np.ndarray", st: "np.ndarray", a: int, b: int, c: int,
            d: int, v: float) -> None:
    mask = keys.shape[0] - 1
    i = _slot(a, b, c, d, mask)
    while keys[i, 1] != 0:
        if keys[i, 0] == a and keys[i, 1] == b and keys[i, 2] == c and keys[i, 3] == d:
            vals[i] = v
            return
        i = (i + 1) & mask
    keys[i, 0] = a
    keys[i, 1] = b
    keys[i, 2] = c
    keys[i, 3] = d
    vals[i] = v
    st[S_FILLED] += 1


@njit()
def rehash(keys: "np.ndarray", vals: "np.ndarray", new_keys: "np.ndarray", new_vals: "np.ndarray",
           st: "np.ndarray") -> None:
    st[S_FILLED] = 0
    for i in range(keys.shape[0]):
        if keys[i, 1] != 0:
            _insert(new_keys, new_vals, st, keys[i, 0], keys[i, 1], keys[i, 2], keys[i, 3],
                    vals[i])


@njit()
def _shift(t: int) -> "tuple[int, int]":
    return (0, 3 * t) if t < 21 else (1, 3 * (t - 21))


@njit()
def encode(hand: "np.ndarray", kb: "np.ndarray", code: "np.ndarray") -> None:
    """code = (hand tiles 0-20, hand tiles 21-33, KB tiles 0-20, KB tiles 21-33), 3 bits each."""
    for j in range(4):
        code[j] = 0
    for t in range(NUM_KINDS):
        w, s = _shift(t)
        code[w] += int(hand[t]) << s
        code[2 + w] += int(kb[t]) << s


@njit()
def _draw(hand: "np.ndarray", kb: "np.ndarray", code: "np.ndarray", t: int, sign: int) -> None:
    w, s = _shift(t)
    hand[t] += sign
    kb[t] -= sign
    code[w] += sign << s
    code[2 + w] -= sign << s


@njit()
def _discard(hand: "np.ndarray", code: "np.ndarray", t: int, sign: int) -> None:
    w, s = _shift(t)
    hand[t] -= sign
    code[w] -= sign << s


@njit()
def _push(fr: "np.ndarray", st: "np.ndarray", f: int, cursor: int, kind: int, k: int) -> None:
    """Frame ``f`` moves on kind ``cursor``: enter a child frame of ``kind`` and horizon ``k``."""
    fr[f, F_CURSOR] = cursor
    g = f + 1
    fr[g, F_KIND] = kind
    fr[g, F_K] = k
    fr[g, F_STAGE] = ENTER
    st[S_DEPTH] += 1


@njit()
def _run(hand: "np.ndarray", kb: "np.ndarray", code: "np.ndarray", fr: "np.ndarray",
         acc: "np.ndarray", after: "np.ndarray", wins: "np.ndarray", keys: "np.ndarray",
         vals: "np.ndarray", st: "np.ndarray", need: "np.ndarray", result: "np.ndarray",
         tables: "np.ndarray", rest: "np.ndarray", ckeys: "np.ndarray", cwords: "np.ndarray",
         cstate: "np.ndarray", work: "np.ndarray") -> int:
    """Walk the frames from where they stand until the root's value is known (DONE, value in
    ``result[0]``) or Python is needed (OUT, CLOCK, NEED, GROW)."""
    melds = st[S_MELDS]
    while True:
        f = st[S_DEPTH] - 1
        kind = fr[f, F_KIND]
        k = fr[f, F_K]
        stage = fr[f, F_STAGE]
        value = -1.0
        store = False
        if stage == ENTER:
            if 2 * (st[S_FILLED] + 2 * MAX_FRAMES + NUM_KINDS) > keys.shape[0]:
                return GROW
            hit = _lookup(keys, vals, code[0], _tag(code, kind, k), code[2], code[3])
            if hit >= 0.0:
                value = hit
            else:
                expand = True
                if kind == PARTIAL:
                    total = 0
                    for t in range(NUM_KINDS):
                        total += int(kb[t])
                    fr[f, F_TOTAL] = total
                    if k <= 0 or total <= 0:
                        expand = False
                        value = 0.0
                        store = True
                if expand:
                    st[S_SPENT] += NODE_UNITS
                    fr[f, F_STAGE] = EXPAND
                    if st[S_SPENT] > st[S_BUDGET]:
                        return OUT
                    if st[S_CLOCK] != 0 and (st[S_SPENT] & 63) == 0:
                        return CLOCK
                    continue
        elif stage == EXPAND:
            fr[f, F_CURSOR] = 0
            acc[f] = 0.0
            fr[f, F_STAGE] = ITER
            if kind == FULL:
                after_discards(hand, kb, melds, after[f], tables, rest, ckeys, cwords, cstate,
                               work)
                continue
            after_draws(hand, kb, melds, after[f], tables, rest, ckeys, cwords, cstate, work)
            n = 0
            for t in range(NUM_KINDS):
                if after[f, t] != 0:
                    continue
                if st[S_CHECK] == 0:
                    wins[f, t] = 1
                    continue
                w, s = _shift(t)
                a = code[0] + (1 << s) if w == 0 else code[0]
                b = code[1] + (1 << s) if w == 1 else code[1]
                known = _lookup(keys, vals, a, b | ((WIN + 1) << 40), 0, 0)
                if known >= 0.0:
                    wins[f, t] = 1 if known > 0.0 else 0
                else:
                    wins[f, t] = -1
                    n += 1
                    need[n] = t
            if n > 0:
                need[0] = n
                fr[f, F_STAGE] = CHECKED
                return NEED
            continue
        elif stage == CHECKED:  # Python has filled wins[f, need[1:]]: remember the answers
            for j in range(1, need[0] + 1):
                t = need[j]
                w, s = _shift(t)
                a = code[0] + (1 << s) if w == 0 else code[0]
                b = code[1] + (1 << s) if w == 1 else code[1]
                _insert(keys, vals, st, a, b | ((WIN + 1) << 40), 0, 0, float(wins[f, t]))
            fr[f, F_STAGE] = ITER
            continue
        else:  # ITER: the next child, or the node's value
            c = fr[f, F_CURSOR]
            pushed = False
            if kind == PARTIAL:
                while c < NUM_KINDS:
                    d = after[f, c]
                    if d <= k - 1:
                        if d == 0 and wins[f, c] == 1:
                            acc[f] += float(kb[c]) * 1.0
                        elif k - 1 > 0 and d < UNREACHABLE:
                            _draw(hand, kb, code, c, 1)
                            _push(fr, st, f, c, FULL, k - 1)
                            pushed = True
                            break
                    c += 1
                if not pushed:
                    value = acc[f] / float(fr[f, F_TOTAL])
                    store = True
            else:
                while c < NUM_KINDS:
                    if after[f, c] <= k:
                        _discard(hand, code, c, 1)
                        _push(fr, st, f, c, PARTIAL, k)
                        pushed = True
                        break
                    c += 1
                if not pushed:
                    value = acc[f]
                    store = True
            if pushed:
                continue
        # the frame's value is known: remember it, hand it to the parent
        if store:
            _insert(keys, vals, st, code[0], _tag(code, kind, k), code[2], code[3], value)
        st[S_DEPTH] -= 1
        if st[S_DEPTH] == 0:
            result[0] = value
            return DONE
        p = f - 1
        c = fr[p, F_CURSOR]
        if fr[p, F_KIND] == PARTIAL:
            _draw(hand, kb, code, c, -1)
            acc[p] += float(kb[c]) * value
        else:
            _discard(hand, code, c, -1)
            if value > acc[p]:
                acc[p] = value
        fr[p, F_CURSOR] = c + 1


class StepSearch:
    """P(S, l) (and val_k after a discard) with floats, for one KB: the numbers, memo and work
    accounting of :class:`strategy.stepvalue.StepValue`, walked by :func:`_run`.

    ``complete`` decides whether a 3m+2 hand of deficiency 0 is a win (the MCR agent's fan
    check); it is asked in batches and each answer is remembered for the search's life.
    """

    def __init__(self, melds: int, unseen: "Counts", deadline: "Deadline | None" = None,
                 complete: "Callable[[Counts], bool] | None" = None, memo: int = 1024,
                 cache: "SuitCache | None" = None) -> None:
        if memo < 16 or memo & (memo - 1):
            raise ValueError("the memo size must be a power of two, at least 16")
        self.melds = melds
        self.unseen = np.ascontiguousarray(unseen, dtype=np.int8).copy()
        self._unseen_bytes = self.unseen.tobytes()
        self.deadline = deadline
        self.complete = complete
        self.hand = np.zeros(NUM_KINDS, np.int8)
        self.kb = np.zeros(NUM_KINDS, np.int8)
        self.code = np.zeros(4, np.int64)
        self.frames = np.zeros((MAX_FRAMES, 5), np.int64)
        self.acc = np.zeros(MAX_FRAMES, np.float64)
        self.after = np.zeros((MAX_FRAMES, NUM_KINDS), np.int64)
        self.wins = np.zeros((MAX_FRAMES, NUM_KINDS), np.int8)
        self.keys = np.zeros((memo, 4), np.int64)
        self.vals = np.zeros(memo, np.float64)
        self.state = np.zeros(7, np.int64)
        self.state[S_MELDS] = melds
        self.state[S_CHECK] = 1 if complete is not None else 0
        self.need = np.zeros(NUM_KINDS + 1, np.int64)
        self.result = np.zeros(1, np.float64)
        self.cache = SuitCache() if cache is None else cache

    def partial(self, hand: "Counts", unseen: "Counts", k: int) -> float:
        """P(S, k) of the 3m+1 hand ``hand``; raises OutOfTime when the deadline passes."""
        same = (unseen.tobytes() == self._unseen_bytes
                if isinstance(unseen, np.ndarray) and unseen.dtype == np.int8
                and unseen.shape == self.unseen.shape
                else np.array_equal(unseen, self.unseen))
        if not same:
            raise ValueError("a StepSearch serves one KB; make another for this one")
        if not 0 <= k <= MAX_CHANGES:
            raise ValueError(f"the jitted search looks at most {MAX_CHANGES} changes ahead")
        dl = self.deadline
        st = self.state
        self.hand[:] = hand
        self.kb[:] = unseen
        encode(self.hand, self.kb, self.code)
        self.frames[0, F_KIND] = PARTIAL
        self.frames[0, F_K] = k
        self.frames[0, F_STAGE] = ENTER
        st[S_DEPTH] = 1
        st[S_SPENT] = dl.spent if dl is not None else 0
        st[S_BUDGET] = dl.budget if dl is not None else 1 << 62
        st[S_CLOCK] = 1 if dl is not None and dl.clock is not None else 0
        c = self.cache
        while True:
            status = _run(self.hand, self.kb, self.code, self.frames, self.acc, self.after,
                          self.wins, self.keys, self.vals, st, self.need, self.result,
                          c.tables, c.rest, c.keys, c.words, c.state, c.work)
            if dl is not None:
                dl.spent = int(st[S_SPENT])
            if status == DONE:
                return float(self.result[0])
            if status == OUT:
                raise OutOfTime(Cut.BUDGET)
            if status == CLOCK:
                assert dl is not None and dl.clock is not None
                if dl.clock() > dl.until:
                    raise OutOfTime(Cut.CLOCK)
            elif status == NEED:
                self._check_wins()
            elif status == GROW:
                size = 2 * self.keys.shape[0]
                keys = np.zeros((size, 4), np.int64)
                vals = np.zeros(size, np.float64)
                rehash(self.keys, self.vals, keys, vals, st)
                self.keys, self.vals = keys, vals

    def _check_wins(self) -> None:
        assert self.complete is not None
        f = int(self.state[S_DEPTH]) - 1
        h = self.hand.copy()
        for t in self.need[1:int(self.need[0]) + 1]:
            h[t] += 1
            self.wins[f, t] = 1 if self.complete(h) else 0
            h[t] -= 1

    def per_discard(self, hand: "Counts", unseen: "Counts", k: int) -> "dict[int, float]":
        """val_k(T, ω, i) for every distinct tile i of a 3m+2 hand (Lemma 8)."""
        return value_per_discard(self.partial, hand, unseen, k)
