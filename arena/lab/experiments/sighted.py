"""What reading the opponents could be worth at most: a seat that sees their hands.

The planner's danger (:mod:`strategy.danger`) estimates from what is public the chance that
a discard completes another seat's hand.  This bench plays the same player twice on every
game: once as it is, once *sighted*, its danger read from the other seats' true hands (1
where the kind completes a hand with at least 8 fan on a discard, by the rule book's
scorer, else 0; everything else it decides as before).  The sighted player's lead over the
field is the ceiling of any opponent model that feeds that danger: no estimate from public
information can know more.

Against the field (three ``planner-v1`` by default), each wall in the four rotations,
seed and walls as the arena's (``GameSpec``), in-process; printed: each player's A − B
(points per game over the field's mean, clustered by wall, Student's t), the sighted
player's gain over the plain one on the same games, and the win and deal-in rates.

``--recall R``: the sighted player names each kind that would deal in with chance R (a draw
seeded by the game) and keeps its own estimate for every kind it does not name: how much
of the ceiling a reader that catches part of the dangers, and never calls a safe tile
dangerous, keeps.

    python -m arena.lab.experiments.sighted [--player SPEC] [--field SPEC] [--seed S] [--walls N]
        [--workers W] [--recall R] [--json]
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from arena.lab.experiments.danger import _completes
from arena.players.lineup import ArenaSeat
from arena.stats.clustered import (
    GameOutcome,
    Interval,
    mean_interval,
    outcome_of,
    paired_difference,
    player_stats,
    wall_differences,
)
from arena.stats.seating import SeatingFormat, seated, seatings
from arena.tables.games import GameSpec, Rules, play_mcr_table
from bot.planner import Planner
from bot.seat import PlayerState
from game.melds import Meld
from game.table import BotzoneTable
from game.tiles import NUM_KINDS
from game.turn_order import SEATS

Prepare = Callable[[list[ArenaSeat], BotzoneTable], None]
SIGHT_STREAM = 7
"""The last element of a sighted game's seed ([seed, wall, seat, this]): the draws of
``--recall`` are their own stream, apart from the players' own."""


def true_danger(hands: Sequence[np.ndarray], melds: Sequence[Sequence[Meld]], me: int,
                wind: int) -> np.ndarray:
    """(34,) 1 where discarding the kind completes another seat's concealed ``hands[o]``
    beside ``melds[o]`` with at least 8 fan on a discard, else 0."""
    dz = np.zeros(NUM_KINDS, dtype=np.float64)
    for o in range(SEATS):
        if o == me:
            continue
        hand = np.asarray(hands[o], dtype=np.int64)
        for k in range(NUM_KINDS):
            if dz[k] == 0.0 and _completes(hand, list(melds[o]), o, k, wind)[1]:
                dz[k] = 1.0
    return dz


def _sight(seats: list[ArenaSeat], table: BotzoneTable, me: int, wind: int,
           recall: float = 1.0, rng: np.random.Generator | None = None) -> None:
    """Let ``seats[me]``'s planner read its danger from ``table``'s hands: each kind that
    would deal in is named (danger 1) with chance ``recall`` (drawn from ``rng``, seeded
    by the game), and every kind not named keeps the planner's own estimate.  A recall of
    1 reads the true danger alone."""
    planner = seats[me].strategy
    if not isinstance(planner, Planner):
        raise ValueError(f"{seats[me].spec.text!r} is not a planner: it reads no danger")
    if recall < 1.0 and rng is None:
        raise ValueError("a recall below 1 needs the game's seeded generator")
    estimate = planner._danger

    def danger(v: PlayerState) -> np.ndarray:
        hands, melds = [], []
        for o in range(SEATS):
            view = table.view(o)
            counts = np.zeros(NUM_KINDS, dtype=np.int64)
            for t in view.hand:
                counts[t] += 1
            hands.append(counts)
            melds.append(view.melds)
        truth = true_danger(hands, melds, me, wind)
        if recall >= 1.0:
            return truth
        assert rng is not None
        named = (truth > 0) & (rng.random(NUM_KINDS) < recall)
        return np.where(named, 1.0, estimate(v))

    setattr(planner, "_danger", danger)  # noqa: B010  (this instance only)


PLAYER, FIELD = "player", "field"
"""The statistics' labels of the player's seat and the field's (the two may be the same
program)."""


@dataclass(frozen=True)
class Sighted:
    """One game of a wall (the rotation ``seating``), as the player played it plain and
    sighted."""

    seating: int
    plain: GameOutcome
    sighted: GameOutcome


def play(seed: int, wall: int, player: str, field: str, recall: float = 1.0
         ) -> list[Sighted]:
    """The wall's four rotations (the arena's, :func:`arena.stats.seating.seatings`), the player
    plain and sighted (naming ``recall`` of the kinds that would deal in, :func:`_sight`)
    in each."""
    lineup, labels = (player, field, field, field), (PLAYER, FIELD, FIELD, FIELD)
    games = []
    for r, seating in enumerate(seatings(SeatingFormat.ROTATE)):
        spec = GameSpec(Rules.MCR_BOTZONE, seed, wall, r, seated(lineup, seating),
                        seated(labels, seating))
        me = spec.labels.index(PLAYER)

        def prepare(seats: list[ArenaSeat], table: BotzoneTable,
                    spec: GameSpec = spec, me: int = me) -> None:
            _sight(seats, table, me, spec.prevalent_wind, recall,
                   np.random.default_rng([seed, wall, me, SIGHT_STREAM]))

        def outcome(sighted: bool, spec: GameSpec = spec,
                    prepare: Prepare = prepare) -> GameOutcome:
            result = play_mcr_table(spec, prepare=prepare if sighted else None).result
            assert result is not None
            return outcome_of(wall, spec.labels, result)

        games.append(Sighted(r, outcome(False), outcome(True)))
    return games


def summarise(games: Sequence[Sighted]) -> dict[str, Any]:
    """Per player (plain, sighted): A − B by wall, win and deal-in rates
    (:mod:`arena.stats.clustered`, as the arena reports them) and penalised games; the sighted
    player's gain on the same games."""
    out: dict[str, Any] = {}
    plain = [g.plain for g in games]
    sighted = [g.sighted for g in games]
    for name, outcomes in (("plain", plain), ("sighted", sighted)):
        stats = player_stats(outcomes, PLAYER)
        out[name] = {"a_minus_b": asdict(paired_difference(outcomes, PLAYER, FIELD)),
                     "won": stats.win_rate.estimate, "dealt_in": stats.deal_in_rate.estimate,
                     "games": stats.seat_games,
                     "penalised": sum(o.penalized is not None for o in outcomes)}
    before = wall_differences(plain, PLAYER, FIELD)
    after = wall_differences(sighted, PLAYER, FIELD)
    gain = [after[w] - before[w] for w in before if w in after]
    out["gain"] = asdict(mean_interval(gain))
    out["walls_differ"] = sum(1 for x in gain if x != 0.0)
    return out


def _fmt(i: dict[str, Any]) -> str:
    return f"{i['estimate']:+.2f} ± {Interval(**i).half_width:.2f}"


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--player", default="mjbot", help="the planner read plain and sighted")
    parser.add_argument("--field", default="planner-v1", help="the three other seats")
    parser.add_argument("--seed", type=int, default=61001)
    parser.add_argument("--walls", type=int, default=100)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--recall", type=float, default=1.0,
                        help="the sighted player names each kind that would deal in with "
                             "this chance; kinds not named keep its own estimate (1: the "
                             "truth alone)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.walls < 2:
        parser.error("--walls needs at least 2 for an interval")
    if not 0.0 < args.recall <= 1.0:
        parser.error("--recall lies in (0, 1]")
    games: list[Sighted] = []
    if args.workers > 1:
        with ProcessPoolExecutor(args.workers) as pool:
            for part in pool.map(play, [args.seed] * args.walls, range(args.walls),
                                 [args.player] * args.walls, [args.field] * args.walls,
                                 [args.recall] * args.walls):
                games += part
    else:
        for w in range(args.walls):
            games += play(args.seed, w, args.player, args.field, args.recall)
    out = {"player": args.player, "field": args.field, "seed": args.seed,
           "walls": args.walls, "recall": args.recall, **summarise(games)}
    if args.json:
        print(json.dumps(out, indent=1))
        return
    print(f"{args.player} vs 3 {args.field}, seed {args.seed}, {args.walls} walls, rotate "
          f"(each game played plain and sighted, recall {args.recall:g})")
    print(f"{'player':<10}{'A - B':>16}{'won':>8}{'dealt in':>10}")
    for name in ("plain", "sighted"):
        r = out[name]
        print(f"{name:<10}{_fmt(r['a_minus_b']):>16}{100 * r['won']:>7.1f}%"
              f"{100 * r['dealt_in']:>9.1f}%")
    print(f"sighted - plain, same games: {_fmt(out['gain'])} ({out['walls_differ']} walls "
          f"differ); penalised games: {out['plain']['penalised']} plain, "
          f"{out['sighted']['penalised']} sighted")


if __name__ == "__main__":
    main()
