"""``mjbot bench soak``: Olympiad tables under trouble must play exactly the undisturbed games.

Twenty tables (``--quick``: four), one game each, seed ``--seed``: most over WebSocket,
the rest over MQTT through a real mosquitto configured by the referee (password file
and ACL), which is restarted once mid-run.  Seat 0 of every table is our agent
(deterministic: a work budget, no clock), seats 1-3 answer safely (pass, or discard
the drawn tile).  Every seat's connection is a :class:`ChaosTransport` (seeded per
table and seat): it drops the connection at random (the message in flight is lost),
delivers duplicates of received messages late (after later ones), and sends acts twice
and old acts again after newer ones.  Now and then a seat's bot is killed and
restarted from nothing (a takeover with its secret: the old connection is told
``replaced``).  A hostile client keeps trying the attacks on seats' ownership on both
transports: joins without or with another seat's secret, acts with guessed ask ids
before joining, unknown tables, deep JSON and 5,000-digit numbers; anonymous and
wrong-password broker logins; a seat's user subscribing to everything, publishing forged
joins and acts on another seat's topic, deep JSON and huge numbers on its own, and
leaving last wills on another seat's topics (a retained fake ``end`` on its ``down``: a
seat that took it would stop, and its table would not match).  Strangers also send frames
that are slow to check (:func:`slow_parse_payloads`) and open broker connections that
half-close before their CONNECT or go silent past their keepalive.

Checked: every table's record equals the undisturbed run's (the same seed over
WebSocket with no trouble), no violation (no ask timed out, nothing applied twice),
every hostile attempt refused.

Then, one after another on tables of their own (:data:`SCENARIOS`), the troubles of a
tournament, each judged the same way (the troubled tables play their undisturbed games):

- ``walls``: a secret seed; seat 0 searches seeds for its own deal and finds none (the same
  search finds a given seed), sees the first record mid-match at mode 0600 without the
  seed, and checks the revealed seed against the commitment of every ``welcome`` and the
  header as ``mjbot referee verify`` does; the revealed seed plays the same games again;
- ``rejoin``: seat 0 of t1 re-joins in bursts all match long, with and without
  ``resume_from``, over WebSocket and the embedded broker, under ``--policy forfeit``
  with 2 s to answer: t2 plays its calm games and no innocent seat times out;
- ``client_ids``: seat 0's user connects to the embedded broker with 20 client ids (from a
  process of its own) and floods its topic: the referee reads at most one seat's allowance,
  t2 plays its calm games, no innocent seat times out;
- ``timing``: the threshold classifier of the gap after a discard against who could claim,
  without the claim-window floor (the control: it reads the gap) and with it (chance);
- ``honest``: four instant seats (WebSocket, the embedded broker) and the example program
  through ``mjbot wrap``'s player play without a drop, a reconnect or a timeout.

Prints the figures and a table with a row per trouble (what, pass, result; ``--json``:
JSON); exits 1 if any row fails.  ``--quick``: fewer tables and games (:data:`QUICK`).
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import logging
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from arena.platforms.olympiad.access import SeatSecrets
from arena.platforms.olympiad.config import RefereeConfig
from arena.platforms.olympiad.match import (
    local_mosquitto,
    mosquitto_binary,
    run_match,
    serving,
)
from arena.platforms.olympiad.referee import Referee
from arena.platforms.olympiad.soak.attacks import (
    Attacks,
    hostile_half_open_mqtt,
    hostile_mqtt,
    hostile_slow_parse_ws,
    hostile_ws,
)
from arena.platforms.olympiad.soak.corpus import (
    DECISION_MS,
    Trouble,
)
from arena.platforms.olympiad.soak.scenarios import (
    client_id_scenario,
    flood_config,
    honest_scenario,
    rejoin_scenario,
    timing_scenario,
    walls_scenario,
)
from arena.platforms.olympiad.soak.tables import (
    Scenario,
    TableRun,
    fresh,
    game_records,
    play_tables,
    soak_player,
    troubled_tables,
)
from arena.platforms.olympiad.table_session import GameSummary
from bot.logging import configure_logging
from protocols.olympiad_session import SessionReport
from protocols.olympiad_transport import (
    free_port,
)


@dataclass
class SoakResult:
    tables: int
    ws_tables: int
    mqtt_tables: int
    games_identical: int
    violations: int
    seconds: float
    trouble: Trouble
    attacks: Attacks
    unfinished: list[str]
    """Seats whose last bot did not play its game to the end (a fatal error, say)."""
    mismatched: list[str]
    referee_errors: Counter[str] = field(default_factory=Counter)
    """The errors the referees sent, by code (``replaced``: takeovers of live connections)."""
    scenarios: list[Scenario] = field(default_factory=list)
    """The troubles played on their own tables after the chaos run (:data:`SCENARIOS`)."""
    unretrieved: Counter[str] = field(default_factory=Counter)
    """Exceptions of background tasks nobody awaited (amqtt's, aiomqtt's), by type."""

    @property
    def chaos_ok(self) -> bool:
        return (self.games_identical == self.tables and self.violations == 0
                and not self.attacks.failures and not self.unfinished
                and sum(self.attacks.tried.values()) > 0)

    @property
    def ok(self) -> bool:
        return self.chaos_ok and all(s.ok for s in self.scenarios)

    def rows(self) -> list[Scenario]:
        """A row per trouble: the chaos run's, its strangers' by issue item, the scenarios."""
        t, a = self.trouble, self.attacks

        def attack_row(what: str, prefix: tuple[str, ...]) -> Scenario:
            kinds = [k for k in a.tried if k.startswith(prefix)]
            tried, refused = sum(a.tried[k] for k in kinds), sum(a.refused[k] for k in kinds)
            return Scenario(what, f"{refused}/{tried} refused", bool(tried) and refused == tried)

        slow = ("ws frame slow to check",)
        idle = ("mqtt half-closed", "mqtt client silent")
        others = tuple(k for k in a.tried if not k.startswith(slow + idle))
        return [
            Scenario("chaos: drops, duplicates, old acts, restarts",
                     f"{self.games_identical}/{self.tables} records as undisturbed, "
                     f"{self.violations} violations; {t.disconnects} drops, {t.restarts} "
                     f"restarts, {t.broker_restarts} broker restart",
                     self.games_identical == self.tables and not self.violations
                     and not self.unfinished),
            attack_row("2 frames slow to check (WebSocket)", slow),
            *([attack_row("5 half-open and idle broker connections", idle)]
              if self.mqtt_tables else []),
            attack_row("hostile strangers and seats (logins, joins, wills)", others),
            *self.scenarios,
        ]


SCENARIOS = ("walls", "rejoin", "client_ids", "timing", "honest")


@dataclass(frozen=True)
class Sizes:
    """How much each scenario plays (``--quick``: :data:`QUICK`)."""

    flood_games_ws: int = 3
    """Games at each of the two tables of the re-join flood over WebSocket."""
    flood_games_mqtt: int = 1
    """... over the embedded broker (about 30 asks a second there), and under the
    client-id flood."""
    honest_games: int = 20
    """Games four instant seats play over WebSocket (once a seat was cut after 17)."""
    wrapped_games: int = 4
    """Games of the example program through ``mjbot wrap``'s player (0: none)."""
    timing_games: int = 2
    """Games of the timing attack, with and without the floor (about 56 discards each)."""
    floor_ms: int = 100
    seeds_searched: int = 20_000
    flood_seconds: float = 2.0
    rejoin_via: tuple[str, ...] = ("ws", "embedded")
    """The transports the re-join flood is played over."""


QUICK = Sizes(flood_games_ws=1, flood_games_mqtt=1, honest_games=3, wrapped_games=1,
              timing_games=2, floor_ms=60, seeds_searched=2_000, flood_seconds=1.5)


async def scenarios(seed: int, workdir: Path, sizes: Sizes,
                    which: Sequence[str] = SCENARIOS) -> list[Scenario]:
    """The troubles of :data:`SCENARIOS` named in ``which``, one after another (each times
    its tables: they must not share the machine with one another)."""
    unknown = set(which) - set(SCENARIOS)
    if unknown:
        raise ValueError(f"scenarios {sorted(unknown)}: expected some of {', '.join(SCENARIOS)}")
    out: list[Scenario] = []
    if "walls" in which:
        out.append(await walls_scenario(workdir, seed, sizes.seeds_searched))
    calm: dict[str, TableRun] = {}
    games = {"ws": sizes.flood_games_ws, "embedded": sizes.flood_games_mqtt}

    async def calm_run(via: str) -> TableRun:
        if via not in calm:
            calm[via] = await play_tables(
                flood_config(fresh(workdir, f"calm-{via}"), seed, games[via]), via)
        return calm[via]

    if "rejoin" in which:
        for via in sizes.rejoin_via:
            out.append(await rejoin_scenario(workdir, via, seed, games[via], await calm_run(via)))
    if "client_ids" in which:
        out.append(await client_id_scenario(workdir, seed, games["embedded"],
                                            await calm_run("embedded"),
                                            seconds=sizes.flood_seconds))
    if "timing" in which:
        out.append(await timing_scenario(workdir, seed, sizes.timing_games, sizes.floor_ms))
    if "honest" in which:
        out.append(await honest_scenario(
            workdir, seed, {"ws": sizes.honest_games, "embedded": sizes.flood_games_mqtt},
            sizes.wrapped_games))
    return out


async def soak(seed: int, ws_tables: int, mqtt_tables: int, workdir: Path,
               sizes: Sizes = Sizes(), which: Sequence[str] = SCENARIOS) -> SoakResult:
    """The chaos run (``ws_tables`` over WebSocket, ``mqtt_tables`` through mosquitto, all
    at once), then the scenarios named in ``which``, one after another."""
    unretrieved: Counter[str] = Counter()
    asyncio.get_running_loop().set_exception_handler(_counting_unretrieved(unretrieved))
    tables = ws_tables + mqtt_tables
    calm = workdir / "undisturbed"
    calm.mkdir()
    await run_match(RefereeConfig(tables=max(ws_tables, mqtt_tables), seed=seed,
                                  decision_ms=DECISION_MS, records=calm), "ws",
                    players=lambda table, seat: soak_player(seat))
    expected = game_records(calm)
    trouble, attacks = Trouble(), Attacks()
    rng = np.random.default_rng([seed, 14])
    started = time.perf_counter()
    summaries: list[GameSummary] = []
    reports: list[SessionReport] = []
    referees: list[Referee] = []
    ws_dir, mqtt_dir = workdir / "ws", workdir / "mqtt"
    ws_dir.mkdir()
    mqtt_dir.mkdir()

    def restarts(ids: list[str]) -> dict[tuple[str, int], int]:
        chosen = rng.choice(len(ids) * 4, size=max(1, len(ids) // 2), replace=False)
        return {(ids[int(c) // 4], int(c) % 4): int(rng.integers(2, 12)) for c in chosen}

    async def ws_part() -> None:
        referee = Referee(RefereeConfig(tables=ws_tables, seed=seed, decision_ms=DECISION_MS,
                                        records=ws_dir))
        referees.append(referee)
        done = asyncio.Event()
        async with serving(referee, "ws") as url:
            game = asyncio.create_task(referee.run())
            hostile = asyncio.create_task(hostile_ws(url, referee, attacks, rng, done))
            slow = asyncio.create_task(hostile_slow_parse_ws(url, attacks, rng, done))
            reports.extend(await troubled_tables(referee, url, "ws", seed, trouble,
                                                  restarts(list(referee.tables))))
            summaries.extend(await game)
            done.set()
            await hostile
            await slow

    async def mqtt_part() -> None:
        if not mqtt_tables:
            return
        config = RefereeConfig(tables=mqtt_tables, seed=seed, decision_ms=DECISION_MS,
                               records=mqtt_dir)
        seat_secrets = SeatSecrets.generate(config.table_ids())
        referee = Referee(config, seat_secrets=seat_secrets)
        referees.append(referee)
        read: list[str] = []
        original = referee.on_text

        async def spying(link: Any, text: str | bytes) -> None:
            read.append(text.decode(errors="replace") if isinstance(text, bytes) else text)
            await original(link, text)

        referee.on_text = spying  # type: ignore[method-assign]
        port = free_port()
        url = f"mqtt://127.0.0.1:{port}"
        broker = local_mosquitto(port, workdir, seat_secrets, config.table_ids())
        broker.__enter__()
        done = asyncio.Event()
        try:
            async with serving(referee, "mqtt", broker=url) as served:
                game = asyncio.create_task(referee.run())
                hostile = asyncio.create_task(hostile_mqtt(served, seat_secrets, "t1",
                                                           attacks, read, done))
                half_open = asyncio.create_task(hostile_half_open_mqtt(served, attacks, done))
                seats = asyncio.create_task(troubled_tables(
                    referee, served, "mqtt", seed + 1, trouble, restarts(config.table_ids())))
                while sum(ch.seq for s in referee.tables.values() for ch in s.seats) < 200 \
                        and not seats.done():
                    await asyncio.sleep(0.01)
                broker.__exit__(None, None, None)  # the broker goes down mid-game ...
                await asyncio.sleep(0.5)
                broker = local_mosquitto(port, workdir, seat_secrets, config.table_ids())
                broker.__enter__()  # ... and comes back on the same port
                trouble.broker_restarts += 1
                reports.extend(await seats)
                summaries.extend(await game)
                done.set()
                await hostile
                await half_open
        finally:
            broker.__exit__(None, None, None)

    await asyncio.gather(ws_part(), mqtt_part())
    seconds = time.perf_counter() - started
    got = {**{f"ws/{k}": v for k, v in game_records(ws_dir).items()},
           **{f"mqtt/{k}": v for k, v in game_records(mqtt_dir).items()}}
    mismatched = [name for name, lines in got.items() if expected.get(name.split("/")[1]) != lines]
    unfinished = [f"{r.fatal or 'no end'}" for r in reports if r.fatal or r.games != 1]
    errors = sum((r.error_counts for r in referees), Counter[str]())
    troubles = await scenarios(seed, workdir, sizes, which)
    return SoakResult(tables, ws_tables, mqtt_tables, len(got) - len(mismatched),
                      sum(len(s.violations) for s in summaries), seconds, trouble, attacks,
                      unfinished, mismatched, errors, troubles, unretrieved)


def _counting_unretrieved(into: Counter[str]) -> Callable[[asyncio.AbstractEventLoop,
                                                           dict[str, Any]], None]:
    """An event loop exception handler that counts the exceptions of futures and tasks
    nobody awaited (amqtt's and aiomqtt's, when a broker drops a client) instead of
    printing each; anything else goes to the default handler."""
    def handle(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        exc = context.get("exception")
        if exc is not None and "never retrieved" in str(context.get("message", "")):
            into[f"{type(exc).__name__}: {str(exc)[:60]}"] += 1
        else:
            loop.default_exception_handler(context)

    return handle


def render(r: SoakResult) -> str:
    t = r.trouble
    lines = [
        f"soak: {r.tables} tables ({r.ws_tables} WebSocket, {r.mqtt_tables} MQTT via mosquitto "
        f"with ACL), {r.seconds:.1f} s",
        f"{'records identical to the undisturbed run':<44} {r.games_identical}/{r.tables}",
        f"{'violations (timeouts, illegal answers)':<44} {r.violations}",
        f"{'connections dropped (message in flight lost)':<44} {t.disconnects}",
        f"{'late duplicates delivered to seats':<44} {t.late_duplicates_down}",
        f"{'acts sent twice':<44} {t.duplicate_acts_up}",
        f"{'old acts sent again after newer ones':<44} {t.old_acts_resent_up}",
        f"{'bots killed and restarted (takeovers)':<44} {t.restarts}",
        f"{'broker restarts':<44} {t.broker_restarts}",
        f"{'errors the referees sent, by code':<44} "
        f"{', '.join(f'{c} {n}' for c, n in sorted(r.referee_errors.items()))}",
        "hostile attempts (refused/tried):",
        *(f"  {kind:<50} {r.attacks.refused[kind]}/{n}" for kind, n in
          sorted(r.attacks.tried.items())),
        f"{'hostile attempts refused, total':<44} {sum(r.attacks.refused.values())}/"
        f"{sum(r.attacks.tried.values())}",
    ]
    if r.mismatched:
        lines.append(f"records that differ: {', '.join(r.mismatched)}")
    if r.attacks.failures:
        lines.append(f"attacks not refused: {r.attacks.failures[:5]}")
    if r.unfinished:
        lines.append(f"seats that did not finish: {r.unfinished[:5]}")
    if r.unretrieved:
        lines.append("exceptions of background tasks nobody awaited: " + ", ".join(
            f"{what} ({n})" for what, n in sorted(r.unretrieved.items())))
    rows = r.rows()
    width = max(len(row.what) for row in rows)
    lines += ["", f"{'trouble':<{width}}  pass  result",
              *(f"{row.what:<{width}}  {'yes' if row.ok else 'NO':<4}  {row.result}"
                for row in rows), "", "OK" if r.ok else "FAILED"]
    return "\n".join(lines)


def to_json(r: SoakResult) -> dict[str, Any]:
    return {"tables": r.tables, "ws_tables": r.ws_tables, "mqtt_tables": r.mqtt_tables,
            "records_identical": r.games_identical, "violations": r.violations,
            "seconds": round(r.seconds, 1), "trouble": vars(r.trouble),
            "attacks_tried": dict(r.attacks.tried), "attacks_refused": dict(r.attacks.refused),
            "attack_failures": r.attacks.failures, "mismatched": r.mismatched,
            "unfinished": r.unfinished, "referee_errors": dict(r.referee_errors),
            "unretrieved": dict(r.unretrieved),
            "troubles": [dataclasses.asdict(row) for row in r.rows()], "ok": r.ok}


def run_soak(seed: int, ws_tables: int, mqtt_tables: int, sizes: Sizes = Sizes(),
             which: Sequence[str] = SCENARIOS) -> SoakResult:
    with tempfile.TemporaryDirectory() as tmp:
        return asyncio.run(soak(seed, ws_tables, mqtt_tables, Path(tmp), sizes, which))


def run_scenarios(seed: int, sizes: Sizes = QUICK, which: Sequence[str] = SCENARIOS,
                  unretrieved: Counter[str] | None = None) -> list[Scenario]:
    """The scenarios alone, without the chaos run (the tests run them one at a time);
    ``unretrieved`` counts the exceptions of background tasks nobody awaited."""
    async def counted(workdir: Path) -> list[Scenario]:
        asyncio.get_running_loop().set_exception_handler(
            _counting_unretrieved(Counter() if unretrieved is None else unretrieved))
        return await scenarios(seed, workdir, sizes, which)

    with tempfile.TemporaryDirectory() as tmp:
        return asyncio.run(counted(Path(tmp)))


def main(args: argparse.Namespace) -> int:
    configure_logging("ERROR")
    # the refusals and drops the scenarios provoke are counted in their rows, not logged
    for name in ("mjbot.broker", "mjbot.mqtt", "mqtt"):
        logging.getLogger(name).setLevel(logging.ERROR)
    mqtt = (1 if args.quick else 6) if mosquitto_binary() is not None else 0
    if not mqtt:
        print("mosquitto is not installed: the MQTT tables are left out", file=sys.stderr)
    result = run_soak(args.seed, 3 if args.quick else 14, mqtt, QUICK if args.quick else Sizes())
    print(json.dumps(to_json(result)) if args.json else render(result))
    return 0 if result.ok else 1
