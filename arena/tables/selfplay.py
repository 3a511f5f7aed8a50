"""``mjbot selfplay``: in-process games between named players, with honest statistics.

Walls come from the seed; every wall is played four times with the players
rotated one seat each time (the duplicate idea of the Computer Olympiad and
of Botzone's IJCAI format), so luck of the deal is shared.  Per player:
win rate, self-draw and deal-in rates, mean score and mean fan of its wins,
each with a 95% confidence interval (Wilson for rates, normal for means),
and the counts that must stay 0: illegal actions and false wins.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from arena.tools.output_files import OutputError, output_directory, replace_file
from bot.options import non_negative_int, positive_int
from game.table import WRONG_WIN


@dataclass(frozen=True)
class SeatOutcome:
    player: str
    score: int
    won: bool
    self_drawn: bool
    dealt_in: bool
    fan: int | None
    illegal: bool
    false_win: bool


@dataclass(frozen=True)
class GameSummary:
    game: int
    seats: tuple[SeatOutcome, ...]
    ending: str
    detail: str = ""


def play_one(args: tuple[int, int, list[str], str, str | None]
             | tuple[int, int, list[str], str, str | None, str]) -> GameSummary:
    """Game ``game`` of ``seed``: wall ``game // 4`` with the players rotated ``game % 4``
    seats, played by the arena's game (:func:`arena.tables.play.play`: every seat through the
    platform's seat session), on taiwan-16's single wall or stable draw wall."""
    from arena.tables.games import GameSpec, Rules
    from arena.tables.play import play
    from game.stable_wall import WallMode

    game, seed, names, rules_name, records = args[:5]
    shift = game % 4
    a, b, c, d = (names[(i - shift) % 4] for i in range(4))
    seating = (a, b, c, d)
    if rules_name not in (r.value for r in Rules):
        raise ValueError(f"self-play plays {' or '.join(r.value for r in Rules)}, "
                         f"not {rules_name!r}")
    wall = str(args[5]) if len(args) > 5 else "single"
    spec = GameSpec(Rules(rules_name), seed, game // 4, shift, seating, seating,
                    WallMode(wall), record=records is not None)
    played = play(spec)
    o = played.outcome
    if records and played.record is not None:
        path = Path(records) / f"game-{seed}-{game:05d}.jsonl"
        path.parent.mkdir(parents=True, exist_ok=True)
        replace_file(path, "\n".join(played.record) + "\n")  # never through a planted link
    false_win = played.penalty.startswith(f"{WRONG_WIN}:") or played.penalty == WRONG_WIN
    outcomes = tuple(SeatOutcome(
        player=seating[s], score=int(o.scores[s]), won=o.winner == s,
        self_drawn=o.winner == s and o.self_drawn, dealt_in=o.payer == s,
        fan=o.fan if o.winner == s else None,
        illegal=played.replaced[s] > 0 or (o.penalized == s and not false_win),
        false_win=o.penalized == s and false_win) for s in range(4))
    return GameSummary(game, outcomes, played.ending, played.penalty)


@dataclass
class Tally:
    games: int = 0
    wins: int = 0
    self_draws: int = 0
    deal_ins: int = 0
    illegal: int = 0
    false_wins: int = 0
    scores: list[int] = field(default_factory=list)
    fans: list[int] = field(default_factory=list)


def wilson(k: int, n: int) -> tuple[float, float]:
    if n == 0:
        return (0.0, 0.0)
    z = 1.96
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, c - h), min(1.0, c + h))


def mean_ci(xs: list[int]) -> tuple[float | None, float | None]:
    """The mean and the half-width of its 95 % normal interval (1.96 s / √n): no mean
    without values, no interval from fewer than two (one win says nothing of the spread)."""
    if not xs:
        return (None, None)
    m = statistics.fmean(xs)
    half = 1.96 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else None
    return (m, half)


def _mean(mean: object, half: object, digits: int, width: int, n: int | None = None) -> str:
    """``mean ± half``; ``mean (1 win)`` without an interval; ``-`` without a mean."""
    if not isinstance(mean, float):
        return f"{'-':<{width}}"
    if not isinstance(half, float):
        alone = f"{mean:.{digits}f}" + (f" ({n} win)" if n == 1 else " (no ±)")
        return f"{alone:<{width}}"
    return f"{f'{mean:.{digits}f} ± {half:.{digits}f}':<{width}}"


def tally(summaries: list[GameSummary]) -> dict[str, Tally]:
    out: dict[str, Tally] = {}
    for g in summaries:
        for s in g.seats:
            t = out.setdefault(s.player, Tally())
            t.games += 1
            t.wins += s.won
            t.self_draws += s.self_drawn
            t.deal_ins += s.dealt_in
            t.illegal += s.illegal
            t.false_wins += s.false_win
            t.scores.append(s.score)
            if s.fan is not None:
                t.fans.append(s.fan)
    return out


def report(tallies: dict[str, Tally]) -> list[dict[str, object]]:
    rows = []
    for name, t in tallies.items():
        lo, hi = wilson(t.wins, t.games)
        score, score_h = mean_ci(t.scores)
        fan, fan_h = mean_ci(t.fans)
        rows.append({
            "player": name, "seat_games": t.games,
            "win_rate": t.wins / t.games, "win_rate_ci": [lo, hi],
            "self_draw_rate": t.self_draws / t.games, "deal_in_rate": t.deal_ins / t.games,
            "mean_score": score, "mean_score_ci": score_h,
            "mean_fan": fan, "mean_fan_ci": fan_h, "fan_wins": len(t.fans),
            "illegal_actions": t.illegal, "false_wins": t.false_wins,
        })
    return rows


def render(rows: list[dict[str, object]], games: int) -> str:
    lines = [f"{games} games; each wall played 4 times with the players rotated",
             "intervals: 95 %; win rate [Wilson score interval]; mean score and mean fan "
             "± 1.96 s/√n (normal approximation, seat-games taken as independent)",
             f"{'player':<8} {'seat-games':>10} {'win rate':>18} {'self-draw':>9} "
             f"{'deal-in':>8} {'mean score':>15} {'mean fan (per win)':<18} {'illegal':>7} "
             f"{'false HU':>8}"]
    for r in rows:
        ci: list[float] = r["win_rate_ci"]  # type: ignore[assignment]
        lo, hi = ci
        lines.append(
            f"{r['player']:<8} {r['seat_games']:>10} "
            f"{r['win_rate']:>7.3f} [{lo:.3f},{hi:.3f}] {r['self_draw_rate']:>9.3f} "
            f"{r['deal_in_rate']:>8.3f} "
            f"{_mean(r['mean_score'], r['mean_score_ci'], 2, 15)} "
            f"{_mean(r['mean_fan'], r['mean_fan_ci'], 1, 18, r['fan_wins'])} "  # type: ignore[arg-type]
            f"{r['illegal_actions']:>7} "
            f"{r['false_wins']:>8}")
    return "\n".join(lines)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--rules", default="mcr-botzone", choices=["mcr-botzone", "taiwan-16"])
    p.add_argument("--wall", choices=["single", "sdw"], default="single",
                   help="taiwan-16: one wall or the stable draw wall of paper 002")
    p.add_argument("--agents", nargs=4, default=["mjbot", "greedy", "mjbot", "random"],
                   metavar="PLAYER",
                   help="four in-process players of the arena's registry: mjbot (the shipped "
                        "bot), planner-v1, baseline-v1, planner[:OPTIONS], mjbot-eps:E, "
                        "greedy, random (see mjbot arena --help)")
    p.add_argument("--games", type=positive_int, default=8)
    p.add_argument("--seed", type=non_negative_int, default=1)
    p.add_argument("--workers", type=positive_int, default=1)
    p.add_argument("--records", metavar="DIR", help="write one game record per game here")
    p.add_argument("--json", action="store_true")


def run(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    if args.wall != "single" and args.rules != "taiwan-16":
        print("mjbot selfplay: --wall sdw is a taiwan-16 wall mode (mcr-botzone's per-seat "
              "walls keep draws stable already)", file=sys.stderr)
        return 2
    from arena.players.lineup import PlayerSpecError, parse_player

    for text in args.agents:
        try:
            player = parse_player(text)
        except PlayerSpecError as exc:
            print(f"mjbot selfplay: {exc}", file=sys.stderr)
            return 2
        if not player.in_process:
            print(f"mjbot selfplay: {text!r} is a program; play it with mjbot arena",
                  file=sys.stderr)
            return 2
    if args.records is not None:
        try:  # checked and made before the first game, not found wrong after one
            output_directory(Path(args.records))
        except OutputError as exc:
            print(f"mjbot selfplay: {exc}", file=sys.stderr)
            return 2
    jobs = [(g, args.seed, list(args.agents), args.rules, args.records, args.wall)
            for g in range(args.games)]
    summaries: list[GameSummary] = []
    bar = tqdm(total=len(jobs), file=sys.stderr, unit="game", disable=args.json)
    if args.workers > 1:
        with ProcessPoolExecutor(args.workers) as pool:
            for s in pool.map(play_one, jobs, chunksize=4):
                summaries.append(s)
                bar.update()
    else:
        for job in jobs:
            summaries.append(play_one(job))
            bar.update()
    bar.close()
    rows = report(tally(summaries))
    if args.json:
        print(json.dumps({"games": args.games, "seed": args.seed, "players": rows}))
    else:
        print(render(rows, args.games))
    bad = sum(int(r["illegal_actions"]) + int(r["false_wins"]) for r in rows)  # type: ignore[call-overload]
    return 1 if bad else 0
