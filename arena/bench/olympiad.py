"""``mjbot bench olympiad``: N concurrent taiwan-16 tables in one referee process.

For each transport (WebSocket; MQTT through the embedded amqtt broker; MQTT
through a local mosquitto when it is installed) and each table count, one
referee process serves N tables and one or two other processes run the 4N
seats — our agent, each through the client session loop of ``mjbot play
olympiad``.  Our agents think either in a decision thread inside the seats'
processes (the arrangement of ``mjbot play olympiad``, one seat a process,
here two hundred) or in thinker processes under ``SCHED_IDLE``
(:mod:`arena.players.thinker`), which leave the CPU to the event loops; the table
shows both side by side.

Measured:
- games/s: games finished / wall time from the first deal to the last end;
- message round trip: from the referee handing an ``ask`` to its transport
  to it taking the ``act``, less the seat's own time from the ask's text
  arriving at its session loop to handing the act to its transport (reported
  per ask id by the seats' processes) — what the protocol, the transports
  and both event loops add.  Every stamp is on CLOCK_MONOTONIC, one clock for
  all processes of the machine, so the round trip splits into its down leg
  (referee -> seat's loop) and up leg (seat -> referee's loop);
- ask to act: the same without subtracting the seat's time.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from arena.bench.targets import Target
from arena.platforms.olympiad.access import SeatSecrets
from arena.platforms.olympiad.config import RefereeConfig
from arena.platforms.olympiad.match import local_mosquitto, mosquitto_binary, serving, transport_for
from arena.platforms.olympiad.referee import Referee
from arena.players.thinker import ThinkerPool
from bot.logging import configure_logging
from bot.olympiad_client import AgentPlayer
from protocols.olympiad import Act, AskMsg
from protocols.olympiad_codec import safest_act
from protocols.olympiad_session import SeatPlayer, SessionReport, play_seat
from protocols.olympiad_transport import free_port
from strategy.warmup import warm_up

THINK_MS = 30
PACE_MS = 100
DECISION_MS = 10_000


SECRETS_ENV = "MJBOT_BENCH_SECRETS"
"""The referee's seat secrets, handed to the seats' processes in their environment."""


def _pct(xs: list[float], q: float) -> float:
    if not xs:
        return float("nan")
    ys = sorted(xs)
    return ys[min(len(ys) - 1, int(q * len(ys)))]


def _quiet_gc() -> None:
    """Fewer, later collections: with hundreds of seats a full collection stalls the loop."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(100_000, 50, 100)


async def _one(transport: str, tables: int, seed: int, pace_ms: int = 0,
               players: str = "mjbot", seat_procs: int = 1, thinkers: int = 0) -> dict[str, Any]:
    """One row; ``transport``: ws, mqtt (the embedded amqtt broker) or mosquitto (MQTT
    through a local mosquitto, started for the row)."""
    with contextlib.ExitStack() as stack:
        broker = None
        if transport == "mosquitto":
            port = free_port()
            stack.enter_context(local_mosquitto(
                port, Path(stack.enter_context(tempfile.TemporaryDirectory()))))
            broker = f"mqtt://127.0.0.1:{port}"
        return await _served(transport, tables, seed, pace_ms, players, seat_procs, thinkers,
                             broker)


async def _served(transport: str, tables: int, seed: int, pace_ms: int, players: str,
                  seat_procs: int, thinkers: int, broker: str | None) -> dict[str, Any]:
    referee = Referee(RefereeConfig(tables=tables, games=1, seed=seed, decision_ms=DECISION_MS))
    _quiet_gc()
    wire = "ws" if transport == "ws" else "mqtt"
    async with serving(referee, wire, broker=broker) as url:
        share = -(-tables // seat_procs)
        procs = [await asyncio.create_subprocess_exec(
            sys.executable, "-m", "arena.bench.olympiad", "--seats", url, wire,
            str(first), str(min(share, tables - first)), str(pace_ms), players, str(thinkers),
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            env={**os.environ, SECRETS_ENV: referee.secrets.to_json()})
            for first in range(0, tables, share)]
        t0 = time.perf_counter()
        summaries = await referee.run()
        wall = time.perf_counter() - t0
        outs = [await p.communicate() for p in procs]
    held: dict[str, tuple[float, float]] = {}
    for out, _ in outs:
        held.update({k: (a, b) for k, (a, b) in
                     json.loads(out.decode().strip().splitlines()[-1]).items()})
    answered = {k: v for t in referee.tables.values() for k, v in t.answered.items()}
    legs = [_legs(answered[k], held[k]) for k in answered if k in held]
    ask_to_act = [(got - sent) * 1000.0 for sent, got in answered.values()]
    return {
        "transport": transport, "tables": tables, "pace_ms": pace_ms, "players": players,
        "seat_processes": len(procs), "thinkers": thinkers * len(procs), "games": len(summaries),
        "games_per_s": len(summaries) / wall, "asks": len(answered),
        "round_trip_p50_ms": _pct([r for r, _, _ in legs], 0.5),
        "round_trip_p99_ms": _pct([r for r, _, _ in legs], 0.99),
        "down_p99_ms": _pct([d for _, d, _ in legs], 0.99),
        "up_p99_ms": _pct([u for _, _, u in legs], 0.99),
        "ask_to_act_p50_ms": _pct(ask_to_act, 0.5),
        "ask_to_act_p99_ms": _pct(ask_to_act, 0.99),
        "violations": sum(len(s.violations) for s in summaries),
        "wall_s": wall,
    }


def _legs(answered: tuple[float, float], held: tuple[float, float]) -> tuple[float, float, float]:
    """(round trip, down leg, up leg) in ms of one ask: the referee's (sent, received)
    and the seat's (arrived, sent), all on ``time.monotonic`` — CLOCK_MONOTONIC, one clock
    for every process of the machine."""
    sent, got = answered
    arrived, acted = held
    return ((got - sent) - (acted - arrived)) * 1000.0, (arrived - sent) * 1000.0, \
        (got - acted) * 1000.0


class _Instant:
    async def on_message(self, msg: Any, text: str) -> Act | None:
        return safest_act(msg) if isinstance(msg, AskMsg) else None

    async def close(self) -> None:
        return None


class _Paced:
    """Our agent answering no sooner than ``pace_ms`` after an ask (a contest's pace)."""

    def __init__(self, inner: SeatPlayer, pace_ms: int) -> None:
        self.inner, self.pace = inner, pace_ms / 1000.0

    async def on_message(self, msg: Any, text: str) -> Act | None:
        start = time.perf_counter()
        act = await self.inner.on_message(msg, text)
        if isinstance(msg, AskMsg):
            await asyncio.sleep(max(0.0, self.pace - (time.perf_counter() - start)))
        return act

    async def close(self) -> None:
        await self.inner.close()


async def _seats(url: str, transport: str, first: int, count: int, pace_ms: int,
                 players: str, thinkers: int) -> dict[str, tuple[float, float]]:
    """The seats of tables ``first`` .. ``first + count - 1``; with ``thinkers`` > 0 our
    agents think in that many thinker processes (:mod:`arena.players.thinker`) and this process
    runs only the session loops, else they think here in one decision thread."""
    if not thinkers:
        # the GIL handed back often, so the event loop reading the sockets is not
        # starved by the agents' thinking
        sys.setswitchinterval(0.0005)
        asyncio.get_running_loop().set_default_executor(ThreadPoolExecutor(max_workers=1))
        if players == "mjbot":
            warm_up()  # load every kernel from numba's cache before the first ask, as a bot would
    _quiet_gc()
    seat_secrets = SeatSecrets.from_json(os.environ[SECRETS_ENV])
    async with contextlib.AsyncExitStack() as stack:
        pool = (await stack.enter_async_context(ThinkerPool(thinkers, max_think_ms=THINK_MS))
                if thinkers and players == "mjbot" else None)
        reports: list[SessionReport] = []
        tasks = []
        for k in range(first, first + count):
            table = f"t{k + 1}"
            for seat in range(4):
                reports.append(SessionReport())
                player: SeatPlayer = (_Instant() if players != "mjbot" else
                                      pool.player() if pool is not None else
                                      AgentPlayer(max_think_ms=THINK_MS))
                if pace_ms:
                    player = _Paced(player, pace_ms)
                secret = seat_secrets.secret(table, seat)
                tasks.append(play_seat(transport_for(transport, url, table, seat, secret), player,
                                       table=table, seat=seat, report=reports[-1],
                                       join_timeout=5.0, secret=secret))
        await asyncio.gather(*tasks)
    return {k: v for r in reports for k, v in r.held.items()}


# (tables, pace ms, players, seat processes, thinker processes per seat process)
PLAN = [(1, 0, "mjbot", 1, 1), (10, 0, "mjbot", 1, 1), (100, 0, "mjbot", 1, 2),
        (100, PACE_MS, "mjbot", 2, 0), (100, PACE_MS, "mjbot", 2, 1),
        (100, PACE_MS, "instant", 1, 0)]
QUICK_PLAN = [(1, 0, "mjbot", 1, 1), (4, 0, "mjbot", 1, 1), (4, PACE_MS, "mjbot", 2, 0),
              (4, PACE_MS, "mjbot", 2, 1), (4, PACE_MS, "instant", 1, 0)]


TARGET_ROW = ("ws", 100, PACE_MS, "mjbot", 2, 2)
"""Transport, tables, pace, players, seat processes, thinker processes in all."""

TARGET_REPEATS = 3


def _key(row: dict[str, Any]) -> tuple[Any, ...]:
    return (row["transport"], row["tables"], row["pace_ms"], row["players"],
            row["seat_processes"], row["thinkers"])


def _row(transport: str, tables: int, seed: int, pace: int, players: str,
         procs: int, thinkers: int) -> dict[str, Any]:
    """One row in a fresh referee process: no row inherits another's heap, threads or sockets
    (run one after another in one process, the 100-table WebSocket rtt p99 doubled)."""
    out = subprocess.run(
        [sys.executable, "-m", "arena.bench.olympiad", "--row", transport, str(tables), str(seed),
         str(pace), players, str(procs), str(thinkers)],
        capture_output=True, text=True, check=True)
    row: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return row


def _thinking(row: dict[str, Any]) -> str:
    if row["players"] != "mjbot":
        return "-"
    return f"{row['thinkers']} idle" if row["thinkers"] else "in seats"


RTT_P99_MS = Target("≤", 20, "ms")
"""The target row's rtt p99 (the median of its runs)."""


def main(args: argparse.Namespace) -> int:
    configure_logging("WARNING")
    rows = []
    transports = ["ws", "mqtt"] + (["mosquitto"] if mosquitto_binary() else [])
    plan = QUICK_PLAN if args.quick else PLAN

    def repeats(transport: str, tables: int, pace: int, players: str, procs: int,
                thinkers: int) -> int:
        key = (transport, tables, pace, players, procs, procs * thinkers)
        return TARGET_REPEATS if key == TARGET_ROW and not args.quick else 1

    runs = [(transport, step) for transport in transports for step in plan
            for _ in range(repeats(transport, *step))]
    started = time.perf_counter()
    for i, (transport, (tables, pace, players, procs, thinkers)) in enumerate(runs, 1):
        print(f"bench olympiad: row {i}/{len(runs)}: {transport}, {tables} tables, pace "
              f"{pace} ms ({time.perf_counter() - started:.0f} s so far)", file=sys.stderr,
              flush=True)
        rows.append(_row(transport, tables, args.seed, pace, players, procs, thinkers))
    target = [r["round_trip_p99_ms"] for r in rows if _key(r) == TARGET_ROW]
    target_median = sorted(target)[len(target) // 2] if target else float("nan")
    if args.json:
        print(json.dumps({"bench": "olympiad", "think_ms": THINK_MS, "rows": rows,
                          "target_rtt_p99_ms": target, "target_rtt_p99_median_ms": target_median,
                          **(RTT_P99_MS.to_json(target_median) if target else {})}))
        return 0
    print(f"{'transport':<9} {'tables':>6} {'pace ms':>7} {'seats':>9} {'thinking':>8} "
          f"{'games':>5} "
          f"{'games/s':>8} {'asks':>6} "
          f"{'rtt p50 ms':>10} {'rtt p99 ms':>10} {'down p99':>8} {'up p99':>8} "
          f"{'ask->act p50':>12} {'ask->act p99':>12} "
          f"{'viol.':>5}")
    for r in rows:
        seats = f"{r['players']} x{r['seat_processes']}"
        print(f"{r['transport']:<9} {r['tables']:>6} {r['pace_ms']:>7} {seats:>9} "
              f"{_thinking(r):>8} {r['games']:>5} "
              f"{r['games_per_s']:>8.2f} "
              f"{r['asks']:>6} {r['round_trip_p50_ms']:>10.2f} {r['round_trip_p99_ms']:>10.2f} "
              f"{r['down_p99_ms']:>8.2f} {r['up_p99_ms']:>8.2f} "
              f"{r['ask_to_act_p50_ms']:>12.2f} {r['ask_to_act_p99_ms']:>12.2f} "
              f"{r['violations']:>5}")
    print(f"one referee process (all tables concurrent) + 1 or 2 processes for the seats' "
          f"session loops (mjbot: our agent, <= {THINK_MS} ms thinking per ask; instant: "
          f"answers at once with the safest option, i.e. the protocol stack alone)")
    print("thinking: 'in seats' = one decision thread inside each seats' process; 'N idle' = "
          "N thinker processes under SCHED_IDLE (arena.players.thinker), the seats' "
          "processes run only "
          "the session loops")
    print("rtt = ask handed to the transport -> act taken by the referee, less the seat's own "
          "time from the ask's text at its session loop to handing the act to its transport; "
          "down: ask handed -> its text at the seat's session loop; up: act handed -> act "
          "taken by the referee (one CLOCK_MONOTONIC for all processes; an MQTT QoS 1 publish "
          "counts from the publish, not from the broker's PUBACK)")
    print(f"pace 0: every seat answers as soon as it has decided (both processes saturated: "
          f"the rtt is mostly queueing); pace {PACE_MS}: no seat answers sooner than "
          f"{PACE_MS} ms after an ask, as bots that think do")
    print("each row in a fresh referee process; the target row (ws, 100 tables, pace "
          f"{PACE_MS}, mjbot, 2 thinker processes) run {TARGET_REPEATS} times")
    measured = (f"p99 {', '.join(f'{x:.2f}' for x in target)} ms (median {target_median:.2f}; "
                f"{RTT_P99_MS.mark(target_median)})" if target else "not measured by --quick")
    print(f"100 concurrent tables over WebSocket, rtt p99 {RTT_P99_MS.describe()}: {measured}")
    return 0


if __name__ == "__main__":
    # a row's referee process: --row TRANSPORT TABLES SEED PACE PLAYERS PROCS THINKERS
    if len(sys.argv) == 9 and sys.argv[1] == "--row":
        configure_logging("WARNING")
        kind, n, seed, pace, players, procs, thinkers = sys.argv[2:]
        print(json.dumps(asyncio.run(_one(kind, int(n), int(seed), int(pace), players,
                                          int(procs), int(thinkers)))))
    # a seats' process: --seats URL KIND FIRST COUNT PACE PLAYERS THINKERS
    elif len(sys.argv) == 9 and sys.argv[1] == "--seats":
        configure_logging("WARNING")
        url, kind, first, count, pace, players, thinkers = sys.argv[2:]
        print(json.dumps(asyncio.run(_seats(url, kind, int(first), int(count), int(pace),
                                            players, int(thinkers)))))
