"""The route table: every route to 8 fan as one row the route loops read.

A *route* (:mod:`strategy.fan.routes`) is a family of complete hands sure to score 8 fan by
itself.  Its row says which tiles it allows, the melds and the pair it forces, whether it
needs a concealed hand, a wind whose pung counts only as the seat or prevalent wind, how its
overlap is found (``KIND_*``, with a parameter) and its family (:class:`Route`).  The table
is built once, at import, from the fan rules written out in :func:`_build`; nothing here is
compiled, the kernels read the arrays (:data:`ROUTE_MASK`, :data:`ROUTE_MELDS`,
:data:`ROUTE_INFO`).
"""

from enum import IntEnum

import numpy as np

from game.tiles import DRAGONS, GREEN, NUM_KINDS, WHITE, WINDS

CHOW, PUNG, KONG, CONCEALED_KONG = 0, 1, 2, 3
"""Kinds of a declared meld in the kernels' encoding: a row ``(kind, tile)``, where a
chow's tile is its lowest."""


class Route(IntEnum):
    """The route families; :func:`strategy.fan.routes.route_table` answers one deficiency
    per family."""

    SEVEN_PAIRS = 0
    THIRTEEN_ORPHANS = 1
    HONOURS_AND_KNITTED = 2
    KNITTED_STRAIGHT = 3
    FULL_FLUSH = 4
    HALF_FLUSH = 5
    """half flush (6) with a concealed hand (2), a dragon, seat or prevalent wind pung (2),
    or 2 from its pungs of terminals or honours, a tile hog or the declared kongs"""
    ALL_PUNGS = 6
    """all pungs (6) with 2 more from its pungs, a concealed hand, two concealed pungs or
    a double pung; or with half flush or all simples"""
    MIXED_TRIPLE_CHOW = 7
    MIXED_STRAIGHT = 8
    PURE_STRAIGHT = 9
    PURE_SHIFTED_CHOWS = 10
    PURE_TRIPLE_CHOW = 11
    MIXED_SHIFTED_PUNGS = 12
    TRIPLE_PUNG = 13
    PURE_SHIFTED_PUNGS = 14
    DRAGON_PUNGS = 15
    """two dragon pungs (6) with a concealed hand, a seat or prevalent wind pung, the
    third dragon (little or big three dragons), or 2 from the other groups"""
    BIG_THREE_WINDS = 16
    TILE_RANGE = 17
    """upper four, lower four (12) or middle tiles (24)"""
    REVERSIBLE = 18
    ALL_GREEN = 19
    ALL_TYPES = 20
    """all types (6) with a concealed hand, a dragon pung or a seat or prevalent wind pung"""
    MIXED_SHIFTED_CHOWS = 21
    """mixed shifted chows (6) with a concealed hand, all chows (2), or 2 from the other
    groups' pungs, a tile hog, the declared melds or no honours (1)"""
    CONCEALED_PUNGS = 22
    """a concealed hand (2) of pungs and at most one chow, so two concealed pungs (2)
    whatever the last tile, with 4 more from its pungs (dragon, seat or round wind,
    terminals or honours), a tile hog (2), a double pung (2), all simples (2), one voided
    suit (1) or no honours (1)"""
    OUTSIDE_HAND = 23
    """outside hand (4: every group holds a terminal or an honour) with a concealed hand
    and all chows (2 + 2), or with 4 from the concealed hand, its pungs and the declared
    melds"""
    MELDED_HAND = 24
    """four claimed melds and a pair won on a discard: melded hand (6) with 2 from the
    melds' fans, a tile hog, all chows, all types or a flush"""


NUM_ROUTES = len(Route)
# the families the route loops fill outside the table, as plain ints (the kernels index
# their ``out`` array by them)
SEVEN_PAIRS = int(Route.SEVEN_PAIRS)
THIRTEEN_ORPHANS = int(Route.THIRTEEN_ORPHANS)
HONOURS_AND_KNITTED = int(Route.HONOURS_AND_KNITTED)
KNITTED_STRAIGHT = int(Route.KNITTED_STRAIGHT)
DRAGON_PUNGS = int(Route.DRAGON_PUNGS)
MELDED_HAND = int(Route.MELDED_HAND)

# ---------------------------------------------------------------- the route table
# One row per route: the tiles it allows, up to four forced melds (kind * 64 + tile, a
# chow by its lowest tile; -1 for none), a forced pair (-1: none), whether it needs a
# concealed hand, a wind whose forced pung counts only as the seat or prevalent wind (-1:
# none), how it is solved (KIND_*) with a parameter, and its family.
KIND_REGULAR, KIND_PUNGS, KIND_ALL_TYPES, KIND_CONCEALED_PUNGS, KIND_BONUS = 0, 1, 2, 3, 4
NO_PUNGS = 16
"""Added to a KIND_BONUS route's parameter (its own fan): the other groups are chows."""
OUTSIDE = 32
"""Added to a KIND_BONUS route's parameter: every group holds a terminal or an honour."""
ALL_TYPES_CONCEALED, ALL_TYPES_DRAGON_PUNG, ALL_TYPES_WIND_PUNG = 0, 1, 2


def _meld(kind: int, tile: int) -> int:
    return kind * 64 + tile


def _mask(tiles: "list[int] | range") -> "list[bool]":
    allowed = set(tiles)
    return [t in allowed for t in range(NUM_KINDS)]


def _build() -> "tuple[np.ndarray, ...]":
    everything = _mask(range(NUM_KINDS))
    rows: "list[tuple[list[bool], list[int], int, bool, int, int, int, int]]" = []

    def add(family: "Route", melds: "list[int] | None" = None, *, mask: "list[bool] | None" = None,
            pair: int = -1, concealed: bool = False, wind: int = -1, kind: int = KIND_REGULAR,
            param: int = 0) -> None:
        forced = list(melds or [])
        rows.append((mask or everything, forced + [-1] * (4 - len(forced)), pair, concealed,
                     wind, kind, param, int(family)))

    suits = [list(range(9 * s, 9 * s + 9)) for s in range(3)]
    honours = list(range(27, 34))
    perms = [(0, 1, 2), (0, 2, 1), (1, 0, 2), (1, 2, 0), (2, 0, 1), (2, 1, 0)]
    valued = [*DRAGONS, *WINDS]  # a wind's pung is worth 2 only as the seat or round wind

    def valued_wind(t: int) -> int:
        return t if t in WINDS else -1

    for s in range(3):
        add(Route.FULL_FLUSH, mask=_mask(suits[s]))
        add(Route.HALF_FLUSH, mask=_mask(suits[s] + honours), concealed=True)
        for t in valued:
            add(Route.HALF_FLUSH, [_meld(PUNG, t)], mask=_mask(suits[s] + honours),
                wind=valued_wind(t))
        # all pungs with half flush (6 + 6)
        add(Route.ALL_PUNGS, mask=_mask(suits[s] + honours), kind=KIND_PUNGS, param=6)
    add(Route.ALL_PUNGS, kind=KIND_PUNGS, param=0)
    for r in range(9):  # double pung (2): the same rank in two suits
        for s1, s2 in ((0, 1), (0, 2), (1, 2)):
            double = [_meld(PUNG, 9 * s1 + r), _meld(PUNG, 9 * s2 + r)]
            add(Route.ALL_PUNGS, double, kind=KIND_PUNGS, param=2)
            add(Route.CONCEALED_PUNGS, double, concealed=True, kind=KIND_CONCEALED_PUNGS,
                param=2)
    simples = [t for t in range(27) if t % 9 not in (0, 8)]
    add(Route.ALL_PUNGS, mask=_mask(simples), kind=KIND_PUNGS, param=2)  # all simples (2)
    for r in range(7):
        add(Route.MIXED_TRIPLE_CHOW, [_meld(CHOW, 9 * s + r) for s in range(3)])
    for p in perms:
        add(Route.MIXED_STRAIGHT, [_meld(CHOW, 9 * p[i] + 3 * i) for i in range(3)])
    for s in range(3):
        add(Route.PURE_STRAIGHT, [_meld(CHOW, 9 * s + 3 * i) for i in range(3)])
        for step in (1, 2):
            for r in range(7 - 2 * step):
                add(Route.PURE_SHIFTED_CHOWS,
                    [_meld(CHOW, 9 * s + r + step * i) for i in range(3)])
        for r in range(7):
            add(Route.PURE_TRIPLE_CHOW, [_meld(CHOW, 9 * s + r)] * 3)
            add(Route.PURE_SHIFTED_PUNGS, [_meld(PUNG, 9 * s + r + i) for i in range(3)])
    for p in perms:
        for r in range(7):
            add(Route.MIXED_SHIFTED_PUNGS, [_meld(PUNG, 9 * p[i] + r + i) for i in range(3)])
        for r in range(5):
            add(Route.MIXED_SHIFTED_CHOWS, [_meld(CHOW, 9 * p[i] + r + i) for i in range(3)],
                concealed=True)
    for r in range(9):
        add(Route.TRIPLE_PUNG, [_meld(PUNG, 9 * s + r) for s in range(3)])
    for i, a in enumerate(DRAGONS):
        for b in DRAGONS[i + 1:]:
            (c,) = [d for d in DRAGONS if d not in (a, b)]
            two = [_meld(PUNG, a), _meld(PUNG, b)]
            add(Route.DRAGON_PUNGS, two, concealed=True)
            add(Route.DRAGON_PUNGS, two, pair=c)  # little three dragons
            add(Route.DRAGON_PUNGS, [*two, _meld(PUNG, c)])  # big three dragons
            for w in WINDS:
                add(Route.DRAGON_PUNGS, [*two, _meld(PUNG, w)], wind=w)
    for skip in WINDS:
        add(Route.BIG_THREE_WINDS, [_meld(PUNG, w) for w in WINDS if w != skip])
    for ranks in ((5, 6, 7, 8), (0, 1, 2, 3), (3, 4, 5)):
        add(Route.TILE_RANGE, mask=_mask([9 * s + r for s in range(3) for r in ranks]))
    reversible = [9 + r for r in (0, 1, 2, 3, 4, 7, 8)] + [18 + r for r in (1, 3, 4, 5, 7, 8)]
    add(Route.REVERSIBLE, mask=_mask([*reversible, WHITE]))
    add(Route.ALL_GREEN, mask=_mask([18 + r for r in (1, 2, 3, 5, 7)] + [GREEN]))
    suited = list(range(27))
    # routes worth 6 that take their last 2 fan from the other groups (KIND_BONUS)
    for s in range(3):
        add(Route.HALF_FLUSH, mask=_mask(suits[s] + honours), kind=KIND_BONUS, param=6)
    for p in perms:
        for r in range(5):
            chows = [_meld(CHOW, 9 * p[i] + r + i) for i in range(3)]
            add(Route.MIXED_SHIFTED_CHOWS, chows, kind=KIND_BONUS, param=6)
            add(Route.MIXED_SHIFTED_CHOWS, chows, mask=_mask(suited), kind=KIND_BONUS,
                param=6 + 1)  # no honours
            add(Route.MIXED_SHIFTED_CHOWS, chows, mask=_mask(suited), kind=KIND_BONUS,
                param=6 + 2 + NO_PUNGS)  # all chows
    for i, a in enumerate(DRAGONS):
        for b in DRAGONS[i + 1:]:
            add(Route.DRAGON_PUNGS, [_meld(PUNG, a), _meld(PUNG, b)], kind=KIND_BONUS,
                param=6)
    add(Route.OUTSIDE_HAND, mask=_mask(suited), concealed=True, kind=KIND_BONUS,
        param=4 + 2 + NO_PUNGS + OUTSIDE)  # all chows
    add(Route.OUTSIDE_HAND, kind=KIND_BONUS, param=4 + OUTSIDE)
    for tiles, fan in ((list(range(NUM_KINDS)), 0), (suited, 1)):  # no honours: 1
        add(Route.CONCEALED_PUNGS, mask=_mask(tiles), concealed=True,
            kind=KIND_CONCEALED_PUNGS, param=fan)
        for s in range(3):  # one voided suit: 1
            add(Route.CONCEALED_PUNGS, mask=_mask([t for t in tiles if t // 9 != s]),
                concealed=True, kind=KIND_CONCEALED_PUNGS, param=fan + 1)
    add(Route.CONCEALED_PUNGS, mask=_mask(simples), concealed=True,
        kind=KIND_CONCEALED_PUNGS, param=2)  # all simples
    for r in range(1, 8):  # all simples with a double pung
        for s1, s2 in ((0, 1), (0, 2), (1, 2)):
            add(Route.CONCEALED_PUNGS, [_meld(PUNG, 9 * s1 + r), _meld(PUNG, 9 * s2 + r)],
                mask=_mask(simples), concealed=True, kind=KIND_CONCEALED_PUNGS, param=4)
    for variant in (ALL_TYPES_CONCEALED, ALL_TYPES_DRAGON_PUNG, ALL_TYPES_WIND_PUNG):
        add(Route.ALL_TYPES, concealed=variant == ALL_TYPES_CONCEALED, kind=KIND_ALL_TYPES,
            param=variant)
    return (np.array([r[0] for r in rows], dtype=np.bool_),
            np.array([r[1] for r in rows], dtype=np.int64),
            np.array([[r[2], int(r[3]), r[4], r[5], r[6], r[7]] for r in rows], dtype=np.int64))


ROUTE_MASK, ROUTE_MELDS, ROUTE_INFO = _build()
"""ROUTE_MASK[i] = the tiles route i allows; ROUTE_MELDS[i] = its forced melds;
ROUTE_INFO[i] = (forced pair, needs a concealed hand, valued wind, kind, parameter, family)."""
NUM_ROUTE_ROWS = ROUTE_MASK.shape[0]
