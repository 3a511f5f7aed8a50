"""Which tile to discard and which claims to make, with the reasons for each.

The measure, as in the papers: first the knowledge-aware deficiency after the
action (kernel of "A Fast Algorithm for Computing the Deficiency Number of a
Mahjong Hand"); then, among the actions that keep it lowest,

- when that deficiency is small (<= ``SEARCH_MAX``): the exact step value
  val_k / P(S, l) (:mod:`strategy.stepvalue`, "Let's Play Mahjong!" Lemma 8,
  GuoShiWuShuang's search), with k = the deficiency;
- otherwise, or when the search runs out of budget: the DP's chance estimate
  (:mod:`strategy.completions`, GuoShiWuShuang's per-suit DP);
- then δ (eq. 11), then a fixed tile order (honours and terminals first).

Each decision lists every candidate with its numbers (:class:`Candidate`), so a
replay can explain it.  Work is counted in kernel calls: strategy/ reads no
clock, and a replay gets the same reasons again.
"""

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Callable

import numpy as np

from game.events import ActionKind, meld_notation
from game.rules import Ruleset
from game.tiles import NUM_KINDS, Counts, tile_name
from strategy.candidates import best_shape_deficiency, discard_numbers, discard_table
from strategy.completions import chance_estimate, completion_ways
from strategy.deadline import Cut, Deadline, OutOfTime
from strategy.deficiency.changes import SuitCache
from strategy.deficiency.kernel import UNREACHABLE
from strategy.search import StepSearch
from strategy.stepvalue import delta

SEARCH_MAX = 2
"""Largest deficiency for which the exact step-value search runs."""




WinCheck = Callable[[Counts], bool]


class Method(Enum):
    """How a decision was reached."""

    WIN = "win"
    PASS = "pass"
    KONG = "kong"
    FALLBACK = "fallback"
    """The seat session's safest answer (the strategy failed, was late or lost its view)."""
    DP = "dp"
    """Large deficiency: the per-suit DP's chance, then δ."""
    SEARCH = "search"
    """Small deficiency: the exact step value val_k."""
    SEARCH_DEEPENED = "search (ties deepened)"
    """The search, one change deeper to break a tie at the top."""
    SEARCH_CUT = "search (cut by work budget)"
    """Small deficiency: the search ran out of its work budget (kernel calls)."""
    SEARCH_CLOCK_CUT = "search (cut by the clock)"
    """Small deficiency: the search's clock passed (a deadline with a clock)."""
    CLAIM = "claim"
    """Claims on a discard compared by deficiency after the meld, then chance."""
    SAMPLED = "sampled"
    """The sampling search at the top (:mod:`strategy.sampling`) changed the planner's
    choice."""
    SIMPLE = "simple"
    """A fixed rule: the arena's ``greedy`` and ``random`` players."""
    EPSILON_RANDOM = "epsilon-random"
    """SIMCAT-ε's random action (``mjbot-eps``)."""

    def describe(self, horizon: "int | None" = None) -> str:
        if self is Method.SEARCH_DEEPENED and horizon is not None:
            return f"search (ties deepened to k={horizon})"
        return self.value


@dataclass(frozen=True)
class Candidate:
    """One option and its numbers."""

    action: "ActionKind"
    tile: "int | None"
    deficiency: int
    """Deficiency of the hand the action leaves (before the next draw)."""
    value: "float | None" = None
    """val_k (exact search) for small deficiency, else None."""
    chance: float = 0.0
    """The DP's chance estimate."""
    delta: "int | None" = None
    work: int = 0
    """Kernel calls spent on this candidate."""
    time_us: "float | None" = None
    """Wall time spent on this candidate, when the deadline was handed a clock."""
    note: str = ""
    meld: "tuple[int, ...]" = ()
    """A claim's meld (a chow's or pung's three tiles, a kong's four); ``tile`` is then
    the discard after a chow or pung."""

    @property
    def label(self) -> str:
        """The option for people: a claim by its meld, and the discard after it
        separately (``chow 1m2m3m, then discard 3z``)."""
        kind = self.action.value
        if self.action in (ActionKind.CONCEALED_KONG, ActionKind.ADDED_KONG) \
                and self.tile is not None:
            return f"{kind} {meld_notation((self.tile,) * 4)}"
        if self.meld:
            then = (f", then discard {tile_name(self.tile)}"
                    if self.tile is not None and self.action in (ActionKind.CHOW,
                                                                  ActionKind.PUNG) else "")
            return f"{kind} {meld_notation(self.meld)}{then}"
        if self.tile is None:
            return kind
        return f"{kind} on {tile_name(self.tile)}" if self.action is ActionKind.WIN \
            else f"{kind} {tile_name(self.tile)}"

    def numbers(self) -> "tuple[tuple[str, str], ...]":
        """The candidate's numbers as (name, shown value) pairs, in a fixed order."""
        out = [("deficiency", "∞" if self.deficiency >= UNREACHABLE else str(self.deficiency)),
               ("val", "-" if self.value is None else f"{self.value:.4f}"),
               ("chance", f"{self.chance:.4f}"),
               ("δ", "-" if self.delta is None else str(self.delta)),
               ("work", str(self.work))]
        if self.time_us is not None:
            out.append(("µs", f"{self.time_us:.0f}"))
        return tuple(out)

    def describe(self) -> str:
        """One line for people (``chow 1m2m3m, then discard 3z: deficiency 1, ...``); a
        record keeps the fields themselves (:class:`arena.records.decisions.CandidateRecord`)."""
        numbers = ", ".join(f"{value} {name}" if name == "µs" else f"{name} {value}"
                            for name, value in self.numbers())
        return f"{self.label}: {numbers}{' (' + self.note + ')' if self.note else ''}"


@dataclass(frozen=True)
class Choice:
    """A decision: the chosen candidate and all the candidates considered."""

    chosen: "Candidate"
    candidates: "tuple[Candidate, ...]"
    method: "Method"
    finished: bool = True
    """False when the deadline cut the search short (the answer is the anytime one)."""
    meld_tiles: "tuple[int, ...]" = field(default=())
    """For a chow: the three tiles of the chow."""
    horizon: "int | None" = None
    """How many changes the search looked ahead (for ``SEARCH_DEEPENED``)."""

    @property
    def action(self) -> "ActionKind":
        return self.chosen.action

    def describe_method(self) -> str:
        return self.method.describe(self.horizon)

    @property
    def tile(self) -> "int | None":
        return self.chosen.tile


# ---------------------------------------------------------------- deficiency with shapes
def shape_deficiency_fast(hand: "Counts", unseen: "Counts", melds: int, rules: "Ruleset") -> int:
    """Least deficiency over the shapes the rules allow (the regular one alone if none):
    ``shapes_of(...).best`` in one jitted call."""
    return int(best_shape_deficiency(hand, unseen, melds, rules.special_shapes,
                                     melds == rules.melds_needed))


class PolicyError(ValueError):
    """A hand the decision cannot be made for (wrong size, impossible counts)."""


def _require_size(hand: "Counts", size: int, what: str) -> None:
    counts = hand.tolist()  # three sums of 34 small ints: faster in Python than in numpy
    total = sum(counts)
    if total != size:
        raise PolicyError(f"{what} needs a hand of {size} tiles, not {total}")
    if min(counts) < 0 or max(counts) > 4:
        raise PolicyError("a hand holds a negative count or more than four of a tile")


_ISOLATION_ORDER = tuple(
    0 if t >= 27 else (1 if t % 9 in (0, 8) else (2 if t % 9 in (1, 7) else 3))
    for t in range(NUM_KINDS)
)
"""Tie-break: discard honours first, then terminals, then 2/8, then the middle."""


def _rank_key(c: "Candidate") -> "tuple[float, ...]":
    value = -1.0 if c.value is None else c.value
    delta_ = 0 if c.delta is None else c.delta
    if c.tile is None:
        return (c.deficiency, -value, -c.chance, -delta_, 9, -1)
    return (c.deficiency, -value, -c.chance, -delta_, _ISOLATION_ORDER[c.tile], c.tile)


# ---------------------------------------------------------------- discards
def choose_discard(
    hand: "Counts",
    unseen: "Counts",
    melds: int,
    rules: "Ruleset",
    deadline: "Deadline | None" = None,
    win_check: "WinCheck | None" = None,
    with_delta: bool = True,
    cache: "SuitCache | None" = None,
) -> "Choice":
    """The discard of a 3m+2 hand (``melds`` = melds still needed).

    ``cache`` (a :class:`SuitCache` the caller keeps across decisions) only saves time."""
    _require_size(hand, 3 * melds + 2, "a discard")
    deadline = deadline or Deadline()
    cache = SuitCache() if cache is None else cache
    total = sum(unseen.tolist())
    clock = deadline.clock
    spent: "dict[int, float]" = {}
    special, concealed = rules.special_shapes, melds == rules.melds_needed
    rows: "list[tuple[int, int, float]]" = []
    if clock is None:
        d_all = np.empty(NUM_KINDS, dtype=np.int64)
        regular_all = np.empty(NUM_KINDS, dtype=np.int64)
        ways_all = np.empty(NUM_KINDS, dtype=np.float64)
        c = cache
        discard_table(hand, unseen, melds, special, concealed, d_all, regular_all, ways_all,
                      c.tables, c.rest, c.keys, c.words, c.state, c.work)
        ds, regulars, ways_ = d_all.tolist(), regular_all.tolist(), ways_all.tolist()
        for i in np.flatnonzero(hand).tolist():
            rows.append((i, ds[i], chance_estimate(regulars[i], ways_[i], total)))
    else:
        for kind in np.nonzero(hand)[0]:
            i = int(kind)
            t0 = clock()
            d, d_regular, ways = discard_numbers(hand, unseen, melds, special, concealed, i)
            rows.append((i, int(d), chance_estimate(int(d_regular), float(ways), total)))
            spent[i] = (clock() - t0) * 1e6
    best_d = min(r[1] for r in rows)
    deltas = delta(hand, unseen, melds, cache) if with_delta and best_d < UNREACHABLE else {}
    values: "dict[int, float]" = {}
    work: "dict[int, int]" = {}
    finished = True
    method = Method.DP
    horizon: "int | None" = None
    if best_d <= SEARCH_MAX:
        method = Method.SEARCH
        search = StepSearch(melds, unseen, deadline=deadline, complete=win_check, cache=cache)
        order = [r[0] for r in sorted((r for r in rows if r[1] == best_d), key=lambda r: -r[2])]
        horizon = best_d
        try:
            while True:
                for i in order:
                    before = deadline.spent
                    t0 = clock() if clock is not None else 0.0
                    h = hand.copy()
                    h[i] -= 1
                    values[i] = search.partial(h, unseen, horizon)
                    work[i] = work.get(i, 0) + deadline.spent - before
                    if clock is not None:
                        spent[i] = spent.get(i, 0.0) + (clock() - t0) * 1e6
                # deepen by one change to break a tie at the top (Example 3: D5 and D9)
                top = max(values[i] for i in order)
                tied = [i for i in order if values[i] == top]
                if len(tied) < 2 or horizon > best_d or horizon >= SEARCH_MAX + 1:
                    break
                order, horizon = tied, horizon + 1
                method = Method.SEARCH_DEEPENED
        except OutOfTime as exc:
            finished = False
            method = Method.SEARCH_CLOCK_CUT if exc.cut is Cut.CLOCK else Method.SEARCH_CUT
    candidates = tuple(
        Candidate(ActionKind.DISCARD, i, d, values.get(i), chance, deltas.get(i),
                  work.get(i, 0), spent.get(i))
        for i, d, chance in rows
    )
    ranked = tuple(sorted(candidates, key=_rank_key))  # stable: [0] is min()'s
    return Choice(ranked[0], ranked, method, finished,
                  horizon=horizon if method is Method.SEARCH_DEEPENED else None)


# ---------------------------------------------------------------- claims on a discard
def _after_meld(hand: "Counts", unseen: "Counts", melds: int, rules: "Ruleset",
                remove: "Sequence[int]", deadline: "Deadline",
                cache: "SuitCache | None") -> "Choice":
    h = hand.copy()
    for t in remove:
        h[t] -= 1
    return choose_discard(h, unseen, melds - 1, rules, deadline, with_delta=False, cache=cache)


def choose_claim(
    hand: "Counts",
    unseen: "Counts",
    melds: int,
    rules: "Ruleset",
    tile: int,
    can_chow: bool,
    can_win: bool,
    deadline: "Deadline | None" = None,
    cache: "SuitCache | None" = None,
) -> "Choice":
    """Answer another seat's discard ``tile``: win, kong, pung, chow or pass.

    ``hand`` is the 3m+1 concealed hand; ``unseen`` already counts ``tile``
    as seen; ``can_win`` says the caller checked that hand + tile is a legal
    win (for MCR: at least 8 fan).  A claim is made only when it lowers the
    deficiency, or keeps it and raises the chance estimate.
    """
    _require_size(hand, 3 * melds + 1, "a claim")
    deadline = deadline or Deadline()
    d_pass = shape_deficiency_fast(hand, unseen, melds, rules)
    dr, ways = completion_ways(hand, unseen, melds)
    pass_c = Candidate(ActionKind.PASS, None, d_pass, None,
                       chance_estimate(int(dr), float(ways), int(unseen.sum())))
    candidates = [pass_c]
    if can_win:
        win = Candidate(ActionKind.WIN, tile, 0, 1.0, 1.0, note="the hand is complete")
        return Choice(win, (win, pass_c), Method.WIN)
    options: "list[tuple[ActionKind, tuple[int, ...], tuple[int, ...]]]" = []
    if hand[tile] >= 2 and melds >= 1:
        options.append((ActionKind.PUNG, (tile, tile), (tile, tile, tile)))
    if hand[tile] >= 3 and melds >= 1:
        options.append((ActionKind.KONG, (tile, tile, tile), (tile,) * 4))
    if can_chow and tile < 27 and melds >= 1:
        r = tile % 9
        for lo in (r - 2, r - 1, r):
            if lo >= 0 and lo + 2 <= 8:
                chow = tuple(tile - r + lo + j for j in range(3))
                rest = [t for t in chow if t != tile]
                if all(hand[t] >= 1 for t in rest):
                    options.append((ActionKind.CHOW, tuple(rest), chow))
    best_c = pass_c
    best_meld: "tuple[int, ...]" = ()
    for kind, remove, meld_tiles in options:
        if kind is ActionKind.KONG:
            h = hand.copy()
            h[tile] -= 3
            d = shape_deficiency_fast(h, unseen, melds - 1, rules)
            c = Candidate(ActionKind.KONG, tile, d, None, 0.0, note="then a replacement draw",
                          meld=(tile,) * 4)
            candidates.append(c)
            # a kong keeps the hand's shape and gives a free draw: take it when it costs nothing
            if d <= best_c.deficiency and best_c.action in (ActionKind.PASS, ActionKind.KONG):
                best_c, best_meld = c, ()
            continue
        after = _after_meld(hand, unseen, melds, rules, remove, deadline, cache)
        then = after.chosen.tile
        assert then is not None, "a discard candidate names its tile"
        c = Candidate(kind, then, after.chosen.deficiency, after.chosen.value,
                      after.chosen.chance, meld=meld_tiles)  # its label names meld and discard
        candidates.append(c)
        better = (c.deficiency < best_c.deficiency
                  or (c.deficiency == best_c.deficiency and c.chance > best_c.chance
                      and best_c.action is not ActionKind.PASS))
        if better:
            best_c, best_meld = c, meld_tiles
    return Choice(best_c, tuple(candidates), Method.CLAIM, meld_tiles=best_meld)


def choose_kong_on_draw(
    hand: "Counts", unseen: "Counts", melds: int, rules: "Ruleset", discard: "Choice"
) -> "Candidate | None":
    """A concealed kong worth declaring instead of the discard ``discard`` (or None)."""
    for t in np.nonzero(hand >= 4)[0]:
        h = hand.copy()
        h[t] -= 4
        d = shape_deficiency_fast(h, unseen, melds - 1, rules) if melds >= 1 else UNREACHABLE
        # after the kong a replacement is drawn: compare with the hand kept after the discard
        if d <= discard.chosen.deficiency:
            return Candidate(ActionKind.CONCEALED_KONG, int(t), d, note="keeps the deficiency")
    return None


def choose_added_kong(
    hand: "Counts", unseen: "Counts", melds: int, rules: "Ruleset", pungs: "Sequence[int]",
    discard: "Choice",
) -> "Candidate | None":
    """Add the drawn-or-held tile to an exposed pung when the hand loses nothing by it."""
    for t in pungs:
        if hand[t] >= 1:
            h = hand.copy()
            h[t] -= 1
            d = shape_deficiency_fast(h, unseen, melds, rules)
            if d <= discard.chosen.deficiency:
                return Candidate(ActionKind.ADDED_KONG, int(t), d, note="the fourth tile of a pung")
    return None
