"""Helpers for the game, strategy and bot tests: whole-table set-ups and crude players.
Core install only (numpy and the project's own packages)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

import numpy as np

from bot.seat import PlayerState
from game.events import Action, Dealt, DeclareWin, Discard, Pass, SeatAssigned, Won
from game.rules import TAIWAN_16, Ruleset
from game.taiwan import TaiwanStage, TaiwanTable
from game.tiles import NUM_KINDS, Notation, parse_tiles
from game.walls import arranged_single_wall


def compact_tiles(text: str) -> list[int]:
    """Tiles in compact notation (``1m 2m 5z``); an empty text is no tile."""
    return parse_tiles(text, Notation.COMPACT) if text else []


def arrange_taiwan_wall(hands: Mapping[int, str], draws: str = "", replacements: str = "",
                        dealer: int = 0) -> tuple[int, ...]:
    """A taiwan-16 wall dealing the given seats these hands (compact notation), the others
    16 tiles of what is left, then ``draws`` from the front and ``replacements`` from the
    back."""
    given = {seat: compact_tiles(h) for seat, h in hands.items()}
    used = Counter(x for h in given.values() for x in h)
    used.update(compact_tiles(draws))
    used.update(compact_tiles(replacements))
    pool = [k for copy in range(4) for k in range(NUM_KINDS) if copy < 4 - used[k]]
    dealt = []
    for seat in range(4):
        if seat in given:
            dealt.append(given[seat])
        else:
            dealt.append(pool[:16])
            pool = pool[16:]
    return arranged_single_wall(TAIWAN_16, dealt, compact_tiles(draws),
                                compact_tiles(replacements), dealer)


def _usefulness(hand: tuple[int, ...], tile: int) -> int:
    c = Counter(hand)
    score = 3 * (c[tile] - 1)
    if tile < 27:
        for d in (-2, -1, 1, 2):
            u = tile + d
            if 0 <= u < 27 and u // 9 == tile // 9 and c[u]:
                score += 2 if abs(d) == 1 else 1
    return score


def check_taiwan_invariants(table: TaiwanTable) -> None:
    """Every tile is somewhere exactly once (the wall's count is its tiles'); every hand has
    its size."""
    where = Counter(table.wall_tiles)
    for s in range(4):
        where.update(table.hand(s))
        where.update(x for m in table.melds(s) for x in m.tiles)
        where.update(table.river(s))
        where.update(table.flowers(s))
    assert all(where[k] == 4 for k in range(34)) and all(where[f] == 1 for f in range(34, 42))
    assert sum(where.values()) == 144 and len(table.wall_tiles) == table.wall_remaining
    ending = table.result.ending if table.result else None
    for s in range(4):
        won = isinstance(ending, Won) and ending.seat == s
        to_discard = not table.finished and table.stage in (TaiwanStage.DRAWN, TaiwanStage.CALLED)
        holding = won or (to_discard and s == table.current_seat)
        assert len(table.hand(s)) + 3 * len(table.melds(s)) == (17 if holding else 16), s


def crude_taiwan_action(table: TaiwanTable, seat: int, rng: np.random.Generator,
                        wild: float | None = None) -> Action:
    """A legal action for seeded whole games: win when possible; with probability ``wild``
    (when given) a random legal action; else claim 70 % of the time, else discard the
    least useful tile."""
    legal = table.legal_actions(seat)
    if DeclareWin() in legal:
        return DeclareWin()
    if wild is not None and rng.random() < wild:
        return legal[int(rng.integers(len(legal)))]
    claims = [a for a in legal if not isinstance(a, Discard | Pass)]
    if claims and rng.random() < 0.7:
        return claims[int(rng.integers(len(claims)))]
    discards = [a for a in legal if isinstance(a, Discard)]
    if not discards:
        return Pass()
    hand = table.hand(seat)
    return min(discards, key=lambda a: (_usefulness(hand, a.tile), rng.random()))


def dealt_view(rules: Ruleset, hand: str, *events: object) -> PlayerState:
    """Seat 0's view (seat 0, prevalent east) dealt ``hand``, then shown ``events``."""
    v = PlayerState(rules)
    v.observe(SeatAssigned(0, 0))
    v.observe(Dealt(0, tuple(parse_tiles(hand))))
    for e in events:
        v.observe(e)  # type: ignore[arg-type]
    return v
