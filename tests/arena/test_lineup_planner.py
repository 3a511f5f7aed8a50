"""The planner players by name: their options set the value's numbers, other players
refuse them."""

from __future__ import annotations

import pytest

from arena.players.lineup import PlayerKind, PlayerSpecError, in_process_seat, parse_player
from arena.players.simple import CallingPlanner
from bot.agent import Agent
from bot.planner import Planner
from game.rules import MCR_BOTZONE
from strategy.value import DEFAULT_MODEL


def test_planner_options_set_the_value_model() -> None:
    spec = parse_player("planner:deal=24,margin=1")
    assert spec.kind is PlayerKind.PLANNER
    seat = in_process_seat(spec, MCR_BOTZONE, 1)
    assert type(seat.agent) is Planner
    assert seat.agent.model.deal_in_points == 24.0 and seat.agent.model.margin == 1.0
    assert seat.agent.model.win_points == DEFAULT_MODEL.win_points
    calls = in_process_seat(parse_player("planner-calls"), MCR_BOTZONE, 1).agent
    assert isinstance(calls, CallingPlanner) and calls.model == DEFAULT_MODEL


def test_other_players_refuse_value_options() -> None:
    with pytest.raises(PlayerSpecError):
        parse_player("mjbot:deal=24")
    baseline = in_process_seat(parse_player("baseline-v1"), MCR_BOTZONE, 1).agent
    assert type(baseline) is Agent
