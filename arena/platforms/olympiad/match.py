"""A whole local Olympiad match in one process: referee, transport and four seats per table.

``run_match`` serves the referee over WebSocket (a free loopback port) or
MQTT (an embedded amqtt broker unless a broker URL is given), connects four
seats per table through the same client session loop ``mjbot play
olympiad`` uses, each with its seat's secret (the embedded broker enforces the
seats' topics, :mod:`arena.platforms.olympiad.access`), and returns the referee's game
summaries and each seat's session report.  Used by ``mjbot match olympiad``,
``mjbot bench olympiad`` and the end-to-end tests.
"""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import socket
import subprocess
import time
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from arena.platforms.olympiad.access import SeatSecrets, amqtt_plugins, write_mosquitto_config
from arena.platforms.olympiad.config import RefereeConfig
from arena.platforms.olympiad.referee import Referee
from arena.platforms.olympiad.table_session import GameSummary
from arena.players.thinker import ThinkerPool
from bot.olympiad_client import AgentPlayer
from protocols.olympiad_mqtt import MqttClient, MqttServer, embedded_broker
from protocols.olympiad_session import SeatPlayer, SessionReport, play_seat
from protocols.olympiad_transport import ClientTransport, pinned_tls, server_tls
from protocols.olympiad_ws import WsClient, serve_ws

PlayerFactory = Callable[[str, int], SeatPlayer]


def our_agents(deterministic: bool = False) -> PlayerFactory:
    def make(table: str, seat: int) -> SeatPlayer:
        return AgentPlayer(deterministic=deterministic)

    return make


@dataclass
class MatchResult:
    summaries: list[GameSummary]
    sessions: dict[tuple[str, int], SessionReport] = field(default_factory=dict)
    referee: Referee | None = None
    url: str = ""


@dataclass(frozen=True)
class Tls:
    """The organiser's certificate and key (the referee's wss://, the embedded broker's
    mqtts://) and the CA file clients check them against (None: the system's)."""

    cert: Path
    key: Path
    ca: Path | None = None


@contextlib.asynccontextmanager
async def serving(referee: Referee, transport: str, *, listen: str = "127.0.0.1:0",
                  broker: str | None = None, tls: Tls | None = None,
                  ca: Path | None = None, broker_wait: float = 10.0) -> AsyncIterator[str]:
    """Serve ``referee`` over ``transport``; yields the URL players connect to.  The
    embedded broker takes the referee's secrets and topic rules; with an external
    ``broker`` the referee logs in as its own user (the broker's configuration is
    :func:`arena.platforms.olympiad.access.write_mosquitto_config`'s), checking an ``mqtts://``
    broker's certificate against ``ca`` (else ``tls.ca``, else the system's CAs)."""
    if transport == "ws":
        host, _, port = listen.rpartition(":")
        context = server_tls(tls.cert, tls.key) if tls is not None else None
        async with serve_ws(referee, host or "127.0.0.1", int(port or 0), context) as bound:
            yield f"{'wss' if tls else 'ws'}://{host or '127.0.0.1'}:{bound}/"
        return
    if transport != "mqtt":
        raise ValueError(f"transport {transport!r}: expected ws or mqtt")
    from arena.platforms.olympiad.broker_guards import GuardedBroker  # amqtt only when it runs

    async with contextlib.AsyncExitStack() as stack:
        url: str = broker if broker else await stack.enter_async_context(embedded_broker(
            plugins=amqtt_plugins(referee.secrets, referee.tables),
            tls=(tls.cert, tls.key) if tls is not None else None, broker_class=GuardedBroker))
        own = None  # its own embedded broker: the referee trusts the certificate it serves
        if not broker and tls is not None and ca is None and tls.ca is None:
            own = pinned_tls(tls.cert)
        server = MqttServer(referee, url, list(referee.tables), password=referee.secrets.referee,
                            ca=ca or (tls.ca if tls is not None else None), tls_context=own)
        task = asyncio.create_task(server.run())
        try:
            await asyncio.wait_for(server.connected.wait(), broker_wait)
            yield url
        finally:
            await server.close()
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task


def mosquitto_binary() -> str | None:
    """The system's mosquitto (Debian installs it outside a user's PATH), or None."""
    binary = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
    return binary if Path(binary).exists() else None


@contextlib.contextmanager
def local_mosquitto(port: int, workdir: Path, secrets: SeatSecrets | None = None,
                    tables: list[str] | None = None,
                    tls: Tls | None = None) -> Iterator[subprocess.Popen[bytes]]:
    """A mosquitto broker on ``127.0.0.1:port`` (no persistence, TCP_NODELAY) until exit;
    with ``secrets``, the configuration ``mjbot referee olympiad --broker-config`` writes
    (no anonymous clients, each seat's user on its own topics of ``tables``).

    mosquitto comes from the system (``scripts/setup.sh`` installs Debian's);
    a missing binary or a broker that does not listen within 10 s is an error.
    """
    binary = mosquitto_binary()
    if binary is None:
        raise FileNotFoundError("mosquitto is not installed: scripts/setup.sh installs it (apt)")
    if secrets is not None:
        conf = write_mosquitto_config(
            workdir / f"mosquitto-{port}", secrets, tables or list(secrets.seats),
            listen=f"127.0.0.1:{port}", tls_cert=tls.cert if tls else None,
            tls_key=tls.key if tls else None, overwrite=True).conf
    else:
        conf = workdir / f"mosquitto-{port}.conf"
        conf.write_text(f"listener {port} 127.0.0.1\nallow_anonymous true\n"
                        "set_tcp_nodelay true\npersistence false\n")
    proc = subprocess.Popen([binary, "-c", str(conf)], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 10
        while True:
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    break
            if time.monotonic() > deadline or proc.poll() is not None:
                raise RuntimeError(f"mosquitto did not start on port {port}")
            time.sleep(0.05)
        yield proc
    finally:
        proc.terminate()
        proc.wait(5)


def transport_for(kind: str, url: str, table: str, seat: int, secret: str | None = None,
                  ca: Path | None = None) -> ClientTransport:
    return WsClient(url, ca) if kind == "ws" else MqttClient(url, table, seat, secret, ca)


async def run_match(config: RefereeConfig, transport: str = "ws", *,
                    players: PlayerFactory | None = None, broker: str | None = None,
                    names: tuple[str, str, str, str] = ("mjbot-0", "mjbot-1", "mjbot-2",
                                                        "mjbot-3"),
                    thinkers: int = 0, tls: Tls | None = None,
                    seat_secrets: SeatSecrets | None = None) -> MatchResult:
    """Play ``config``'s match; ``thinkers`` > 0 puts our agents' thinking in that many
    thinker processes (:mod:`arena.players.thinker`) instead of this process's decision thread.
    The referee generates the seats' secrets (or takes ``seat_secrets``) and hands
    each seat its own."""
    if thinkers and players is not None:
        raise ValueError("give players or thinkers, not both")
    referee = Referee(config, seat_secrets=seat_secrets)
    result = MatchResult([], referee=referee)
    async with contextlib.AsyncExitStack() as stack:
        make = players or our_agents()
        if thinkers:
            pool = await stack.enter_async_context(ThinkerPool(thinkers))
            make = _pool_players(pool)
        await _play(referee, transport, make, broker, names, result, tls)
    return result


def _pool_players(pool: ThinkerPool) -> PlayerFactory:
    def make(table: str, seat: int) -> SeatPlayer:
        return pool.player()

    return make


async def _play(referee: Referee, transport: str, make: PlayerFactory, broker: str | None,
                names: tuple[str, str, str, str], result: MatchResult, tls: Tls | None) -> None:
    ca = tls.ca if tls is not None else None
    async with serving(referee, transport, broker=broker, tls=tls) as url:
        result.url = url
        seats = []
        for table in referee.tables:
            for seat in range(4):
                report = SessionReport()
                result.sessions[(table, seat)] = report
                secret = referee.secrets.secret(table, seat)
                seats.append(play_seat(transport_for(transport, url, table, seat, secret, ca),
                                       make(table, seat), table=table, seat=seat,
                                       name=names[seat], report=report, secret=secret))
        referee_task = asyncio.create_task(referee.run())
        await asyncio.gather(*seats)
        result.summaries = await referee_task


def summary_json(summaries: list[GameSummary]) -> dict[str, object]:
    totals = [0, 0, 0, 0]
    games = []
    for s in summaries:
        for seat in range(4):
            totals[seat] += s.result.scores[seat]
        ending = s.result.ending
        games.append({
            "table": s.table, "game": s.game, "ending": type(ending).__name__,
            "scores": list(s.result.scores), "violations": [v.fields_json() for v in s.violations],
            "tai": [[f.name, f.total] for f in getattr(ending, "fans", ())],
            "seconds": round(s.seconds, 3),
        })
    return {"games": games, "totals_by_seat": totals}


def render(summaries: list[GameSummary], where: str = "") -> str:
    data = summary_json(summaries)
    lines = [f"{len(summaries)} games{' over ' + where if where else ''}",
             f"{'table':>6} {'game':>4}  {'ending':<14} {'scores':<22} {'tai':<40} viol."]
    for g in data["games"]:  # type: ignore[attr-defined]
        tai = ", ".join(f"{n} {t}" for n, t in g["tai"])
        lines.append(f"{g['table']:>6} {g['game']:>4}  {g['ending']:<14} "
                     f"{' '.join(f'{x:+d}' for x in g['scores']):<22} {tai[:40]:<40} "
                     f"{len(g['violations'])}")
    lines.append(f"total by seat: {data['totals_by_seat']}")
    return "\n".join(lines)
