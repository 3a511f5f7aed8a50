"""Whole Olympiad matches with their guards on: a takeover mid-game, hostile clients over
WebSocket and MQTT (the embedded amqtt broker and a real mosquitto configured by the
referee), TLS (wss, mqtts) with a self-signed certificate, and no secret in any log.

Every match here must write exactly the record of the undisturbed run of its seed.
"""

from __future__ import annotations

import asyncio
import datetime
import ipaddress
import json
import logging
import os
import stat
import sys
from pathlib import Path
from typing import Any

import aiomqtt
import pytest
from support.arena import olympiad_config as _config

from arena.cli import main as cli_main
from arena.platforms.olympiad.access import SeatSecrets
from arena.platforms.olympiad.match import (
    Tls,
    local_mosquitto,
    mosquitto_binary,
    our_agents,
    run_match,
    serving,
    transport_for,
)
from arena.platforms.olympiad.referee import Referee
from bot.logging import configure_logging
from bot.olympiad_client import AgentPlayer
from protocols.olympiad import Act, Join
from protocols.olympiad_mqtt import MqttClient
from protocols.olympiad_session import SessionReport, play_seat
from protocols.olympiad_transport import (
    REFEREE_USER,
    ConnectionLost,
    free_port,
    host_port,
    presence_topic,
    seat_topic,
    seat_user,
)
from protocols.olympiad_ws import WsClient


def _record(path: Path) -> list[str]:
    lines = path.read_text().splitlines()
    header = json.loads(lines[0])
    header.pop("seats", None)
    return [json.dumps(header, sort_keys=True), *lines[1:]]


@pytest.fixture(scope="module")
def undisturbed(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    tmp = tmp_path_factory.mktemp("undisturbed")
    asyncio.run(run_match(_config(tmp), "ws", players=our_agents(deterministic=True)))
    return _record(tmp / "t1-game0000.jsonl")


@pytest.fixture(scope="module")
def certificate(tmp_path_factory: pytest.TempPathFactory) -> Tls:
    """A self-signed certificate for 127.0.0.1 and localhost (its own CA)."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    tmp = tmp_path_factory.mktemp("tls")
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "mjbot test referee")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name)
            .public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(minutes=5))
            .not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName(
                [x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
                critical=False)
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
            .sign(key, hashes.SHA256()))
    cert_path, key_path = tmp / "cert.pem", tmp / "key.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(key.private_bytes(serialization.Encoding.PEM,
                                           serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    return Tls(cert_path, key_path, cert_path)


# ---------------------------------------------------------------- a takeover mid-game
@pytest.mark.parametrize("transport", ["ws", "mqtt"])
async def test_a_restarted_bot_takes_its_seat_over_and_only_the_old_one_stops(
        tmp_path: Path, undisturbed: list[str], transport: str) -> None:
    """Seat 1's bot is still connected when its restarted copy joins with the secret:
    the old one gets ``replaced`` and stops, the new one finishes the game.  Over MQTT both
    copies read the seat's one down topic: the ``replaced`` error carries the old session,
    so only the old copy stops."""
    referee = Referee(_config(tmp_path))
    async with serving(referee, transport) as url:
        reports = [SessionReport() for _ in range(4)]

        def seat(s: int, report: SessionReport) -> asyncio.Task[SessionReport]:
            secret = referee.secrets.secret("t1", s)
            return asyncio.create_task(play_seat(
                transport_for(transport, url, "t1", s, secret), AgentPlayer(deterministic=True),
                table="t1", seat=s, report=report, secret=secret))

        tasks = [seat(s, reports[s]) for s in range(4)]
        game = asyncio.create_task(referee.run())
        while reports[1].acts < 4:
            await asyncio.sleep(0.002)
        restarted = SessionReport()
        new = seat(1, restarted)
        old = await asyncio.wait_for(tasks[1], 30)  # the old copy stops by itself
        tasks[1] = new
        await asyncio.wait_for(asyncio.gather(*tasks), 120)
        summaries = await game
    assert old.fatal.startswith("replaced: table t1 seat 1 was taken over")
    assert restarted.fatal == "" and restarted.games == 1
    assert not [e for e in restarted.errors if e.startswith("replaced")]
    assert summaries[0].violations == []
    assert _record(tmp_path / "t1-game0000.jsonl") == undisturbed


# ---------------------------------------------------------------- hostile WebSocket client
async def _hostile_ws(url: str, referee: Referee, refused: list[str]) -> None:
    """Every attack on a seat's ownership over WebSocket, while the table plays; each must be
    refused."""
    async def attempt(texts: list[str], expect: str) -> dict[str, Any]:
        client = WsClient(url)
        await client.connect()
        for text in texts:
            await client.send(text)
        answers = []
        closed = False
        try:
            async with asyncio.timeout(0.5):
                while True:
                    answers.append(json.loads(await client.recv()))
        except TimeoutError:
            pass
        except ConnectionLost:
            closed = True  # the referee ends a connection after a fatal error
        await client.close()
        assert [a["type"] for a in answers] == ["error"] * len(answers), answers
        assert answers and answers[0]["code"] == expect, answers
        assert closed == answers[0]["fatal"], answers
        refused.append(expect)
        return answers[0]

    seat0 = referee.tables["t1"].seats[0]
    while seat0.open_ask is None:
        await asyncio.sleep(0.002)
    await attempt([Join(name="x", table="t1", seat=0).to_json()], "forbidden")
    other = referee.secrets.secret("t1", 1)
    await attempt([Join(name="x", table="t1", seat=0, token=other).to_json()], "forbidden")
    for guess in ("t1-0-1-0", "t1-0-2-0", "guess"):
        await attempt([Act(id=guess, kind="pass").to_json()], "not_joined")
    # an unknown table is refused as a wrong secret is: a stranger learns no table's name
    await attempt([Join(name="x", table="t2", seat=0, token=other).to_json()], "forbidden")


async def test_a_hostile_websocket_client_is_refused_and_changes_nothing(
        tmp_path: Path, undisturbed: list[str]) -> None:
    referee = Referee(_config(tmp_path))
    refused: list[str] = []
    async with serving(referee, "ws") as url:
        tasks = [asyncio.create_task(play_seat(
            WsClient(url), AgentPlayer(deterministic=True), table="t1", seat=s,
            secret=referee.secrets.secret("t1", s))) for s in range(4)]
        game = asyncio.create_task(referee.run())
        await _hostile_ws(url, referee, refused)
        reports = await asyncio.wait_for(asyncio.gather(*tasks), 120)
        await game
    assert refused == ["forbidden", "forbidden", "not_joined", "not_joined", "not_joined",
                       "forbidden"]
    assert all(r.errors == [] and r.fatal == "" for r in reports)
    assert _record(tmp_path / "t1-game0000.jsonl") == undisturbed


# ---------------------------------------------------------------- hostile MQTT clients
class SpyingSeat(MqttClient):
    """Seat 1's own client, misbehaving: once connected it also subscribes to everything
    and to seat 0's topics and publishes forged messages on seat 0's topics; it keeps the
    topic of everything the broker delivers to it and plays on its own ``down`` topic.  (A
    seat's user has one connection at a time, so the spy is the seat's client itself.)"""

    def __init__(self, url: str, secret: str, outcome: dict[str, Any]) -> None:
        super().__init__(url, "t1", 1, secret)
        self.outcome = outcome
        self.received: list[str] = []

    async def connect(self) -> None:
        await super().connect()
        client = self._client
        assert client is not None
        if "subscribe #" in self.outcome:
            return
        for pattern in ("#", "mjbot/v1/#", seat_topic("t1", 0, "down"),
                        presence_topic("t1", 0)):
            granted = await client.subscribe(pattern, qos=1)
            self.outcome[f"subscribe {pattern}"] = [g if isinstance(g, int) else g.value
                                                    for g in granted]
        forged = [Join(name="hostile", table="t1", seat=0, token="hostile-" + "x" * 20),
                  Act(id="hostile-guess", kind="pass")]
        for msg in forged:
            await client.publish(seat_topic("t1", 0, "up"), msg.to_json(), qos=1)
            await client.publish(seat_topic("t1", 0, "down"), msg.to_json(), qos=1)

    async def recv(self) -> str:
        own = seat_topic("t1", 1, "down")
        while True:
            if self._messages is None:
                raise ConnectionLost("not connected")
            try:
                message = await self._messages.__anext__()
            except (aiomqtt.MqttError, StopAsyncIteration) as exc:
                raise ConnectionLost(f"broker connection lost: {exc}") from None
            topic = str(message.topic)
            if topic != own:
                self.received.append(topic)
                continue
            payload = message.payload
            return payload.decode(errors="replace") if isinstance(payload, bytes | bytearray) \
                else str(payload)


async def _hostile_logins(url: str, seat_secrets: SeatSecrets, outcome: dict[str, Any]) -> None:
    """Connections without or with wrong credentials: each must be refused."""
    host, port = host_port(url, 1883)
    for label, user, password in (("anonymous", None, None),
                                  ("wrong password", seat_user("t1", 1), "x" * 32),
                                  ("seat's secret as the referee", REFEREE_USER,
                                   seat_secrets.secret("t1", 1))):
        try:
            async with aiomqtt.Client(host, port, username=user, password=password):
                outcome[label] = "connected"
        except aiomqtt.MqttError:
            outcome[label] = "refused"


async def _mqtt_match_under_attack(tmp: Path, broker: str | None,
                                   seat_secrets: SeatSecrets | None = None) -> dict[str, Any]:
    """What the broker refused, a whole match long: connections without or with wrong
    credentials, seat 1's client subscribing to everything or to seat 0's topic, and
    publishing as seat 0."""
    seat_secrets = seat_secrets or SeatSecrets.generate(["t1"])
    referee = Referee(_config(tmp), seat_secrets=seat_secrets)
    seen: list[str] = []
    original = referee.on_text

    async def spying(link: Any, text: str | bytes) -> None:
        seen.append(text.decode() if isinstance(text, bytes) else text)
        await original(link, text)

    referee.on_text = spying  # type: ignore[method-assign]
    outcome: dict[str, Any] = {}
    async with serving(referee, "mqtt", broker=broker) as url:
        spy = SpyingSeat(url, seat_secrets.secret("t1", 1), outcome)
        tasks = [asyncio.create_task(play_seat(
            spy if s == 1 else transport_for("mqtt", url, "t1", s, seat_secrets.secret("t1", s)),
            AgentPlayer(deterministic=True), table="t1", seat=s,
            secret=seat_secrets.secret("t1", s))) for s in range(4)]
        game = asyncio.create_task(referee.run())
        await _hostile_logins(url, seat_secrets, outcome)
        reports = await asyncio.wait_for(asyncio.gather(*tasks), 120)
        await game
    outcome["received"] = spy.received
    outcome["hostile texts the referee read"] = [t for t in seen if "hostile" in t]
    assert all(r.errors == [] and r.fatal == "" for r in reports)
    return outcome


def _assert_refused(outcome: dict[str, Any], subscriptions_refused: bool) -> None:
    """``subscriptions_refused``: the broker answers a forbidden subscription with 0x80
    (amqtt); mosquitto 2.0 grants it and delivers nothing the ACL does not allow."""
    assert outcome["anonymous"] == "refused"
    assert outcome["wrong password"] == "refused"
    assert outcome["seat's secret as the referee"] == "refused"
    if subscriptions_refused:
        for pattern in ("#", "mjbot/v1/#", "mjbot/v1/t1/seat/0/down", "mjbot/v1/t1/presence/0"):
            assert outcome[f"subscribe {pattern}"] == [128], (pattern, outcome)
        assert outcome["received"] == []
    # a whole match long, subscribed to everything: only what seat 1 may read anyway
    own = {seat_topic("t1", 1, "down"), presence_topic("t1", 1), "mjbot/v1/t1/referee"}
    assert set(outcome["received"]) <= own, set(outcome["received"]) - own
    assert outcome["hostile texts the referee read"] == []


async def test_the_embedded_broker_refuses_what_is_not_a_seats_own(
        tmp_path: Path, undisturbed: list[str]) -> None:
    outcome = await _mqtt_match_under_attack(tmp_path, None)
    _assert_refused(outcome, subscriptions_refused=True)
    assert _record(tmp_path / "t1-game0000.jsonl") == undisturbed


@pytest.mark.skipif(mosquitto_binary() is None, reason="mosquitto is not installed")
async def test_a_mosquitto_configured_by_the_referee_refuses_what_is_not_a_seats_own(
        tmp_path: Path, undisturbed: list[str]) -> None:
    """The configuration ``mjbot referee olympiad --broker-config DIR`` writes, in a real
    mosquitto: password file, ACL, no anonymous clients."""
    port = free_port()
    seat_secrets = SeatSecrets.generate(["t1"])
    with local_mosquitto(port, tmp_path, seat_secrets, ["t1"]):
        outcome = await _mqtt_match_under_attack(tmp_path, f"mqtt://127.0.0.1:{port}",
                                                 seat_secrets)
    _assert_refused(outcome, subscriptions_refused=False)
    assert _record(tmp_path / "t1-game0000.jsonl") == undisturbed


# ---------------------------------------------------------------- TLS
@pytest.mark.parametrize("transport", ["ws", "mqtt"])
async def test_a_match_over_tls_with_a_self_signed_certificate(
        tmp_path: Path, undisturbed: list[str], certificate: Tls, transport: str) -> None:
    """wss:// to the referee; mqtts:// to the embedded broker (and from the referee to it)."""
    result = await run_match(_config(tmp_path), transport, tls=certificate,
                             players=our_agents(deterministic=True))
    assert result.url.startswith("wss://" if transport == "ws" else "mqtts://")
    assert _record(tmp_path / "t1-game0000.jsonl") == undisturbed


@pytest.mark.skipif(mosquitto_binary() is None, reason="mosquitto is not installed")
async def test_a_match_over_mqtts_through_a_mosquitto_the_referee_configured(
        tmp_path: Path, undisturbed: list[str], certificate: Tls) -> None:
    """--broker-config with --tls-cert/--tls-key: mosquitto serves mqtts:// with the
    organiser's certificate; the referee and the seats check it against --ca."""
    port = free_port()
    seat_secrets = SeatSecrets.generate(["t1"])
    with local_mosquitto(port, tmp_path, seat_secrets, ["t1"], tls=certificate):
        result = await run_match(_config(tmp_path), "mqtt", broker=f"mqtts://127.0.0.1:{port}",
                                 tls=certificate, seat_secrets=seat_secrets,
                                 players=our_agents(deterministic=True))
    assert all(r.fatal == "" and r.games == 1 for r in result.sessions.values())
    assert _record(tmp_path / "t1-game0000.jsonl") == undisturbed


async def test_a_client_that_does_not_trust_the_certificate_cannot_connect(
        certificate: Tls, tmp_path: Path) -> None:
    referee = Referee(_config(tmp_path))
    async with serving(referee, "ws", tls=certificate) as url:
        with pytest.raises(ConnectionLost, match="CERTIFICATE_VERIFY_FAILED"):
            await WsClient(url).connect()  # the system's CAs do not know it
        trusting = WsClient(url, certificate.ca)
        await trusting.connect()
        await trusting.close()


# ---------------------------------------------------------------- no secret in any log
async def test_no_secret_appears_in_the_logs_of_a_whole_match(
        tmp_path: Path, capfd: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture,
        certificate: Tls) -> None:
    """Everything logged at DEBUG (structlog on stderr, the standard library's loggers)
    over a match with a takeover and a forbidden join, over MQTT and WebSocket."""
    configure_logging("DEBUG", json_output=True)
    caplog.set_level(logging.DEBUG)
    seat_secrets = SeatSecrets.generate(["t1"])
    await run_match(_config(tmp_path / "mqtt"), "mqtt", seat_secrets=seat_secrets,
                    players=our_agents(deterministic=True))
    referee = Referee(_config(tmp_path), seat_secrets=seat_secrets)
    async with serving(referee, "ws") as url:
        tasks = [asyncio.create_task(play_seat(
            WsClient(url), AgentPlayer(deterministic=True), table="t1", seat=s,
            secret=seat_secrets.secret("t1", s))) for s in range(4)]
        game = asyncio.create_task(referee.run())
        rogue = WsClient(url)
        await rogue.connect()
        await rogue.send(Join(name="rogue", table="t1", seat=2,
                              token=seat_secrets.secret("t1", 3)).to_json())
        await rogue.close()
        await asyncio.wait_for(asyncio.gather(*tasks), 120)
        await game
    out, err = capfd.readouterr()
    logged = out + err + caplog.text
    assert "join_refused" in logged and "joined" in logged  # the logs were captured
    for secret in (seat_secrets.referee, *seat_secrets.seats["t1"]):
        assert secret not in logged


# ---------------------------------------------------------------- the command line
def test_the_referee_writes_secrets_and_a_broker_configuration(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    secrets_file, broker_dir = tmp_path / "secrets.json", tmp_path / "broker"
    code = cli_main(["referee", "olympiad", "--transport", "mqtt", "--tables", "2",
                     "--write-secrets", str(secrets_file), "--broker-config", str(broker_dir),
                     "--broker", "mqtt://127.0.0.1:1884", "--prepare-only"])
    assert code == 0
    seat_secrets = SeatSecrets.read(secrets_file)
    assert sorted(seat_secrets.seats) == ["t1", "t2"]
    assert stat.S_IMODE(secrets_file.stat().st_mode) == 0o600
    conf = (broker_dir / "mosquitto.conf").read_text()
    assert "listener 1884 127.0.0.1" in conf and "allow_anonymous false" in conf
    assert "user t2-seat3\ntopic write mjbot/v1/t2/seat/3/up" in (broker_dir / "acl").read_text()
    _, err = capsys.readouterr()
    assert not any(s in err for s in seat_secrets.seats["t1"])
    # read back: the same secrets, nothing regenerated
    assert cli_main(["referee", "olympiad", "--tables", "2", "--secrets", str(secrets_file),
                     "--prepare-only"]) == 0
    assert SeatSecrets.read(secrets_file) == seat_secrets


def test_the_command_line_refuses_what_cannot_work(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"referee": "short", "seats": {}}')
    assert cli_main(["referee", "olympiad", "--secrets", str(bad), "--prepare-only"]) == 2
    assert "16-256 characters" in capsys.readouterr().err
    few = tmp_path / "few.json"
    SeatSecrets.generate(["t1"]).write(few)
    assert cli_main(["referee", "olympiad", "--tables", "2", "--secrets", str(few),
                     "--prepare-only"]) == 2
    assert "no secrets for table(s) t2" in capsys.readouterr().err
    assert cli_main(["referee", "olympiad", "--write-secrets", str(tmp_path / "s"),
                     "--tls-cert", str(few), "--prepare-only"]) == 2
    assert "--tls-key" in capsys.readouterr().err
    # one of --secrets / --write-secrets is required: argparse's usage error, exit 2
    assert cli_main(["referee", "olympiad", "--prepare-only"]) == 2
    assert "--secrets" in capsys.readouterr().err
    env = dict(os.environ)
    os.environ.pop("MJBOT_SEAT_SECRET", None)
    try:
        assert cli_main(["play", "olympiad", "--ws", "ws://127.0.0.1:1/", "--table", "t1",
                         "--seat", "0"]) == 2
        assert "MJBOT_SEAT_SECRET" in capsys.readouterr().err
    finally:
        os.environ.clear()
        os.environ.update(env)


async def test_a_wrapped_program_never_sees_the_seats_secret(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from arena.platforms.olympiad.program import ProgramPlayer
    from bot.olympiad_client import SECRET_ENV
    from bot.play import SECRET_ENV as CLI_ENV

    assert CLI_ENV == SECRET_ENV == "MJBOT_SEAT_SECRET"
    monkeypatch.setenv(SECRET_ENV, "the-seats-secret-0123456789")
    monkeypatch.setenv("MJBOT_OTHER", "kept")
    player = ProgramPlayer([sys.executable, "-c", "import os; print(os.environ.get("
                            f"'{SECRET_ENV}', 'absent'), os.environ.get('MJBOT_OTHER'))"])
    await player.start()
    assert player.proc is not None and player.proc.stdout is not None
    line = await asyncio.wait_for(player.proc.stdout.readline(), 30)
    await player.close()
    assert line.decode().split() == ["absent", "kept"]
