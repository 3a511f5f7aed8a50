"""The planner on seat views built from events: every answer legal, its choice the best
value (ties within the margin by the step-value ranking), claims taken only when they gain,
and the view's record of what every seat shows."""

from __future__ import annotations

import pytest
from support.game import dealt_view

from bot.planner import Planner
from bot.seat import AskKind, PlayerState
from game.events import (
    ClaimAndDiscard,
    ClaimPung,
    DeclareWin,
    Discard,
    Discarded,
    Drew,
    Pass,
    Punged,
)
from game.melds import Pung
from game.rules import MCR_BOTZONE
from game.tiles import parse_tiles, tile_name
from strategy.rule_value import FanValue
from strategy.value import ValuedCandidate, ValueModel


def view_of(hand: str, *events: object) -> PlayerState:
    return dealt_view(MCR_BOTZONE, hand, *events)


def tile(name: str) -> int:
    return parse_tiles(name)[0]


def test_the_view_keeps_what_every_seat_shows() -> None:
    v = view_of("123m456m789m1p2p3z",
                Drew(0, tile("4z")), Discarded(0, tile("4z")),
                Drew(1, None), Discarded(1, tile("9s")),
                Punged(2, tile("9s"), tile("1z")),
                Drew(3, None), Discarded(3, tile("5z")))
    assert v.discards[0] == [tile("4z")] and v.discards[1] == [tile("9s")]
    assert v.discards[2] == [tile("1z")] and v.shown_melds[2] == [Pung(tile("9s"), 1)]
    # seat 2's hand changed with its pung: only the later discard passed it
    assert v.passed[2] == [tile("5z")]
    assert v.passed[1] == [tile("1z"), tile("5z")]
    assert v.passed[3] == []


def test_a_discard_is_the_best_value_and_every_candidate_shows_it() -> None:
    v = view_of("19m19p19s1234567z", Drew(0, tile("5m")))
    planner = Planner(MCR_BOTZONE)
    d = planner.decide(v)
    assert isinstance(d.action, Discard) and v.ask.allows(d.action)
    # thirteen orphans, one away: the 5m is the only discard that keeps the distance 1
    assert d.action == Discard(tile("5m"))
    outlooks = [c.outlook for c in d.reasons if isinstance(c, ValuedCandidate)]
    assert len(outlooks) == 14 and all(o is not None for o in outlooks)
    best = max(o.value for o in outlooks if o is not None)
    chosen = next(c for c in d.reasons if c.tile == tile("5m"))
    assert isinstance(chosen, ValuedCandidate) and chosen.outlook is not None
    assert chosen.outlook.value >= best - planner.model.margin
    assert chosen.outlook.distance == 1
    assert all("P(win)" in c.describe() for c in d.reasons)


def test_a_self_drawn_win_is_declared() -> None:
    v = view_of("19m19p19s1234567z", Drew(0, tile("1m")))
    assert Planner(MCR_BOTZONE).decide(v).action == DeclareWin()


def test_a_pung_that_brings_the_hand_to_8_fan_is_claimed() -> None:
    # a pure straight and a red dragon pair: the red pung leaves it waiting
    v = view_of("123m456m789m7z7z4p9p", Drew(0, tile("1z")), Discarded(0, tile("1z")),
                Drew(1, None), Discarded(1, tile("7z")))
    assert v.ask.kind is AskKind.DISCARD
    d = Planner(MCR_BOTZONE).decide(v)
    assert isinstance(d.action, ClaimAndDiscard) and v.ask.allows(d.action)
    assert d.action.claim == ClaimPung() and d.action.discard in (tile("4p"), tile("9p"))


def test_a_pung_that_gains_nothing_is_passed() -> None:
    # seven pairs, one away: a pung of 5s only breaks the pairs
    v = view_of("1155m2299p55s3z4z6z", Drew(0, tile("1z")), Discarded(0, tile("1z")),
                Drew(1, None), Discarded(1, tile("5s")))
    d = Planner(MCR_BOTZONE).decide(v)
    assert d.action == Pass()
    assert any(c.action.value == "pung" for c in d.reasons)


def test_the_default_strategy_is_the_planner_only_where_it_was_measured(monkeypatch) -> None:
    import bot.planner as planner_module
    from bot.agent import Agent
    from game.rules import TAIWAN_16

    monkeypatch.setattr(planner_module, "HAVE_NUMBA", True)
    assert type(planner_module.default_strategy(MCR_BOTZONE)) is Planner
    assert type(planner_module.default_strategy(TAIWAN_16)) is Agent
    monkeypatch.setattr(planner_module, "HAVE_NUMBA", False)  # the Botzone zip
    zipped = planner_module.default_strategy(MCR_BOTZONE)
    assert type(zipped) is planner_module.OnTime
    assert type(zipped.first) is Planner and type(zipped.quick) is Agent
    assert zipped.value.weighs_wins and zipped.rules == MCR_BOTZONE
    assert type(planner_module.default_strategy(TAIWAN_16)) is Agent


def test_without_numba_a_planner_out_of_time_lets_the_agent_answer(monkeypatch) -> None:
    """The Botzone zip runs the fan routes in plain Python: the planner checks the turn's
    clock between discards and, when it has passed, the step-value agent answers (a legal
    discard, its note saying so).  With a clock that never runs out, or compiled, the
    planner's own answer."""
    import bot.planner as planner_module
    from bot.agent import Agent
    from strategy.deadline import Deadline, OutOfTime

    v = view_of("1155m2299p55s3z4z6z", Drew(0, tile("7z")))
    compiled = Planner(MCR_BOTZONE).decide(v, Deadline(budget=4000))
    monkeypatch.setattr(planner_module, "HAVE_NUMBA", False)
    ticks = iter(range(10**6))
    passed = Deadline(budget=4000, clock=lambda: float(next(ticks)), until=0.5)
    zipped = planner_module.default_strategy(MCR_BOTZONE)
    d = zipped.decide(v, passed)
    quick = Agent(MCR_BOTZONE).decide(v, Deadline(budget=planner_module.QUICK_BUDGET))
    assert d.action == quick.action and d.action in v.ask.legal
    assert d.note.startswith("the value ran out of time")
    ticks = iter(range(10**6))
    with pytest.raises(OutOfTime):  # the planner alone says so; the wrapper answers
        Planner(MCR_BOTZONE).decide(v, Deadline(budget=4000, clock=lambda: float(next(ticks)),
                                                until=0.5))
    forever = Deadline(budget=4000, clock=lambda: 0.0, until=1.0)
    assert zipped.decide(v, forever).action == compiled.action


def test_the_zip_searches_on_the_arenas_mjbot_budget() -> None:
    pytest.importorskip("pydantic")  # the arena's players
    from arena.players.lineup import DEFAULT_BUDGET
    from bot.planner import ZIP_BUDGET

    assert ZIP_BUDGET == DEFAULT_BUDGET


def test_planner_calls_makes_the_agents_pung_where_the_distance_to_8_fan_holds() -> None:
    # the 8p pair: the agent's rule pungs it (the plain deficiency falls), the value alone does
    # not (the distance to 8 fan stays 5), the planner-calls variant does
    pytest.importorskip("pydantic")  # planner-calls is an arena player
    from arena.players.simple import CallingPlanner
    from strategy.policy import shape_deficiency_fast
    v = view_of("46m688p12669s167z", Drew(1, None), Discarded(1, tile("8p")))
    assert Planner(MCR_BOTZONE).decide(v).action == Pass()
    d = CallingPlanner(MCR_BOTZONE).decide(v)
    assert isinstance(d.action, ClaimAndDiscard) and v.ask.allows(d.action)
    assert d.action.claim == ClaimPung()
    after = v.hand.copy()
    after[tile("8p")] -= 2
    after[d.action.discard] -= 1
    assert (shape_deficiency_fast(after, v.unseen, 3, MCR_BOTZONE)
            < shape_deficiency_fast(v.hand, v.unseen, 4, MCR_BOTZONE))


def test_useful_from_ranks_close_discards_by_their_useful_draws() -> None:
    """With ``useful_from`` 3, a discard far from 8 fan is, among those within the margin
    of the best value, one with the most useful draws (strategy.value.useful_draws)."""
    from strategy.value import FanInputs, ValueModel, useful_draws

    v = view_of("5m8m1p1p4p4p7p3s6s6s3z4z7z", Drew(0, tile("5z")))
    model = ValueModel(useful_from=3)
    d = Planner(MCR_BOTZONE, model=model).decide(v)
    outs = {c.tile: c.outlook for c in d.reasons
            if isinstance(c, ValuedCandidate) and c.outlook is not None and c.tile is not None}
    assert min(o.distance for o in outs.values()) >= 3
    top = max(o.value for o in outs.values())
    fan = FanInputs(v.unseen, tuple(v.melds), v.seat, v.prevalent_wind)

    def useful(t: int) -> int:
        h = v.hand.copy()
        h[t] -= 1
        return useful_draws(h, fan, outs[t].distance)

    close = [t for t, o in outs.items() if o.value >= top - model.margin]
    assert d.action.tile in close  # type: ignore[attr-defined]
    assert useful(d.action.tile) == max(useful(t) for t in close)  # type: ignore[attr-defined]


def test_the_learned_ranker_picks_its_best_scored_close_discard() -> None:
    pytest.importorskip("pydantic")  # the close discards' features are the arena's (imitation)
    from arena.lab.fits.imitation import close_discards
    from strategy.discard_rank import RANK1

    # far from 8 fan: many discards lie within the margin, the ranker orders them
    v = view_of("1m3m5m8m2p4p9p3s7s8s1z2z6z", Drew(0, tile("5s")))
    planner = Planner(MCR_BOTZONE, ranker=RANK1)
    found = close_discards(planner, v)
    close, x = list(found.tiles), found.features
    assert found.ranked and len(close) > 1 and x.shape == (len(close), len(RANK1.weights))
    d = planner.decide(v)
    assert isinstance(d.action, Discard) and v.ask.allows(d.action)
    assert d.action == Discard(RANK1.order(close, x)[0])
    assert len([c for c in d.reasons if isinstance(c, ValuedCandidate)]) == 14
    # the default planner ranks so; without the ranker the order is the useful draws and
    # the step-value search's, and here it differs
    assert Planner(MCR_BOTZONE).decide(v).action == d.action
    assert Planner(MCR_BOTZONE, ranker=None).decide(v).action != d.action


def _discarded_to_us(hand: str, thrown: str) -> PlayerState:
    """Seat 0 dealt ``hand`` (13 tiles) draws and throws 1z, then seat 1 throws ``thrown``."""
    return view_of(hand, Drew(0, tile("1z")), Discarded(0, tile("1z")),
                   Drew(1, None), Discarded(1, tile(thrown)))


def test_a_win_on_a_discard_is_weighed_and_declared_with_its_numbers() -> None:
    # a pure straight (16 fan) waiting on 4p and 7p; 4p is thrown
    v = _discarded_to_us("123m456m789m11p56p", "4p")
    planner = Planner(MCR_BOTZONE)
    assert planner.value.weighs_wins
    d = planner.decide(v)
    assert d.action == DeclareWin() and v.ask.allows(d.action)
    assert "declare: now" in d.note and "fan" in d.note and "wait on" in d.note


def test_the_outs_of_a_passed_win_are_the_agents_own_wins() -> None:
    # every unseen tile that completes the hand, each with the fan the agent would score
    # for it thrown by seat 1 and drawn by seat 0 (its own win scoring, one tile at a time)
    planner = Planner(MCR_BOTZONE)
    v = _discarded_to_us("123m456m789m11p56p", "4p")
    outs = {o.tile: o for o in FanValue(planner.model, MCR_BOTZONE).outs(v)}
    assert set(outs) == {tile("4p"), tile("7p")}
    assert outs[tile("4p")].copies == 3 and outs[tile("7p")].copies == 4
    for name in ("4p", "7p"):
        thrown = _discarded_to_us("123m456m789m11p56p", name)
        assert outs[tile(name)].discard_fan == planner.win_fan(thrown, tile(name), False)
        drawn = view_of("123m456m789m11p56p", Drew(0, tile(name)))
        assert outs[tile(name)].self_drawn_fan == planner.win_fan(drawn, tile(name), True)


def test_nine_gates_passes_a_discard_win_early_for_its_self_draw() -> None:
    # 1112345678999m waits on every character: 88 fan now, three times (8 + 88 + ...)
    # drawn, with some 20 copies unseen and the wall full
    v = _discarded_to_us("1112345678999m", "5m")
    d = Planner(MCR_BOTZONE).decide(v)
    assert d.action == Pass() and v.ask.allows(d.action)
    assert "passed: wait" in d.note


def test_a_decision_abandoned_by_its_caller_is_cancelled_and_shares_no_scratch() -> None:
    """A platform gives up on a decision past its time while its thread runs on: the next
    decision spends the abandoned one's deadline (it stops at its next check) and works
    on a suit cache of its own until the abandoned one has left."""
    import threading

    from strategy.deadline import Deadline

    agent = Planner(MCR_BOTZONE)
    shared = agent._shared_suits
    entered, release = threading.Event(), threading.Event()
    abandoned = Deadline(budget=10**6, clock=lambda: 0.0, until=1.0)
    seen: list[object] = []

    def old_decision() -> None:
        with agent._one.running(abandoned, shared):
            seen.append(agent._suits)
            entered.set()
            release.wait(10)

    thread = threading.Thread(target=old_decision)
    thread.start()
    assert entered.wait(10)
    assert seen == [shared]
    with agent._one.running(Deadline(budget=100), shared):
        assert agent._suits is not shared
    assert abandoned.budget == -1 and abandoned.until == float("-inf")
    release.set()
    thread.join(10)
    v = view_of("1155m2299p55s3z4z6z", Drew(0, tile("7z")))
    assert agent.decide(v, Deadline(budget=4000)).action in v.ask.legal
    assert agent._suits is shared  # outside a decision, and the lock is free again
    with agent._one.running(None, shared):
        assert agent._suits is shared


def test_without_numba_the_clock_cutting_the_useful_draws_leaves_the_planners_order(
        monkeypatch) -> None:
    """Far from 8 fan the zip's planner (plain Python, on a clock) ranks the close
    discards by the learned order as the compiled one does; when the clock passes during
    their useful draws it answers by its step-value order (the planner's own answer, as
    with the useful draws and the learned order off), its note saying what was cut."""
    import dataclasses

    import bot.planner as planner_module
    from bot.planner import SHIPPED_MODEL
    from strategy.deadline import Deadline, OutOfTime

    v = view_of("2358m2467p1358s1z", Drew(0, tile("7z")))  # 5 from 8 fan
    compiled = Planner(MCR_BOTZONE, model=SHIPPED_MODEL).decide(v, Deadline(budget=4000))
    steps = Planner(MCR_BOTZONE, model=dataclasses.replace(SHIPPED_MODEL, useful_from=99),
                    ranker=None).decide(v, Deadline(budget=4000))
    monkeypatch.setattr(planner_module, "HAVE_NUMBA", False)
    zipped = planner_module.default_strategy(MCR_BOTZONE)
    # the platform's budget of 10**6 kernel calls: the zip's search keeps the arena's
    forever = Deadline(budget=10**6, clock=lambda: 0.0, until=1.0)
    whole = zipped.decide(v, forever)
    assert (whole.action, whole.note) == (compiled.action, compiled.note)
    assert zipped.budget == planner_module.ZIP_BUDGET == 4000

    def passed(*args: object, **kwargs: object) -> int:
        raise OutOfTime

    monkeypatch.setattr(planner_module, "useful_draws", passed)
    cut = zipped.decide(v, Deadline(budget=4000, clock=lambda: 0.0, until=1.0))
    assert cut.action == steps.action and cut.action in v.ask.legal
    assert cut.note.endswith("[the clock cut the learned order: step-value order]")


def test_waits_worth_chooses_the_wait_with_the_most_points() -> None:
    # three concealed pungs, 5s 6s 6s 9s and a drawn 9s: 6s out waits on 4s/7s (a chow
    # ends it), 5s out waits on 6s/9s for all pungs.  planner-v1 keeps the chow wait; the
    # planner that weighs each out at its own fan keeps the pungs
    hand, drawn = "3p3p3p9p9p9p2s2s2s5s6s6s9s", "9s"
    v = view_of(hand, Drew(0, tile(drawn)))
    v1 = Planner(MCR_BOTZONE)
    waits = Planner(MCR_BOTZONE, model=ValueModel(wait_worth=1.0))
    assert v1.decide(v).action == Discard(tile("6s"))
    d = waits.decide(v)
    assert d.action == Discard(tile("5s")) and v.ask.allows(d.action)
    # the oracle: each waiting discard's outs from a view dealt that 13-tile hand (whose
    # outs are the agent's own wins, above), their worth by mcr_wait_worth
    value = FanValue(waits.model, MCR_BOTZONE)
    worth = {}
    for out in ("5s", "6s"):
        tiles = parse_tiles(hand + drawn)
        tiles.remove(tile(out))
        kept = "".join(tile_name(t) for t in sorted(tiles))
        dealt = view_of(kept)
        h = v.hand.copy()
        h[tile(out)] -= 1
        assert value.hand_outs(v, h, ()) == value.outs(dealt)
        worth[out] = value.wait_worth(v, h, (), waits._turns(v), waits._danger(v))
    assert worth["5s"] > worth["6s"]


def test_without_numba_the_clock_cutting_the_waits_worth_keeps_the_value_s_choice(
        monkeypatch) -> None:
    """The shipped bot weighs the waits; the zip's planner (plain Python, on a clock)
    weighs them as the compiled one does, and when the clock passes during their outs it
    keeps the discard its value chose, its note saying what was cut."""
    import dataclasses

    import bot.planner as planner_module
    from bot.planner import SHIPPED_MODEL
    from strategy.deadline import Deadline, OutOfTime
    from strategy.rule_value import FanValue

    v = view_of("3p3p3p9p9p9p2s2s2s5s6s6s9s", Drew(0, tile("9s")))  # as above
    unweighed = Planner(MCR_BOTZONE, model=dataclasses.replace(SHIPPED_MODEL, wait_worth=0.0))
    assert unweighed.decide(v).action == Discard(tile("6s"))
    monkeypatch.setattr(planner_module, "HAVE_NUMBA", False)
    zipped = planner_module.default_strategy(MCR_BOTZONE)
    whole = zipped.decide(v, Deadline(budget=4000, clock=lambda: 0.0, until=1.0))
    assert whole.action == Discard(tile("5s"))

    def passed(*args: object, **kwargs: object) -> float:
        raise OutOfTime

    monkeypatch.setattr(FanValue, "wait_worth", passed)
    cut = zipped.decide(v, Deadline(budget=4000, clock=lambda: 0.0, until=1.0))
    assert cut.action == Discard(tile("6s")) and v.ask.allows(cut.action)
    assert cut.note.endswith("[the clock cut the waits' worth]")


def test_the_value_reads_the_danger_model_it_is_given() -> None:
    from strategy.danger import DANGER_FIT, DANGER_V1, danger

    v = view_of("123m456m789m11p56p", Drew(0, tile("1z")), Discarded(0, tile("1z")),
                Drew(1, None), Discarded(1, tile("9s")), Drew(2, None),
                Discarded(2, tile("5p")), Drew(3, None), Discarded(3, tile("3z")),
                Drew(0, tile("2z")))
    v1 = Planner(MCR_BOTZONE)
    fit = Planner(MCR_BOTZONE, model=ValueModel(danger_fit=1.0))
    signs = v1._signs(v)
    assert (v1._danger(v) == danger(signs, v.unseen, DANGER_V1)).all()
    assert (fit._danger(v) == danger(signs, v.unseen, DANGER_FIT)).all()
    # the fitted model says fewer seats wait this early: every kind is safer
    assert (fit._danger(v) < v1._danger(v)).all()
