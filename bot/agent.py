"""The agent: the strategy that answers what a seat's view asks.

:meth:`Agent.decide` is handed the seat's :class:`bot.seat.PlayerState` (owned by the
seat's :class:`bot.session.SeatSession`, which applies every event to it) and a
deadline, and answers the view's :class:`bot.seat.Ask` with a legal action and the
reasons for it.  One agent class serves every protocol; it never sees wire text.
It keeps only caches across decisions (fan totals, suit results of the kernel).

Wins under mcr-botzone are declared only when PyMahjongGB's fan total, with
the judge's flags as the seat can know them, reaches 8 + flowers: self-drawn,
fourth tile (the copies this seat has seen, plus the drawn one, make four —
the judge counts discards and exposed melds the same way), about-kong,
wall-last (the next seat's wall is empty), seat and prevalent wind.

Fan awareness: under mcr-botzone the step-value search counts a completed
hand as a win only if it reaches 8 fan (PyMahjongGB on the completion, with
the hand's declared melds), so among discards of equal deficiency the search
prefers those whose completions can actually be declared.
"""

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from bot.seat import AskKind, PlayerState
from game import events as ev
from game.compat import Protocol
from game.rulebook import claim_answer
from game.rules import Ruleset
from game.tiles import tile_name
from strategy.deadline import Deadline
from strategy.deficiency.changes import SuitCache
from strategy.policy import (
    Candidate,
    Choice,
    Method,
    WinCheck,
    choose_added_kong,
    choose_claim,
    choose_discard,
    choose_kong_on_draw,
)
from strategy.win_check import FanTotals


@dataclass(frozen=True)
class Decision:
    action: "ev.Action"
    method: "Method"
    reasons: "tuple[Candidate, ...]" = ()
    note: str = ""
    fan: "int | None" = None
    finished: bool = True
    horizon: "int | None" = None
    """How far the search looked (``Method.SEARCH_DEEPENED``)."""

    @property
    def fell_back(self) -> bool:
        return self.method is Method.FALLBACK

    def describe_method(self) -> str:
        return self.method.describe(self.horizon)

    def info(self) -> "dict[str, object]":
        """The decision's reasons as plain data (for game records and replays)."""
        return {
            "action": describe_action(self.action),
            "method": self.describe_method(),
            "note": self.note,
            "fan": self.fan,
            "finished": self.finished,
            "candidates": [c.describe() for c in self.reasons],
        }


def describe_action(action: "ev.Action") -> str:
    """An action as records and logs keep it, its fields by name (``chow middle=2m
    discard=3z``; :func:`arena.records.decisions.parse_action` reads it back).  For people,
    the action's own ``notation()`` names a claim by its meld (``chow 1m2m3m, then
    discard 3z``)."""
    fields = action.fields() if isinstance(action, ev.ClaimAndDiscard) else vars(action)
    named = " ".join(
        f"{k}={tile_name(v) if isinstance(v, int) else v}" for k, v in fields.items()
    )
    return f"{action.kind.value}{' ' + named if named else ''}"


class Strategy(Protocol):
    """What a seat session asks: a decision for the view's ask, within the deadline."""

    def decide(self, view: "PlayerState", deadline: "Deadline | None" = None) -> "Decision": ...

    def reset(self) -> None:
        """A new game starts."""
        ...


class OneDecision:
    """One decision at a time on an agent's :class:`SuitCache` (its kernels' scratch
    arrays and cached suits).

    A platform's seat gives up on a decision that runs past its time, but the decision's
    thread runs on.  The next decision of the same agent then cancels it (its deadline's
    budget and clock are spent, so it stops at its next deadline check) and, while it
    still runs, works on a cache of its own: the two threads never share scratch arrays."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._running: "Deadline | None" = None
        self._local = threading.local()

    def __getstate__(self) -> "dict[str, object]":
        return {}  # locks do not pickle; a copy starts with no decision running

    def __setstate__(self, state: "dict[str, object]") -> None:
        self.__init__()  # type: ignore[misc]

    def __deepcopy__(self, memo: "dict[int, object]") -> "OneDecision":
        return OneDecision()

    @contextmanager
    def running(self, deadline: "Deadline | None", shared: "SuitCache") -> "Iterator[None]":
        """The scope of one decision under ``deadline``: inside it :meth:`cache` is
        ``shared``, or a fresh cache while an abandoned decision still holds ``shared``."""
        if getattr(self._local, "cache", None) is not None:  # a decision within one
            yield
            return
        mine = self._lock.acquire(blocking=False)
        if mine:
            self._running = deadline
            self._local.cache = shared
        else:
            abandoned = self._running
            if abandoned is not None:  # spent: it raises OutOfTime at its next check
                abandoned.budget = -1
                abandoned.until = float("-inf")
            self._local.cache = SuitCache(shared.keys.shape[0])
        try:
            yield
        finally:
            self._local.cache = None
            if mine:
                self._running = None
                self._lock.release()

    def cache(self, shared: "SuitCache") -> "SuitCache":
        """The cache of the decision running in this thread (``shared`` outside one)."""
        own = getattr(self._local, "cache", None)
        return shared if own is None else own


@dataclass
class Agent:
    rules: "Ruleset"
    name: str = "mjbot"

    _fan: "FanTotals" = field(init=False, default_factory=FanTotals, repr=False)
    _shared_suits: "SuitCache" = field(init=False, default_factory=lambda: SuitCache(1 << 14),
                                     repr=False, compare=False)
    """Suit results of the deficiency kernel, kept across decisions (they depend on the
    suit's counts only)."""
    _one: "OneDecision" = field(init=False, default_factory=OneDecision, repr=False,
                              compare=False)

    @property
    def _suits(self) -> "SuitCache":
        """The suit cache of the decision running in this thread (:class:`OneDecision`)."""
        return self._one.cache(self._shared_suits)

    def reset(self) -> None:
        self._fan.reset()

    # ------------------------------------------------------------------ wins
    def win_fan(self, v: "PlayerState", tile: int, self_drawn: bool,
                robbing: bool = False) -> "int | None":
        """The fan total if the rule book lets the hand win on ``tile`` (None if it is no
        declarable win; under taiwan-16 a win counts 0 here)."""
        offer = v.win_offer(tile, self_drawn=self_drawn, robbing=robbing)
        return None if offer is None else offer.fan

    def can_win(
        self, v: "PlayerState", tile: int, self_drawn: bool, robbing: bool = False
    ) -> "tuple[bool, int | None]":
        """Whether the rule book lets the seat declare a win on ``tile``, and its fan."""
        fan = self.win_fan(v, tile, self_drawn, robbing)
        return fan is not None, fan

    def _fan_check(self, v: "PlayerState") -> "WinCheck | None":
        """For the search's leaves: does a completed hand reach the minimum fan
        (:class:`strategy.win_check.FanTotals`, kept across decisions)?"""
        return self._fan.check(self.rules, v.melds, v.seat, v.prevalent_wind,
                               int(v.kb.flowers[v.seat]))

    def answers(self, v: "PlayerState") -> "tuple[ev.Action, ...]":
        """The legal answers this agent weighs: the rule book's (``v.ask.legal``), less the
        claims of a discard after which the next seat's wall is empty and, on one shared
        wall, the kongs once the normal draws are over.  The judges take those, but the agent
        and the planner were never offered them (the seat view was stricter than the judge) and
        ``baseline-v1`` and ``planner-v1`` must play as they were frozen."""
        ask = v.ask
        legal = ask.legal
        if ask.kind is AskKind.DISCARD and v.provider is not None and (
                v.wall_left[v.next_seat(v.provider)] <= 0):
            return tuple(a for a in legal if isinstance(a, (ev.Pass, ev.DeclareWin)))
        if v.wall_left[v.seat] <= 0:
            kongs = (ev.ClaimKong, ev.DeclareConcealedKong, ev.DeclareAddedKong)
            return tuple(a for a in legal if not isinstance(a, kongs))
        return legal

    # ------------------------------------------------------------------ decisions
    def decide(self, v: "PlayerState", deadline: "Deadline | None" = None) -> "Decision":
        with self._one.running(deadline, self._shared_suits):
            return self._decide(v, deadline)

    def _decide(self, v: "PlayerState", deadline: "Deadline | None") -> "Decision":
        kind = v.ask.kind
        if kind is AskKind.DRAW:
            return self._after_draw(v, deadline)
        if kind is AskKind.DISCARD:
            return self._on_discard(v, deadline)
        if kind is AskKind.ROB:
            assert v.tile_in_play is not None
            ok, fan = self.can_win(v, v.tile_in_play, self_drawn=False, robbing=True)
            if ok:
                return Decision(ev.DeclareWin(), Method.WIN, note="robbing the kong", fan=fan)
            return Decision(ev.Pass(), Method.PASS, note="no win on the added kong")
        if kind is AskKind.CALLED:
            return self._after_claim(v, deadline)
        return Decision(ev.Pass(), Method.PASS, note="nothing to decide")

    def _after_draw(self, v: "PlayerState", deadline: "Deadline | None") -> "Decision":
        assert v.drawn is not None
        ok, fan = self.can_win(v, v.drawn, self_drawn=True)
        if ok:
            return Decision(ev.DeclareWin(), Method.WIN, note="self-drawn", fan=fan)
        choice = choose_discard(v.hand, v.unseen, v.melds_needed, self.rules, deadline,
                                win_check=self._fan_check(v), cache=self._suits)
        legal = self.answers(v)
        kong = choose_kong_on_draw(v.hand, v.unseen, v.melds_needed, self.rules, choice)
        if kong is not None and ev.DeclareConcealedKong(_tile(kong)) in legal:
            return Decision(ev.DeclareConcealedKong(_tile(kong)), Method.KONG,
                            (kong, *choice.candidates), kong.note)
        added = choose_added_kong(v.hand, v.unseen, v.melds_needed, self.rules, v.pungs(),
                                  choice)
        if added is not None and ev.DeclareAddedKong(_tile(added)) in legal:
            return Decision(ev.DeclareAddedKong(_tile(added)), Method.KONG,
                            (added, *choice.candidates), added.note)
        return self._from_choice(ev.Discard(_tile(choice.chosen)), choice)

    def _on_discard(self, v: "PlayerState", deadline: "Deadline | None") -> "Decision":
        assert v.tile_in_play is not None and v.provider is not None
        t = v.tile_in_play
        ok, fan = self.can_win(v, t, self_drawn=False)
        if ok:
            return Decision(ev.DeclareWin(), Method.WIN, note=f"on {tile_name(t)}", fan=fan)
        legal = self.answers(v)
        claims = {ev.claim_of(a) for a in legal}
        can_chow = any(isinstance(a, ev.ClaimChow) for a in claims)
        if not any(isinstance(a, (ev.ClaimPung, ev.ClaimChow, ev.ClaimKong)) for a in claims):
            return Decision(ev.Pass(), Method.PASS, note="no claim is legal")
        choice = choose_claim(v.hand, v.unseen, v.melds_needed, self.rules, t,
                              can_chow=can_chow, can_win=False, deadline=deadline,
                              cache=self._suits)
        action: "ev.Action | None" = None
        if choice.action is ev.ActionKind.PUNG:
            action = claim_answer(ev.ClaimPung(), _tile(choice.chosen), legal)
        elif choice.action is ev.ActionKind.KONG:
            action = ev.ClaimKong()
        elif choice.action is ev.ActionKind.CHOW:
            chow = ev.ClaimChow(choice.meld_tiles[1])
            action = claim_answer(chow, _tile(choice.chosen), legal)
        if action is None or action not in legal:
            action = ev.Pass()
        return self._from_choice(action, choice)

    def _after_claim(self, v: "PlayerState", deadline: "Deadline | None") -> "Decision":
        """The discard after this seat's own chow or pung (the Olympiad flow asks for it
        once the claim is taken: the view holds the meld already)."""
        choice = choose_discard(v.hand, v.unseen, v.melds_needed, self.rules, deadline,
                                cache=self._suits)
        return self._from_choice(ev.Discard(_tile(choice.chosen)), choice)

    @staticmethod
    def _from_choice(action: "ev.Action", choice: "Choice") -> "Decision":
        return Decision(action, choice.method, choice.candidates, finished=choice.finished,
                        horizon=choice.horizon)


def _tile(candidate: "Candidate") -> int:
    """The tile of a candidate that must name one (a discard, a kong, the discard after a
    claim): a candidate without it is a bug in the policy, not a tile."""
    if candidate.tile is None:
        raise ValueError(f"candidate {candidate.describe()} names no tile")
    return candidate.tile
