"""The agreement bench counts what it says it counts (on the real Botzone logs)."""

from __future__ import annotations

import support
from support import botzone_logs

from arena.lab.experiments.agreement import logged_seats, measure
from bot.agent import Agent, Decision
from bot.seat import PlayerState
from game.rules import MCR_BOTZONE
from strategy.deadline import Deadline
from strategy.policy import Method

LOGS = botzone_logs()[:2]


class Safest:
    """Discards the drawn tile, never calls."""

    def decide(self, view: PlayerState, deadline: Deadline | None = None) -> Decision:
        return Decision(view.ask.safest(), Method.FALLBACK)

    def reset(self) -> None:
        pass


def test_a_strategy_that_never_calls_agrees_on_every_pass_and_no_call() -> None:
    tally = measure("safest", Safest, logged_seats(LOGS), budget=1_000)
    assert tally.discards > 40 and tally.calls > 0 and tally.passes > 0
    assert tally.same_calls == 0 and tally.same_passes == tally.passes
    # the rank-1 bot rarely throws the tile it just drew
    assert tally.same_discards < tally.discards // 2


def test_our_agent_is_measured_on_the_same_decisions() -> None:
    ours = measure("baseline-v1", lambda: Agent(MCR_BOTZONE), logged_seats(LOGS), budget=1_000)
    safest = measure("safest", Safest, logged_seats(LOGS), budget=1_000)
    assert (ours.discards, ours.calls, ours.passes) == (safest.discards, safest.calls,
                                                        safest.passes)
    assert ours.same_discards > safest.same_discards


def test_pku_turns_answer_every_play_line_of_the_sample() -> None:
    """Each seat's rebuilt turns play a tile (a discard, or a claim and its discard) exactly
    where the PKU file has a ``Play`` line or a chow or pung that lost (``Ignore Player``),
    and only when the view asked for it."""
    import re

    from arena.lab.experiments.agreement import pku_seats
    from arena.review.replay import seat_turns
    from bot.seat import AskKind
    from bot.session import SeatSession
    from game.events import ClaimAndDiscard, Discard

    path = support.pku_sample()
    text = path.read_text(encoding="utf-8")
    blocks = [b.split("\nScore ")[0] for b in ("\n" + text).split("\nMatch ")[1:]]  # no notes
    plays: dict[tuple[int, int], int] = {}
    for logged in pku_seats(path, first_log=100):
        for turn in seat_turns(logged.steps, SeatSession(MCR_BOTZONE, Safest())):
            if isinstance(turn.step.played, Discard | ClaimAndDiscard):
                assert turn.view.ask.kind in (AskKind.DRAW, AskKind.DISCARD)
                key = (logged.log - 100, logged.seat)
                plays[key] = plays.get(key, 0) + 1
    assert len(blocks) == 16
    for k, block in enumerate(blocks):
        for seat in range(4):
            expected = (len(re.findall(rf"^Player {seat} Play ", block, flags=re.M))
                        + len(re.findall(rf"Ignore Player {seat} (Chi|Peng) ", block)))
            assert plays.get((k, seat), 0) == expected, (k, seat)
