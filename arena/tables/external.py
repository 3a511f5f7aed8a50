"""Arena games with programs in them: ``botzone:CMD`` and ``olympiad:CMD`` players.

- mcr-botzone: the game runs through the Botzone judge mock
  (:func:`arena.platforms.botzone_judge.turns.referee_game`): a program seat is a
  :class:`arena.platforms.botzone_judge.sandbox.ProgramSeat` (a process, started afresh
  each game, kept running when it asks), an in-process seat a channel that
  decodes its request line and answers with the Botzone response line.
- taiwan-16: the table is driven here as :func:`arena.tables.games.play_in_process` drives it;
  a program seat is :class:`arena.platforms.olympiad.program.ProgramPlayer` (the program
  ``mjbot wrap`` runs), fed the messages the Olympiad referee would send it:
  ``welcome``, each event as that seat sees it, ``ask`` with its options, and
  ``end``.  Its act is checked against the table; a missing or illegal act is
  the table's default action (the referee's ``default`` policy).

A program's answers are only as repeatable as the program.  An in-process seat is
behind a :class:`arena.tables.games.SeatGuard` here as in the in-process arena: its
exception becomes its fallback answer, reported in the game's ``failures``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from typing import Any

from arena.platforms.botzone_judge.sandbox import ProgramSeat
from arena.platforms.botzone_judge.turns import Reply, referee_game
from arena.players.lineup import ArenaSeat, PlayerKind, PlayerSpec, parse_player
from arena.records.decisions import DecisionRecord
from arena.tables.games import (
    GameSpec,
    PlayedGame,
    Rules,
    SeatFailure,
    SeatFeed,
    SeatGuard,
    finish_mcr,
    finish_taiwan,
    taiwan_decision,
)
from bot.seat import PlayerState
from game.events import Action, Dealt, Discarded, Drew, Pass, Won
from game.rules import TAIWAN_16
from game.table import BotzoneTable
from game.taiwan import TaiwanTable
from protocols.botzone_codec import ProtocolError, RequestDecoder, format_response
from protocols.botzone_envelope import Interaction, TurnInput, interaction_for
from protocols.olympiad import Act, AskMsg, End, MessageError, Welcome, tile_str
from protocols.olympiad_codec import action_for, event_fields, options_for
from protocols.olympiad_log import SeatLog

DECISION_MS = 5_000
"""An Olympiad program's time per ask."""
BOTZONE_TIME_LIMIT = 6.0


def play_external(spec: GameSpec) -> PlayedGame:
    if spec.rules is Rules.MCR_BOTZONE:
        return asyncio.run(play_botzone(spec))
    return asyncio.run(_play_olympiad(spec))


# ---------------------------------------------------------------- Botzone
class InProcessChannel:
    """An in-process seat behind the judge mock's channel interface (behind a
    :class:`arena.tables.games.SeatGuard`: an exception is the seat's fallback answer)."""

    blocking = True
    """It thinks on the event loop's thread: the judge asks it before starting any
    program's clock (else a program's turn would be timed through the planner's)."""

    def __init__(self, seat: ArenaSeat, number: int, spec: GameSpec,
                 decisions: list[DecisionRecord],
                 failures: list[SeatFailure] | None = None) -> None:
        self.seat = seat
        self.number = number
        self.spec = spec
        self.decisions = decisions
        self.failures: list[SeatFailure] = [] if failures is None else failures
        self.guard = SeatGuard(number, spec.labels[number], seat, self.failures)
        self.decoder = RequestDecoder()

    async def turn(self, turn: TurnInput) -> Reply:
        seat = self.seat
        try:
            event = self.decoder.decode(turn.requests[-1])
        except ProtocolError as exc:
            self.guard.lose(f"undecodable request: {exc}")
        else:
            self.guard.observe(event)
        seat.last = None
        action = self.guard.answer(lambda: seat.decide() if seat.asked else Pass())
        if self.spec.record and seat.last is not None:
            self.decisions.append(seat.last.at(self.number, self.spec.labels[self.number]))
        return Reply(response=format_response(action))

    async def close(self) -> None:
        return None


TurnCheck = Callable[[BotzoneTable, Mapping[int, PlayerState]], None]
"""Called every turn with the judge's table and the in-process seats' views (tests)."""


async def play_botzone(spec: GameSpec, *, time_limit: float = BOTZONE_TIME_LIMIT,
                       on_turn: TurnCheck | None = None) -> PlayedGame:
    """``spec``'s mcr-botzone game through the judge mock.  ``on_turn`` is called every
    turn once the seats have answered, before the table takes the answers: each
    in-process seat's view has then seen what the table shows it."""
    walls = spec.wall_tiles()
    decisions: list[DecisionRecord] = []
    failures: list[SeatFailure] = []
    channels: list[Any] = []
    for s, text in enumerate(spec.players):
        player = parse_player(text)
        if player.botzone_program:
            channels.append(ProgramSeat(player.program(), interaction_for(Interaction.SIMPLE)))
        elif player.in_process:
            channels.append(InProcessChannel(
                ArenaSeat(player, spec.rules.ruleset, spec.player_seed(s)), s, spec, decisions,
                failures))
        else:
            raise ValueError(f"{text!r} cannot play mcr-botzone")
    in_process = {s: c for s, c in enumerate(channels) if isinstance(c, InProcessChannel)}

    def check(table: BotzoneTable) -> None:
        if on_turn is not None:
            on_turn(table, {s: c.seat.view for s, c in in_process.items()})

    report = await referee_game(channels, walls, spec.prevalent_wind,
                                time_limit=time_limit, commands=spec.labels,
                                game=spec.wall, on_turn=check if on_turn is not None else None)
    return finish_mcr(spec, walls, report.history, report.result, decisions, failures)


# ---------------------------------------------------------------- Olympiad
class _ProgramSeat:
    """An Olympiad program on one seat: its message log and the program."""

    def __init__(self, player: PlayerSpec, seat: int, spec: GameSpec) -> None:
        from arena.platforms.olympiad.program import ProgramPlayer

        self.program = ProgramPlayer(list(player.command))
        self.seat = seat
        self.log = SeatLog(table="arena")
        self.spec = spec

    async def start(self) -> None:
        await self.program.start()
        welcome = Welcome(table="arena", seq=0, seat=self.seat, rules=TAIWAN_16.name,
                          players=list(self.spec.labels), decision_ms=DECISION_MS,
                          policy="default")
        await self.program.on_message(welcome, self.log.unlogged(
            welcome.model_dump(exclude={"table", "seq"})))

    async def send(self, fields: dict[str, Any]) -> None:
        _, text = self.log.append(fields)
        await self.program.on_message(None, text)

    async def ask(self, ask_id: str, legal: tuple[Action, ...],
                  last_discard: int | None) -> Act | None:
        ask = AskMsg(table="arena", seq=0, id=ask_id, options=options_for(legal, last_discard),
                  deadline_ms=DECISION_MS)
        _, text = self.log.append(ask.model_dump(exclude={"table", "seq"}, exclude_none=True),
                                  ask_id)
        act: Act | None = await self.program.on_message(ask, text)
        return act


async def _play_olympiad(spec: GameSpec) -> PlayedGame:
    wall = spec.wall_tiles()
    table = TaiwanTable(wall, spec.prevalent_wind, spec.dealer, wall_mode=spec.wall_mode)
    in_process: dict[int, ArenaSeat] = {}
    programs: dict[int, _ProgramSeat] = {}
    for s, text in enumerate(spec.players):
        player = parse_player(text)
        if player.kind is PlayerKind.OLYMPIAD:
            programs[s] = _ProgramSeat(player, s, spec)
        elif player.in_process:
            in_process[s] = ArenaSeat(player, spec.rules.ruleset, spec.player_seed(s))
        else:
            raise ValueError(f"{text!r} cannot play taiwan-16")
    feeds = {s: SeatFeed(s, spec.prevalent_wind) for s in in_process}
    decisions: list[DecisionRecord] = []
    failures: list[SeatFailure] = []
    guards = {s: SeatGuard(s, spec.labels[s], seat, failures) for s, seat in in_process.items()}
    replaced = [0, 0, 0, 0]
    sent = 0
    wall_left = -1
    last_discarder: int | None = None
    last_discard: int | None = None
    step = 0
    try:
        for program in programs.values():
            await program.start()

        async def broadcast() -> None:
            nonlocal sent, wall_left, last_discarder, last_discard
            for event in table.history[sent:]:
                if isinstance(event, Dealt) and wall_left < 0:
                    wall_left = TAIWAN_16.wall_after_deal(len(event.flowers))
                elif isinstance(event, Drew):
                    wall_left -= 1
                for s, program in programs.items():
                    fields = event_fields(event, s, wall=wall_left, from_seat=last_discarder,
                                          dealer=spec.dealer, game=spec.wall,
                                          prevalent_wind=spec.prevalent_wind)
                    if fields is not None:
                        await program.send(fields)
                if isinstance(event, Discarded):
                    last_discarder, last_discard = event.seat, event.tile
                sent += 1

        await broadcast()
        while not table.finished:
            step += 1
            answers: dict[int, Action] = {}
            for s in table.asked_seats:
                legal = table.legal_actions(s)
                if s in programs:
                    act = await programs[s].ask(f"{spec.wall}-{step}-{s}", legal, last_discard)
                    try:
                        action = action_for(act, legal) if act is not None else None
                    except MessageError:
                        action = None
                else:
                    seat = in_process[s]
                    seat.last = None
                    action = guards[s].answer(
                        lambda: taiwan_decision(seat, feeds[s], table),  # noqa: B023
                        lambda: table.default_action(s))  # noqa: B023
                    if spec.record and seat.last is not None:
                        decisions.append(seat.last.at(s, spec.labels[s]))
                if action is None or action not in legal:
                    replaced[s] += 1
                    action = table.default_action(s)
                answers[s] = action
            table.respond(answers)
            await broadcast()
        result = table.result
        assert result is not None
        end: dict[str, Any] = {"game": spec.wall, "scores": list(result.scores),
                               "hands": [[tile_str(t) for t in table.hand(s)] for s in range(4)],
                               "more": False}
        ending = result.ending
        end.update(result="win", winner=ending.seat, from_seat=ending.payer) \
            if isinstance(ending, Won) else end.update(result="draw")
        for program in programs.values():
            await program.send(End(table="arena", seq=0, **end).model_dump(
                exclude={"table", "seq"}, exclude_none=True))
    finally:
        for program in programs.values():
            await program.program.close()
    return finish_taiwan(spec, wall, table, decisions, replaced, failures)


__all__ = ["InProcessChannel", "TurnCheck", "play_botzone", "play_external"]
