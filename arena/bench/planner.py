"""``mjbot bench planner``: where one game's time goes, by stage, compiled and plain.

Plays seeded mcr-botzone games of one ``planner`` and three ``baseline-v1`` (the seats
rotated, as ``mjbot arena planner baseline-v1 baseline-v1 baseline-v1`` seats them) and
times each stage of the planner's decisions with the thread's CPU clock
(``time.thread_time``: less sensitive to other processes on a shared machine than the
wall clock).  A stage's time is *exclusive*: a stage called inside another counts for
itself only (the fan routes inside a claim count as fan routes), so the rows add up to the
game.  The plain-Python column is the same games in a child process with
``MJBOT_NO_NUMBA=1`` (every kernel as plain Python, as the Botzone zip runs them; the
planner on a work budget, so it decides as the compiled one does).

Rows (per game, the median over the games):

- fan routes: the fan-aware distance of a hand and of each discard (:mod:`strategy.fan`);
- useful draws: the draws that lower the distance (:func:`strategy.value.useful_draws`);
- learned order: the close discards' features and the ranker (:mod:`strategy.discard_rank`);
- danger: :func:`strategy.danger.danger`;
- win checks: the planner's win checks and the outs of a waiting hand (PyMahjongGB);
- step-value search: the agent's discard and claim search the planner ties break by;
- planner, the rest: building outlooks, candidates and reasons, claims' bookkeeping;
- seat view and KB: the planner's seat view taking each event, its ask and legal answers;
- baseline-v1 seats: the three other players' decisions (their views included);
- table and records: the referee, the other views and the game record.

The inclusive time of the planner's decisions after a draw and on a discard (the claims)
is printed below the table.  ``python -m arena.bench.planner --latency planner baseline-v1
baseline-v1 baseline-v1`` prints the older per-player latency table (p50/p99/max)."""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from arena.players.lineup import ArenaSeat, parse_player
from arena.stats.clustered import GameOutcome
from arena.stats.seating import SeatingFormat, seated, seatings
from arena.tables.games import GameSpec, Rules, finish_mcr, play_mcr_table
from game.events import Action, Pass

ROTATIONS = seatings(SeatingFormat.ROTATE)

PLAYERS = ("planner", "baseline-v1", "baseline-v1", "baseline-v1")
STAGES = ("fan routes", "useful draws", "learned order", "danger", "win checks",
          "step-value search", "planner, the rest", "seat view and KB",
          "baseline-v1 seats", "table and records")
INCLUSIVE = ("planner after a draw", "planner on a discard (claims)")


# ---------------------------------------------------------------- the stage clock
class Stages:
    """Exclusive CPU time per stage: the innermost stage running owns the clock."""

    def __init__(self, clock: Callable[[], float] = time.thread_time) -> None:
        self.clock = clock
        self.total: dict[str, float] = defaultdict(float)
        self.calls: dict[str, int] = defaultdict(int)
        self.inclusive: dict[str, float] = defaultdict(float)
        self._stack: list[list[Any]] = []

    def run(self, stage: str, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        now = self.clock()
        if self._stack:
            top = self._stack[-1]
            self.total[top[0]] += now - top[1]
        self._stack.append([stage, now])
        self.calls[stage] += 1
        try:
            return fn(*args, **kwargs)
        finally:
            end = self.clock()
            _, start = self._stack.pop()
            self.total[stage] += end - start
            if self._stack:
                self._stack[-1][1] = end

    def wrap(self, stage: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            return self.run(stage, fn, *args, **kwargs)
        timed.__wrapped__ = fn  # type: ignore[attr-defined]
        return timed

    def reset(self) -> None:
        self.total.clear()
        self.calls.clear()
        self.inclusive.clear()


@contextmanager
def instrumented(stages: Stages, planner_views: set[int]) -> Iterator[None]:
    """The planner's stages wrapped by ``stages`` (patched where the planner looks them
    up), undone on exit."""
    import bot.agent
    import bot.planner
    import bot.seat
    import strategy.discard_rank

    patches: list[tuple[object, str, object]] = []

    def patch(owner: object, name: str, stage: str) -> None:
        if not hasattr(owner, name):
            return
        old = getattr(owner, name)
        patches.append((owner, name, old))
        setattr(owner, name, stages.wrap(stage, old))

    planner = bot.planner
    for name in ("fan_distance", "discard_distances", "tai_outlook"):
        patch(planner, name, "fan routes")
    import strategy.rule_value as values  # the planner's value per rule set

    for name in ("fan_distance", "discard_distances", "tai_outlook"):
        patch(values, name, "fan routes")
    for cls in (values.FanValue, values.TaiValue, values.ShapeValue):
        patch(cls, "win_choice", "win checks")
    patch(planner, "useful_draws", "useful draws")
    patch(planner, "features", "learned order")
    patch(strategy.discard_rank.DiscardRanker, "order", "learned order")
    patch(planner.Planner, "_danger", "danger")
    for name in ("can_win", "_mcr_outs", "_win_choice", "_mcr_win_choice"):
        patch(planner.Planner, name, "win checks")
    for name in ("choose_discard", "choose_claim"):
        patch(planner, name, "step-value search")
    # the planner's seat view only: the other seats' views count with their seats or
    # the table
    view_cls = bot.seat.PlayerState
    old_observe = view_cls.observe
    old_ask = view_cls.__dict__["ask"]

    def observe(self: Any, event: Any) -> Any:
        if id(self) in planner_views:
            return stages.run("seat view and KB", old_observe, self, event)
        return old_observe(self, event)

    def ask(self: Any) -> Any:
        if id(self) in planner_views and self._ask is None:
            return stages.run("seat view and KB", old_ask.fget, self)
        return old_ask.fget(self)

    patches.append((view_cls, "observe", old_observe))
    patches.append((view_cls, "ask", old_ask))
    view_cls.observe = observe  # type: ignore[method-assign]
    view_cls.ask = property(ask)  # type: ignore[method-assign,assignment]
    del bot.agent
    try:
        yield
    finally:
        for owner, name, old in reversed(patches):
            setattr(owner, name, old)


def profile_games(games: int, seed: int, warmup: int = 1) -> dict[str, Any]:
    """Play ``warmup + games`` seeded games and return per-game stage times (seconds)."""
    stages = Stages()
    planner_views: set[int] = set()
    per_game: list[dict[str, float]] = []
    per_game_calls: list[dict[str, int]] = []
    walls: list[float] = []
    cpus: list[float] = []
    with instrumented(stages, planner_views):
        for g in range(warmup + games):
            rot = g % 4
            players = seated(PLAYERS, ROTATIONS[rot])
            spec = GameSpec(Rules.MCR_BOTZONE, seed, g // 4, rot, players, players)
            stages.reset()
            planner_views.clear()

            def answer(s: int, player: ArenaSeat) -> Action:
                is_planner = player.spec.text == "planner"
                if is_planner:
                    planner_views.add(id(player.view))
                if not player.asked:
                    return Pass()
                if not is_planner:
                    return stages.run("baseline-v1 seats", player.decide)  # type: ignore[no-any-return]
                kind = player.view.ask.kind.value
                t0 = stages.clock()
                action = stages.run("planner, the rest", player.decide)
                label = INCLUSIVE[0] if kind == "draw" else INCLUSIVE[1]
                stages.inclusive[label] += stages.clock() - t0
                return action  # type: ignore[no-any-return]

            w0, c0 = time.perf_counter(), time.thread_time()
            stages.run("table and records", _play, spec, answer)
            wall, cpu = time.perf_counter() - w0, time.thread_time() - c0
            if g < warmup:
                continue
            per_game.append({**{s: stages.total.get(s, 0.0) for s in STAGES},
                             **{s: stages.inclusive.get(s, 0.0) for s in INCLUSIVE}})
            per_game_calls.append({s: stages.calls.get(s, 0) for s in STAGES})
            walls.append(wall)
            cpus.append(cpu)
    return {"games": games, "per_game": per_game, "calls": per_game_calls,
            "wall_s": walls, "cpu_s": cpus}


def _play(spec: GameSpec, answer: Callable[[int, ArenaSeat], Action]) -> None:
    """One game as the arena plays it, its record built (the arena writes one per game)."""
    table = play_mcr_table(spec, answer)
    finish_mcr(spec, table.walltiles, table.history, table.result, [])


def summarise(raw: dict[str, Any]) -> dict[str, Any]:
    rows = {}
    for s in (*STAGES, *INCLUSIVE):
        xs = [g[s] for g in raw["per_game"]]
        calls = [c.get(s, 0) for c in raw["calls"]] if s in STAGES else [0]
        rows[s] = {"ms_per_game": 1e3 * statistics.median(xs),
                   "calls_per_game": statistics.median(calls)}
    cpu = statistics.median(raw["cpu_s"])
    wall = statistics.median(raw["wall_s"])
    return {"games": raw["games"], "stages": rows, "cpu_ms_per_game": 1e3 * cpu,
            "wall_ms_per_game": 1e3 * wall, "games_per_cpu_s": 1.0 / cpu if cpu else 0.0}


def _child(plain: bool, games: int, seed: int) -> dict[str, Any]:
    env = {**os.environ}
    if plain:
        env["MJBOT_NO_NUMBA"] = "1"
    else:
        env.pop("MJBOT_NO_NUMBA", None)
    out = subprocess.run([sys.executable, "-m", "arena.bench.planner", "--child",
                          "--games", str(games), "--seed", str(seed)],
                         env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def print_table(results: dict[str, dict[str, Any]]) -> None:
    modes = list(results)
    head = f"{'stage (ms of thread CPU per game, median)':<44}"
    for m in modes:
        head += f"{m + ' ms':>14}{'calls':>8}"
    print(head)
    for s in STAGES:
        line = f"{s:<44}"
        for m in modes:
            r = results[m]["stages"][s]
            line += f"{r['ms_per_game']:>14.1f}{r['calls_per_game']:>8.0f}"
        print(line)
    line = f"{'whole game (thread CPU)':<44}"
    for m in modes:
        line += f"{results[m]['cpu_ms_per_game']:>14.1f}{'':>8}"
    print(line)
    line = f"{'whole game (wall clock)':<44}"
    for m in modes:
        line += f"{results[m]['wall_ms_per_game']:>14.1f}{'':>8}"
    print(line)
    print("inclusive:")
    for s in INCLUSIVE:
        line = f"  {s:<42}"
        for m in modes:
            line += f"{results[m]['stages'][s]['ms_per_game']:>14.1f}{'':>8}"
        print(line)
    line = f"{'games per CPU second':<44}"
    for m in modes:
        line += f"{results[m]['games_per_cpu_s']:>14.2f}{'':>8}"
    print(line)
    print("games: " + ", ".join(f"{m} {results[m]['games']}" for m in modes))


def main(args: argparse.Namespace | list[str] | None = None) -> int:
    if isinstance(args, argparse.Namespace):
        quick = bool(getattr(args, "quick", False))
        games = getattr(args, "games", None) or (2 if quick else 8)
        plain_games = getattr(args, "plain_games", None) or (1 if quick else 2)
        seed, as_json = args.seed, args.json
        modes = getattr(args, "modes", None) or ["compiled", "plain"]
    else:
        p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
        p.add_argument("--games", type=int, default=8)
        p.add_argument("--plain-games", type=int, default=2)
        p.add_argument("--seed", type=int, default=2024)
        p.add_argument("--json", action="store_true")
        p.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
        p.add_argument("--modes", nargs="+", choices=["compiled", "plain"],
                       default=["compiled", "plain"])
        p.add_argument("--latency", nargs=4, metavar="PLAYER",
                       help="the per-player latency table of these four players instead")
        p.add_argument("--cpu", action="store_true",
                       help="--latency: time decisions by the thread's CPU clock")
        ns = p.parse_args(args)
        if ns.latency:
            return latency(ns.latency, ns.games, ns.seed, ns.json, cpu=ns.cpu)
        if ns.child:
            print(json.dumps(summarise(profile_games(ns.games, ns.seed))))
            return 0
        games, plain_games, seed, as_json, modes = (ns.games, ns.plain_games, ns.seed,
                                                     ns.json, ns.modes)
    results = {}
    for m in modes:
        results[m] = _child(m == "plain", games if m == "compiled" else plain_games, seed)
    if as_json:
        print(json.dumps({"bench": "planner", "seed": seed, **results}))
        return 0
    print(f"mcr-botzone: planner and three baseline-v1, seed {seed}, seats rotated; "
          f"one warm-up game left out")
    print_table(results)
    return 0


# ---------------------------------------------------------------- per-player latency
def play_timed(spec: GameSpec, times: dict[str, list[float]],
               clock: Callable[[], float] = time.perf_counter) -> GameOutcome:
    def timed(s: int, player: ArenaSeat) -> Action:
        if not player.asked:
            return Pass()
        kind = player.view.ask.kind.value
        t0 = clock()
        action = player.decide()
        ms = (clock() - t0) * 1e3
        times[spec.labels[s]].append(ms)
        times[f"{spec.labels[s]} ({kind})"].append(ms)
        return action

    table = play_mcr_table(spec, timed)
    return finish_mcr(spec, table.walltiles, table.history, table.result, []).outcome


def _quantile(xs: list[float], q: float) -> float:
    ys = sorted(xs)
    return ys[min(len(ys) - 1, int(q * len(ys)))]


def latency(players: list[str], n_games: int, seed: int, as_json: bool,
            warmup: int = 0, cpu: bool = False) -> int:
    """Decision latency per player (and kind of ask) and penalties over seeded games (with
    ``cpu``: the thread's CPU time, less sensitive to a loaded machine than the wall)."""
    clock = time.thread_time if cpu else time.perf_counter
    for text in players:
        parse_player(text)
    times: dict[str, list[float]] = defaultdict(list)
    penalties: dict[str, int] = defaultdict(int)
    wins: dict[str, int] = defaultdict(int)
    games = 0
    for g in range(warmup + n_games):
        rot = g % 4
        seating = seated(players, ROTATIONS[rot])
        spec = GameSpec(Rules.MCR_BOTZONE, seed, g // 4, rot, seating, seating)
        sink: dict[str, list[float]] = defaultdict(list) if g < warmup else times
        outcome = play_timed(spec, sink, clock)
        if g < warmup:
            continue
        games += 1
        if outcome.penalized is not None:
            penalties[outcome.players[outcome.penalized]] += 1
        if outcome.winner is not None:
            wins[outcome.players[outcome.winner]] += 1
    rows = {name: {"decisions": len(xs), "p50_ms": statistics.median(xs),
                   "p99_ms": _quantile(xs, 0.99), "max_ms": max(xs),
                   "penalties": penalties[name], "wins": wins[name]}
            for name, xs in times.items()}
    if as_json:
        print(json.dumps({"games": games, "clock": "thread CPU" if cpu else "wall",
                          "players": rows}))
        return 0
    print(f"{games} games (mcr-botzone, seed {seed}, seats rotated; "
          f"{'thread CPU' if cpu else 'wall clock'})")
    print(f"{'player':<28}{'decisions':>10}{'p50 ms':>9}{'p99 ms':>9}{'max ms':>9}"
          f"{'penalties':>10}{'wins':>6}")
    for name, r in sorted(rows.items()):
        print(f"{name:<28}{r['decisions']:>10}{r['p50_ms']:>9.2f}{r['p99_ms']:>9.2f}"
              f"{r['max_ms']:>9.1f}{r['penalties']:>10}{r['wins']:>6}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
