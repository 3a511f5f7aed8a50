"""One table's session: its games one after another, the asks and their deadlines, the
answers checked against the options, the claim window's floor, and the records."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.platforms.olympiad.config import (
    RefereeConfig,
    Violation,
)
from arena.platforms.olympiad.seat_channel import (
    OpenAsk,
    SeatChannel,
    ask_wire_id,
)
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
from game.taiwan import TaiwanTable
from protocols.olympiad import (
    AskMsg,
    End,
    Option,
    TaiItem,
    WallsReveal,
    tile_str,
)
from protocols.olympiad_codec import event_fields, options_for

log = get_logger("mjbot.referee.olympiad")


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
            fields = AskMsg(table=self.table, seq=0, id=ask_id, options=options,
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
