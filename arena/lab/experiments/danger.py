"""How well strategy.danger orders a discarder's tiles, on real games.

Two sources in the repository's ``data/`` (:mod:`arena.tools.data`): the PKU data set sample (16
matches; its text gives every seat's deal and draws) and the 8 Botzone match logs (replayed
through the judge mock ``game.table.BotzoneTable`` from their wall and answers, whose
history holds every tile).
At every discard the whole table is then known.  For each discard, each kind in the
discarder's hand is labelled *dangerous* when it completes another seat's hand there and
then with at least 8 fan (PyMahjongGB, a win on a discard); the model sees only what the
discarder saw (its hand, every discard, the exposed melds, the hand sizes) and orders the
kinds by danger.  Printed, per source and for both:

- the AUC: over every decision with both kinds, the share of (dangerous, safe) pairs the
  model orders right (ties count half) — a random order scores 0.5;
- the same for the looser label "completes the shape" (fan ignored);
- for the discards that really dealt in, the dealt tile's rank among the hand's kinds
  (0 = the model's most dangerous, 1 = its safest; a random order averages 0.5).

    python -m arena.lab.experiments.danger [--data DIR] [--json]
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from arena.review.match_replay import MatchReplay
from arena.tools.data import DataMissing, data_dir
from game.events import (
    Chowed,
    ConcealedKonged,
    Dealt,
    Discarded,
    Drew,
    KongAdded,
    Konged,
    Punged,
    Won,
)
from game.melds import Meld
from game.scoring.mcr import WinContext, mcr_fans
from game.table import BotzoneTable
from protocols.botzone_matchlog import judge_table, load_match_log
from protocols.pku_datatxt import PkuMatch, PkuStep, PkuVerb, parse_pku_datatxt
from strategy.candidates import best_shape_deficiency
from strategy.danger import SeatSigns, danger


def botzone_match(path: Path) -> PkuMatch:
    """A Botzone match log as the PKU format's steps: the log's wall and answers replayed
    through the judge mock (:func:`protocols.botzone_matchlog.judge_table`), its history
    read back."""
    log = load_match_log(path)
    return table_match(path.name, log.prevalent_wind, judge_table(log))


def table_match(name: str, prevalent_wind: int, table: BotzoneTable) -> PkuMatch:
    """A finished judge-mock table's history as the PKU format's steps (every seat's deal,
    draws, discards, melds and the win)."""
    deals: list[tuple[int, ...]] = [()] * 4
    steps: list[PkuStep] = []

    def add(seat: int, verb: PkuVerb, tile: int) -> None:
        steps.append(PkuStep(seat, verb, tile))

    for e in table.history:
        if isinstance(e, Dealt):
            deals[e.seat] = e.tiles
        elif isinstance(e, Drew) and e.tile is not None:
            add(e.seat, PkuVerb.DRAW, e.tile)
        elif isinstance(e, Discarded):
            add(e.seat, PkuVerb.PLAY, e.tile)
        elif isinstance(e, Chowed):
            add(e.seat, PkuVerb.CHI, e.middle)
            add(e.seat, PkuVerb.PLAY, e.discard)
        elif isinstance(e, Punged):
            add(e.seat, PkuVerb.PENG, e.tile)
            add(e.seat, PkuVerb.PLAY, e.discard)
        elif isinstance(e, Konged):
            add(e.seat, PkuVerb.GANG, e.tile)
        elif isinstance(e, ConcealedKonged) and e.tile is not None:
            add(e.seat, PkuVerb.ANGANG, e.tile)
        elif isinstance(e, KongAdded):
            add(e.seat, PkuVerb.BUGANG, e.tile)
        elif isinstance(e, Won):
            add(e.seat, PkuVerb.HU, e.tile)
    result = table.result
    if result is not None and isinstance(result.ending, Won):  # the ending is not history
        add(result.ending.seat, PkuVerb.HU, result.ending.tile)
    return PkuMatch(name, prevalent_wind, tuple(deals), tuple(steps), None, (), (0, 0, 0, 0))


def load_matches(data: Path | None = None) -> dict[str, list[PkuMatch]]:
    """The two sources' matches, by source name, from ``data`` (default: :func:`data_dir`);
    a missing source raises :class:`arena.tools.data.DataMissing`."""
    folder = data_dir() if data is None else data
    sample = folder / "pku-datatxt" / "sample.txt"
    if not sample.is_file():
        raise DataMissing(f"no PKU sample at {sample}")
    pku = parse_pku_datatxt(sample.read_text(encoding="utf-8"))
    logs = sorted((folder / "botzone-match-logs").glob("*_lite.json"))
    if not logs:
        raise DataMissing(f"no Botzone match logs (*_lite.json) in {folder / 'botzone-match-logs'}")
    return {"pku-datatxt": pku, "botzone-match-logs": [botzone_match(p) for p in logs]}


@dataclass(frozen=True)
class ObservedDiscard:
    """One discard as the discarder saw it, with the truth about the other hands."""

    seat: int
    hand: np.ndarray
    """The discarder's hand before the discard."""
    melds: tuple[Meld, ...]
    """The discarder's declared melds."""
    signs: tuple[SeatSigns, ...]
    unseen: np.ndarray
    shape_danger: frozenset[int]
    """Kinds in the hand that complete another seat's hand (any fan)."""
    fan_danger: frozenset[int]
    """Kinds that complete one with at least 8 fan."""
    discarded: int
    dealt_in: bool


def _completes(hand: np.ndarray, melds: list[Meld], seat: int, tile: int, wind: int
               ) -> tuple[bool, bool]:
    """(completes the shape, with at least 8 fan) for ``tile`` won on a discard."""
    after = hand.copy()
    after[tile] += 1
    if after[tile] > 4:
        return False, False
    needed = 4 - len(melds)
    unseen = np.clip(4 - after, 0, 4).astype(np.int8)
    if best_shape_deficiency(after.astype(np.int8), unseen, needed, True, needed == 4) != 0:
        return False, False
    tiles = [t for t in range(34) for _ in range(int(hand[t]))]
    fans = mcr_fans(tiles, melds, tile, WinContext(seat, wind))
    return True, fans is not None and sum(f.total for f in fans) >= 8


def decisions_of(match: PkuMatch) -> list[ObservedDiscard]:
    table = MatchReplay(match)
    hands, melds = table.hands, table.melds
    out: list[ObservedDiscard] = []
    for step in match.steps:
        s, t, verb = step.seat, step.tile, step.verb
        if verb == PkuVerb.PLAY:
            signs = []
            shape, fan = set(), set()
            for o in range(4):
                if o == s:
                    continue
                signs.append(table.signs_of(o))
                for k in np.flatnonzero(hands[s]):
                    a, b = _completes(hands[o], melds[o], o, int(k), match.prevalent_wind)
                    if a:
                        shape.add(int(k))
                    if b:
                        fan.add(int(k))
            out.append(ObservedDiscard(s, hands[s].copy(), tuple(melds[s]), tuple(signs),
                                table.unseen_for(s), frozenset(shape), frozenset(fan), t,
                                False))
        elif verb == PkuVerb.HU and table.previous == PkuVerb.PLAY and table.last is not None \
                and table.last[0] != s and table.last[1] == t:  # a win on the discard just made
            d = out[-1]
            out[-1] = ObservedDiscard(d.seat, d.hand, d.melds, d.signs, d.unseen, d.shape_danger,
                               d.fan_danger, d.discarded, True)
        table.apply(step)
    return out


def _auc(scores: np.ndarray, kinds: list[int], positive: frozenset[int]) -> tuple[float, int]:
    """(pairs ordered right, ties half; pairs) within one decision."""
    pos = [scores[k] for k in kinds if k in positive]
    neg = [scores[k] for k in kinds if k not in positive]
    right = sum(1.0 if p > n else 0.5 if p == n else 0.0 for p in pos for n in neg)
    return right, len(pos) * len(neg)


def _rank(scores: np.ndarray, kinds: list[int], tile: int) -> float:
    """0 = the most dangerous kind, 1 = the safest (ties at their middle)."""
    if len(kinds) < 2:
        return 0.5
    above = sum(1 for k in kinds if scores[k] > scores[tile])
    ties = sum(1 for k in kinds if scores[k] == scores[tile]) - 1
    return (above + ties / 2) / (len(kinds) - 1)


def measure(matches: list[PkuMatch]) -> dict[str, float]:
    right = {"fan": 0.0, "shape": 0.0}
    pairs = {"fan": 0, "shape": 0}
    decisions = 0
    dealt_ranks = []
    for match in matches:
        for d in decisions_of(match):
            decisions += 1
            scores = danger(d.signs, d.unseen)
            kinds = [int(k) for k in np.flatnonzero(d.hand)]
            for label, positive in (("fan", d.fan_danger), ("shape", d.shape_danger)):
                r, n = _auc(scores, kinds, positive)
                right[label] += r
                pairs[label] += n
            if d.dealt_in:
                dealt_ranks.append(_rank(scores, kinds, d.discarded))
    return {
        "matches": len(matches),
        "decisions": decisions,
        "auc_fan8": right["fan"] / max(1, pairs["fan"]),
        "pairs_fan8": pairs["fan"],
        "auc_shape": right["shape"] / max(1, pairs["shape"]),
        "pairs_shape": pairs["shape"],
        "deal_ins": len(dealt_ranks),
        "dealt_tile_mean_rank": float(np.mean(dealt_ranks)) if dealt_ranks else float("nan"),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=data_dir(),
                        help="the folder holding pku-datatxt/ and botzone-match-logs/")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    sources = load_matches(args.data)
    results = {name: measure(matches) for name, matches in sources.items()}
    results["both"] = measure([m for ms in sources.values() for m in ms])
    if args.json:
        print(json.dumps(results, indent=1))
        return
    names = list(results)
    print(f"{'measure (random order = 0.500)':<40}" + "".join(f"{n:>20}" for n in names))
    rows = [("AUC, completes with >= 8 fan", "auc_fan8"),
            ("AUC, completes the shape", "auc_shape"),
            ("dealt-in tile rank (0 = most dangerous)", "dealt_tile_mean_rank")]
    for label, key in rows:
        print(f"{label:<40}" + "".join(f"{results[n][key]:>20.3f}" for n in names))
    for label, key in (("matches", "matches"), ("discards", "decisions"),
                       ("(dangerous, safe) pairs, 8 fan", "pairs_fan8"),
                       ("(dangerous, safe) pairs, shape", "pairs_shape"),
                       ("deal-ins", "deal_ins")):
        print(f"{label:<40}" + "".join(f"{int(results[n][key]):>20}" for n in names))


if __name__ == "__main__":
    main()
