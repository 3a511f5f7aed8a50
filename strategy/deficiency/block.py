"""The block deficiency algorithm of Yan, Li & Li, "A Fast Algorithm for Computing the
Deficiency Number of a Mahjong Hand", as published, numba-jittable.

The hand is cut into KB-blocks (definition 14): runs of tiles of one suit in
which neighbouring kinds are KB-connected, i.e. some chow holds both and its
third tile is in the hand or the knowledge base (KB).  For each block every
local quasi-decomposition (qDCMP, definition 11: melds, pairs and pchows the
KB can complete, at most one pair it cannot) is enumerated and reduced to its
type, the seven attributes (m, n, p, e, re, rm, em) of Sec. 4.3.  The local
type sets are joined (Alg. 3), and Alg. 1 (Decide) prices each global type
with ke / km (the KB holds a pair / a meld); Alg. 2 returns the least price.

Extensions, as the paper indicates:

- honours: an honour block is one kind (honours take no chows);
- ``melds_needed`` M in 0-5 (taiwan-16 needs 5): the 4s of Decide and of
  Lemmas 2-6 become M, and a qDCMP holds at most M+1 melds and pmelds
  (M+1 only with a pair);
- declared melds (the Remark after Theorem 3: raise m by their number):
  the same as calling with ``melds_needed`` reduced by that number.

Pseudocode line 5 of Alg. 1 reads ``m + n > 4`` twice; the outer test is
``m + n >= 4`` (Lemma 3 covers m + n >= 4, and m + n = 4 with e = 0 would
otherwise fall through).

Theorem 3 claims the result is never above the deficiency and equal to it
when the deficiency is at most 4.  Against the exact kernel (see the tests)
the first half held on every sample, the second does not always: a type
checks each pmeld against the KB on its own, so pmelds waiting on the last
unseen copy of one tile are all priced at one change.  E.g. 1224899s with
22344488s unseen, two melds needed: 12 and 24 both wait on the one 3s, the
algorithm says 2, the deficiency is 3 (in the paper's own setting:
1222235689s 4669p, unseen 1567888s 114455779p, 2 against 3).  With every
copy unseen (hand only) it matched the kernel on every sample.  The answer
is the algorithm's: its "100" (no type can be completed) becomes
:data:`UNREACHABLE`.

The em attribute of a block needs e = 0 in that block (Sec. 4.3); Alg. 3
then joins em without looking at e, which only matters for types with an
incompletable pair, where Decide never reads em.

Hot parts run under numba's nopython mode (count vectors and type codes in
numpy arrays); the helpers are plain Python that numba compiles inline, so
``block_deficiency.py_func`` (also :data:`block_deficiency_py`) is the same
algorithm in plain Python.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np

from strategy.deficiency.kernel import ERR_SIZE, UNREACHABLE
from strategy.jit import HAVE_NUMBA, njit

__all__ = [
    "UNREACHABLE",
    "block_deficiency",
    "block_deficiency_py",
    "block_type_set",
    "decide",
    "kb_blocks",
]

F = TypeVar("F", bound=Callable[..., Any])


def _inline_helper(func: F) -> F:
    """Plain Python that numba compiles inline when a jitted caller uses it."""
    if HAVE_NUMBA:
        from numba.extending import register_jitable

        return register_jitable(func)  # type: ignore[no-any-return]
    return func


PAPER_INFINITY = 100
"""Alg. 1 and 2 write 100 for "cannot be completed"."""
_PAD = 2
"""Local count arrays hold ranks 0-8 at indices 2-10, zeros around them."""
_LOCAL = 13
_N_CODES = 7 * 7 * 7 * 2 * 8
"""Type codes: m, n, p in 0-6, e in 0-1, and the bits re, rm, em."""


@_inline_helper
def encode_type(m: int, n: int, p: int, e: int, re: int, rm: int, em: int) -> int:
    return ((((m * 7 + n) * 7 + p) * 2 + e) * 8) + re * 4 + rm * 2 + em


@_inline_helper
def decode_type(code: int) -> tuple[int, int, int, int, int, int, int]:
    """The type (m, n, p, e, re, rm, em) that :func:`encode_type` packed into ``code``."""
    bits = code & 7
    rest = code >> 3
    return (rest // 98, (rest // 14) % 7, (rest // 2) % 7, rest % 2,
            bits >> 2, (bits >> 1) & 1, bits & 1)


@_inline_helper
def decide(
    m: int, n: int, p: int, e: int, re: int, rm: int, em: int, ke: int, km: int, melds: int
) -> int:
    """Alg. 1 (Decide) with the 4 melds of the paper replaced by ``melds``."""
    if p == 0 and re == 0 and ke == 0:
        return PAPER_INFINITY
    if m + n <= melds and re == 0 and ke == 0 and rm == 0 and km == 0:
        return PAPER_INFINITY
    if m + n - e <= melds - 1 and rm == 0 and km == 0:
        return PAPER_INFINITY
    if m + n <= melds - 1 and p == 0 and ke == 0 and km == 0 and em == 1:
        return PAPER_INFINITY
    if m + n >= melds:
        if m + n > melds:
            return melds - m
        if (e == 0 and re == 1) or (p > 0 and rm == 1):
            return melds - m + 1
        return melds - m + 2
    # here m + n - e <= melds - 1
    mcost = 2 * rm + 3 * (1 - rm)
    ecost = re + 2 * (1 - re)
    if e == 1:
        return (n - 1) + mcost * (melds - m - n + 1)
    if p == 0:
        return n + mcost * (melds - m - n) + ecost + em
    f1 = n + mcost * (melds - m - n) + ecost
    f2 = n - 1 + mcost * (melds - m - n + 1)
    return min(f1, f2)


@_inline_helper
def _meldable(r: int, k: np.ndarray, suited: bool) -> bool:
    """Can the tile at local index ``r`` grow into a meld with two tiles of the KB ``k``?"""
    if k[r] >= 2:
        return True
    if not suited:
        return False
    return (
        (k[r - 2] > 0 and k[r - 1] > 0)
        or (k[r - 1] > 0 and k[r + 1] > 0)
        or (k[r + 1] > 0 and k[r + 2] > 0)
    )


@_inline_helper
def _remainder_bits(rem: np.ndarray, k: np.ndarray, suited: bool, e: int) -> int:
    """re * 4 + rm * 2 + em for a remainder ``rem`` under the local KB ``k``.

    re: a remainder tile the KB holds another copy of (it can become the eye);
    rm: a remainder tile that two KB tiles make a meld of;
    em: e = 0, re = rm = 1, but no two remainder tiles become the eye and a
    meld at once (the KB cannot supply both).
    """
    re = 0
    rm = 0
    for r in range(_PAD, _PAD + 9):
        if rem[r] > 0:
            if k[r] > 0:
                re = 1
            if _meldable(r, k, suited):
                rm = 1
    em = 0
    if e == 0 and re == 1 and rm == 1:
        em = 1
        for r1 in range(_PAD, _PAD + 9):
            if rem[r1] == 0 or k[r1] == 0:
                continue
            k[r1] -= 1  # the eye takes one KB copy of r1
            for r2 in range(_PAD, _PAD + 9):
                left = rem[r2] - 1 if r2 == r1 else rem[r2]
                if left > 0 and _meldable(r2, k, suited):
                    em = 0
                    break
            k[r1] += 1
            if em == 0:
                break
    return re * 4 + rm * 2 + em


@_inline_helper
def _add_code(code: int, seen: np.ndarray, out: np.ndarray, count: int) -> int:
    if not seen[code]:
        seen[code] = True
        out[count] = code
        count += 1
    return count


@_inline_helper
def _block_types(
    c: np.ndarray,
    k: np.ndarray,
    lo: int,
    hi: int,
    suited: bool,
    melds: int,
    seen: np.ndarray,
    out: np.ndarray,
) -> int:
    """The type set of every local qDCMP of one KB-block; returns its size.

    ``c`` holds the block's tiles and ``k`` the KB of its suit (local indices,
    ranks ``lo``-``hi``); both are restored on return.  The enumeration is
    the quadtree's, without duplicates: at each rank the groups that begin
    there are chosen in a fixed order (chow, pchow a a+1, pchow a a+2, pair,
    pung), then the copies left over go to the remainder.
    """
    limit = melds + 1
    rem = np.zeros(_LOCAL, np.int64)
    depth_cap = 24  # at most M + 1 groups and ten rank steps
    st_r = np.zeros(depth_cap, np.int64)
    st_cursor = np.zeros(depth_cap, np.int64)
    st_applied = np.full(depth_cap, -1, np.int64)
    st_passed = np.zeros(depth_cap, np.int64)
    m = 0
    n = 0
    p = 0
    e = 0
    count = 0
    depth = 0
    st_r[0] = lo
    while depth >= 0:
        r = st_r[depth]
        act = st_applied[depth]
        if act >= 0:  # undo the child just explored
            if act == 0:
                c[r] += 1
                c[r + 1] += 1
                c[r + 2] += 1
                m -= 1
            elif act == 1:
                c[r] += 1
                c[r + 1] += 1
                n -= 1
            elif act == 2:
                c[r] += 1
                c[r + 2] += 1
                n -= 1
            elif act == 3:
                c[r] += 2
                n -= 1
                p -= 1
                if k[r] == 0:
                    e -= 1
            elif act == 4:
                c[r] += 3
                m -= 1
            else:
                c[r] += st_passed[depth]
                rem[r] -= st_passed[depth]
            st_applied[depth] = -1
        if r > hi:  # a leaf: one local qDCMP
            if m + n < limit or p > 0:
                bits = _remainder_bits(rem, k, suited, e)
                code = encode_type(m, n, p, e, bits >> 2, (bits >> 1) & 1, bits & 1)
                count = _add_code(code, seen, out, count)
            depth -= 1
            continue
        cur = st_cursor[depth]
        child = -1
        if c[r] > 0:
            while cur <= 4 and child < 0:
                if cur == 0:
                    ok = suited and m + n < limit and c[r + 1] > 0 and c[r + 2] > 0
                elif cur == 1:
                    ok = (
                        suited and m + n < limit and c[r + 1] > 0 and (k[r - 1] > 0 or k[r + 2] > 0)
                    )
                elif cur == 2:
                    ok = suited and m + n < limit and c[r + 2] > 0 and k[r + 1] > 0
                elif cur == 3:
                    ok = m + n < limit and c[r] >= 2 and (k[r] > 0 or e == 0)
                else:
                    ok = m + n < limit and c[r] >= 3
                if ok:
                    child = cur
                cur += 1
        elif cur < 5:
            cur = 5
        if child >= 0:
            if child == 0:
                c[r] -= 1
                c[r + 1] -= 1
                c[r + 2] -= 1
                m += 1
            elif child == 1:
                c[r] -= 1
                c[r + 1] -= 1
                n += 1
            elif child == 2:
                c[r] -= 1
                c[r + 2] -= 1
                n += 1
            elif child == 3:
                c[r] -= 2
                n += 1
                p += 1
                if k[r] == 0:
                    e += 1
            else:
                c[r] -= 3
                m += 1
            st_applied[depth] = child
            st_cursor[depth] = cur
            depth += 1
            st_r[depth] = r
            st_cursor[depth] = child
            st_applied[depth] = -1
        elif cur <= 5:  # pass: the copies left go to the remainder
            st_passed[depth] = c[r]
            rem[r] += c[r]
            c[r] = 0
            st_applied[depth] = 5
            st_cursor[depth] = 6
            depth += 1
            st_r[depth] = r + 1
            st_cursor[depth] = 0
            st_applied[depth] = -1
        else:
            depth -= 1
    return count


@_inline_helper
def _join(
    acc: np.ndarray,
    n_acc: int,
    loc: np.ndarray,
    n_loc: int,
    melds: int,
    seen: np.ndarray,
    out: np.ndarray,
) -> int:
    """Alg. 3: the combined type set of two type sets; returns its size."""
    limit = melds + 1
    count = 0
    for i in range(n_acc):
        x = acc[i]
        x_bits = x & 7
        x_rest = x >> 3
        x_e = x_rest % 2
        x_p = (x_rest // 2) % 7
        x_n = (x_rest // 14) % 7
        x_m = x_rest // 98
        for j in range(n_loc):
            y = loc[j]
            y_bits = y & 7
            y_rest = y >> 3
            e = x_e + y_rest % 2
            p = x_p + (y_rest // 2) % 7
            n = x_n + (y_rest // 14) % 7
            m = x_m + y_rest // 98
            if e > 1 or m + n > limit or (m + n == limit and p == 0):
                continue
            em = 0
            if (x_bits & 1) == 1 and (y_bits & 6) == 0:
                em = 1
            if (y_bits & 1) == 1 and (x_bits & 6) == 0:
                em = 1
            code = encode_type(
                m, n, p, e, ((x_bits | y_bits) >> 2) & 1, ((x_bits | y_bits) >> 1) & 1, em
            )
            count = _add_code(code, seen, out, count)
    return count


@_inline_helper
def _unseen_vector(hand: np.ndarray, unseen: np.ndarray, kb: np.ndarray) -> int:
    """kb <- the KB as 34 counts; returns -(1 + t) for a bad tile t, else 0."""
    full = unseen.shape[0] == 0
    for t in range(34):
        h = hand[t]
        if full:
            u = 4 - h
        elif t < unseen.shape[0]:
            u = unseen[t]
        else:
            u = 0
        if h < 0 or u < 0 or h + u > 4:
            return -(1 + t)
        kb[t] = u
    return 0


@_inline_helper
def _kb_attributes(kb: np.ndarray) -> int:
    """ke * 2 + km: the KB holds a pair / a meld (pung or chow)."""
    ke = 0
    km = 0
    for t in range(34):
        if kb[t] >= 2:
            ke = 1
        if kb[t] >= 3:
            km = 1
    for s in range(3):
        for r in range(7):
            t = 9 * s + r
            if kb[t] > 0 and kb[t + 1] > 0 and kb[t + 2] > 0:
                km = 1
    return ke * 2 + km


@_inline_helper
def _block_end(
    hand: np.ndarray, kb: np.ndarray, base: int, width: int, suited: bool, lo: int
) -> int:
    """The last rank of the KB-block (definition 14) that starts at rank ``lo`` of a suit.

    Neighbouring hand kinds are KB-connected when a chow holds both and its
    third tile is in the hand or the KB; blocks are runs of such neighbours
    (a kind between two connected kinds is connected to both).  Honours are
    blocks of one kind.
    """
    hi = lo
    if not suited:
        return hi
    while True:
        nxt = hi + 1
        while nxt < width and hand[base + nxt] == 0:
            nxt += 1
        if nxt >= width or nxt - hi > 2:
            return hi
        if nxt - hi == 1:
            below = hi >= 1 and (hand[base + hi - 1] > 0 or kb[base + hi - 1] > 0)
            above = nxt <= 7 and (hand[base + nxt + 1] > 0 or kb[base + nxt + 1] > 0)
            linked = below or above
        else:
            linked = kb[base + hi + 1] > 0
        if not linked:
            return hi
        hi = nxt


@_inline_helper
def _global_types(hand: np.ndarray, kb: np.ndarray, melds: int, acc: np.ndarray) -> int:
    """Alg. 2, lines 1-16: the joined type set of all KB-blocks, written to ``acc``."""
    c = np.zeros(_LOCAL, np.int64)
    k = np.zeros(_LOCAL, np.int64)
    loc = np.zeros(_N_CODES, np.int64)
    tmp = np.zeros(_N_CODES, np.int64)
    seen = np.zeros(_N_CODES, np.bool_)
    n_acc = 1
    acc[0] = 0  # the empty qDCMP: the join's unit
    for s in range(4):
        base = 9 * s
        width = 9 if s < 3 else 7
        suited = s < 3
        k[:] = 0
        for r in range(width):
            k[_PAD + r] = kb[base + r]
        r = 0
        while r < width:
            if hand[base + r] == 0:
                r += 1
                continue
            lo = r
            hi = _block_end(hand, kb, base, width, suited, lo)
            c[:] = 0
            for q in range(lo, hi + 1):
                c[_PAD + q] = hand[base + q]
            seen[:] = False
            n_loc = _block_types(c, k, _PAD + lo, _PAD + hi, suited, melds, seen, loc)
            seen[:] = False
            n_acc = _join(acc, n_acc, loc, n_loc, melds, seen, tmp)
            acc[:n_acc] = tmp[:n_acc]
            r = hi + 1
    return n_acc


def kb_blocks(hand: np.ndarray, unseen: np.ndarray) -> list[list[int]]:
    """The KB-blocks of a hand (definition 14) as lists of tile indices, one per copy."""
    h = np.asarray(hand, dtype=np.int64)
    kb = np.zeros(34, np.int64)
    if h.shape[0] != 34 or _unseen_vector(h, np.asarray(unseen, dtype=np.int64), kb) != 0:
        raise ValueError("hand and unseen must be compatible count vectors of 34")
    out = []
    for s in range(4):
        base, width = 9 * s, (9 if s < 3 else 7)
        r = 0
        while r < width:
            if h[base + r] == 0:
                r += 1
                continue
            hi = _block_end(h, kb, base, width, s < 3, r)
            out.append([base + q for q in range(r, hi + 1) for _ in range(int(h[base + q]))])
            r = hi + 1
    return out


def block_type_set(
    hand: np.ndarray, unseen: np.ndarray, melds_needed: int
) -> list[tuple[int, ...]]:
    """The global type set (m, n, p, e, re, rm, em) of Alg. 2, sorted; for tests and study."""
    h = np.asarray(hand, dtype=np.int64)
    kb = np.zeros(34, np.int64)
    if h.shape[0] != 34 or _unseen_vector(h, np.asarray(unseen, dtype=np.int64), kb) != 0:
        raise ValueError("hand and unseen must be compatible count vectors of 34")
    acc = np.zeros(_N_CODES, np.int64)
    size = _global_types(h, kb, melds_needed, acc)
    return sorted(decode_type(code) for code in acc[:size].tolist())


def _block_deficiency(hand: np.ndarray, unseen: np.ndarray, melds_needed: int) -> int:
    """Alg. 2 of Yan, Li & Li (the block deficiency), extended to honours and 0-5 melds.

    ``hand`` is a count vector of 34; ``unseen`` the KB (34 or 27 entries, or
    empty for every copy not in the hand).  Returns the algorithm's answer
    (Theorem 3 promises it exact up to deficiency 4; the module docstring
    says where it is not), :data:`UNREACHABLE` for its 100,
    :data:`ERR_SIZE` for a bad size, or ``-(1 + t)`` for a tile with a
    negative count or more than four copies between hand and KB.
    """
    if hand.shape[0] != 34:
        return ERR_SIZE
    kb = np.zeros(34, np.int64)
    err = _unseen_vector(hand, unseen, kb)
    if err != 0:
        return err
    total = 0
    for t in range(34):
        total += hand[t]
    if melds_needed < 0 or melds_needed > 5:
        return ERR_SIZE
    if total != 3 * melds_needed + 1 and total != 3 * melds_needed + 2:
        return ERR_SIZE
    acc = np.zeros(_N_CODES, np.int64)
    n_types = _global_types(hand, kb, melds_needed, acc)
    ke_km = _kb_attributes(kb)
    ke = ke_km >> 1
    km = ke_km & 1
    best = PAPER_INFINITY
    for i in range(n_types):
        m, n, p, e, re, rm, em = decode_type(acc[i])
        cost = decide(m, n, p, e, re, rm, em, ke, km, melds_needed)
        if cost == 0:
            return 0
        if cost < best:
            best = cost
    if best >= PAPER_INFINITY:
        return UNREACHABLE
    return best


block_deficiency = njit()(_block_deficiency)
"""Alg. 2 jitted; ``block_deficiency.py_func`` is the plain-Python twin."""
block_deficiency_py = _block_deficiency
"""The same algorithm in plain Python (what the paper timed)."""
