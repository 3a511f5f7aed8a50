"""The fan-aware rollout (:func:`strategy.sampling.rollout_fan`): reproducible from its deal,
every move legal by the rule book (replayed here move by move on the deal's hands and
walls), and its claims lower the claimer's fan-aware distance (recomputed by
:func:`strategy.fan.fan_deficiency`)."""

from __future__ import annotations

import dataclasses

import numpy as np

from bot.sampling_planner import knowledge
from bot.seat import SeatView
from game.events import (
    ClaimAndDiscard,
    ClaimChow,
    ClaimKong,
    ClaimPung,
    Dealt,
    Discarded,
    Drew,
    Punged,
    SeatAssigned,
)
from game.melds import Chow, Kong, Meld, Pung
from game.rulebook import declarable_win, kong_forbidden, legal_on_discard, win_context
from game.rules import MCR_BOTZONE
from game.tiles import NUM_KINDS, parse_tiles
from strategy.fan import fan_deficiency
from strategy.sampling import (
    Budget,
    Deal,
    FanCache,
    Knowledge,
    Line,
    RolloutPolicy,
    Step,
    compare,
    deal,
    rollout_fan,
)


def tile(name: str) -> int:
    return parse_tiles(name)[0]


def mid_game_view(hand: str = "123m456m789m1p2p3z4z", drew: str = "3p") -> SeatView:
    """Seat 0 after a few turns: seat 2 punged a 9s; seat 0 has just drawn."""
    v = SeatView(MCR_BOTZONE)
    v.observe(SeatAssigned(0, 0))
    v.observe(Dealt(0, tuple(parse_tiles(hand))))
    for e in (Drew(0, tile("5z")), Discarded(0, tile("5z")),
              Drew(1, None), Discarded(1, tile("9s")),
              Punged(2, tile("9s"), tile("1z")),
              Drew(3, None), Discarded(3, tile("6z")),
              Drew(0, tile(drew))):
        v.observe(e)  # type: ignore[arg-type]
    return v


def discard_line(v: SeatView, name: str) -> Line:
    hand = v.hand.copy()
    hand[tile(name)] -= 1
    return Line(hand, None, tile(name), v.seat, f"discard {name}")


def replay(k: Knowledge, line: Line, d: Deal, trace: list[Step]) -> dict[str, int]:
    """Replay a traced rollout on the deal, asserting every move legal; counts of moves."""
    hands = d.hands.astype(np.int64)
    hands[k.seat] = line.hand
    walls = [list(w) for w in d.walls]
    melds: list[list[Meld]] = [list(m) for m in k.melds]
    shown = k.shown.astype(np.int64)
    if line.meld is not None:
        melds[k.seat].append(line.meld)
    if line.discarder == k.seat:
        shown[line.tile] += 1
    needed = [k.melds_needed[s] - (line.meld is not None and s == k.seat) for s in range(4)]
    tile_on, discarder, drawn = line.tile, line.discarder, -1
    counts = dict.fromkeys(("draw", "discard", "pung", "chow", "kong", "win", "end"), 0)
    for i, step in enumerate(trace):
        s = step.seat
        counts[step.kind] += 1
        if line.discarder != k.seat and counts["discard"] + counts["draw"] == 0:
            assert s != k.seat  # a line that passes a discard does not act on it
        assert step.kind != "end" or i == len(trace) - 1
        if step.kind == "draw":
            assert walls[s] and walls[s].pop() == step.tile
            drawn = step.tile
            hands[s][step.tile] += 1
        elif step.kind == "discard":
            assert hands[s][step.tile] > 0
            assert int(hands[s].sum()) == 3 * needed[s] + 2
            hands[s][step.tile] -= 1
            shown[step.tile] += 1
            tile_on, discarder, drawn = step.tile, s, -1
        elif step.kind in ("pung", "chow", "kong"):
            assert step.tile == tile_on and s != discarder and step.discarder == discarder
            assert step.hand == tuple(int(x) for x in hands[s])
            next_wall = len(walls[(discarder + 1) % 4])
            allowed = kong_forbidden(len(walls[s]), next_wall) is None
            legal = legal_on_discard(hands[s], tile_on, from_left=s == (discarder + 1) % 4,
                                     kong_allowed=allowed, win=False, names_discard=True)
            unseen = np.clip(4 - hands[s] - shown, 0, 4)
            before = fan_deficiency(hands[s], melds[s], unseen, seat_wind=s,
                                    prevalent_wind=k.prevalent_wind)
            meld: Meld
            if step.kind == "pung":
                assert ClaimAndDiscard(ClaimPung(), step.discard) in legal
                taken = [tile_on, tile_on]
                meld = Pung(tile_on, discarder)
            elif step.kind == "chow":
                assert ClaimAndDiscard(ClaimChow(step.middle), step.discard) in legal
                taken = [t for t in (step.middle - 1, step.middle, step.middle + 1)
                         if t != tile_on]
                meld = Chow(step.middle, tile_on, discarder)
            else:
                assert ClaimKong() in legal and step.kong_allowed == allowed
                taken = [tile_on] * 3
                meld = Kong(tile_on, discarder)
            for t in taken:
                hands[s][t] -= 1
            after = fan_deficiency(hands[s], [*melds[s], meld], unseen, seat_wind=s,
                                   prevalent_wind=k.prevalent_wind)
            assert after < before  # a claim lowers the claimer's distance to 8 fan
            for t in taken:
                shown[t] += 1
            melds[s].append(meld)
            needed[s] -= 1
        elif step.kind == "win":
            self_drawn = step.discarder < 0
            assert self_drawn == (drawn == step.tile)
            concealed = hands[s].copy()
            if self_drawn:
                concealed[step.tile] -= 1
            else:
                assert step.tile == tile_on and step.discarder == discarder
            tiles = [t for t in range(NUM_KINDS) for _ in range(int(concealed[t]))]
            ctx = win_context(seat=s, prevalent_wind=k.prevalent_wind, self_drawn=self_drawn,
                              visible_copies=int(shown[step.tile]),
                              wall_last=not walls[((s if self_drawn else discarder) + 1) % 4])
            offer = declarable_win(MCR_BOTZONE, tiles, melds[s], step.tile, ctx)
            assert offer is not None and offer.fan == step.fan >= 8
        else:
            assert step.kind == "end" and not walls[(discarder + 1) % 4]
    assert (hands >= 0).all()
    return counts


def pass_line(v: SeatView, name: str, passed: str, discarder: int) -> Line:
    """Seat 0's hand less ``name``, passing ``discarder``'s discard of ``passed``."""
    return dataclasses.replace(discard_line(v, name), tile=tile(passed), discarder=discarder,
                               label="pass")


def test_the_fan_rollout_is_legal_move_by_move_and_claims() -> None:
    totals = dict.fromkeys(("pung", "chow", "kong", "win", "end"), 0)
    ready = mid_game_view("1m1m1m3m4m5m6m7m8m9m9m9m7z", "7z")
    for view, line in ((mid_game_view(), discard_line(mid_game_view(), "3z")),
                       (mid_game_view(), discard_line(mid_game_view(), "5m")),
                       (mid_game_view("1m2m5m7m9m3p5p8p1s4s6s2z7z", "9s"),
                        discard_line(mid_game_view("1m2m5m7m9m3p5p8p1s4s6s2z7z", "9s"), "2z")),
                       # 111m 345m 678m 999m 7z waits on 7z; it passes seat 3's 6z, and
                       # seat 3's (fourth) 9m, which it could pung or kong
                       (ready, pass_line(ready, "7z", "6z", 3)),
                       (ready, pass_line(ready, "7z", "9m", 3))):
        k = knowledge(view)
        for n in range(12):
            d = deal(k, np.random.default_rng([21, n]))
            trace: list[Step] = []
            points = rollout_fan(k, line, d, FanCache(), trace=trace)
            counts = replay(k, line, d, trace)
            assert (points == 0) == (trace[-1].kind == "end")
            for key in totals:
                totals[key] += counts[key]
    # the rollouts do claim and win (so the checks above are not vacuous)
    assert totals["pung"] + totals["chow"] > 0 and totals["win"] > 0


def test_the_same_deal_plays_the_same_game() -> None:
    v = mid_game_view()
    k = knowledge(v)
    line = discard_line(v, "5m")
    games = []
    for _ in range(2):
        trace: list[Step] = []
        d = deal(k, np.random.default_rng([4, 2]))
        games.append((rollout_fan(k, line, d, FanCache(), trace=trace), trace))
    assert games[0] == games[1]
    lines = [discard_line(v, "3z"), discard_line(v, "5m")]
    one = compare(k, lines, 3, Budget(rollouts=16), policy=RolloutPolicy.FAN)
    two = compare(k, lines, 3, Budget(rollouts=16), policy=RolloutPolicy.FAN)
    assert one.estimates == two.estimates and one.samples == 8
