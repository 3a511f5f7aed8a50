"""A learned order for close discards: a conditional logit fitted to a strong bot's choices.

Far from 8 fan the values of most discards lie within the planner's margin
(:mod:`strategy.value`), and which of them goes first decides most of the play.  Here
that order is a score ``w · x`` over a few numbers of each close discard ``x``
(:data:`FEATURES`), the weights ``w`` fitted by maximum likelihood to the discards of the
rank-1 bot in real Botzone logs: the conditional logit of McFadden, "Conditional logit
analysis of qualitative choice behavior" (1973), where the chance of discarding ``t``
among the close candidates ``C`` is ``exp(w · x_t) / Σ_{c∈C} exp(w · x_c)``.
:func:`fit` maximises that likelihood with an L2 penalty by Newton's method (the
log-likelihood is concave, so the optimum is unique).

The features build on the project's own measures: the value and the fan-aware distance of
each discard (:mod:`strategy.value`), its useful draws toward 8 fan (the *ukeire*), the
step-value search's rank (Li & Yan, "Let's Play Mahjong!", the val_k order), and plain
facts of the tile in the hand (pairs, neighbours, honours that score, copies left, its
danger, the share of its suit in the hand).  Pure: no I/O, no clock, no randomness.
"""

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from game.tiles import Counts

FEATURES: "tuple[str, ...]" = (
    "value",      # the discard's value less the best value (points; <= 0)
    "distance",   # its fan-aware distance less the least distance
    "useful",     # its useful draws toward 8 fan / the most among the close discards
    "step_rank",  # its place in the step-value search's order / the order's length
    "honour",     # an honour tile
    "valued",     # an honour whose pung scores: a dragon, the seat or prevalent wind
    "terminal",   # a 1 or a 9
    "pair",       # the hand holds exactly two of it
    "triple",     # the hand holds three or more of it
    "near",       # kinds of the same suit one rank away that the hand holds
    "gapped",     # kinds of the same suit two ranks away that the hand holds
    "isolated",   # a single tile with no kind of its suit within two ranks
    "left",       # its unseen copies
    "danger",     # the chance it completes another seat's hand
    "suit_share", # the other tiles of its suit (honours: of the honours) / 13
    "drawn",      # the tile just drawn
)
"""The numbers of one close discard, in the order of :attr:`DiscardRanker.weights`."""


@dataclass(frozen=True)
class DiscardFacts:
    """What the planner knows of one discard from a 3m+2 hand, for :func:`features`."""

    tile: int
    value: float
    distance: int
    useful: int
    danger: float


def features(hand: "Counts", unseen: "Counts", close: "Sequence[DiscardFacts]",
             step_order: "Sequence[int]", seat_wind: int, prevalent_wind: int,
             drawn: "int | None") -> "np.ndarray":
    """The :data:`FEATURES` of each of the ``close`` discards (rows, in their order).

    ``hand`` holds the 3m+2 concealed tiles before the discard, ``step_order`` the kinds in
    the step-value search's order (best first; a kind not in it ranks last)."""
    if not close:
        raise ValueError("features: no close discards")
    top = max(f.value for f in close)
    least = min(f.distance for f in close)
    most_useful = max(f.useful for f in close) or 1
    steps = {t: k for k, t in enumerate(step_order)}
    n_steps = max(len(step_order), 1)
    out = np.zeros((len(close), len(FEATURES)), dtype=np.float64)
    for row, f in enumerate(close):
        t = f.tile
        if not 0 <= t < 34 or hand[t] < 1:
            raise ValueError(f"features: the hand holds no {t}")
        honour = t >= 27
        rank = t % 9
        near = gapped = 0
        if not honour:
            for step in (-2, -1, 1, 2):
                if 0 <= rank + step <= 8 and hand[t + step] > 0:
                    if abs(step) == 1:
                        near += 1
                    else:
                        gapped += 1
        group = hand[27:34] if honour else hand[t - rank:t - rank + 9]
        valued = honour and (t >= 31 or t == 27 + seat_wind or t == 27 + prevalent_wind)
        out[row] = (
            f.value - top,
            f.distance - least,
            f.useful / most_useful,
            steps.get(t, n_steps) / n_steps,
            float(honour),
            float(valued),
            float(not honour and rank in (0, 8)),
            float(hand[t] == 2),
            float(hand[t] >= 3),
            near,
            gapped,
            float(hand[t] == 1 and near + gapped == 0),
            float(unseen[t]),
            f.danger,
            (int(group.sum()) - 1) / 13.0,
            float(drawn == t),
        )
    return out


@dataclass(frozen=True)
class DiscardRanker:
    """The weights of the conditional logit over :data:`FEATURES`."""

    weights: "tuple[float, ...]"
    source: str = ""
    """Where the weights come from (the fit's data and penalty)."""

    def __post_init__(self) -> None:
        if len(self.weights) != len(FEATURES):
            raise ValueError(f"DiscardRanker: {len(self.weights)} weights for "
                             f"{len(FEATURES)} features")

    def scores(self, x: "np.ndarray") -> "np.ndarray":
        return np.asarray(x @ np.asarray(self.weights), dtype=np.float64)

    def order(self, tiles: "Sequence[int]", x: "np.ndarray") -> "list[int]":
        """``tiles`` (the rows of ``x``) by score, best first; equal scores keep their
        order."""
        s = self.scores(x)
        return [tiles[k] for k in sorted(range(len(tiles)), key=lambda k: (-s[k], k))]


@dataclass(frozen=True)
class ObservedChoice:
    """One observed decision: the candidates' features and the row that was chosen."""

    x: "np.ndarray"
    chosen: int


def log_likelihood(weights: "np.ndarray", choices: "Sequence[ObservedChoice]", l2: float
                   ) -> "tuple[float, np.ndarray, np.ndarray]":
    """The penalised log-likelihood of ``choices``, its gradient and its Hessian."""
    n = weights.shape[0]
    total = -l2 * float(weights @ weights)
    grad = -2.0 * l2 * weights
    hess = -2.0 * l2 * np.eye(n)
    for c in choices:
        s = c.x @ weights
        s = s - s.max()
        p = np.exp(s)
        p /= p.sum()
        mean = p @ c.x
        total += float(np.log(p[c.chosen]))
        grad += c.x[c.chosen] - mean
        hess -= (c.x * p[:, None]).T @ c.x - np.outer(mean, mean)
    return total, grad, hess


def fit(choices: "Sequence[ObservedChoice]", l2: float = 0.3, iterations: int = 100
        ) -> "np.ndarray":
    """The weights that maximise the penalised log-likelihood (Newton's method with a
    backtracking line search)."""
    if not choices:
        raise ValueError("fit: no choices")
    w = np.zeros(choices[0].x.shape[1])
    for _ in range(iterations):
        f0, grad, hess = log_likelihood(w, choices, l2)
        step = np.linalg.solve(hess, grad)
        a = 1.0
        while a > 1e-9 and log_likelihood(w - a * step, choices, l2)[0] < f0:
            a /= 2.0
        w = w - a * step
        if float(np.abs(a * step).max()) < 1e-9:
            break
    return w


def agreement(weights: "Sequence[float] | np.ndarray", choices: "Sequence[ObservedChoice]") -> int:
    """How many ``choices`` the weights' best-scored candidate matches."""
    w = np.asarray(weights, dtype=np.float64)
    return sum(int(np.argmax(c.x @ w) == c.chosen) for c in choices)


def describe(weights: "Sequence[float] | np.ndarray") -> str:
    """``feature +w, ...`` for reading the weights."""
    if len(weights) != len(FEATURES):
        raise ValueError(f"{len(weights)} weights for {len(FEATURES)} features")
    return ", ".join(f"{k} {float(v):+.3f}" for k, v in zip(FEATURES, weights))


RANK1 = DiscardRanker(
    weights=(0.7928, -0.5675, 4.3438, -2.5816, 0.0501, -0.7882, 0.1806, -0.9252, -0.8897,
             0.0244, -0.2625, 0.8358, -0.1769, -0.1367, -2.701, 0.6929),
    source="`mjbot experiment imitate`: the rank-1 bot's 195 discards after a draw at a "
           "fan-aware distance of 3 or more in the 8 Botzone logs of data/ "
           "(l2 0.3); with the planner's own order nearer, agreement on all 308 discards "
           "held out by log 68.2 %, in sample 70.1 %")
"""The ranker fitted to the rank-1 Botzone bot: the planner's default from a fan-aware
distance of 3 on (``planner:rank=learned``; ``rank=steps`` the order before it).  It is
the default because it plays at least as well as the order before it and decides as the
rank-1 bot does more often (``docs/results.md``, "Does mjbot decide as the strong Botzone
bots do?")."""
