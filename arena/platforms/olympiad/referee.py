"""The Olympiad-style referee: taiwan-16 tables served over WebSocket or MQTT.

It deals from walls nobody can predict (:mod:`arena.platforms.olympiad.walls`: each table's seed is
secret, committed to in every ``welcome`` and record header, revealed in the table's last
``end``; with a given seed, table ``k``, game ``g``: ``default_rng([seed, k, g])``),
asks the seats that have a choice and, after every discard (or added kong), every other
seat too, with nothing but ``pass`` when it has no choice (as Botzone does); a claim window
lasts at least ``round_floor_ms`` from its discard, so its length does not tell who could
claim.  It enforces each ask's deadline and the legality of every answer (policy
``default``: pass, or discard the drawn tile; ``forfeit``: that seat pays 30 to each
other seat), and writes one game record per game (JSON Lines, :mod:`arena.records.files`).

Each seat has one message log for the whole table session, numbered by
``seq``.  A ``join`` with ``resume_from`` gets a ``welcome`` and then every
logged message after that seq, in order, except asks that are already
closed; the open ask, if any, is sent again with its original seq and id and
the time it has left.  An ``act`` is taken once per ask id: a repeat is
ignored, an unknown or closed id gets a non-fatal ``error``.  An ``act``
that reads but is not among the ask's options gets ``illegal_action`` and the
policy; one that does not read (malformed JSON, unknown type, missing
field) gets its ``error`` and the ask stays open.  The game loop never reads
from a transport: transports call :meth:`Referee.on_text`.

Seats belong to someone (:mod:`arena.platforms.olympiad.access`): a ``join`` must carry the
seat's secret as ``token`` (compared in constant time), or it gets a fatal
``forbidden`` that says nothing about the table's state (seq 0, no hand, no ask, no
id).  A connection holds one seat.  A ``join`` with the right secret from another
connection (or another client ``session``, over MQTT's shared topics) takes the seat
over: the old holder gets a fatal ``replaced`` and its WebSocket is closed.

Ask ids cannot be guessed: the wire id is an HMAC of the ask's deterministic name
(``TABLE-GAME-STEP-SEAT``) under a random key of this referee process.  Records keep
the name, so the record of a seed is the same in every run; the key is in no record.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import hmac
import secrets
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arena.platforms.olympiad.access import SeatSecrets
from arena.platforms.olympiad.walls import RECORD_MODE_PLAYING, WallSeed, reveal_record
from arena.records.decisions import AskAnswer, DecisionLine, Fault, ViolationRecord
from arena.records.files import write_record
from arena.records.lines import HeaderLayout, RecordHeader
from bot.agent import describe_action
from bot.logging import get_logger
from game.events import (
    Action,
    Dealt,
    Discarded,
    Drew,
    GameResult,
    KongAdded,
    Pass,
    Penalized,
    WallExhausted,
    Won,
)
from game.rules import TAIWAN_16
from game.stable_wall import WallMode
from game.taiwan import TaiwanTable
from protocols.olympiad import (
    Act,
    Ask,
    End,
    ErrorMsg,
    Join,
    MessageError,
    Option,
    TaiItem,
    WallsReveal,
    Welcome,
    parse_player_message,
    seat_name,
    tile_str,
)
from protocols.olympiad_codec import action_for, event_fields, options_for
from protocols.olympiad_log import SeatLog, stamped
from protocols.olympiad_transport import ConnectionLost, Link, RateLimit

POLICIES = ("default", "forfeit")
FORFEIT_PAYMENT = 30
TOURNAMENT_ROUND_FLOOR_MS = 200
"""``mjbot referee olympiad``'s claim-window floor: above what an honest bot thinks over a
claim and the network's jitter, at about 12 s a game (60 windows)."""
CLOSE_REASON_BYTES = 120
"""A WebSocket close reason's length (the protocol allows 123 bytes)."""
ERROR_BURST = 20
ERRORS_PER_SECOND = 1.0
"""Errors a connection may cause: beyond them it gets no more error messages, and a
WebSocket connection is closed (a seat's MQTT topics cannot be)."""
ERRORS_KEPT = 1000
"""The latest errors kept in :attr:`Referee.errors` (all of them are counted)."""
JOIN_BURST = 4
JOINS_PER_SECOND = 0.5
"""Joins one seat may make with its secret: a player joins once, and again after each lost
connection; beyond them a join gets a non-fatal ``too_many_joins`` and no replay."""
ADDRESS_JOIN_BURST = 100
ADDRESS_JOINS_PER_SECOND = 20.0
"""Joins, with a right secret or not, from one network address (WebSocket)."""
REPLAY_BATCH = 32
"""Messages a replay sends before it lets the event loop serve the other tables."""

log = get_logger("mjbot.referee.olympiad")


@dataclass(frozen=True)
class RefereeConfig:
    tables: int = 1
    games: int = 1
    seed: int | None = None
    """The walls' seed, for reproducible tests (predictable walls); None: a secret per table."""
    decision_ms: int = 1000
    policy: str = "default"
    records: Path | None = None
    table_prefix: str = "t"
    wall_mode: WallMode = WallMode.SINGLE
    """The single wall, or the stable draw wall of paper 002 (``--wall sdw``)."""
    round_floor_ms: int = 0
    """The shortest a claim window lasts, from the ``discard`` (or added kong) to the next
    message: every seat but the discarder is asked, and the round ends no sooner than
    this, so its length does not tell who could claim or how long anyone thought (as long
    as every seat answers within it).  0: no floor (local self-play, tests)."""
    join_deadline: float | None = 120.0
    """Seconds a table waits for its four seats (None: for ever).  Then it plays: a seat
    that has never joined is answered at once by the policy (the safe action, or forfeit)
    until it joins."""

    def __post_init__(self) -> None:
        if self.policy not in POLICIES:
            raise ValueError(f"policy {self.policy!r}: expected one of {', '.join(POLICIES)}")
        if self.tables < 1 or self.games < 1 or self.decision_ms < 1:
            raise ValueError("tables, games and decision_ms must be at least 1")
        if self.seed is not None and self.seed < 0:
            raise ValueError(f"seed {self.seed}: a seed is 0 or more")
        if self.round_floor_ms < 0:
            raise ValueError(f"round floor {self.round_floor_ms} ms: must be 0 or more")
        if self.join_deadline is not None and not self.join_deadline > 0:
            raise ValueError(f"join deadline {self.join_deadline}: must be more than 0 s")

    def table_ids(self) -> list[str]:
        return [f"{self.table_prefix}{k + 1}" for k in range(self.tables)]


@dataclass(frozen=True)
class Violation:
    """An ask that ended without a legal answer: ``timeout`` or ``illegal``."""

    kind: Fault
    detail: str


def ask_wire_id(key: bytes, name: str) -> str:
    """The id an ask carries on the wire: 128 bits of HMAC-SHA256(key, name), URL-safe."""
    digest = hmac.new(key, name.encode(), hashlib.sha256).digest()[:16]
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")


@dataclass
class OpenAsk:
    id: str
    seq: int
    legal: tuple[Action, ...]
    fields: dict[str, Any]
    sent_at: float
    """When the transport took the ask: its deadline runs from here."""
    future: asyncio.Future[Action | Violation]
    answered_at: float | None = None
    handed_at: float = 0.0
    """When the ask was handed to the transport (MQTT's QoS 1 publish returns only after
    the broker's PUBACK): the round trip is measured from here."""
    name: str = ""
    """The ask's deterministic name (``TABLE-GAME-STEP-SEAT``), the one records keep."""


@dataclass
class SeatChannel:
    """One seat of one table: its connection, message log (:class:`SeatLog`) and open ask."""

    table: str
    seat: int
    name: str = ""
    link: Link | None = None
    log: SeatLog = field(init=False)
    open_ask: OpenAsk | None = None
    answered: set[str] = field(default_factory=set)
    closed: set[str] = field(default_factory=set)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    joined: bool = False
    session: str | None = None
    """The ``session`` of the join that holds the seat."""
    fixed_name: str | None = None
    """The name of the seat's first join (NFKC-normalised): a re-join may not change it."""
    retired: set[str] = field(default_factory=set)
    """Sessions taken over: a join of theirs still on its way (a killed bot's last
    words) must not take the seat back from the bot that replaced them."""

    def __post_init__(self) -> None:
        self.log = SeatLog(self.table)

    @property
    def seq(self) -> int:
        return self.log.seq

    async def emit(self, fields: dict[str, Any], ask_id: str | None = None) -> int:
        async with self.lock:
            seq, text = self.log.append(fields, ask_id)
            if ask_id is not None:
                self._credit()
            await self._send(text)
            return seq

    def _credit(self) -> None:
        """An ask entitles the seat's connection to one more message (its answer): the
        transports' rate limits then fit a seat however fast the table plays."""
        credit = getattr(self.link, "credit", None)
        if callable(credit):
            credit()

    async def _send(self, text: str) -> None:
        link = self.link
        if link is None:
            return
        try:
            await link.send(text)
        except ConnectionLost:
            if self.link is link:
                self.link = None

    async def attach(self, link: Link, welcome: dict[str, Any], after: int,
                     remaining_ms: Callable[[OpenAsk], int]) -> None:
        """Make ``link`` the seat's connection and send it the ``welcome``, then every
        message after ``after`` (closed asks left out) and the open ask, all under the
        seat's lock: no new message overtakes the replay (a player drops seqs it has
        seen, so one that did would hide the replayed ones before it)."""
        async with self.lock:
            self.link = link
            await self._send(self.log.unlogged(welcome))
            ask = self.open_ask
            if ask is not None:
                self._credit()
            ask_text = "" if ask is None else stamped(
                {**ask.fields, "deadline_ms": remaining_ms(ask)}, table=self.table, seq=ask.seq)
            texts = self.log.resume(after, None if ask is None else ask.id, ask_text)
            for n, text in enumerate(texts, 1):
                await self._send(text)
                if n % REPLAY_BATCH == 0:  # a long replay never holds the other tables
                    await asyncio.sleep(0)


@dataclass
class GameSummary:
    table: str
    game: int
    result: GameResult
    violations: list[ViolationRecord]
    seconds: float
    asks: int


class TableSession:
    """The games of one table, one after another, once all four seats have joined."""

    def __init__(self, table: str, index: int, config: RefereeConfig,
                 clock: Callable[[], float], ask_key: bytes | None = None,
                 walls: WallSeed | None = None) -> None:
        self.table, self.index, self.config, self.clock = table, index, config, clock
        self.walls = walls or (WallSeed.secret() if config.seed is None
                               else WallSeed.fixed(config.seed))
        """Where this table's walls come from; its seed is told only in the last ``end``."""
        self.ask_key = ask_key if ask_key is not None else secrets.token_bytes(32)
        self.ask_names: dict[str, str] = {}
        """Wire id -> the ask's deterministic name."""
        self.seats = [SeatChannel(table, s) for s in range(4)]
        self.all_joined = asyncio.Event()
        self.summaries: list[GameSummary] = []
        self.answered: dict[str, tuple[float, float]] = {}
        """Per ask id: (ask handed to the transport, act received) on the referee's clock."""
        self.records: list[Path] = []
        self.finished = False

    def remaining_ms(self, ask: OpenAsk) -> int:
        left = self.config.decision_ms - (self.clock() - ask.sent_at) * 1000.0
        return max(0, int(left))

    async def run(self) -> list[GameSummary]:
        try:
            await asyncio.wait_for(self.all_joined.wait(), self.config.join_deadline)
        except TimeoutError:
            absent = [s.seat for s in self.seats if not s.joined]
            log.warning("seats_absent", table=self.table, seats=absent,
                        policy=self.config.policy, detail="the table plays without them: "
                        f"their asks are answered at once by policy {self.config.policy}")
        for g in range(self.config.games):
            self.summaries.append(await self.play_game(g))
        self.finished = True
        return self.summaries

    # ------------------------------------------------------------------ one game
    async def play_game(self, game: int) -> GameSummary:
        cfg = self.config
        wall = self.walls.wall(self.index, game)
        dealer, prevalent = game % 4, (game // 4) % 4
        table = TaiwanTable(wall, prevalent_wind=prevalent, dealer=dealer,
                            wall_mode=cfg.wall_mode,
                            reshuffle_seed=self.walls.reshuffle_seed(self.index, game))
        started = self.clock()
        header = RecordHeader(  # no seed until the table's last game has ended
            HeaderLayout.OLYMPIAD, rules=TAIWAN_16, table=self.table, game=game,
            commitment=self.walls.commitment, walltiles=tuple(wall), dealer=dealer,
            prevalent_wind=prevalent,
            seats=tuple(s.name for s in self.seats), decision_ms=cfg.decision_ms,
            policy=cfg.policy, wall_mode=cfg.wall_mode)
        decisions: list[AskAnswer] = []
        violations: list[ViolationRecord] = []
        state = _Broadcast(game=game, dealer=dealer, prevalent_wind=prevalent)
        step = 0
        asks = 0
        while True:
            if await self._broadcast(table, state):
                # a claim window nobody could claim in: every other seat is asked anyway
                # (pass only), and the window lasts the floor like any other
                state.windows += 1
                others = state.window_seats
                answers = await self._ask_round(table, game, f"{step}w{state.windows}", state,
                                                decisions, extra=others, table_asks=False)
                asks += len(others)
                forfeit = self._violations(others, answers, step, violations)
                await self._close_window(state)
                if forfeit is not None and not table.finished:
                    table.forfeit(*forfeit)
                continue
            if table.finished:
                break
            step += 1
            asked = table.asked_seats
            extra = tuple(s for s in state.window_seats if s not in asked)
            answers = await self._ask_round(table, game, str(step), state, decisions,
                                            extra=extra)
            asks += len(asked) + len(extra)
            forfeit = self._violations((*asked, *extra), answers, step, violations)
            chosen: dict[int, Action] = {}
            for seat in asked:
                answer = answers[seat]
                chosen[seat] = table.default_action(seat) if isinstance(answer, Violation) \
                    else answer
            await self._close_window(state)
            if forfeit is not None:
                table.forfeit(*forfeit)
            else:
                table.respond(chosen)
        result = table.result
        assert result is not None
        await self._send_end(table, game, result)
        if cfg.records is not None:
            path = cfg.records / f"{self.table}-game{game:04d}.jsonl"
            lines: list[DecisionLine] = [*decisions, *violations]
            try:
                write_record(path, header, table.history, lines, result, RECORD_MODE_PLAYING)
            except (OSError, ValueError) as exc:  # the games go on; the organiser is told
                log.error("record_not_written", path=str(path), error=str(exc))
            else:
                self.records.append(path)
        if game + 1 == cfg.games:
            self._reveal_records()
        return GameSummary(self.table, game, result, violations, self.clock() - started, asks)

    def _violations(self, seats: Iterable[int], answers: Mapping[int, Action | Violation],
                    step: int, violations: list[ViolationRecord]) -> tuple[int, str] | None:
        """Record the violations among ``seats``' answers; under ``forfeit``, the first
        violator and why."""
        forfeit: tuple[int, str] | None = None
        for seat in sorted(seats):
            answer = answers[seat]
            if isinstance(answer, Violation):
                violations.append(ViolationRecord(seat, step, answer.kind, answer.detail,
                                                  self.config.policy))
                if self.config.policy == "forfeit" and forfeit is None:
                    forfeit = (seat, f"{answer.kind.value}: {answer.detail}")
        return forfeit

    async def _close_window(self, state: _Broadcast) -> None:
        """End a claim window no sooner than the floor after its discard was sent."""
        if state.window_at is None:
            return
        left = self.config.round_floor_ms / 1000.0 - (self.clock() - state.window_at)
        state.window_at, state.window_seats = None, ()
        if left > 0:
            await asyncio.sleep(left)

    async def _ask_round(self, table: TaiwanTable, game: int, step: str, state: _Broadcast,
                         decisions: list[AskAnswer], extra: Iterable[int] = (),
                         table_asks: bool = True) -> dict[int, Action | Violation]:
        """Ask the table's asked seats (unless not ``table_asks``: the table has played on
        past a window nobody could claim in), and ``extra`` seats with nothing but ``pass``
        (a claim window's other seats): all at once, then wait for every answer.  The extra
        seats' answers are recorded only when they are violations."""
        loop = asyncio.get_running_loop()
        opened: dict[int, OpenAsk] = {}
        options_of: dict[int, list[Option]] = {}
        only_pass = frozenset(extra)
        for seat in sorted({*(table.asked_seats if table_asks else ()), *only_pass}):
            legal = (Pass(),) if seat in only_pass else tuple(table.legal_actions(seat))
            name = f"{self.table}-{game}-{step}-{seat}"
            ask_id = ask_wire_id(self.ask_key, name)
            self.ask_names[ask_id] = name
            options = options_for(legal, state.last_discard)
            options_of[seat] = options
            fields = Ask(table=self.table, seq=0, id=ask_id, options=options,
                         deadline_ms=self.config.decision_ms).model_dump(
                exclude={"table", "seq"}, exclude_none=True)
            channel = self.seats[seat]
            now = self.clock()
            ask = OpenAsk(ask_id, 0, legal, fields, now, loop.create_future(), handed_at=now,
                          name=name)
            channel.open_ask = ask
            ask.seq = await channel.emit(fields, ask_id=ask_id)
            ask.sent_at = self.clock()
            opened[seat] = ask
        answers: dict[int, Action | Violation] = {}
        for seat, ask in opened.items():
            timeout = self.remaining_ms(ask) / 1000.0
            if not self.seats[seat].joined:  # the join deadline passed without this seat
                timeout = 0.0
            try:
                answers[seat] = await asyncio.wait_for(asyncio.shield(ask.future), timeout)
            except TimeoutError:
                late = (f"no answer within {self.config.decision_ms} ms"
                        if self.seats[seat].joined else
                        "the seat never joined (its join deadline passed)")
                answers[seat] = Violation(Fault.TIMEOUT, late)
                if not ask.future.done():
                    ask.future.set_result(answers[seat])
            channel = self.seats[seat]
            channel.open_ask = None
            channel.closed.add(ask.id)
            answer = answers[seat]
            if seat not in only_pass:  # a pass-only ask decides nothing: not in the record
                decisions.append(AskAnswer(seat, ask.name, _describe(answer),
                                           tuple(options_of[seat])))
            if ask.answered_at is not None:
                self.answered[ask.id] = (ask.handed_at, ask.answered_at)
        return answers

    async def _broadcast(self, table: TaiwanTable, state: _Broadcast) -> bool:
        """Send every table event not sent yet to each seat, as that seat may see it, up to
        the next claim window (a discard, an added kong).  True when it stopped at a window
        that nobody could claim in (the table played on past it); a window the table waits
        in is left open in ``state`` for the round that follows."""
        history = table.history
        for i, event in enumerate(history[state.sent:], state.sent):
            if isinstance(event, Dealt) and state.wall < 0:
                state.wall = TAIWAN_16.wall_after_deal(len(event.flowers))
            elif isinstance(event, Drew):
                state.wall -= 1
            for seat in range(4):
                fields = event_fields(event, seat, wall=state.wall,
                                      from_seat=state.last_discarder, dealer=state.dealer,
                                      game=state.game, prevalent_wind=state.prevalent_wind)
                if fields is not None:
                    await self.seats[seat].emit(fields)
            if isinstance(event, Discarded):
                state.last_discarder, state.last_discard = event.seat, event.tile
            state.sent += 1
            if isinstance(event, Discarded | KongAdded):
                state.window_at = self.clock()
                state.window_seats = tuple(s for s in range(4) if s != event.seat)
                if i + 1 < len(history) or table.finished:
                    return True
        return False

    def _reveal_records(self) -> None:
        """The table's games are over: its records get the seed and become readable."""
        for path in self.records:
            try:
                reveal_record(path, self.walls)
            except (OSError, ValueError) as exc:
                log.error("record_not_revealed", path=str(path), error=str(exc))

    async def _send_end(self, table: TaiwanTable, game: int, result: GameResult) -> None:
        ending = result.ending
        more = game + 1 < self.config.games
        fields: dict[str, Any] = {"game": game, "scores": list(result.scores),
                                  "hands": [[tile_str(t) for t in table.hand(s)] for s in range(4)],
                                  "more": more}
        if not more:  # the table's last game: its walls' seed may be told now
            fields["walls"] = WallsReveal(seed=str(self.walls.seed), salt=self.walls.salt,
                                          commitment=self.walls.commitment)
        if isinstance(ending, Won):
            fields.update(result="win", winner=ending.seat, from_seat=ending.payer,
                          tai=[TaiItem(name=f.name, tai=f.value, count=f.count).model_dump()
                               for f in ending.fans])
        elif isinstance(ending, WallExhausted):
            fields.update(result="draw")
        elif isinstance(ending, Penalized):
            fields.update(result="forfeit", from_seat=ending.seat, reason=ending.detail)
        end = End(table=self.table, seq=0, **fields)
        for channel in self.seats:
            await channel.emit(end.model_dump(exclude={"table", "seq"}, exclude_none=True))


@dataclass
class _Broadcast:
    """What the referee remembers while turning table events into messages."""

    game: int
    dealer: int
    prevalent_wind: int
    sent: int = 0
    wall: int = -1
    window_at: float | None = None
    """When the open claim window's discard (or added kong) was sent."""
    window_seats: tuple[int, ...] = ()
    """The seats asked in that window: all but the discarder (or konger)."""
    windows: int = 0
    """Claim windows nobody could claim in, so far this game (they name their asks)."""
    last_discarder: int | None = None
    last_discard: int | None = None


def _describe(answer: Action | Violation) -> str:
    if isinstance(answer, Violation):
        return f"{answer.kind.value}: {answer.detail}"
    return describe_action(answer)


class Referee:
    """Every table of a match, behind the transports' :class:`Endpoint` interface."""

    def __init__(self, config: RefereeConfig, clock: Callable[[], float] = time.monotonic, *,
                 seat_secrets: SeatSecrets | None = None, ask_key: bytes | None = None,
                 error_burst: float = ERROR_BURST,
                 errors_per_second: float = ERRORS_PER_SECOND) -> None:
        """``seat_secrets``: generated when not given; ``ask_key``: the key of the ask ids
        (random when not given; tests that compare two runs' wire texts fix it);
        ``error_burst``, ``errors_per_second``: each connection's error budget."""
        self.config = config
        self.clock = clock
        self.secrets = seat_secrets or SeatSecrets.generate(config.table_ids())
        self.secrets.covers(config.table_ids())
        key = ask_key if ask_key is not None else secrets.token_bytes(32)
        self.tables = {tid: TableSession(tid, k, config, clock, key)
                       for k, tid in enumerate(config.table_ids())}
        if config.seed is not None:
            log.warning("walls_predictable", seed=config.seed,
                        detail="the walls come from the given seed: anyone who knows or "
                        "guesses it can compute every hidden tile")
        self._bound: dict[int, tuple[str, int]] = {}
        self._closing: set[asyncio.Task[None]] = set()
        self._closed: set[int] = set()
        self.errors: list[tuple[str, str]] = []
        """The latest errors sent, (code, message): at most :data:`ERRORS_KEPT`."""
        self.error_counts: Counter[str] = Counter()
        """Every error, sent or not, by code."""
        self._error_budget: dict[int, RateLimit] = {}
        self._error_rate = (error_burst, errors_per_second)
        self._seat_joins = {(t, s): RateLimit(JOIN_BURST, JOINS_PER_SECOND, clock)
                            for t in self.tables for s in range(4)}
        self._address_joins: dict[str, RateLimit] = {}

    async def run(self) -> list[GameSummary]:
        results = await asyncio.gather(*(t.run() for t in self.tables.values()))
        return [s for table in results for s in table]

    # ------------------------------------------------------------------ transport side
    def holds_seat(self, link: Link) -> bool:
        return id(link) in self._bound

    def on_close(self, link: Link) -> None:
        self._error_budget.pop(id(link), None)
        self._closed.discard(id(link))
        where = self._bound.pop(id(link), None)
        if where is not None:
            channel = self.tables[where[0]].seats[where[1]]
            if channel.link is link:
                channel.link = None

    async def on_text(self, link: Link, text: str | bytes) -> None:
        try:
            msg = parse_player_message(text)
        except MessageError as exc:
            await self._error(link, exc.code, exc.message)
            return
        if isinstance(msg, Join):
            await self._join(link, msg)
        else:
            await self._act(link, msg)

    async def _error(self, link: Link, code: str, message: str, fatal: bool = False,
                     session: str | None = None, where: tuple[str, int] | None = None) -> None:
        """An ``error`` to ``link``: the table and seq of the seat the link holds (or of
        ``where``), else none and 0, so a stranger learns nothing of any seat.  A
        connection over its error budget gets no more non-fatal errors and, over WebSocket,
        is closed."""
        self.error_counts[code] += 1
        budget = self._error_budget.get(id(link))
        if budget is None:
            budget = self._error_budget[id(link)] = RateLimit(*self._error_rate, self.clock)
        if not budget.allow() and not fatal:
            if link.bound is None and id(link) not in self._closed:
                log.warning("too_many_errors", via=link.describe(), last=code)
                self._close_later(link, f"too many errors (the last: {code})")
            return
        self.errors.append((code, message))
        if len(self.errors) > ERRORS_KEPT:
            del self.errors[:-ERRORS_KEPT]
        where = where or self._bound.get(id(link))
        table, seq = ("", 0)
        if where is not None and where[0] in self.tables:
            table, seq = where[0], self.tables[where[0]].seats[where[1]].seq
        err = ErrorMsg(table=table, seq=seq, code=code, message=message, fatal=fatal,
                       session=session)
        with contextlib.suppress(ConnectionLost):
            await link.send(err.to_json())
        if fatal and self._bound.get(id(link)) is None:
            # a connection that holds no seat has nothing more to do
            self._close_later(link, f"{code}: {message}")

    def _close_later(self, link: Link, reason: str) -> None:
        """Close a connection in the background (a hung client must not delay the referee),
        saying why (a WebSocket close reason: at most 123 bytes); nothing for MQTT, whose
        topics stay."""
        if link.bound is None:
            self._closed.add(id(link))
        close_with = getattr(link, "close_with", None)
        if callable(close_with):
            short = reason.encode()[:CLOSE_REASON_BYTES].decode(errors="ignore")
            task = asyncio.create_task(close_with(1008, short))
        else:
            task = asyncio.create_task(link.close())
        self._closing.add(task)
        task.add_done_callback(self._closing.discard)

    def _address_allows_join(self, link: Link) -> bool:
        """Whether the address ``link`` comes from (WebSocket) may join now; a link with no
        address (a seat's MQTT topics: the broker knows the seat) is limited per seat."""
        address = getattr(link, "address", None)
        if not isinstance(address, str):
            return True
        rate = self._address_joins.get(address)
        if rate is None:
            if len(self._address_joins) > 10_000:  # forget old addresses; buckets refill
                self._address_joins.clear()
            rate = self._address_joins[address] = RateLimit(
                ADDRESS_JOIN_BURST, ADDRESS_JOINS_PER_SECOND, self.clock)
        return rate.allow()

    async def _join(self, link: Link, join: Join) -> None:
        if not self._address_allows_join(link):
            await self._error(link, "too_many_joins", "more than "
                              f"{ADDRESS_JOINS_PER_SECOND:g} joins a second from this address; "
                              "join again later", session=join.session)
            return
        session = self.tables.get(join.table)
        if session is None or not self.secrets.check(join.table, join.seat, join.token):
            # an unknown table is refused as a wrong secret is: a stranger cannot tell
            # which tables exist
            log.warning("join_refused", table=join.table, seat=join.seat,
                        token="missing" if join.token is None else "wrong", via=link.describe())
            which = "no" if join.token is None else "wrong"
            await self._error(link, "forbidden", f"join refused: {which} token for table "
                              f"{join.table} seat {join.seat}", fatal=True, session=join.session)
            return
        if link.bound is not None and link.bound != (join.table, join.seat):
            await self._error(link, "wrong_seat", f"join for table {join.table} seat "
                              f"{join.seat} arrived on {link.describe()}", session=join.session)
            return
        held = self._bound.get(id(link))
        if held is not None and held != (join.table, join.seat):
            await self._error(link, "wrong_seat", f"this connection holds table {held[0]} seat "
                              f"{held[1]}; one seat per connection", session=join.session)
            return
        if not self._seat_joins[(join.table, join.seat)].allow():
            await self._error(link, "too_many_joins", f"table {join.table} seat {join.seat} "
                              f"joined more than {JOINS_PER_SECOND:g} times a second; join "
                              "again later", session=join.session)
            return
        channel = session.seats[join.seat]
        try:
            name = seat_name(join.name)
        except MessageError as exc:
            log.warning("join_refused", table=join.table, seat=join.seat, why=exc.code,
                        via=link.describe())
            await self._error(link, exc.code, f"join refused: {exc.message}", session=join.session,
                              fatal=True)
            return
        if channel.fixed_name is not None and name != channel.fixed_name:
            holds = self._bound.get(id(link)) == (join.table, join.seat)
            await self._error(link, "name_fixed", f"join refused: table {join.table} seat "
                              f"{join.seat} plays as {channel.fixed_name!r} for the whole match, "
                              f"not {name!r}", session=join.session, fatal=not holds)
            return
        if join.session is not None and join.session in channel.retired:
            await self._error(link, "replaced", f"table {join.table} seat {join.seat} was "
                              "taken over from this session; it no longer plays it",
                              fatal=True, session=join.session)
            return
        old = channel.link
        if old is not None and (old is not link or channel.session != join.session):
            await self._replace(old, channel, (join.table, join.seat), close=old is not link)
        channel.name = channel.fixed_name = name
        channel.session = join.session
        self._bound[id(link)] = (join.table, join.seat)
        channel.joined = True
        welcome = Welcome(table=join.table, seq=channel.seq, seat=join.seat,
                          rules=TAIWAN_16.name, players=[s.name for s in session.seats],
                          decision_ms=self.config.decision_ms, policy=self.config.policy,  # type: ignore[arg-type]
                          commitment=session.walls.commitment)
        await channel.attach(link, welcome.model_dump(exclude={"table", "seq"}),
                             join.resume_from or 0, session.remaining_ms)
        log.info("joined", table=join.table, seat=join.seat, name=name,
                 resume_from=join.resume_from, via=link.describe())
        if all(s.joined for s in session.seats):
            session.all_joined.set()

    async def _replace(self, old: Link, channel: SeatChannel, where: tuple[str, int],
                       close: bool) -> None:
        """Tell the seat's previous holder it was taken over, and close its connection
        (``close``: not the connection the new join came on, as over MQTT's topics)."""
        log.info("seat_taken_over", table=where[0], seat=where[1], old=old.describe())
        if channel.session is not None:
            channel.retired.add(channel.session)
        await self._error(old, "replaced", f"table {where[0]} seat {where[1]} was taken over "
                          "by a join with its secret; this connection no longer plays it",
                          session=channel.session, where=where, fatal=True)
        if self._bound.get(id(old)) == where:
            del self._bound[id(old)]
        if channel.link is old:
            channel.link = None
        if close:
            self._close_later(old, f"replaced: table {where[0]} seat {where[1]} was taken over "
                              "by a join with its secret")

    async def _act(self, link: Link, act: Act) -> None:
        where = self._bound.get(id(link))
        if where is None:
            await self._error(link, "not_joined", "send join before act")
            return
        channel = self.tables[where[0]].seats[where[1]]
        if act.id in channel.answered:
            return  # a repeated act (e.g. a QoS 1 duplicate or a resumed player): ignored
        ask = channel.open_ask
        if ask is None or ask.id != act.id:
            if act.id in channel.closed:
                await self._error(link, "closed_id", f"ask {act.id} is closed")
            elif ask is None:
                await self._error(link, "out_of_turn", f"no ask is open for seat {where[1]}")
            else:
                await self._error(link, "unknown_id", "no open ask has this id")
            return
        try:
            action: Action | Violation = action_for(act, ask.legal)
        except MessageError as exc:
            if exc.code != "illegal_action":
                await self._error(link, exc.code, exc.message)
                return
            policy = self.config.policy
            await self._error(link, exc.code, f"{exc.message}; policy {policy} applies")
            action = Violation(Fault.ILLEGAL, exc.message)
        channel.answered.add(act.id)
        if not ask.future.done():
            ask.answered_at = self.clock()
            ask.future.set_result(action)
