"""A record's ``decision`` lines, by writer: a seat's decision with its reasons
(:class:`DecisionRecord`), the Botzone judge's answer (:class:`JudgeAnswer`), an Olympiad
answer (:class:`AskAnswer`) and a refused answer (:class:`ViolationRecord`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from enum import Enum
from typing import Any

from pydantic import ValidationError

from arena.records.fields import (
    JSON,
    RecordError,
    read_bool,
    read_enum,
    read_int,
    read_list,
    read_number,
    read_opt_int,
    read_opt_number,
    read_opt_tile,
    read_str,
    read_tile_names,
    refuse_unknown,
)
from bot.agent import Decision, describe_action
from game import events as ev
from game.tiles import Notation, TileError, parse_tile, tile_name
from protocols.olympiad import Option
from strategy.deficiency.kernel import UNREACHABLE
from strategy.policy import Candidate
from strategy.tai import TaiOutlook
from strategy.value import Outlook, ValuedCandidate

_OLD_KINDS = {"pong": "pung", "concealed_kong": "concealed kong", "added_kong": "added kong"}
"""Action words of records written before the one claim vocabulary."""


def parse_action(text: str) -> ev.Action:
    """A decision's ``action`` field (:func:`bot.agent.describe_action`'s compact text,
    ``chow middle=2m discard=3z``) as the action it names; :class:`RecordError` if it
    names none."""
    words = text.split()
    kind = " ".join(w for w in words if "=" not in w)
    kind = _OLD_KINDS.get(kind, kind)
    try:
        tiles = {k: parse_tile(v, Notation.COMPACT)
                 for k, v in (w.split("=", 1) for w in words if "=" in w)}
        if kind == "pass" and not tiles:
            return ev.Pass()
        if kind == "win" and not tiles:
            return ev.DeclareWin()
        if kind == "kong" and not tiles:
            return ev.ClaimKong()
        if kind == "pung" and not tiles:
            return ev.ClaimPung()
        if kind == "discard" and tiles.keys() == {"tile"}:
            return ev.Discard(tiles["tile"])
        if kind == "pung" and tiles.keys() == {"discard"}:
            return ev.ClaimAndDiscard(ev.ClaimPung(), tiles["discard"])
        if kind == "chow" and tiles.keys() == {"middle", "discard"}:
            return ev.ClaimAndDiscard(ev.ClaimChow(tiles["middle"]), tiles["discard"])
        if kind == "chow" and tiles.keys() == {"middle"}:
            return ev.ClaimChow(tiles["middle"])
        if kind == "concealed kong" and tiles.keys() == {"tile"}:
            return ev.DeclareConcealedKong(tiles["tile"])
        if kind == "added kong" and tiles.keys() == {"tile"}:
            return ev.DeclareAddedKong(tiles["tile"])
    except (TileError, ValueError) as exc:
        raise RecordError(f"field 'action': {text!r}: {exc}") from None
    raise RecordError(f"field 'action': {text!r} names no action")




@dataclass(frozen=True)
class OutlookRecord:
    """The planner's numbers behind a candidate's value (:class:`strategy.value.Outlook`;
    ``tai`` and ``route`` for taiwan-16's :class:`strategy.tai.TaiOutlook`)."""

    distance: int
    turns: int
    win: float
    deal_in: float
    value: float
    tai: int | None = None
    route: str = ""

    @classmethod
    def of(cls, o: Outlook) -> OutlookRecord:
        if isinstance(o, TaiOutlook):
            return cls(o.distance, o.turns, o.win, o.deal_in, o.value, o.tai, o.route)
        return cls(o.distance, o.turns, o.win, o.deal_in, o.value)

    def numbers(self) -> tuple[tuple[str, str], ...]:
        """The numbers by name, as :meth:`strategy.value.Outlook.describe` shows them."""
        tai = () if self.tai is None else (("route", self.route), ("tai", str(self.tai)))
        dist = "∞" if self.distance >= UNREACHABLE else str(self.distance)
        return (*tai, ("to win", dist), ("turns", str(self.turns)),
                ("P(win)", f"{self.win:.3f}"), ("P(deal in)", f"{self.deal_in:.3f}"),
                ("value", f"{self.value:+.2f}"))

    def to_json(self) -> JSON:
        out: JSON = {"distance": self.distance, "turns": self.turns, "win": self.win,
                     "deal_in": self.deal_in, "value": self.value}
        if self.tai is not None:
            out.update(tai=self.tai, route=self.route)
        return out

    @classmethod
    def from_json(cls, data: Any) -> OutlookRecord:
        if not isinstance(data, dict):
            raise RecordError(f"field 'outlook': expected an object, got {data!r}")
        refuse_unknown(data, [f.name for f in fields(cls)], "an outlook")
        return cls(read_int(data, "distance"), read_int(data, "turns"), read_number(data, "win"),
                   read_number(data, "deal_in"), read_number(data, "value"),
                   read_opt_int(data, "tai"),
                   read_str(data, "route") if "route" in data else "")


@dataclass(frozen=True)
class CandidateRecord:
    """One option a decision weighed, as its fields (:class:`strategy.policy.Candidate`,
    and the planner's :class:`OutlookRecord`): the record keeps these, and the viewer
    renders from them (:attr:`label`, :meth:`numbers`)."""

    action: ev.ActionKind
    tile: int | None
    deficiency: int
    value: float | None = None
    chance: float = 0.0
    delta: int | None = None
    work: int = 0
    time_us: float | None = None
    note: str = ""
    meld: tuple[int, ...] = ()
    outlook: OutlookRecord | None = None

    @classmethod
    def of(cls, c: Candidate) -> CandidateRecord:
        outlook = c.outlook if isinstance(c, ValuedCandidate) else None
        # a planner's candidate: the step-value ranking's plain deficiency where it has
        # one, else the value's distance (the outlook keeps that distance too)
        plain = c.plain_deficiency if isinstance(c, ValuedCandidate) else None
        deficiency = c.deficiency if plain is None else plain
        return cls(c.action, c.tile, deficiency, c.value, c.chance, c.delta, c.work,
                   c.time_us, c.note, tuple(c.meld),
                   None if outlook is None else OutlookRecord.of(outlook))

    def candidate(self) -> Candidate:
        return Candidate(self.action, self.tile, self.deficiency, self.value, self.chance,
                         self.delta, self.work, self.time_us, self.note, self.meld)

    @property
    def label(self) -> str:
        """``chow 1m2m3m, then discard 3z`` (:attr:`strategy.policy.Candidate.label`)."""
        return self.candidate().label

    def numbers(self) -> tuple[tuple[str, str], ...]:
        """The numbers by name, as shown (the outlook's after the candidate's own)."""
        own = self.candidate().numbers()
        return own if self.outlook is None else (*own, *self.outlook.numbers())

    def to_json(self) -> JSON:
        out: JSON = {"action": self.action.value,
                     "tile": None if self.tile is None else tile_name(self.tile),
                     "deficiency": self.deficiency, "value": self.value,
                     "chance": self.chance, "delta": self.delta, "work": self.work}
        if self.time_us is not None:
            out["time_us"] = self.time_us
        if self.note:
            out["note"] = self.note
        if self.meld:
            out["meld"] = [tile_name(t) for t in self.meld]
        if self.outlook is not None:
            out["outlook"] = self.outlook.to_json()
        return out

    @classmethod
    def from_json(cls, data: Any) -> CandidateRecord:
        if not isinstance(data, dict):
            raise RecordError(f"expected a candidate object, got {data!r}")
        refuse_unknown(data, [f.name for f in fields(cls)], "a candidate")
        return cls(read_enum(ev.ActionKind, data, "action"), read_opt_tile(data, "tile"),
                   read_int(data, "deficiency"), read_opt_number(data, "value"),
                   read_number(data, "chance"), read_opt_int(data, "delta"), read_int(data, "work"),
                   read_opt_number(data, "time_us"),
                   read_str(data, "note") if "note" in data else "",
                   read_tile_names(data, "meld") if "meld" in data else (),
                   OutlookRecord.from_json(data["outlook"]) if "outlook" in data else None)


Considered = CandidateRecord | str
"""A candidate as a record keeps it: its fields, or (in records written before the fields
were kept) the text ``Candidate.describe()`` gave then, which only the viewer's reader of
such records (:func:`arena.review.viewer.build.parse_candidate`) still reads."""


def _candidates(data: Mapping[str, Any]) -> tuple[Considered, ...]:
    out: list[Considered] = []
    for i, item in enumerate(read_list(data, "candidates")):
        if isinstance(item, str):
            out.append(item)
            continue
        try:
            out.append(CandidateRecord.from_json(item))
        except RecordError as exc:
            raise RecordError(f"field 'candidates': item {i}: {exc}") from None
    return tuple(out)


@dataclass(frozen=True)
class Reasons:
    """Why an agent chose its action: its note, fan and whether it finished, and every
    candidate it weighed."""

    note: str
    fan: int | None
    finished: bool
    candidates: tuple[Considered, ...]


@dataclass(frozen=True)
class SeatChoice:
    """An in-process seat's last choice as a record keeps it: the action in compact tile
    notation, how it was reached and (for the agent) its reasons."""

    action: str
    method: str
    reasons: Reasons | None = None

    @classmethod
    def of(cls, decision: Decision) -> SeatChoice:
        return cls(describe_action(decision.action), decision.describe_method(),
                   Reasons(decision.note, decision.fan, decision.finished,
                           tuple(CandidateRecord.of(c) for c in decision.reasons)))

    def at(self, seat: int, player: str) -> DecisionRecord:
        return DecisionRecord(seat, player, self.action, self.method, self.reasons)


@dataclass(frozen=True)
class DecisionRecord:
    """A decision of an in-process seat (self-play and arena games)."""

    seat: int
    player: str
    action: str
    method: str
    reasons: Reasons | None = None

    KEYS = ("seat", "player", "action", "method", "note", "fan", "finished", "candidates")

    def to_json(self) -> JSON:
        out: JSON = {"seat": self.seat, "player": self.player, "action": self.action,
                     "method": self.method}
        r = self.reasons
        if r is not None:
            out.update(note=r.note, fan=r.fan, finished=r.finished,
                       candidates=[c if isinstance(c, str) else c.to_json()
                                   for c in r.candidates])
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> DecisionRecord:
        refuse_unknown(data, cls.KEYS, "decision")
        reasons = None
        if any(k in data for k in cls.KEYS[4:]):
            reasons = Reasons(read_str(data, "note"), read_opt_int(data, "fan"),
                              read_bool(data, "finished"), _candidates(data))
        return cls(read_int(data, "seat", 0, 3, "a seat"), read_str(data, "player"),
                   read_str(data, "action"), read_str(data, "method"), reasons)


@dataclass(frozen=True)
class JudgeAnswer:
    """A Botzone program's answer the judge kept (every answer but a plain OK ``PASS``)."""

    seat: int
    turn: int
    request: str
    verdict: str
    response: str
    debug: str
    seconds: float
    """Wall clock, rounded to 0.1 ms (it differs from run to run)."""

    def to_json(self) -> JSON:
        return {"seat": self.seat, "turn": self.turn, "request": self.request,
                "verdict": self.verdict, "response": self.response, "debug": self.debug,
                "seconds": round(self.seconds, 4)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> JudgeAnswer:
        refuse_unknown(data, [f.name for f in fields(cls)], "judge answer")
        return cls(read_int(data, "seat", 0, 3, "a seat"), read_int(data, "turn"),
                   read_str(data, "request"), read_str(data, "verdict"), read_str(data, "response"),
                   read_str(data, "debug"), read_number(data, "seconds"))


@dataclass(frozen=True)
class AskAnswer:
    """An Olympiad ask and how the seat answered it (the referee's record)."""

    seat: int
    ask: str
    """The ask's deterministic name, ``TABLE-GAME-STEP-SEAT``."""
    answer: str
    options: tuple[Option, ...]

    def to_json(self) -> JSON:
        return {"seat": self.seat, "ask": self.ask, "answer": self.answer,
                "options": [o.model_dump(mode="json", exclude_none=True)
                            for o in self.options]}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> AskAnswer:
        refuse_unknown(data, [f.name for f in fields(cls)], "ask answer")
        try:
            options = tuple(Option.model_validate(o) for o in read_list(data, "options"))
        except ValidationError as exc:
            raise RecordError(f"field 'options': {exc.errors()[0]['msg']}") from None
        return cls(read_int(data, "seat", 0, 3, "a seat"), read_str(data, "ask"),
                   read_str(data, "answer"), options)


class Fault(Enum):
    """What was wrong with an Olympiad answer."""

    TIMEOUT = "timeout"
    ILLEGAL = "illegal"


@dataclass(frozen=True)
class ViolationRecord:
    """An Olympiad answer the referee did not take: late, illegal or unreadable; the
    table played the default action instead (or the seat forfeited, by ``policy``)."""

    seat: int
    step: int
    kind: Fault
    detail: str
    policy: str

    def fields_json(self) -> JSON:
        """The violation's own fields (the ``--json`` summary lists these)."""
        return {"seat": self.seat, "step": self.step, "kind": self.kind.value,
                "detail": self.detail, "policy": self.policy}

    def to_json(self) -> JSON:
        return {"violation": self.fields_json()}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ViolationRecord:
        refuse_unknown(data, ["violation"], "violation")
        inner = data.get("violation")
        if not isinstance(inner, dict):
            raise RecordError(f"field 'violation': expected an object, got {inner!r}")
        refuse_unknown(inner, [f.name for f in fields(cls)], "violation")
        return cls(read_int(inner, "seat", 0, 3, "a seat"), read_int(inner, "step"),
                   read_enum(Fault, inner, "kind"), read_str(inner, "detail"),
                   read_str(inner, "policy"))


DecisionLine = DecisionRecord | JudgeAnswer | AskAnswer | ViolationRecord
"""A record's ``decision`` line, by its writer."""


def decision_from_json(data: Mapping[str, Any]) -> DecisionLine:
    """A ``decision`` line: its fields say which writer's it is."""
    if "violation" in data:
        return ViolationRecord.from_json(data)
    if "ask" in data:
        return AskAnswer.from_json(data)
    if "verdict" in data or "response" in data:
        return JudgeAnswer.from_json(data)
    if "action" in data:
        return DecisionRecord.from_json(data)
    raise RecordError("a decision line needs 'action' (a seat's decision), 'verdict' (a "
                      "judge's answer), 'ask' (an Olympiad answer) or 'violation'")
