"""Players by name, with options: the arena's ``PLAYER`` arguments (the one registry of
named players; every in-process one plays through :class:`bot.session.SeatSession`).

=====================  ==========================================================
``mjbot``              the shipped bot (:func:`bot.planner.default_strategy`: what
                       ``mjbot play botzone`` and the Olympiad client play),
                       ``budget`` kernel calls per decision (``mjbot:budget=20000``;
                       default 4000)
``planner-v1``         the shipped bot as frozen on 2026-11-26 (the planner with the
                       learned discard order under mcr-botzone, the step-value
                       agent under taiwan-16), pinned by a golden test of seeded games'
                       records: the next strength work is measured against it
``baseline-v1``        the agent before the planner (:class:`bot.agent.Agent`),
                       frozen under this name and pinned the same way; budget 4000
                       unless given
``mjbot-eps:E``        SIMCAT-ε of Tang, Chen & Wu, "An Efficient Method for
                       Assessing the Strength of Mahjong Programs" (section 4):
                       with probability ``E`` a random action among those that
                       keep the deficiency, else the shipped bot's (``mjbot-eps:0.5``,
                       ``mjbot-eps:eps=0.5,budget=500``)
``planner``            the planner with options, for experiments: every action by
                       one value (:class:`bot.planner.Planner`:
                       P(win) by the fan-aware distance and the turns left, less
                       the expected cost of dealing in); ``budget`` as mjbot's;
                       ``win``, ``deal``, ``margin`` its value's points
                       (``planner:deal=24``); ``ready``, ``step``, ``end`` its
                       chain's rates; ``wait``: the points a wait must gain over
                       declaring a win on a discard (mcr-botzone:
                       :func:`strategy.value.mcr_win_choice`, default 4; taiwan-16:
                       :mod:`strategy.tai`, default 1);
                       ``useful=D``: from fan-aware distance D on, close discards
                       are ranked by their useful draws first; ``rank=learned``
                       (the default): those close discards in the order learned
                       from the rank-1 Botzone bot (:mod:`strategy.discard_rank`),
                       ``rank=steps`` by the useful draws and step-value order
``planner-calls``      the planner that also makes the agent's claims (the plain
                       deficiency falls) where the distance to 8 fan holds
``planner-think``      the planner with the sampling search at the top
                       (:class:`bot.sampling_planner.SamplingPlanner`): close
                       decisions are compared on common deals of the unseen
                       tiles, played on by a fast policy.  Its budget per
                       decision: ``rollouts=N`` (default 96; deterministic and
                       CPU-independent: prefer it for measurements) or
                       ``think=SECONDS`` (wall clock; the rollout count then
                       depends on the machine, so games do not replay;
                       ``rollouts`` given too caps it); ``seed=S`` mixes into
                       the sampler's seeds; ``z=Z`` the standard errors of
                       sampled gain a rival needs to replace the planner's
                       choice (default 1.0); its rollouts play the least
                       hand-only deficiency and make no claims; the planner's
                       options as well (``planner-think:rollouts=200,deal=20``)
``greedy``             discards to the least hand-only deficiency, never claims
``random``             a random discard, never claims (Botzone's sample bot)
``mjbot-zip``          the Botzone upload itself (``mjbot package botzone``'s zip,
                       built once per source tree): a program through the judge
                       mock with numba off, the turn's clock and its fallback, as
                       Botzone runs it (mcr-botzone only)
``botzone:CMD``        any Botzone program, a subprocess through the judge mock
                       (mcr-botzone only)
``olympiad:CMD``       any Olympiad program (JSON lines on stdio, as ``mjbot wrap``
                       runs it; taiwan-16 only)
=====================  ==========================================================

Wins: the seat's view offers a win only when the rule book (:mod:`game.rulebook`)
allows one (8 fan under mcr-botzone, any complete hand under taiwan-16); every player
but the planners declares every win offered, the planners weigh a win on a discard
against waiting.  The strategies of ``greedy``, ``random`` and ``mjbot-eps`` are in
:mod:`arena.players.simple`.
"""

from __future__ import annotations

import os
import shlex
import shutil
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from enum import Enum
from typing import Any

import numpy as np

from arena.players.simple import (
    CallingPlanner,
    SimcatStrategy,
    SimpleRule,
    SimpleStrategy,
)
from arena.records.decisions import SeatChoice
from bot.agent import Agent, Decision, Strategy, describe_action
from bot.planner import ZIP_BUDGET, OnTime, Planner, default_strategy
from bot.sampling_planner import DEFAULT_ROLLOUTS, SamplingPlanner
from bot.seat import AskKind, PlayerState
from bot.session import SeatSession
from game.events import Action, Event, Pass
from game.rules import Family, Ruleset
from strategy.deadline import Deadline
from strategy.discard_rank import RANK1, DiscardRanker
from strategy.policy import Method
from strategy.tai import TaiModel
from strategy.value import ValueModel

DEFAULT_BUDGET = ZIP_BUDGET
"""Kernel calls per decision of an in-process player unless ``budget=`` says otherwise: the
shipped bot's, the one its Botzone zip searches on (:data:`bot.planner.ZIP_BUDGET`)."""
VALUE_OPTIONS = {"win": "win_points", "deal": "deal_in_points", "margin": "margin",
                 "ready": "ready_rate", "step": "step_rate", "end": "end_rate",
                 "wait": "win_margin", "useful": "useful_from",
                 "looks": "useful_looks", "rlooks": "ready_looks",
                 "slack": "claim_slack",
                 "learned": "win_fit", "waits": "wait_worth", "fitdanger": "danger_fit"}
"""The planner's options: its :class:`strategy.value.ValueModel` fields (``looks``,
``rlooks``, ``slack``: :class:`strategy.tai.TaiModel`'s, taiwan-16 only; ``learned``: the
weight of the win chain fitted to self-play, :data:`strategy.value.WIN_FIT`; ``waits``:
weigh the waits' outs and fan, :attr:`strategy.value.ValueModel.wait_worth`;
``fitdanger``: the value reads the fitted danger,
:attr:`strategy.value.ValueModel.danger_fit`)."""
_VALUE_FIELDS = frozenset(f.name for f in fields(ValueModel))
RANKERS: dict[str, DiscardRanker | None] = {"steps": None, "learned": RANK1}
"""The planners' ``rank=`` option: the order of close discards after a draw far from 8 fan
(``steps``: the useful draws and the step-value order; ``learned``, the default: fitted to
the rank-1 bot of the 8 Botzone logs, :mod:`strategy.discard_rank`)."""


class PlayerKind(Enum):
    MJBOT = "mjbot"
    PLANNER_V1 = "planner-v1"
    BASELINE_V1 = "baseline-v1"
    MJBOT_EPS = "mjbot-eps"
    PLANNER = "planner"
    PLANNER_CALLS = "planner-calls"
    PLANNER_THINK = "planner-think"
    GREEDY = "greedy"
    RANDOM = "random"
    MJBOT_ZIP = "mjbot-zip"
    BOTZONE = "botzone"
    OLYMPIAD = "olympiad"


AGENT_KINDS = frozenset({PlayerKind.MJBOT, PlayerKind.PLANNER_V1, PlayerKind.BASELINE_V1,
                         PlayerKind.PLANNER,
                         PlayerKind.PLANNER_CALLS, PlayerKind.PLANNER_THINK})
"""The players whose every answer is an agent's decision (with its reasons)."""


IN_PROCESS = frozenset({PlayerKind.MJBOT, PlayerKind.PLANNER_V1, PlayerKind.BASELINE_V1,
                        PlayerKind.MJBOT_EPS,
                        PlayerKind.PLANNER, PlayerKind.PLANNER_CALLS,
                        PlayerKind.PLANNER_THINK, PlayerKind.GREEDY, PlayerKind.RANDOM})


class PlayerSpecError(ValueError):
    """A player argument that names no player or gives a wrong option."""


@dataclass(frozen=True)
class PlayerSpec:
    """One player as parsed from its argument (``text``, which is also its label)."""

    kind: PlayerKind
    text: str
    budget: int = DEFAULT_BUDGET
    epsilon: float = 0.0
    command: tuple[str, ...] = ()
    value: tuple[tuple[str, float], ...] = ()
    """The planner's :class:`strategy.value.ValueModel` numbers given (``win``, ``deal``,
    ``margin``: win points, deal-in points, margin)."""
    rollouts: int | None = None
    """``planner-think``: rollouts per decision (None: its default, or only the clock)."""
    think: float | None = None
    """``planner-think``: seconds of wall clock per decision."""
    sample_seed: int = 0
    rank: str = "learned"
    """The planners' ``rank=`` (a key of :data:`RANKERS`): the order of close discards far
    from 8 fan."""
    z: float | None = None
    """``planner-think``: standard errors of the sampled gain a rival needs (None: the
    sampler's default)."""

    @property
    def in_process(self) -> bool:
        return self.kind in IN_PROCESS

    @property
    def botzone_program(self) -> bool:
        """A program that speaks Botzone's protocol (through the judge mock)."""
        return self.kind in (PlayerKind.BOTZONE, PlayerKind.MJBOT_ZIP)

    def program(self) -> tuple[str, ...]:
        """The command line of a program player (``mjbot-zip``: the built upload, as it was
        at this process's first game, run by Botzone's Python where it is set up,
        :func:`arena.tools.package.botzone_python`)."""
        if self.kind is PlayerKind.MJBOT_ZIP:
            from arena.tools.package import botzone_python, pinned_zip

            return (botzone_python(), str(pinned_zip()))
        return self.command


def parse_player(text: str) -> PlayerSpec:
    """``NAME`` or ``NAME:OPTIONS`` (see the module docstring)."""
    name, _, rest = text.partition(":")
    try:
        kind = PlayerKind(name)
    except ValueError:
        known = ", ".join(k.value for k in PlayerKind)
        raise PlayerSpecError(f"player {text!r}: unknown name {name!r}; known: {known}") from None
    if kind is PlayerKind.MJBOT_ZIP:
        if rest:
            raise PlayerSpecError(f"player {text!r}: mjbot-zip takes no options (it plays as "
                                  "Botzone runs it)")
        return PlayerSpec(kind, text)
    if kind in (PlayerKind.BOTZONE, PlayerKind.OLYMPIAD):
        argv = tuple(shlex.split(rest))
        if not argv:
            raise PlayerSpecError(f"player {text!r}: give the program, e.g. {name}:'python x.py'")
        return PlayerSpec(kind, text, command=argv)
    options: dict[str, str] = {}
    for item in filter(None, rest.split(",")):
        key, eq, value = item.partition("=")
        if not eq:
            if kind is PlayerKind.MJBOT_EPS and "eps" not in options:
                key, value = "eps", item
            else:
                raise PlayerSpecError(f"player {text!r}: option {item!r} is not KEY=VALUE")
        options[key.strip()] = value.strip()
    allowed = {"budget"} | ({"eps"} if kind is PlayerKind.MJBOT_EPS else set())
    if kind in (PlayerKind.PLANNER, PlayerKind.PLANNER_CALLS, PlayerKind.PLANNER_THINK):
        allowed |= set(VALUE_OPTIONS) | {"rank"}
    if kind is PlayerKind.PLANNER_THINK:
        allowed |= {"rollouts", "think", "seed", "z"}
    if kind in (PlayerKind.GREEDY, PlayerKind.RANDOM):
        allowed = set()
    unknown = set(options) - allowed
    if unknown:
        raise PlayerSpecError(f"player {text!r}: unknown option(s) {', '.join(sorted(unknown))}"
                              f"; {name} takes {', '.join(sorted(allowed)) or 'none'}")
    budget = _number(text, options.get("budget"), int, DEFAULT_BUDGET)
    if budget < 1:
        raise PlayerSpecError(f"player {text!r}: budget {budget} must be at least 1")
    epsilon = 0.0
    if kind is PlayerKind.MJBOT_EPS:
        if "eps" not in options:
            raise PlayerSpecError(f"player {text!r}: give ε, e.g. mjbot-eps:0.5")
        epsilon = _number(text, options["eps"], float, 0.0)
        if not 0.0 <= epsilon <= 1.0:
            raise PlayerSpecError(f"player {text!r}: ε = {epsilon} is outside [0, 1]")
    numbers = tuple((VALUE_OPTIONS[k], float(_number(text, v, float, 0.0)))
                    for k, v in sorted(options.items()) if k in VALUE_OPTIONS)
    rollouts = think = None
    if "rollouts" in options:
        rollouts = _number(text, options["rollouts"], int, 0)
        if rollouts < 2:
            raise PlayerSpecError(f"player {text!r}: rollouts {rollouts} must be at least 2")
    if "think" in options:
        think = _number(text, options["think"], float, 0.0)
        if not think > 0.0:
            raise PlayerSpecError(f"player {text!r}: think {think} must be positive")
    sample_seed = _number(text, options.get("seed"), int, 0)
    rank = options.get("rank", "learned")
    if rank not in RANKERS:
        raise PlayerSpecError(f"player {text!r}: rank {rank!r} is not one of "
                              f"{', '.join(RANKERS)}")
    z = None
    if "z" in options:
        z = _number(text, options["z"], float, 0.0)
        if not z >= 0.0:
            raise PlayerSpecError(f"player {text!r}: z {z} must not be negative")
    return PlayerSpec(kind, text, budget=budget, epsilon=epsilon, value=numbers,
                      rollouts=rollouts, think=think, sample_seed=sample_seed, z=z, rank=rank)


def check_program(spec: PlayerSpec) -> PlayerSpec:
    """``spec``, unless it is a program player (``botzone:CMD``, ``olympiad:CMD``) whose
    program cannot start: no such file, a file that is not executable, or a name not on
    ``PATH`` (a :class:`PlayerSpecError` says which, before any game is played)."""
    if spec.kind not in (PlayerKind.BOTZONE, PlayerKind.OLYMPIAD):
        return spec
    program = spec.command[0]
    if shutil.which(program) is not None:
        return spec
    if os.sep in program or (os.altsep is not None and os.altsep in program):
        why = ("not an executable file" if os.path.isfile(program) else
               "a directory" if os.path.isdir(program) else "no such file")
    else:
        why = "no such program on PATH"
    raise PlayerSpecError(f"player {spec.text!r}: cannot start {program!r}: {why}")


def _number(text: str, value: str | None, kind: type[int] | type[float],
            default: float) -> Any:
    if value is None:
        return default
    try:
        return kind(value)
    except ValueError:
        raise PlayerSpecError(f"player {text!r}: {value!r} is not a number") from None


# ---------------------------------------------------------------- in-process seats
class SeatLost(RuntimeError):
    """An in-process seat's view could not apply an event: it answers safely (its session's
    fallback) to the end of the game; the match reports why."""


def planner_v1(rules: Ruleset) -> Strategy:
    """``planner-v1``: the shipped bot as it was frozen on 2026-11-26 (the planner with the
    learned discard order under mcr-botzone, the step-value agent elsewhere), pinned by the
    records of seeded games (``tests/arena/test_lineup.py``)."""
    if rules.family is Family.MCR:
        return Planner(rules, model=ValueModel(), tai_model=TaiModel(), ranker=RANK1)
    return Agent(rules, "planner-v1")


def baseline_v1(rules: Ruleset) -> Strategy:
    """``baseline-v1``: the step-value agent (:class:`bot.agent.Agent`) as it was before the
    planner, frozen under this name and pinned by the records of seeded games
    (``tests/arena/test_lineup.py``)."""
    return Agent(rules, "baseline-v1")


def strategy_of(spec: PlayerSpec, rules: Ruleset,
                rng: np.random.Generator | None = None) -> Strategy:
    """The strategy behind an in-process player (``rng``: the seat's generator, for the
    players that draw at random)."""
    kind = spec.kind
    if rng is None:
        rng = np.random.default_rng(0)
    if kind is PlayerKind.MJBOT:
        return default_strategy(rules)
    if kind is PlayerKind.PLANNER_V1:
        return planner_v1(rules)
    if kind is PlayerKind.GREEDY:
        return SimpleStrategy(SimpleRule.GREEDY)
    if kind is PlayerKind.RANDOM:
        return SimpleStrategy(SimpleRule.RANDOM, rng)
    if kind is PlayerKind.MJBOT_EPS:
        return SimcatStrategy(_agent_in(default_strategy(rules), rules), spec.epsilon, rng)
    numbers = dict(spec.value)
    model = ValueModel(**{k: v for k, v in numbers.items() if k in _VALUE_FIELDS})
    tai_model = TaiModel(**numbers)
    ranker = RANKERS[spec.rank]
    if kind is PlayerKind.PLANNER_THINK:
        rollouts = spec.rollouts
        if rollouts is None and spec.think is None:
            rollouts = DEFAULT_ROLLOUTS
        z = SamplingPlanner.z if spec.z is None else spec.z
        return SamplingPlanner(rules, model=model, rollouts=rollouts, seed=spec.sample_seed,
                               z=z, ranker=ranker)
    if kind in (PlayerKind.PLANNER, PlayerKind.PLANNER_CALLS):
        planner = CallingPlanner if kind is PlayerKind.PLANNER_CALLS else Planner
        return planner(rules, model=model, tai_model=tai_model, ranker=ranker)
    if kind is PlayerKind.BASELINE_V1:
        return baseline_v1(rules)
    raise PlayerSpecError(f"player {spec.text!r} does not play in this process")


def _agent_in(strategy: Strategy, rules: Ruleset) -> Agent:
    """The agent that decides for ``strategy``: itself, the planner inside the shipped
    bot's out-of-time wrapper (:class:`bot.planner.OnTime`, without numba) or SIMCAT-ε's;
    the step-value agent for the players that have none of their own."""
    if isinstance(strategy, OnTime):
        return strategy.first
    if isinstance(strategy, SimcatStrategy):
        return strategy.agent
    return strategy if isinstance(strategy, Agent) else Agent(rules)


def _weighs_wins(strategy: Strategy) -> bool:
    """Whether the strategy weighs a legal win against keeping the hand (a planner whose
    rule set's value does: :attr:`strategy.rule_value.RuleValue.weighs_wins`), so its
    passes are recorded; the step-value agent declares every win."""
    if isinstance(strategy, OnTime):
        strategy = strategy.first
    return isinstance(strategy, Planner) and strategy.value.weighs_wins


@dataclass
class ArenaSeat:
    """An in-process player on one seat for one game, played through the same
    :class:`bot.session.SeatSession` as a platform seat: every event goes to the session's
    view, every answer is the strategy's checked against the view's legal answers (a
    strategy that raises or answers something illegal, a false win included, is replaced
    by the safest answer, the reason in the decision's note).  Decisions run on the
    spec's work budget (no clock: seeded games replay exactly), ``planner-think:think=S``
    on the wall clock.

    ``decide`` answers in the view's (Botzone-shaped) actions: a claim names its discard;
    under the Olympiad flow of taiwan-16 the view then asks for that discard again once
    the claim is taken (``AskKind.CALLED``), as every seat's view does.
    """

    spec: PlayerSpec
    rules: Ruleset
    seed: int | Sequence[int]
    notes: bool = True
    """Whether :attr:`last` keeps every decision's reasons (a game that writes no record
    needs only its fallbacks: False skips building the others)."""
    strategy: Strategy = field(init=False)
    session: SeatSession = field(init=False)
    rng: np.random.Generator = field(init=False)
    last: SeatChoice | None = field(init=False, default=None)
    """The last decision's reasons, for the game record."""

    def __post_init__(self) -> None:
        if not self.spec.in_process:
            raise ValueError(f"{self.spec.text!r} is not an in-process player")
        self.rng = np.random.default_rng(self.seed)
        self.strategy = strategy_of(self.spec, self.rules, self.rng)
        self.session = SeatSession(self.rules, self.strategy, work_budget=self.spec.budget)

    @property
    def view(self) -> PlayerState:
        return self.session.view

    @property
    def agent(self) -> Agent:
        """The agent that decides for this seat (:func:`_agent_in`)."""
        return _agent_in(self.strategy, self.rules)

    def observe(self, event: Event) -> None:
        lost = self.session.lost
        self.session.observe([event])
        if self.session.lost and not lost:
            raise SeatLost(self.session.lost)

    @property
    def asked(self) -> bool:
        return self.session.asked()

    def deadline(self) -> Deadline:
        if self.spec.think is not None:  # planner-think:think=S, on the wall clock
            return Deadline(budget=self.spec.budget, clock=time.monotonic,
                            until=time.monotonic() + self.spec.think)
        return Deadline(budget=self.spec.budget)

    def decide(self) -> Action:
        """The seat's answer to what its view asks (pass when nothing), told to its view
        too (Botzone's ``GANG`` for the seat's own concealed kong names no tile: the view
        takes it from the answer)."""
        self.last = None
        if not self.asked:
            return Pass()
        decision = self.session.answer_inline(self.deadline())
        self._note(decision)
        return decision.action

    def _note(self, decision: Decision) -> None:
        """Keep the decision's reasons for the record: a fallback with its reason; SIMCAT-ε's
        random action by name; a win a player declares whenever offered as ``win``; an
        agent's every action but a pass, and a planner's pass of what it weighed (a win:
        why it kept the hand; a claim: every meld's numbers against passing)."""
        method, action = decision.method, decision.action
        if not self.notes and method is not Method.FALLBACK:
            return
        weighs = _weighs_wins(self.strategy)
        asked = self.view.ask
        if method is Method.FALLBACK:
            self.last = SeatChoice.of(decision)
        elif method is Method.EPSILON_RANDOM:
            self.last = SeatChoice(describe_action(action), method.value)
        elif method is Method.WIN and (not weighs or asked.kind is AskKind.ROB):
            self.last = SeatChoice("win", "win")
        elif self.spec.kind not in (PlayerKind.GREEDY, PlayerKind.RANDOM) and (
                not isinstance(action, Pass)
                or (weighs and (bool(decision.reasons) or asked.win is not None))):
            self.last = SeatChoice.of(decision)


def agent_spec(text: str) -> PlayerSpec | None:
    """The spec ``text`` names when it is a player that decides by an agent (its record
    keeps every turn, and it can be re-asked); None for any other text."""
    try:
        spec = parse_player(text)
    except PlayerSpecError:
        return None
    return spec if spec.kind in AGENT_KINDS else None


def agent_player(text: str) -> PlayerSpec:
    """The spec ``text`` names, which must be a player that decides by an agent (a
    :class:`PlayerSpecError` names what is wrong)."""
    spec = parse_player(text)
    if spec.kind not in AGENT_KINDS:
        raise PlayerSpecError(f"player {text!r}: not a player that decides by an agent "
                              f"({', '.join(sorted(k.value for k in AGENT_KINDS))})")
    return spec


def agent_of(spec: PlayerSpec, rules: Ruleset) -> Strategy:
    """The strategy behind a player that decides by an agent (replay re-asks it)."""
    return strategy_of(spec, rules)


def in_process_seat(spec: PlayerSpec, rules: Ruleset, seed: int | Sequence[int]) -> ArenaSeat:
    return ArenaSeat(spec, rules, seed)


__all__ = ["ArenaSeat", "PlayerKind", "PlayerSpec", "PlayerSpecError", "SeatLost",
           "baseline_v1", "check_program", "in_process_seat", "parse_player", "planner_v1",
           "strategy_of"]
