"""``mjbot bench zip``: the Botzone upload's turn times and fallbacks over whole games.

Botzone runs the zip as it is uploaded: numpy and PyMahjongGB only, so every kernel runs
as plain Python.  Python bots get 6 s per turn (the first turns double); the zip thinks
for at most 2 s, and its planner lets the step-value agent answer when its own clock (80 % of
that) runs out (:class:`bot.planner.OnTime`).  This bench builds the zip as ``mjbot
package botzone`` does, plays whole games with it at seat 0 of the judge mock (``python
OUT.zip``, ``MJBOT_NO_NUMBA=1``) and prints, per *decision* (a turn that asked the zip
something: after its draw, or on another seat's discard it could claim), how many fell
back (the zip's decision log, ``MJBOT_DECISION_LOG``: the planner out of time, or the
session's late answer) and the turn times after a draw and on a discard (p50, p90, p99,
max; wall clock, and the zip process's CPU time, which a loaded machine does not inflate),
beside every turn's (passes included).  ``--load N`` keeps N busy processes
running meanwhile (2 on a 2-core machine: the loaded target); ``--games`` sets the games
(default 20, 2 with ``--quick``).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from arena.bench.startup import busy
from arena.platforms.botzone_judge.one_seat import play_subprocess_seat
from arena.tools.package import build, python_version, zip_pythons
from game.events import Penalized

BOTZONE_LIMIT_SECONDS = 4.0
"""Botzone's limit for a Python turn that resumes a kept-running bot (every turn here but
the first, which gets 6 s, doubled)."""
ZIP_CLOCK_SECONDS = 1.6
"""The zip's own clock (80 % of its 2 s): a turn past it is one where the planner ran out
of time and the step-value agent answered (``over_clock``)."""
OUT_OF_TIME = "the value ran out of time"
"""How :class:`bot.planner.OnTime` begins the note of the step-value agent's answer."""
CUT = "[the clock cut"
"""How a planner decision that the clock cut short says so (its note's tail,
:class:`bot.planner.Planner`: the useful draws, the learned order or the step-value search
cut).  Such a decision is the planner's own but may differ from the compiled bot's (a
search cut by its work budget alone is the compiled bot's too)."""
TARGETS = {"draw_p99_s": 1.0, "draw_max_s": 3.0, "fallback_pct": 1.0,
           "turn_max_s": BOTZONE_LIMIT_SECONDS}
"""On a loaded 2-core machine (``--load 2``): after a draw p99 within 1 s and the slowest
within 3 s, at most 1 % of decisions answered by the fallback, every turn within 4 s."""


def _quantile(xs: list[float], q: float) -> float:
    ys = sorted(xs)
    return ys[min(len(ys) - 1, int(q * len(ys)))] if ys else 0.0


def _kind(request: str) -> str | None:
    """What a request asks the zip: ``draw`` (its own draw), ``discard`` (another seat's
    discard, after a play, pung or chow), ``kong`` (an added kong it could rob), else None."""
    words = request.split()
    if words[:1] == ["2"]:
        return "draw"
    if len(words) >= 3 and words[0] == "3":
        if words[2] in ("PLAY", "PENG", "CHI"):
            return "discard"
        if words[2] == "BUGANG":
            return "kong"
    return None


def fell_back(info: dict[str, Any]) -> bool:
    """A logged decision that is not the planner's: the step-value agent answered for it out of
    time, or the session replaced a late or failed answer."""
    return str(info.get("note", "")).startswith(OUT_OF_TIME) or info.get("method") == "fallback"


def was_cut(info: dict[str, Any]) -> bool:
    """A logged planner decision the clock cut short (:data:`CUT`), not a fallback."""
    return not fell_back(info) and CUT in str(info.get("note", ""))


def play(games: int, seed: int, python: str = sys.executable) -> dict[str, Any]:
    """Build the zip and play ``games`` seeded games with it at seat 0 under ``python``; the
    raw numbers."""
    turns: list[float] = []
    # kind, seconds, fell back, CPU s, cut short
    decisions: list[tuple[str, float, bool, float, bool]] = []
    peak, penalties = 0.0, 0
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        zip_path = Path(tmp) / "mjbot.zip"
        build(zip_path)
        for g in range(games):
            log_path = Path(tmp) / f"decisions-{g}.jsonl"
            log_path.touch()
            env = {**os.environ, "MJBOT_NO_NUMBA": "1", "MJBOT_DECISION_LOG": str(log_path)}
            with log_path.open(encoding="utf-8") as log:

                def on_turn(request: str, seconds: float, cpu: float) -> None:
                    line = log.readline()  # the zip logs a decision before its next line
                    if not line:
                        return
                    info = json.loads(line)
                    kind = _kind(request) or "other"
                    decisions.append((kind, seconds, fell_back(info), cpu, was_cut(info)))

                table, mb = play_subprocess_seat([python, str(zip_path)], seed + g,
                                                 cwd=Path(tmp), turn_seconds=turns, env=env,
                                                 on_turn=on_turn)
            peak = max(peak, mb)
            ending = table.result.ending if table.result is not None else None
            penalties += isinstance(ending, Penalized) and ending.seat == 0
    return {"turns": turns, "decisions": decisions, "peak_mb": peak, "penalties": penalties,
            "seconds": time.perf_counter() - start}


def summarise(raw: dict[str, Any], games: int, load: int) -> dict[str, Any]:
    turns: list[float] = raw["turns"]
    decisions: list[tuple[str, float, bool, float, bool]] = raw["decisions"]
    fallbacks = sum(d[2] for d in decisions)
    cut = sum(d[4] for d in decisions)
    row: dict[str, Any] = {
        "games": games, "load": load, "turns": len(turns),
        "turn_median_s": round(statistics.median(turns), 4) if turns else 0.0,
        "turn_p99_s": round(_quantile(turns, 0.99), 4),
        "turn_max_s": round(max(turns, default=0.0), 4),
        "decisions": len(decisions), "fallbacks": fallbacks,
        "fallback_pct": round(100.0 * fallbacks / max(1, len(decisions)), 2),
        "cut": cut, "cut_pct": round(100.0 * cut / max(1, len(decisions)), 2),
        "over_clock": sum(t >= ZIP_CLOCK_SECONDS for t in turns),
    }
    for kind in ("draw", "discard"):
        xs = [d[1] for d in decisions if d[0] == kind]
        cpu = [d[3] for d in decisions if d[0] == kind]
        row[f"{kind}_decisions"] = len(xs)
        row[f"{kind}_fallbacks"] = sum(d[2] for d in decisions if d[0] == kind)
        for name, q in (("p50", 0.5), ("p90", 0.9), ("p99", 0.99)):
            row[f"{kind}_{name}_s"] = round(_quantile(xs, q), 4)
            row[f"{kind}_{name}_cpu_s"] = round(_quantile(cpu, q), 4)
        row[f"{kind}_max_s"] = round(max(xs, default=0.0), 4)
        row[f"{kind}_max_cpu_s"] = round(max(cpu, default=0.0), 4)
    row.update({"limit_s": BOTZONE_LIMIT_SECONDS, "peak_mb": round(raw["peak_mb"], 1),
                "penalties": raw["penalties"], "seconds": round(raw["seconds"], 1)})
    return row


def missed(row: dict[str, Any]) -> list[str]:
    """The item-3 targets this run misses (they are set for a loaded machine)."""
    return [name for name, limit in TARGETS.items() if row[name] > limit]


def main(args: argparse.Namespace) -> int:
    games = args.games or (2 if args.quick else 20)
    load = getattr(args, "load", 0)
    rows = []
    for python in zip_pythons(getattr(args, "python", None)):
        with busy(load):
            raw = play(games, args.seed, python)
        rows.append({"python": python, "version": python_version(python),
                     **summarise(raw, games, load)})
    if args.json:
        print(json.dumps({"bench": "zip", "rows": [{**row, "missed": missed(row)}
                                                   for row in rows]}))
        return 0
    print(f"the Botzone zip at seat 0 of the judge mock, numba off (plain-Python kernels), "
          f"{games} games from seed {args.seed}, {load} busy processes beside it")
    for row in rows:
        print_row(row)
    return 0


def print_row(row: dict[str, Any]) -> None:
    print(f"\n{row['version']} ({row['python']})")
    print(f"decisions {row['decisions']}, fell back {row['fallbacks']} "
          f"({row['fallback_pct']} %; target <= {TARGETS['fallback_pct']} %); the planner's "
          f"but cut short by the clock (may differ from the compiled bot's) {row['cut']} "
          f"({row['cut_pct']} %)")
    print(f"{'asked':<14}{'decisions':>10}{'fallbacks':>10}{'p50 s':>9}{'p90 s':>9}"
          f"{'p99 s':>9}{'max s':>9}")
    for kind, label in (("draw", "after a draw"), ("discard", "on a discard")):
        print(f"{label:<14}{row[kind + '_decisions']:>10}{row[kind + '_fallbacks']:>10}"
              + "".join(f"{row[f'{kind}_{q}_s']:>9.3f}" for q in ("p50", "p90", "p99", "max")))
        print(f"{'  (CPU s)':<34}"
              + "".join(f"{row[f'{kind}_{q}_cpu_s']:>9.3f}" for q in ("p50", "p90", "p99", "max")))
    print(f"every turn ({row['turns']}, passes included): median {row['turn_median_s']} s, "
          f"p99 {row['turn_p99_s']} s, max {row['turn_max_s']} s of Botzone's "
          f"{BOTZONE_LIMIT_SECONDS:.0f} s; past the zip's {ZIP_CLOCK_SECONDS} s clock: "
          f"{row['over_clock']}")
    print(f"penalties {row['penalties']}, peak {row['peak_mb']} MB, {row['seconds']} s")
    for name in missed(row):
        print(f"MISSED {name}: {row[name]} > {TARGETS[name]}")
