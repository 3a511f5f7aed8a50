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
import contextlib
import secrets
import time
from collections import Counter
from collections.abc import Callable

from arena.platforms.olympiad.access import SeatSecrets
from arena.platforms.olympiad.config import (
    ADDRESS_JOIN_BURST,
    ADDRESS_JOINS_PER_SECOND,
    CLOSE_REASON_BYTES,
    ERROR_BURST,
    ERRORS_KEPT,
    ERRORS_PER_SECOND,
    JOIN_BURST,
    JOINS_PER_SECOND,
    RefereeConfig,
    Violation,
)
from arena.platforms.olympiad.seat_channel import (
    SeatChannel,
)
from arena.platforms.olympiad.table_session import (
    GameSummary,
    TableSession,
)
from arena.records.decisions import Fault
from bot.logging import get_logger
from game.events import (
    Action,
)
from game.rules import TAIWAN_16
from protocols.olympiad import (
    Act,
    ErrorMsg,
    Join,
    MessageError,
    Welcome,
    parse_player_message,
    seat_name,
)
from protocols.olympiad_codec import action_for
from protocols.olympiad_transport import ConnectionLost, Link, RateLimit

log = get_logger("mjbot.referee.olympiad")


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
