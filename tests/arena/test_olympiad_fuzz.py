"""Fuzzing the Olympiad edges with hypothesis.

- The referee's :meth:`Referee.on_text`, mid-game with an ask open: raw bytes, any
  text, any JSON, and messages shaped like ``join``/``act`` with any field values,
  from a stranger and from joined seats.  Nothing raises out; every input gets
  exactly one ``error`` (with the code the parser gives); no error carries the open
  ask's id; the ask stays open and the table goes on when its seat answers.
- The client's session loop (:func:`play_seat` with our deterministic agent) on a
  seat's real message stream with fuzzed texts slipped in: unreadable ones are
  reported and change nothing (the very acts of the clean run); readable but wrong
  referee messages make it lose its state at worst, never raise, and every ask is
  still answered with one of its options.

- The corpus of joins and CONNECTs a tournament's players could send
  (:func:`join_corpus`, :func:`client_id_corpus`): names with NUL, U+202E or ESC, another
  name or seat, a session taken over, re-joins again and again with and without
  ``resume_from``; another seat's client id, a wrong password, an empty persistent id.
  Each gets its own refusal, and the seat that held the id keeps it.

``FUZZED`` counts the inputs each test fed; the closing test prints the totals.
"""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import aiomqtt
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.arena import olympiad_config as _config

from arena.platforms.olympiad.access import SeatSecrets, amqtt_plugins
from arena.platforms.olympiad.broker_guards import GuardedBroker
from arena.platforms.olympiad.match import our_agents, run_match
from arena.platforms.olympiad.referee import Referee
from arena.platforms.olympiad.soak.corpus import (
    CLIENT_ID_HELD,
    HOSTILE_NAMES,
    client_id_corpus,
    hostile_payloads,
    join_corpus,
    slow_parse_payloads,
)
from bot.olympiad_client import AgentPlayer
from protocols.olympiad import (
    Act,
    AskMsg,
    Join,
    MessageError,
    parse_player_message,
    parse_referee_message,
)
from protocols.olympiad_codec import act_allowed
from protocols.olympiad_mqtt import embedded_broker
from protocols.olympiad_session import SessionReport, play_seat
from protocols.olympiad_transport import REFEREE_USER, host_port, seat_topic, seat_user

FUZZED: Counter[str] = Counter()
TILES = [f"{n}{s}" for s in "mps" for n in range(1, 10)] + [f"{n}z" for n in range(1, 8)]

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats(allow_nan=True)
    | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=4),
    max_leaves=12)
anything = json_values | st.sampled_from(TILES) | st.integers(0, 5) | st.text(max_size=300)


def _shaped(kind: str, fields: dict[str, st.SearchStrategy[Any]]) -> st.SearchStrategy[str]:
    """A JSON object with the message's fields, each present or not, each value either
    plausible or anything at all, plus now and then a field nobody knows."""
    def build(draw: Callable[[st.SearchStrategy[Any]], Any]) -> str:
        obj: dict[str, Any] = {}
        for key in ("v", "type", *fields):
            if draw(st.integers(0, 9)) == 0:
                continue  # missing
            fixed = {"v": st.just(1), "type": st.just(kind)}
            plausible = fixed[key] if key in fixed else fields[key]
            obj[key] = draw(plausible if draw(st.integers(0, 3)) else anything)
        if draw(st.integers(0, 7)) == 0:
            obj[draw(st.text(min_size=1, max_size=8))] = draw(anything)
        return json.dumps(obj)

    return st.composite(lambda draw: build(draw))()


join_like = _shaped("join", {
    "name": st.text(min_size=1, max_size=70) | st.sampled_from(list(HOSTILE_NAMES)),
    "table": st.sampled_from(["t1", "t2", "", "x" * 70]),
    "seat": st.integers(-1, 5), "resume_from": st.integers(-1, 10**6) | st.none(),
    "token": st.text(max_size=300) | st.none(), "session": st.text(max_size=70)})
act_like = _shaped("act", {
    "id": st.text(max_size=70), "kind": st.sampled_from(
        ["discard", "win", "kong", "pong", "chow", "pass", "shout"]),
    "tile": st.sampled_from([*TILES, "1f", "0m", "xx", ""]),
    "tiles": st.lists(st.sampled_from([*TILES, "9f", "10m"]), max_size=4)})
valid_joins = st.builds(
    lambda seat, token, resume: Join(name="x", table="t1", seat=seat, token=token,
                                     resume_from=resume, session="h").to_json(),
    st.integers(0, 3), st.text(max_size=40) | st.none(), st.none() | st.integers(0, 100))
hostile = st.sampled_from(hostile_payloads())
"""Issue 24: deep JSON, 5,000-digit numbers, a text over the size limit."""
slow_to_check = st.sampled_from([*slow_parse_payloads(), *slow_parse_payloads(4_000)])
"""Issue 38: texts a regex depth scan takes quadratic time on (unterminated escapes)."""
player_inputs = (st.binary(max_size=300) | st.text(max_size=300)
                 | json_values.map(json.dumps) | join_like | act_like | valid_joins | hostile
                 | slow_to_check)


def _expected_code(data: str | bytes) -> str | None:
    """The code of the parse error, or None when the message reads."""
    try:
        parse_player_message(data)
    except MessageError as exc:
        return exc.code
    return None


# ---------------------------------------------------------------- the referee
class _Link:
    def __init__(self, name: str) -> None:
        self.name, self.bound, self.closed = name, None, False
        self.sent: list[str] = []

    async def send(self, text: str) -> None:
        self.sent.append(text)

    async def close(self) -> None:
        self.closed = True

    def describe(self) -> str:
        return self.name


def test_no_input_stops_the_referee_and_every_bad_one_gets_its_error(tmp_path: Path) -> None:
    loop = asyncio.new_event_loop()
    # every input gets its error here: no error budget (tested in test_olympiad_hostile)
    referee = Referee(_config(tmp_path, decision_ms=600_000), error_burst=1e9)
    seats = [_Link(f"seat{s}") for s in range(4)]
    stranger = _Link("stranger")

    async def setup() -> asyncio.Task[Any]:
        for s, link in enumerate(seats):
            join = Join(name=f"p{s}", table="t1", seat=s, token=referee.secrets.secret("t1", s),
                        session=f"s{s}")
            await referee.on_text(link, join.to_json())
        game = asyncio.create_task(referee.run())
        while referee.tables["t1"].seats[0].open_ask is None:
            await asyncio.sleep(0.001)
        return game

    game = loop.run_until_complete(setup())
    seat0 = referee.tables["t1"].seats[0]
    open_ask = seat0.open_ask
    assert open_ask is not None
    ask = open_ask
    codes: Counter[str] = Counter()

    @settings(max_examples=1500, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(data=player_inputs, who=st.sampled_from(["stranger", "seat0", "seat1"]))
    def one(data: str | bytes, who: str) -> None:
        link = {"stranger": stranger, "seat0": seats[0], "seat1": seats[1]}[who]
        if isinstance(data, str) and ask.id in data:
            return  # the real id cannot be guessed; a fuzzer that knew it would answer
        before = len(link.sent)
        loop.run_until_complete(referee.on_text(link, data))  # nothing raises out
        FUZZED["referee"] += 1
        new = [json.loads(t) for t in link.sent[before:]]
        assert len(new) == 1 and new[0]["type"] == "error", (data, new)
        err = new[0]
        expected = _expected_code(data)
        if expected is not None:
            assert err["code"] == expected
        assert ask.id not in json.dumps(err)
        if who == "stranger":
            assert err["seq"] == 0 and err["table"] == ""
        codes[err["code"]] += 1
        assert seat0.open_ask is ask and not ask.future.done()
        assert all(ch.link is lk for ch, lk in zip(referee.tables["t1"].seats, seats,
                                                      strict=True))

    one()
    # the table goes on: seat 0 answers its ask and the game moves past it
    option = ask.fields["options"][0]
    act = Act(id=ask.id, kind=option["kind"],
              tile=option["tiles"][0] if option["kind"] == "discard" else None)
    sent_before = len(seats[1].sent)
    loop.run_until_complete(referee.on_text(seats[0], act.to_json()))

    async def moved() -> None:
        while len(seats[1].sent) == sent_before:
            await asyncio.sleep(0.001)

    loop.run_until_complete(asyncio.wait_for(moved(), 10))
    assert json.loads(seats[1].sent[sent_before])["type"] in ("discard", "ask")
    game.cancel()
    with pytest.raises(asyncio.CancelledError):
        loop.run_until_complete(game)
    loop.close()
    print(f"referee: {FUZZED['referee']} inputs, errors by code {dict(codes)}")
    assert {"malformed_json", "invalid_message", "unknown_type", "forbidden", "not_joined"} \
        <= set(codes), codes


# ---------------------------------------------------------------- the client
class StreamOver(Exception):
    """The scripted stream has nothing more to give."""


class Scripted:
    """A client transport that plays back texts and keeps what the client sends."""

    def __init__(self, texts: list[str]) -> None:
        self.texts, self.at = texts, 0
        self.sent: list[str] = []

    async def connect(self) -> None:
        return None

    async def send(self, text: str) -> None:
        self.sent.append(text)

    async def recv(self) -> str:
        if self.at >= len(self.texts):
            raise StreamOver
        self.at += 1
        return self.texts[self.at - 1]

    async def close(self) -> None:
        return None

    def describe(self) -> str:
        return "scripted"


@pytest.fixture(scope="module")
def seat_stream(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """Seat 2's whole stream of one deterministic game: welcome, then its log."""
    tmp = tmp_path_factory.mktemp("stream")
    result = asyncio.run(run_match(_config(tmp), "ws", players=our_agents(deterministic=True)))
    assert result.referee is not None
    channel = result.referee.tables["t1"].seats[2]
    welcome = {"v": 1, "type": "welcome", "table": "t1", "seq": 0, "seat": 2,
               "rules": "taiwan-16", "players": ["a", "b", "c", "d"], "decision_ms": 20000}
    return [json.dumps(welcome), *(e.text for e in channel.log.entries)]


def _play(texts: list[str]) -> tuple[Scripted, SessionReport, bool]:
    transport = Scripted(texts)
    report = SessionReport()
    player = AgentPlayer(deterministic=True, work_budget=3000)
    try:
        asyncio.run(play_seat(transport, player, table="t1", seat=2, report=report,
                              secret="s" * 20, join_timeout=5))
        over = False
    except StreamOver:
        over = True
    return transport, report, over


def _acts(transport: Scripted) -> list[str]:
    return [t for t in transport.sent if json.loads(t)["type"] == "act"]


def _unreadable(real: list[str]) -> st.SearchStrategy[str]:
    """Texts a referee message parser refuses: garbage, and real messages with a field
    dropped or given a wrong value."""
    def broken(draw: Callable[[st.SearchStrategy[Any]], Any]) -> str:
        obj = json.loads(draw(st.sampled_from(real)))
        key = draw(st.sampled_from(sorted(obj)))
        if draw(st.booleans()):
            del obj[key]
        else:
            obj[key] = draw(anything)
        return json.dumps(obj)

    garbage = (st.text(max_size=200) | json_values.map(json.dumps) | st.composite(broken)()
               | st.binary(max_size=100).map(lambda b: b.decode(errors="replace")) | hostile)
    return garbage.filter(lambda t: _referee_code(t) is not None)


def _referee_code(text: str) -> str | None:
    try:
        parse_referee_message(text)
    except MessageError as exc:
        return exc.code
    return None


def test_unreadable_texts_among_a_seats_stream_change_none_of_its_acts(
        seat_stream: list[str]) -> None:
    clean_transport, clean_report, over = _play(seat_stream)
    assert not over and clean_report.games == 1
    clean = _acts(clean_transport)
    assert len(clean) > 10

    before_end = st.integers(1, len(seat_stream) - 1)

    @settings(max_examples=40, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
    @given(st.lists(st.tuples(before_end, _unreadable(seat_stream[1:])), min_size=1, max_size=8))
    def one(inserts: list[tuple[int, str]]) -> None:
        texts = list(seat_stream)
        for at, junk in sorted(inserts, reverse=True):
            texts.insert(at, junk)
        transport, report, over = _play(texts)
        FUZZED["client unreadable"] += len(inserts)
        assert not over and report.games == 1
        assert _acts(transport) == clean
        assert len([e for e in report.errors if e.startswith("unreadable")]) == len(inserts)

    one()
    print(f"client, unreadable: {FUZZED['client unreadable']} inputs")


def _wrong(real: list[str]) -> st.SearchStrategy[str]:
    """Readable referee messages that are wrong: a real non-ask message with another
    seq, seat, tile or hand, or an ask with a made-up id and options."""
    def build(draw: Callable[[st.SearchStrategy[Any]], Any]) -> str:
        if draw(st.integers(0, 4)) == 0:
            tiles = draw(st.lists(st.sampled_from(TILES), min_size=1, max_size=5))
            kinds = draw(st.lists(st.sampled_from(["pass", "win", "pong", "discard"]),
                                  min_size=1, max_size=3, unique=True))
            options = [{"kind": k, **({"tiles": tiles} if k == "discard" else {})}
                       for k in kinds]
            return json.dumps({"v": 1, "type": "ask", "table": "t1",
                               "seq": draw(st.integers(0, 500)), "id": draw(st.text(
                                   "abcdef0123456789", min_size=1, max_size=22)),
                               "options": options, "deadline_ms": 1000})
        obj = json.loads(draw(st.sampled_from([t for t in real if '"ask"' not in t])))
        obj["seq"] = draw(st.integers(0, 500))
        for key in ("seat", "from_seat", "dealer"):
            if key in obj and draw(st.booleans()):
                obj[key] = draw(st.integers(0, 3))
        if "tile" in obj and draw(st.booleans()):
            obj["tile"] = draw(st.sampled_from(TILES))
        if "hand" in obj and draw(st.booleans()):
            obj["hand"] = draw(st.lists(st.sampled_from(TILES), min_size=0, max_size=17))
        return json.dumps(obj)

    return st.composite(build)().filter(lambda t: _referee_code(t) is None)


def test_wrong_but_readable_messages_never_stop_the_client_and_every_ask_is_answered(
        seat_stream: list[str]) -> None:
    @settings(max_examples=40, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
    @given(st.lists(st.tuples(st.integers(1, len(seat_stream)), _wrong(seat_stream[1:])),
                    min_size=1, max_size=6))
    def one(inserts: list[tuple[int, str]]) -> None:
        texts = list(seat_stream)
        for at, junk in sorted(inserts, reverse=True):
            texts.insert(at, junk)
        transport, _, _ = _play(texts)  # nothing raises out but the stream's end
        FUZZED["client wrong"] += len(inserts)
        answered = {json.loads(t)["id"]: json.loads(t) for t in _acts(transport)}
        asked: set[str] = set()
        for text in texts[:transport.at]:  # what the client read before it stopped
            msg = json.loads(text) if _referee_code(text) is None else None
            if msg is None or msg["type"] != "ask" or msg["id"] in asked:
                continue  # an id asked again gets the act already sent for it, by design
            asked.add(msg["id"])
            ask = AskMsg.model_validate(msg)
            act = answered.get(ask.id)
            assert act is not None, ask.id
            assert act_allowed(Act.model_validate(act), ask.options), (act, ask.options)

    one()
    print(f"client, readable but wrong: {FUZZED['client wrong']} inputs")


def test_messages_before_the_welcome_are_left_to_the_replay(seat_stream: list[str]) -> None:
    """Over MQTT a seat's topic carries the game on while its client (re)joins: what
    arrives before the welcome is dropped, and the replay after it brings it in order."""
    clean_transport, _, _ = _play(seat_stream)
    early = [t for t in seat_stream[1:40] if '"type":"ask"' not in t][-3:]
    transport, report, over = _play([*early, *seat_stream])
    assert not over and report.games == 1
    assert _acts(transport) == _acts(clean_transport)


# ---------------------------------------------------------------- the corpus
def _joined(tmp: Path, seat_secrets: SeatSecrets | None = None
            ) -> tuple[Referee, list[_Link]]:
    """A referee (its clock stands still: no join budget refills) with t1's four seats
    joined once, as ``p0``..``p3`` in sessions ``s0``..``s3``."""
    referee = Referee(_config(tmp), clock=lambda: 0.0, seat_secrets=seat_secrets)
    seats = [_Link(f"seat{s}") for s in range(4)]

    async def join_all() -> None:
        for s, link in enumerate(seats):
            await referee.on_text(link, Join(name=f"p{s}", table="t1", seat=s, session=f"s{s}",
                                             token=referee.secrets.secret("t1", s)).to_json())

    asyncio.run(join_all())
    assert all(json.loads(link.sent[0])["type"] == "welcome" for link in seats)
    return referee, seats


def test_every_join_of_the_corpus_gets_its_answer(tmp_path: Path) -> None:
    referee, _ = _joined(tmp_path)
    cases = join_corpus(lambda seat: referee.secrets.secret("t1", seat))
    answered: Counter[str] = Counter()
    for case in cases:
        referee, seats = _joined(tmp_path, referee.secrets)  # each case from the same start
        for step in case:
            link = seats[0] if step.who == "seat" else _Link("stranger")
            before = len(link.sent)
            asyncio.run(referee.on_text(link, step.frame))
            FUZZED["join corpus"] += 1
            first = json.loads(link.sent[before])
            got = "welcome" if first["type"] == "welcome" else first["code"]
            assert got == step.expect, (step.what, first)
            answered[got] += 1
        # whatever seat 0 sent, the other seats still hold theirs
        assert all(referee.tables["t1"].seats[s].link is seats[s] for s in (1, 2, 3))
    print(f"join corpus: {FUZZED['join corpus']} frames, answers {dict(answered)}")
    assert {"bad_name", "name_fixed", "wrong_seat", "forbidden", "invalid_message",
            "replaced", "too_many_joins", "welcome"} <= set(answered)


async def _connack(url: str, packet: bytes) -> int | None:
    """The return code of the broker's CONNACK to ``packet``, or None if it hung up."""
    host, port = host_port(url, 1883)
    reader, writer = await asyncio.open_connection(host, port)
    try:
        writer.write(packet)
        await writer.drain()
        return (await asyncio.wait_for(reader.readexactly(4), 10))[3]
    except (asyncio.IncompleteReadError, ConnectionError):
        return None
    finally:
        writer.transport.abort()


async def test_every_connect_of_the_client_id_corpus_is_refused_and_the_holder_stays(
        tmp_path: Path) -> None:
    referee = Referee(_config(tmp_path))
    seat_secrets = referee.secrets
    async with embedded_broker(plugins=amqtt_plugins(seat_secrets, ["t1"]),
                               broker_class=GuardedBroker) as url:
        host, port = host_port(url, 1883)
        async with aiomqtt.Client(host, port, username=seat_user("t1", 0),
                                  password=seat_secrets.secret("t1", 0),
                                  identifier=CLIENT_ID_HELD) as holder:
            await holder.subscribe(seat_topic("t1", 0, "down"), qos=1)
            corpus = client_id_corpus(
                lambda seat: (seat_user("t1", seat), seat_secrets.secret("t1", seat)),
                (REFEREE_USER, seat_secrets.referee))
            for what, packet, expected in corpus:
                FUZZED["client id corpus"] += 1
                assert await _connack(url, packet) == expected, what
            async with aiomqtt.Client(host, port, username=REFEREE_USER,
                                      password=seat_secrets.referee) as sender:
                await sender.publish(seat_topic("t1", 0, "down"), "still yours", qos=1)
            message = await asyncio.wait_for(anext(aiter(holder.messages)), 10)
            assert message.payload == b"still yours"
    print(f"client id corpus: {FUZZED['client id corpus']} CONNECTs refused")
