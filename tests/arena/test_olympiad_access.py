"""Nobody plays an Olympiad seat that is not theirs.

In-process first (a referee with recording links, no network): a join needs its
seat's secret, a stranger learns nothing, a second join with the secret takes the
seat over, errors name no other seat's data and no open ask's id, ask ids cannot be
guessed.  Then the secrets file, the mosquitto password hash against
``mosquitto_passwd``'s own, and the topic rules.
"""

from __future__ import annotations

import asyncio
import base64
import json
import shutil
import stat
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from support.arena import olympiad_config as _config

from arena.platforms.olympiad.access import (
    SeatSecrets,
    SecretsError,
    acl_rules,
    mosquitto_acl_file,
    mosquitto_hash,
    topic_covered,
    write_mosquitto_config,
)
from arena.platforms.olympiad.referee import Referee
from arena.platforms.olympiad.seat_channel import ask_wire_id
from arena.tools.output_files import OutputError
from protocols.olympiad import Act, Join


@dataclass(eq=False)
class RecordingLink:
    """A player's connection as the referee sees it: every text sent, and whether closed."""

    name: str
    bound: tuple[str, int] | None = None
    sent: list[str] = field(default_factory=list)
    closed: bool = False

    async def send(self, text: str) -> None:
        self.sent.append(text)

    async def close(self) -> None:
        self.closed = True

    def describe(self) -> str:
        return f"test {self.name}"

    def messages(self) -> list[dict[str, object]]:
        return [json.loads(t) for t in self.sent]


def _join(referee: Referee, seat: int, token: str | None = "right", **kw: object) -> str:
    secret = referee.secrets.secret("t1", seat) if token == "right" else token
    return Join(name=f"p{seat}", table="t1", seat=seat, token=secret, **kw).to_json()  # type: ignore[arg-type]


async def _table_with_an_open_ask(tmp: Path) -> tuple[Referee, list[RecordingLink],
                                                     asyncio.Task[object]]:
    """Four joined seats, the game started, the dealer's first ask open (nobody answers)."""
    referee = Referee(_config(tmp))
    links = [RecordingLink(f"seat{s}") for s in range(4)]
    for seat, link in enumerate(links):
        await referee.on_text(link, _join(referee, seat, session=f"s{seat}"))
    game: asyncio.Task[object] = asyncio.create_task(referee.run())
    async with asyncio.timeout(10):
        while referee.tables["t1"].seats[0].open_ask is None:
            await asyncio.sleep(0.001)
    return referee, links, game


async def _stop(game: asyncio.Task[object]) -> None:
    game.cancel()
    with pytest.raises(asyncio.CancelledError):
        await game


# ---------------------------------------------------------------- joining
@pytest.mark.parametrize("token", [None, "wrong-but-long-enough-0123", ""])
async def test_a_join_without_the_seats_secret_is_forbidden_and_learns_nothing(
        tmp_path: Path, token: str | None) -> None:
    referee, links, game = await _table_with_an_open_ask(tmp_path)
    stranger = RecordingLink("stranger")
    await referee.on_text(stranger, _join(referee, 0, token=token, session="evil"))
    await referee.on_text(stranger, Act(id=referee.tables["t1"].seats[0].open_ask.id,  # type: ignore[union-attr]
                                        kind="pass").to_json())
    await _stop(game)
    first, second = stranger.messages()
    assert first["type"] == "error" and first["code"] == "forbidden" and first["fatal"] is True
    assert first["seq"] == 0 and first["table"] == "" and first["session"] == "evil"
    assert second["code"] == "not_joined"  # the act counts for nothing
    assert len(stranger.sent) == 2  # no welcome, no deal, no ask
    assert stranger.closed  # a fatal error ends a connection that holds no seat
    seat0 = referee.tables["t1"].seats[0]
    assert seat0.link is links[0] and seat0.open_ask is not None and not seat0.answered
    hand = json.loads(links[0].sent[1])["hand"]  # seat 0's deal
    ask_id = seat0.open_ask.id
    for text in stranger.sent:
        assert ask_id not in text and not any(f'"{t}"' in text for t in hand)


async def test_a_second_join_with_the_secret_takes_the_seat_over(tmp_path: Path) -> None:
    referee, links, game = await _table_with_an_open_ask(tmp_path)
    restarted = RecordingLink("restarted")
    await referee.on_text(restarted, _join(referee, 0, session="new"))
    await asyncio.sleep(0)  # the old connection is closed in the background
    old = links[0].messages()[-1]
    assert old["type"] == "error" and old["code"] == "replaced" and old["fatal"] is True
    assert old["session"] == "s0" and links[0].closed
    seat0 = referee.tables["t1"].seats[0]
    assert seat0.link is restarted
    types = [m["type"] for m in restarted.messages()]
    assert types[0] == "welcome" and "deal" in types and types[-1] == "ask"
    # the old connection's act no longer counts; the new one's does
    ask_id = seat0.open_ask.id  # type: ignore[union-attr]
    await referee.on_text(links[0], Act(id=ask_id, kind="discard", tile="1m").to_json())
    assert links[0].messages()[-1]["code"] == "not_joined" and not seat0.answered
    # the replaced session's join, still on its way (a killed bot's last words), is refused
    late = RecordingLink("late")
    await referee.on_text(late, _join(referee, 0, session="s0"))
    await asyncio.sleep(0)
    refused = late.messages()
    assert [(m["code"], m["fatal"], m["session"]) for m in refused] == [("replaced", True, "s0")]
    assert late.closed
    assert seat0.link is restarted and seat0.session == "new" and not restarted.closed
    await _stop(game)


async def test_the_same_session_joining_again_is_a_resume_not_a_takeover(
        tmp_path: Path) -> None:
    referee, links, game = await _table_with_an_open_ask(tmp_path)
    await referee.on_text(links[2], _join(referee, 2, session="s2", resume_from=1))
    await _stop(game)
    assert not links[2].closed
    assert not [m for m in links[2].messages() if m["type"] == "error"]


async def test_a_connection_holds_one_seat(tmp_path: Path) -> None:
    referee, links, game = await _table_with_an_open_ask(tmp_path)
    before = len(links[1].sent)
    await referee.on_text(links[1], _join(referee, 2, session="s1"))
    await _stop(game)
    err = links[1].messages()[before]
    assert err["code"] == "wrong_seat" and "one seat per connection" in str(err["message"])
    assert referee.tables["t1"].seats[2].link is links[2] and len(links[1].sent) == before + 1


async def test_an_unknown_ask_id_is_refused_without_naming_the_open_one(tmp_path: Path) -> None:
    referee, links, game = await _table_with_an_open_ask(tmp_path)
    seat0 = referee.tables["t1"].seats[0]
    assert seat0.open_ask is not None
    for guess in ("guess", "t1-0-1-0", seat0.open_ask.id[:-1] + "x"):
        await referee.on_text(links[0], Act(id=guess, kind="pass").to_json())
    await _stop(game)
    errors = [m for m in links[0].messages() if m["type"] == "error"]
    assert [e["code"] for e in errors] == ["unknown_id"] * 3
    assert not any(seat0.open_ask.id in json.dumps(e) for e in errors)
    assert not seat0.answered


def test_ask_ids_are_unguessable_yet_the_record_keeps_their_names() -> None:
    key_a, key_b = b"a" * 32, b"b" * 32
    assert ask_wire_id(key_a, "t1-0-1-0") == ask_wire_id(key_a, "t1-0-1-0")
    assert ask_wire_id(key_a, "t1-0-1-0") != ask_wire_id(key_b, "t1-0-1-0")
    assert ask_wire_id(key_a, "t1-0-1-0") != ask_wire_id(key_a, "t1-0-1-1")
    wire = ask_wire_id(key_a, "t1-0-1-0")
    assert len(base64.urlsafe_b64decode(wire + "==")) == 16 and "t1" not in wire
    # two referees of one seed draw different keys
    config = _config(Path("."))
    a, b = Referee(config).tables["t1"].ask_key, Referee(config).tables["t1"].ask_key
    assert a != b and len(a) == 32


# ---------------------------------------------------------------- secrets
def test_secrets_are_generated_per_seat_checked_in_constant_time_and_never_shown() -> None:
    s = SeatSecrets.generate(["t1", "t2"])
    every = [s.referee, *s.seats["t1"], *s.seats["t2"]]
    assert len(set(every)) == 9 and all(len(x) >= 32 for x in every)
    assert s.check("t1", 2, s.secret("t1", 2))
    assert not s.check("t1", 2, s.secret("t1", 1)) and not s.check("t1", 2, None)
    assert not s.check("t3", 0, s.secret("t1", 0)) and not s.check("t1", 7, s.secret("t1", 0))
    assert not any(x in repr(s) or x in str(s) for x in every)


def test_the_secrets_file_is_written_0600_and_read_back(tmp_path: Path) -> None:
    s = SeatSecrets.generate(["t1"])
    path = tmp_path / "secrets.json"
    path.write_text("old")
    path.chmod(0o644)
    with pytest.raises(OutputError, match="not overwritten"):
        s.write(path)  # an existing file is the organiser's: replaced only when asked
    assert path.read_text() == "old"
    s.write(path, overwrite=True)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert SeatSecrets.read(path) == s


@pytest.mark.parametrize(("text", "problem"), [
    ("{", "not JSON"),
    ('{"referee": "r-0123456789abcdef", "seats": {"t1": ["a-0123456789abcdef"]}}',
     "expected a list of 4"),
    ('{"referee": "short", "seats": {}}', "16-256 characters"),
    ('{"referee": "r-0123456789abcdef", "seats": {"t1": ["x-0123456789abcdef", '
     '"x-0123456789abcdef", "y-0123456789abcdef", "z-0123456789abcdef"]}}', "share a secret"),
    ('{"referee": "r 0123456789abcdef", "seats": {}}', "only letters"),
])
def test_a_bad_secrets_file_is_refused_without_showing_a_secret(text: str, problem: str) -> None:
    with pytest.raises(SecretsError) as exc:
        SeatSecrets.from_json(text)
    assert problem in str(exc.value) and "0123456789abcdef" not in str(exc.value)


def test_a_referee_refuses_secrets_that_miss_one_of_its_tables() -> None:
    with pytest.raises(SecretsError, match="t2"):
        Referee(_config(Path("."), tables=2), seat_secrets=SeatSecrets.generate(["t1"]))


# ---------------------------------------------------------------- broker rules
@pytest.mark.skipif(shutil.which("mosquitto_passwd") is None, reason="no mosquitto_passwd")
def test_the_password_hash_is_the_one_mosquitto_passwd_writes(tmp_path: Path) -> None:
    """The oracle: mosquitto_passwd hashes a password; the same salt gives our same hash."""
    path = tmp_path / "pw"
    path.write_text("someone:the-password-0123456789\n")
    subprocess.run(["mosquitto_passwd", "-U", str(path)], check=True, capture_output=True)
    theirs = path.read_text().strip().split(":", 1)[1]
    _, seven, iterations, salt, _ = theirs.split("$")
    assert seven == "7"
    ours = mosquitto_hash("the-password-0123456789", base64.b64decode(salt), int(iterations))
    assert ours == theirs
    assert mosquitto_hash("another-password-0000", base64.b64decode(salt)) != theirs


@pytest.mark.parametrize(("requested", "allowed", "covered"), [
    ("mjbot/v1/t1/seat/0/up", "mjbot/v1/t1/seat/0/up", True),
    ("mjbot/v1/t1/seat/1/up", "mjbot/v1/t1/seat/0/up", False),
    ("mjbot/v1/t1/seat/0/up", "mjbot/v1/t1/#", True),
    ("mjbot/v1/t1/seat/+/up", "mjbot/v1/t1/#", True),
    ("mjbot/v1/+/seat/+/up", "mjbot/v1/t1/#", False),
    ("#", "mjbot/v1/t1/seat/0/down", False),
    ("mjbot/#", "mjbot/v1/t1/seat/0/down", False),
    ("mjbot/v1/t1/seat/+/down", "mjbot/v1/t1/seat/0/down", False),
    ("mjbot/v1/t1/seat/0", "mjbot/v1/t1/seat/0/down", False),
    ("mjbot/v1/t1/seat/0/down/x", "mjbot/v1/t1/seat/0/down", False),
    ("mjbot/v1/t1/seat/0/down", "mjbot/v1/t1/seat/+/down", True),
    ("mjbot/v1/t1/seat/#", "mjbot/v1/t1/seat/+/down", False),
])
def test_topic_rules_cover_a_filter_only_when_every_topic_it_matches_is_allowed(
        requested: str, allowed: str, covered: bool) -> None:
    assert topic_covered(requested, allowed) is covered


def test_each_seat_user_gets_only_its_own_topics() -> None:
    rules = acl_rules(["t1"])
    seat1 = {(r.access, r.topic) for r in rules if r.user == "t1-seat1"}
    assert seat1 == {("write", "mjbot/v1/t1/seat/1/up"), ("write", "mjbot/v1/t1/presence/1"),
                     ("read", "mjbot/v1/t1/seat/1/down"), ("read", "mjbot/v1/t1/presence/1"),
                     ("read", "mjbot/v1/t1/referee")}
    acl = mosquitto_acl_file(["t1"])
    assert "user mjbot-referee\ntopic read mjbot/v1/t1/#\ntopic write mjbot/v1/t1/#" in acl


def test_the_mosquitto_configuration_refuses_anonymous_clients(tmp_path: Path) -> None:
    s = SeatSecrets.generate(["t1"])
    files = write_mosquitto_config(tmp_path / "broker", s, ["t1"], listen="127.0.0.1:1999")
    conf = files.conf.read_text()
    assert "allow_anonymous false" in conf and "listener 1999 127.0.0.1" in conf
    passwords = files.passwords.read_text()
    assert passwords.count("$7$101$") == 5 and "t1-seat3:" in passwords
    assert not any(x in passwords for x in (s.referee, *s.seats["t1"]))
    for path in (files.conf, files.passwords, files.acl):
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
