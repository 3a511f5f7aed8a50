"""The sampling planner: legal answers, the sampled numbers in its reasons, the same
decision for the same game, and the arena player that runs it."""

from __future__ import annotations

import copy
from collections import defaultdict

import pytest
from support import needs_extra

pytest.importorskip("pydantic", reason=needs_extra("olympiad"))  # plays through the arena

from arena.bench.planner import play_timed
from arena.players.lineup import ArenaSeat, PlayerSpecError, parse_player
from arena.tables.games import GameSpec, Rules
from bot.sampling_planner import SamplingPlanner, seat_seed
from bot.seat import PlayerState
from game.events import Dealt, Discard, Discarded, Drew, SeatAssigned
from game.rules import MCR_BOTZONE
from game.tiles import parse_tiles
from strategy.deadline import Deadline
from strategy.policy import Method


def tile(name: str) -> int:
    return parse_tiles(name)[0]


def close_view() -> PlayerState:
    """Seat 0 with two honour singles to choose between (the planner values them alike)."""
    v = PlayerState(MCR_BOTZONE)
    v.observe(SeatAssigned(0, 0))
    v.observe(Dealt(0, tuple(parse_tiles("123m456m789m1p2p3z4z"))))
    for e in (Drew(0, tile("5z")), Discarded(0, tile("5z")),
              Drew(1, None), Discarded(1, tile("9s")),
              Drew(2, None), Discarded(2, tile("1z")),
              Drew(3, None), Discarded(3, tile("6z")),
              Drew(0, tile("3p"))):
        v.observe(e)  # type: ignore[arg-type]
    return v


def test_close_discards_are_sampled_and_the_reasons_say_so() -> None:
    v = close_view()
    agent = SamplingPlanner(MCR_BOTZONE, rollouts=24)
    d = agent.decide(v, Deadline(budget=4000))
    assert v.ask.allows(d.action) and isinstance(d.action, Discard)
    # the planner's choice is a waiting discard of an honour; the sampler keeps a wait
    assert d.action in (Discard(tile("3z")), Discard(tile("4z")))
    assert agent.last is not None and agent.last.samples >= 2
    sampled = [c for c in d.reasons if "sampled" in c.note]
    assert len(sampled) == len(agent.last.estimates) >= 2
    assert all(f"(n {agent.last.samples})" in c.note for c in sampled)
    assert "sampled" in d.note


def test_the_same_game_gives_the_same_decision() -> None:
    v = close_view()
    w = copy.deepcopy(v)
    assert seat_seed(v) == seat_seed(w) != seat_seed(v, base=1)
    one = SamplingPlanner(MCR_BOTZONE, rollouts=16).decide(v, Deadline(budget=4000))
    two = SamplingPlanner(MCR_BOTZONE, rollouts=16).decide(w, Deadline(budget=4000))
    assert one == two


def test_without_a_budget_it_is_the_planner() -> None:
    v = close_view()
    d = SamplingPlanner(MCR_BOTZONE, rollouts=None).decide(v, Deadline(budget=4000))
    assert d.method is not Method.SAMPLED and "sampled" not in d.note


def test_the_arena_player_takes_a_rollout_or_a_clock_budget() -> None:
    spec = parse_player("planner-think:rollouts=32,seed=3")
    assert spec.rollouts == 32 and spec.think is None and spec.sample_seed == 3
    spec = parse_player("planner-think:think=1.5")
    assert spec.think == 1.5 and spec.rollouts is None
    with pytest.raises(PlayerSpecError):
        parse_player("planner-think:rollouts=1")
    with pytest.raises(PlayerSpecError):
        parse_player("planner:rollouts=32")
    spec = parse_player("planner-think:rollouts=32,z=2.5")
    assert spec.z == 2.5
    assert ArenaSeat(spec, MCR_BOTZONE, [1]).agent.z == 2.5  # type: ignore[attr-defined]
    assert ArenaSeat(parse_player("planner-think"), MCR_BOTZONE, [1]).agent.z == \
        SamplingPlanner.z  # type: ignore[attr-defined]
    with pytest.raises(PlayerSpecError, match="z -1"):
        parse_player("planner-think:z=-1")


def test_a_whole_game_has_only_legal_answers() -> None:
    players = ("planner-think:rollouts=8", "baseline-v1", "planner", "greedy")
    spec = GameSpec(Rules.MCR_BOTZONE, 5, 0, 0, players, players)
    outcome = play_timed(spec, defaultdict(list))
    assert outcome.penalized is None
