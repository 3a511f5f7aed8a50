"""The fast paths against the straightforward ones they replace, number for number.

- the block kernel (deficiency after every draw or discard) against one kernel call per tile;
- δ with its shortcut against the definition (eq. 11), one kernel call per exchange;
- the completion ways of every discard (shared prefixes) against one DP per discard, to
  the last bit;
- the jitted step-value walk against the memoised recursion :class:`StepValue`: the same
  values, the same work charged, out of budget at the same point, with fan checks, a memo
  that must grow and a clock;
- the candidates' least shape deficiency against :func:`shapes_of`.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from game.rules import MCR_BOTZONE
from game.tiles import NUM_KINDS, parse_counts
from strategy.candidates import best_shape_deficiency, discard_numbers, discard_table
from strategy.completions import completion_ways, completion_ways_after_discards
from strategy.deadline import Deadline, OutOfTime
from strategy.deficiency import shapes_of
from strategy.deficiency.changes import SuitCache, after_discards, after_draws
from strategy.deficiency.kernel import UNREACHABLE, kernel_deficiency
from strategy.search import StepSearch
from strategy.stepvalue import StepValue, deficiency_after_discards, deficiency_after_draws, delta


def random_position(rng: np.random.Generator, melds: int, size: int, i: int
                    ) -> tuple[np.ndarray, np.ndarray]:
    hand = np.bincount(rng.choice(136, size, replace=False) // 4, minlength=NUM_KINDS)
    kb = np.minimum(rng.integers(0, 5, NUM_KINDS), 4 - hand)
    if i % 3 == 0:
        kb[rng.integers(0, NUM_KINDS, 15)] = 0
    if i % 7 == 0:
        kb[27:] = 0
    return hand.astype(np.int8), kb.astype(np.int8)


def near_complete(rng: np.random.Generator, melds: int, changed: int) -> np.ndarray | None:
    """A 3m+1 hand: ``melds`` melds and a single tile, then ``changed`` tiles swapped."""
    hand = np.zeros(NUM_KINDS, dtype=np.int64)
    for _ in range(melds):
        lo = int(rng.integers(0, 34))
        if lo < 27 and lo % 9 <= 6 and rng.random() < 0.6:
            hand[lo:lo + 3] += 1
        else:
            hand[lo] += 3
    hand[int(rng.integers(0, 34))] += 1
    for _ in range(changed):
        hand[int(rng.choice(np.nonzero(hand)[0]))] -= 1
        hand[int(rng.integers(0, 34))] += 1
    return None if hand.max() > 4 else hand.astype(np.int8)


def near_complete_draw(rng: np.random.Generator, melds: int, changed: int) -> np.ndarray | None:
    """A :func:`near_complete` hand with one random tile drawn: 3m+2 tiles (None where a
    kind would hold more than four)."""
    s = near_complete(rng, melds, changed)
    if s is None:
        return None
    hand = s.copy()
    hand[int(rng.integers(0, NUM_KINDS))] += 1
    return None if hand.max() > 4 else hand


def cache_args(c: SuitCache) -> tuple[np.ndarray, ...]:
    return c.tables, c.rest, c.keys, c.words, c.state, c.work


# ---------------------------------------------------------------- the block kernel
@pytest.mark.parametrize("cache_size", [16, 1 << 12])
def test_block_kernel_matches_one_kernel_call_per_tile(cache_size: int) -> None:
    rng = np.random.default_rng(5)
    cache = SuitCache(cache_size)  # 16 slots: emptied over and over
    fast = np.zeros(NUM_KINDS, dtype=np.int64)
    slow = np.zeros(NUM_KINDS, dtype=np.int64)
    for i in range(1500):
        melds = i % 6
        size = 3 * melds + 1 + (i // 6) % 2
        hand, kb = random_position(rng, melds, size, i)
        before = hand.copy()
        if size == 3 * melds + 1:
            after_draws(hand, kb, melds, fast, *cache_args(cache))
            deficiency_after_draws(hand, kb, melds, slow)
        else:
            after_discards(hand, kb, melds, fast, *cache_args(cache))
            deficiency_after_discards(hand, kb, melds, slow)
        assert (hand == before).all()
        assert fast.tolist() == slow.tolist(), (hand.tolist(), kb.tolist(), melds)
    if cache_size > 16:  # the same position again: every suit is found in the cache
        lookups, hits = int(cache.state[1]), int(cache.state[2])
        again = fast.copy()
        after_discards(hand, kb, melds, again, *cache_args(cache))
        assert again.tolist() == fast.tolist()
        assert cache.state[2] - hits == cache.state[1] - lookups > 0


def test_suit_cache_size_must_be_a_power_of_two() -> None:
    with pytest.raises(ValueError, match="power of two"):
        SuitCache(1000)


# ---------------------------------------------------------------- δ
def delta_by_definition(hand: np.ndarray, kb: np.ndarray, melds: int) -> dict[int, int]:
    now = kernel_deficiency(hand, kb, melds)
    out = {}
    for i in np.nonzero(hand)[0]:
        total = 0
        for t in np.nonzero(kb)[0]:
            h, k = hand.copy(), kb.copy()
            h[i] -= 1
            h[t] += 1
            k[t] -= 1
            if kernel_deficiency(h, k, melds) < now:
                total += int(kb[t])
        out[int(i)] = total
    return out


def test_delta_matches_its_definition() -> None:
    rng = np.random.default_rng(8)
    cache = SuitCache(64)
    checked = 0
    for i in range(300):
        melds = [4, 4, 3, 1][i % 4]
        hand, kb = random_position(rng, melds, 3 * melds + 2, i)
        d = delta(hand, kb, melds, cache)
        assert d == delta_by_definition(hand, kb, melds)
        checked += any(d.values())
    assert checked > 100


# ---------------------------------------------------------------- completion ways
def test_completion_ways_of_every_discard_match_one_dp_per_discard_bit_for_bit() -> None:
    rng = np.random.default_rng(7)
    deficiency = np.zeros(NUM_KINDS, dtype=np.int64)
    ways = np.zeros(NUM_KINDS)
    for i in range(600):
        melds = i % 6
        hand, kb = random_position(rng, melds, 3 * melds + 2, i)
        completion_ways_after_discards(hand, kb, melds, deficiency, ways)
        for t in range(NUM_KINDS):
            if hand[t] == 0:
                assert deficiency[t] == UNREACHABLE and ways[t] == 0.0
                continue
            h = hand.copy()
            h[t] -= 1
            d, w = completion_ways(h, kb, melds)
            assert (int(deficiency[t]), float(ways[t]).hex()) == (d, w.hex())
            assert d == kernel_deficiency(h, kb, melds)


# ---------------------------------------------------------------- candidates
def test_least_shape_deficiency_and_the_candidate_table() -> None:
    rng = np.random.default_rng(9)
    special = [parse_counts(text) for text in (
        "19m19p19s1234567z1z", "147m258p369s1234z5z", "147m258p369s123m5z", "1122m3344p5566s7z7z",
    )]
    cache = SuitCache()
    for i in range(400):
        melds = [4, 4, 3, 2][i % 4]
        if i < 40 and melds == 4:
            hand = special[i % 4].copy()
            kb = np.minimum(rng.integers(0, 5, NUM_KINDS), 4 - hand).astype(np.int8)
        else:
            hand, kb = random_position(rng, melds, 3 * melds + 2, i)
        d = np.zeros(NUM_KINDS, dtype=np.int64)
        regular = np.zeros(NUM_KINDS, dtype=np.int64)
        ways = np.zeros(NUM_KINDS)
        discard_table(hand, kb, melds, True, melds == 4, d, regular, ways, *cache_args(cache))
        for t in np.nonzero(hand)[0]:
            h = hand.copy()
            h[t] -= 1
            least = shapes_of(h, kb, melds, MCR_BOTZONE).best
            assert best_shape_deficiency(h, kb, melds, True, melds == 4) == least
            one = discard_numbers(hand, kb, melds, True, melds == 4, int(t))
            assert (int(d[t]), int(regular[t]), float(ways[t])) == (one[0], one[1], one[2])
            assert d[t] == least
    assert best_shape_deficiency(special[0], (4 - special[0]).astype(np.int8), 4, True,
                                 True) == 0


# ---------------------------------------------------------------- the step-value walk
def both_walks(hand: np.ndarray, kb: np.ndarray, melds: int, horizons: list[int],
               budget: int, check: object, memo: int, clock_after: int | None = None
               ) -> list[list[object]]:
    """Run StepValue and StepSearch over every discard of ``hand`` (3m+2) at each horizon;
    return what each saw (values, work, where it stopped, clock reads)."""
    runs = []
    for walk in ("reference", "jitted"):
        reads = [0]

        def clock(reads: list[int] = reads) -> float:
            reads[0] += 1
            return float(reads[0])

        dl = Deadline(budget=budget)
        if clock_after is not None:
            dl = Deadline(budget=budget, clock=clock, until=float(clock_after))
        search: StepValue | StepSearch
        if walk == "reference":
            search = StepValue(melds, deadline=dl, complete=check)  # type: ignore[arg-type]
        else:
            search = StepSearch(melds, kb, deadline=dl, complete=check,  # type: ignore[arg-type]
                                memo=memo)
        seen: list[object] = []
        try:
            for k, t in itertools.product(horizons, np.nonzero(hand)[0]):
                h = hand.copy()
                h[t] -= 1
                seen.append((int(t), k, search.partial(h, kb, k), dl.spent))
        except OutOfTime:
            seen.append(("out of time", dl.spent))
        seen.append(("clock reads", reads[0]))
        runs.append(seen)
    return runs


def parity_check(counts: np.ndarray) -> bool:
    """A made-up fan check: half the completed hands count as wins."""
    return int(counts @ np.arange(NUM_KINDS)) % 2 == 0


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_jitted_walk_matches_the_reference_node_for_node(seed: int) -> None:
    rng = np.random.default_rng(seed)
    compared = cut = valued = 0
    for i in range(120):
        melds = [4, 4, 3, 2, 1][i % 5]
        hand = near_complete_draw(rng, melds, 1 + i % 2)
        if hand is None:
            continue
        kb = np.minimum(rng.integers(0, 5, NUM_KINDS), 4 - hand).astype(np.int8)
        d = int(kernel_deficiency(hand, kb, melds))
        if d > 3:
            continue
        horizons = [max(1, d), max(1, d) + 1] if d <= 2 else [3]
        budget = int(rng.choice([10**9, 4000, 1000, 300]))
        check = [None, parity_check][i % 2]
        reference, jitted = both_walks(hand, kb, melds, horizons, budget, check,
                                       memo=16 if i % 3 == 0 else 1024)
        assert jitted == reference, (hand.tolist(), kb.tolist(), melds)
        compared += 1
        cut += reference[-2][0] == "out of time"
        valued += any(isinstance(x[2], float) and x[2] > 0 for x in reference[:-1]
                      if x[0] != "out of time")
    assert compared > 40 and cut > 3 and valued > 10


def test_the_jitted_walk_reads_the_clock_where_the_reference_does() -> None:
    rng = np.random.default_rng(4)
    stopped = 0
    for i in range(60):
        hand = near_complete_draw(rng, 4, 2)
        if hand is None:
            continue
        kb = np.minimum(rng.integers(1, 5, NUM_KINDS), 4 - hand).astype(np.int8)
        reference, jitted = both_walks(hand, kb, 4, [2, 3], 10**9, parity_check, 1024,
                                       clock_after=1 + i % 4)
        assert jitted == reference
        stopped += reference[-2][0] == "out of time"
    assert stopped > 5


def test_each_completed_hand_is_checked_once_per_search() -> None:
    hand = parse_counts("123m456p789s11z23p5s")  # 14 tiles, one change from two waits
    kb = (4 - hand).astype(np.int8)
    asked: list[bytes] = []

    def check(counts: np.ndarray) -> bool:
        asked.append(counts.tobytes())
        return parity_check(counts)

    search = StepSearch(4, kb, complete=check)
    for t in np.nonzero(hand)[0]:
        h = hand.copy()
        h[t] -= 1
        search.partial(h, kb, 2)
    assert asked and len(asked) == len(set(asked))


def test_the_jitted_walk_refuses_what_it_cannot_do() -> None:
    hand = parse_counts("123m456p789s11z2p")
    kb = (4 - hand).astype(np.int8)
    search = StepSearch(4, kb)
    with pytest.raises(ValueError, match="one KB"):
        search.partial(hand, np.zeros(NUM_KINDS, dtype=np.int8), 1)
    with pytest.raises(ValueError, match="at most 4"):
        search.partial(hand, kb, 5)
    assert search.partial(hand, kb, 1) == StepValue(4).partial(hand, kb, 1)
