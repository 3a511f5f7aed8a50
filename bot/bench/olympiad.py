"""``mjbot bench olympiad``: N concurrent taiwan-16 tables in one referee process.

For each transport (WebSocket; MQTT through the embedded amqtt broker) and
each table count, one referee process (this one) serves N tables and a
second process runs the 4N seats — our agent, each through the client
session loop of ``mjbot play olympiad`` — so the referee's event loop is
not slowed by the agents' thinking (this machine has 2 cores: one each).

Measured:
- games/s: games finished / wall time from the first deal to the last end;
- message round trip: from the referee sending an ``ask`` to it receiving
  the ``act``, less the time the player spent between receiving that ask and
  sending its act (reported per ask id by the seats' process) — what the
  protocol, the transport and both event loops add;
- ask to act: the same without subtracting the thinking.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import subprocess
import sys
import time
from typing import Any

from bot.logging import configure_logging
from bot.olympiad_client import AgentPlayer, SessionReport, play_seat
from bot.olympiad_match import serving, transport_for
from bot.olympiad_referee import Referee, RefereeConfig
from protocols.olympiad import Ask

THINK_MS = 30
DECISION_MS = 10_000


def _pct(xs: list[float], q: float) -> float:
    if not xs:
        return float("nan")
    ys = sorted(xs)
    return ys[min(len(ys) - 1, int(q * len(ys)))]


async def _one(transport: str, tables: int, games: int, seed: int) -> dict[str, Any]:
    referee = Referee(RefereeConfig(tables=tables, games=games, seed=seed,
                                    decision_ms=DECISION_MS))
    async with serving(referee, transport) as url:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot.bench.olympiad", "--seats", url, transport,
            str(tables), stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        t0 = time.perf_counter()
        summaries = await referee.run()
        wall = time.perf_counter() - t0
        out, _ = await proc.communicate()
    think: dict[str, float] = json.loads(out.decode().strip().splitlines()[-1])
    answer = {k: v for t in referee.tables.values() for k, v in t.answer_ms.items()}
    round_trip = [ms - think[k] for k, ms in answer.items() if k in think]
    return {
        "transport": transport, "tables": tables, "games": len(summaries),
        "games_per_s": len(summaries) / wall, "asks": len(answer),
        "round_trip_p50_ms": _pct(round_trip, 0.5), "round_trip_p99_ms": _pct(round_trip, 0.99),
        "ask_to_act_p50_ms": _pct(list(answer.values()), 0.5),
        "ask_to_act_p99_ms": _pct(list(answer.values()), 0.99),
        "violations": sum(len(s.violations) for s in summaries),
        "wall_s": wall,
    }


class _TimedPlayer(AgentPlayer):
    """Our agent, noting how long it held each ask (receipt to act)."""

    held_ms: dict[str, float]

    async def on_message(self, msg: Any, text: str) -> Any:
        if not isinstance(msg, Ask):
            return await super().on_message(msg, text)
        t0 = time.perf_counter()
        act = await super().on_message(msg, text)
        self.held_ms[msg.id] = (time.perf_counter() - t0) * 1000.0
        return act


async def _seats(url: str, transport: str, tables: int) -> dict[str, float]:
    held: dict[str, float] = {}
    tasks = []
    for k in range(tables):
        table = f"t{k + 1}"
        for seat in range(4):
            player = _TimedPlayer(max_think_ms=THINK_MS)
            player.held_ms = held
            tasks.append(play_seat(transport_for(transport, url, table, seat), player,
                                   table=table, seat=seat, report=SessionReport(),
                                   join_timeout=5.0))
    await asyncio.gather(*tasks)
    return held


def main(args: argparse.Namespace) -> int:
    configure_logging("WARNING")
    counts = [1, 4] if args.quick else [1, 10, 100]
    games = 1
    rows = []
    for transport in ("ws", "mqtt"):
        for n in counts:
            rows.append(asyncio.run(_one(transport, n, games, args.seed)))
    if args.json:
        print(json.dumps({"bench": "olympiad", "think_ms": THINK_MS, "rows": rows}))
        return 0
    print(f"{'transport':<9} {'tables':>6} {'games':>5} {'games/s':>8} {'asks':>6} "
          f"{'rtt p50 ms':>10} {'rtt p99 ms':>10} {'ask->act p50':>12} {'ask->act p99':>12} "
          f"{'viol.':>5}")
    for r in rows:
        print(f"{r['transport']:<9} {r['tables']:>6} {r['games']:>5} {r['games_per_s']:>8.2f} "
              f"{r['asks']:>6} {r['round_trip_p50_ms']:>10.2f} {r['round_trip_p99_ms']:>10.2f} "
              f"{r['ask_to_act_p50_ms']:>12.2f} {r['ask_to_act_p99_ms']:>12.2f} "
              f"{r['violations']:>5}")
    print(f"one referee process (tables concurrent) + one process for all seats (our agent, "
          f"<= {THINK_MS} ms thinking per ask); rtt = ask sent -> act received, less the "
          f"seat's own time from receiving the ask to sending its act")
    print("target: 100 concurrent tables with rtt p99 <= 20 ms over WebSocket")
    return 0


if __name__ == "__main__":  # the seats' process: python -m bot.bench.olympiad --seats URL T N
    if len(sys.argv) == 5 and sys.argv[1] == "--seats":
        configure_logging("WARNING")
        print(json.dumps(asyncio.run(_seats(sys.argv[2], sys.argv[3], int(sys.argv[4])))))
