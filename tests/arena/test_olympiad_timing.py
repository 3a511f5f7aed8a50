"""No timing channel: after every discard every other seat is asked (as Botzone does), and
the round from a discard to the next message lasts at least the referee's floor, so the
gap a seat sees after a discard no longer tells whether anyone could claim it.

The attacker is the classifier that read 112 of 112 discards: the gap between a
``discard`` and the next message other than the attacker's own ``ask``, above a threshold
= "someone could claim".  Its threshold is fitted on the first half of the discards (the
best it can do) and scored on the second half, against always guessing the commoner
answer; a one-sided binomial test says whether it beats that (the classifier is
:func:`arena.platforms.olympiad.soak.tables.threshold_attack`, which ``mjbot bench soak`` runs too).
Seeds are fixed; the opponents think 40 ms whenever they have a real choice; the floor
(100 ms) is large against the machine's jitter.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from support.arena import olympiad_config
from support.olympiad_players import QuickPlayer

from arena.platforms.olympiad.match import serving
from arena.platforms.olympiad.referee import Referee
from arena.platforms.olympiad.soak.tables import (
    claim_samples,
    gaps_after_discards,
    threshold_attack,
)
from protocols.olympiad import DiscardMsg
from protocols.olympiad_session import play_seat
from protocols.olympiad_ws import WsClient

THINK = 0.040
FLOOR_MS = 100


async def _play(tmp: Path, floor_ms: int, games: int) -> dict[int, QuickPlayer]:
    referee = Referee(olympiad_config(tmp, seed=7, games=games, round_floor_ms=floor_ms))
    players = {s: QuickPlayer(think=0.0 if s == 0 else THINK) for s in range(4)}
    async with serving(referee, "ws") as url:
        seats = [play_seat(WsClient(url), players[s], table="t1", seat=s, name=f"p{s}",
                           secret=referee.secrets.secret("t1", s)) for s in range(4)]
        run = asyncio.create_task(referee.run())
        await asyncio.gather(*seats)
        await run
    return players


def _after_each_discard(player: QuickPlayer) -> list[tuple[float, bool | None]]:
    return gaps_after_discards(player.seen)


def _samples(players: dict[int, QuickPlayer]) -> list[tuple[float, bool]]:
    return claim_samples({s: p.seen for s, p in players.items()})


async def test_every_other_seat_is_asked_after_every_discard(tmp_path: Path) -> None:
    players = await _play(tmp_path, floor_ms=0, games=1)
    for seat, player in players.items():
        discarders = [m.seat for m in player.messages(DiscardMsg)]
        asked = _after_each_discard(player)
        assert len(asked) == len(discarders) > 40
        for discarder, (_, choice) in zip(discarders, asked, strict=True):
            if discarder != seat:
                assert choice is not None, "a seat was not asked after a discard"


async def test_the_gap_after_a_discard_tells_nothing_above_the_floor(tmp_path: Path) -> None:
    # the control: without a floor the opponents' 40 ms of thought shows, and the
    # classifier reads it
    leaky = _samples(await _play(tmp_path / "no-floor", floor_ms=0, games=2))
    hits, n, base, p = threshold_attack(leaky)
    assert n >= 50 and p < 1e-3, (hits, n, base, p)
    # with the floor it does no better than always guessing the commoner answer
    floored = _samples(await _play(tmp_path / "floor", floor_ms=FLOOR_MS, games=2))
    hits, n, base, p = threshold_attack(floored)
    assert n >= 50 and p > 1e-3, (hits, n, base, p)
    # the floor holds: most gaps are at least the floor (seat 0 reads them in its own
    # process, so a busy machine can deliver a discard late and shorten a few)
    gaps = sorted(g for g, _ in floored)
    assert gaps[len(gaps) // 10] >= FLOOR_MS / 1000 * 0.9, gaps[:10]
