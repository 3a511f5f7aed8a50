"""The PKU course data set's text format (Botzone contest games), and a replay of it.

One match per block::

    Match <id>
    Wind <0-3>
    Player <n> Deal <13 tiles>              (x4)
    Player <n> Draw|Play|Chi|Peng|Gang|AnGang|BuGang|Hu <tile>
               [Ignore Player <m> <Action> <tile>]...     (on one line)
    Fan <total> <name>*<count>+...          or   Huang
    Score <s0> <s1> <s2> <s3>

``Chi`` names the middle tile of the chow, ``Peng``/``Gang`` the claimed tile;
each claim line is followed by the claimer's ``Play`` (or, after a kong, its
``Draw``).  ``Ignore`` lists claims that lost to the one made.

The games were played on Botzone's duplicate walls, so the tiles each seat
took (deal, then draws) give back the part of the 136-tile ``walltiles`` that
was used (:func:`walltiles_of`), and the lines give back the four seats'
answers at every stage (:func:`botzone_responses`): a match can be replayed
through ``game.table``.

Text outside a block (before the first ``Match``, after a ``Score``) is
skipped: the public sample file carries notes after its 16 matches.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from game import events as ev
from game.rules import MCR_BOTZONE, PER_SEAT_WALL
from game.tiles import NUM_KINDS, Notation, TileError, parse_tile
from game.turn_order import SEATS

HAND_SIZE = MCR_BOTZONE.hand_size


class PkuFormatError(ValueError):
    """A line of the data file that cannot be read; the message gives line and token."""


class PkuVerb(Enum):
    DRAW = "Draw"
    PLAY = "Play"
    CHI = "Chi"
    PENG = "Peng"
    GANG = "Gang"
    ANGANG = "AnGang"
    BUGANG = "BuGang"
    HU = "Hu"


@dataclass(frozen=True)
class PkuClaim:
    """``seat`` did ``verb`` with ``tile`` (a claim that lost, in an ``Ignore`` suffix)."""

    seat: int
    verb: PkuVerb
    tile: int


@dataclass(frozen=True)
class PkuStep:
    """One ``Player`` line after the deals."""

    seat: int
    verb: PkuVerb
    tile: int
    ignored: tuple[PkuClaim, ...] = ()
    line: int = 0


@dataclass(frozen=True)
class PkuMatch:
    match_id: str
    prevalent_wind: int
    deals: tuple[tuple[int, ...], ...]
    """Each seat's 13 dealt tiles, in the order given."""
    steps: tuple[PkuStep, ...]
    fan_total: int | None
    """``None`` for a draw game (``Huang``)."""
    fans: tuple[tuple[str, int], ...]
    """``(name, count)`` per fan as written on the ``Fan`` line."""
    scores: tuple[int, int, int, int]
    line: int = 0


# ---------------------------------------------------------------- parsing
def _tile(token: str, line_no: int) -> int:
    try:
        tile = parse_tile(token, Notation.BOTZONE)
    except TileError:
        raise PkuFormatError(f"line {line_no}: unknown tile {token!r}") from None
    if tile >= NUM_KINDS:
        raise PkuFormatError(f"line {line_no}: flower {token!r} where a hand tile belongs")
    return tile


def _int(token: str, line_no: int, what: str) -> int:
    try:
        return int(token)
    except ValueError:
        raise PkuFormatError(f"line {line_no}: {what} {token!r} is not a number") from None


def _seat(token: str, line_no: int) -> int:
    seat = _int(token, line_no, "seat")
    if not 0 <= seat < SEATS:
        raise PkuFormatError(f"line {line_no}: seat {token!r} is outside 0-3")
    return seat


def _verb(token: str, line_no: int) -> PkuVerb:
    try:
        return PkuVerb(token)
    except ValueError:
        raise PkuFormatError(f"line {line_no}: unknown action {token!r}") from None


def _claim(tokens: list[str], line_no: int) -> PkuClaim:
    """``Player <n> <Verb> <tile>`` (exactly four tokens)."""
    if len(tokens) != 4 or tokens[0] != "Player":
        raise PkuFormatError(f"line {line_no}: expected 'Player <n> <Action> <tile>', got {tokens}")
    return PkuClaim(_seat(tokens[1], line_no), _verb(tokens[2], line_no), _tile(tokens[3], line_no))


def _step(tokens: list[str], line_no: int) -> PkuStep:
    head, *rest = " ".join(tokens).split(" Ignore ")
    main = _claim(head.split(), line_no)
    ignored = tuple(_claim(part.split(), line_no) for part in rest)
    return PkuStep(main.seat, main.verb, main.tile, ignored, line_no)


def _fans(tokens: list[str], line_no: int) -> tuple[int, tuple[tuple[str, int], ...]]:
    if len(tokens) < 2:
        raise PkuFormatError(f"line {line_no}: 'Fan' needs a total, got {tokens}")
    total = _int(tokens[1], line_no, "fan total")
    fans = []
    for part in " ".join(tokens[2:]).split("+") if len(tokens) > 2 else []:
        name, star, count = part.partition("*")
        if not star or not name:
            raise PkuFormatError(f"line {line_no}: fan {part!r} is not '<name>*<count>'")
        fans.append((name, _int(count, line_no, "fan count")))
    return total, tuple(fans)


class _MatchBuilder:
    def __init__(self, match_id: str, line_no: int) -> None:
        self.match_id = match_id
        self.line_no = line_no
        self.wind: int | None = None
        self.deals: dict[int, tuple[int, ...]] = {}
        self.steps: list[PkuStep] = []
        self.fan_total: int | None = None
        self.fans: tuple[tuple[str, int], ...] = ()
        self.ended = False

    def add(self, tokens: list[str], line_no: int) -> PkuMatch | None:
        key = tokens[0]
        if key == "Wind":
            if len(tokens) != 2:
                raise PkuFormatError(f"line {line_no}: 'Wind' takes one number, got {tokens}")
            self.wind = _int(tokens[1], line_no, "wind")
            if not 0 <= self.wind < 4:
                raise PkuFormatError(f"line {line_no}: wind {tokens[1]!r} is outside 0-3")
        elif key == "Player" and len(tokens) > 2 and tokens[2] == "Deal":
            if len(tokens) != 3 + HAND_SIZE:
                raise PkuFormatError(f"line {line_no}: a deal needs 13 tiles, got {tokens[3:]}")
            self.deals[_seat(tokens[1], line_no)] = tuple(_tile(t, line_no) for t in tokens[3:])
        elif key == "Player":
            self.steps.append(_step(tokens, line_no))
        elif key == "Fan":
            self.fan_total, self.fans = _fans(tokens, line_no)
            self.ended = True
        elif key == "Huang":
            self.ended = True
        elif key == "Score":
            return self._finish(tokens, line_no)
        else:
            raise PkuFormatError(f"line {line_no}: unknown line type {key!r}")
        return None

    def _finish(self, tokens: list[str], line_no: int) -> PkuMatch:
        if len(tokens) != 1 + SEATS:
            raise PkuFormatError(f"line {line_no}: 'Score' takes four numbers, got {tokens}")
        if not self.ended:
            raise PkuFormatError(f"line {line_no}: 'Score' before 'Fan' or 'Huang'")
        if self.wind is None or sorted(self.deals) != list(range(SEATS)):
            raise PkuFormatError(
                f"match {self.match_id} (line {self.line_no}) lacks its wind or a deal"
            )
        s0, s1, s2, s3 = (_int(t, line_no, "score") for t in tokens[1:])
        return PkuMatch(
            match_id=self.match_id,
            prevalent_wind=self.wind,
            deals=tuple(self.deals[s] for s in range(SEATS)),
            steps=tuple(self.steps),
            fan_total=self.fan_total,
            fans=self.fans,
            scores=(s0, s1, s2, s3),
            line=self.line_no,
        )


def parse_pku_datatxt(text: str) -> list[PkuMatch]:
    """Every match block in ``text``."""
    matches: list[PkuMatch] = []
    current: _MatchBuilder | None = None
    for line_no, raw in enumerate(text.splitlines(), start=1):
        tokens = raw.split()
        if not tokens:
            continue
        if tokens[0] == "Match":
            if current is not None:
                raise PkuFormatError(
                    f"line {line_no}: match {current.match_id} (line {current.line_no}) "
                    "has no 'Score' line"
                )
            if len(tokens) != 2:
                raise PkuFormatError(f"line {line_no}: 'Match' takes one id, got {tokens}")
            current = _MatchBuilder(tokens[1], line_no)
        elif current is not None:
            finished = current.add(tokens, line_no)
            if finished is not None:
                matches.append(finished)
                current = None
    if current is not None:
        raise PkuFormatError(f"match {current.match_id} (line {current.line_no}) is cut short")
    return matches


# ---------------------------------------------------------------- replay
def tiles_taken(match: PkuMatch) -> tuple[tuple[int, ...], ...]:
    """Per seat, the tiles it took from its own wall in order: deal, then every draw."""
    taken = [list(deal) for deal in match.deals]
    for step in match.steps:
        if step.verb is PkuVerb.DRAW:
            taken[step.seat].append(step.tile)
    return tuple(tuple(t) for t in taken)


def walltiles_of(match: PkuMatch) -> tuple[int, ...]:
    """A 136-tile duplicate ``walltiles`` that deals and draws exactly as the match did.

    Seat ``i`` takes from the back of ``walltiles[34i .. 34i+33]``; the tiles
    nobody drew fill the front of the walls in index order.
    """
    taken = tiles_taken(match)
    left = [4] * NUM_KINDS
    for seat, tiles in enumerate(taken):
        if len(tiles) > PER_SEAT_WALL:
            raise PkuFormatError(f"match {match.match_id}: seat {seat} took {len(tiles)} tiles; "
                                 f"a wall holds {PER_SEAT_WALL}")
        for t in tiles:
            left[t] -= 1
            if left[t] < 0:
                raise PkuFormatError(f"match {match.match_id}: a fifth copy of tile {t} was taken")
    unused = [t for t in range(NUM_KINDS) for _ in range(left[t])]
    wall: list[int] = []
    for tiles in taken:
        fill = PER_SEAT_WALL - len(tiles)
        wall += unused[:fill] + list(reversed(tiles))
        unused = unused[fill:]
    return tuple(wall)


StageResponses = tuple[ev.Action, ev.Action, ev.Action, ev.Action]
"""The four seats' answers at one stage of the judge."""


def _alone(seat: int, action: ev.Action) -> StageResponses:
    actions: list[ev.Action] = [ev.Pass()] * SEATS
    actions[seat] = action
    return (actions[0], actions[1], actions[2], actions[3])


_ALL_PASS: StageResponses = (ev.Pass(), ev.Pass(), ev.Pass(), ev.Pass())


def _losing_claim(claim: PkuClaim) -> ev.Action:
    """A claim that lost; its discard was never written down (nor checked by the judge)."""
    if claim.verb is PkuVerb.HU:
        return ev.DeclareWin()
    if claim.verb is PkuVerb.GANG:
        return ev.ClaimKong()
    if claim.verb is PkuVerb.PENG:
        return ev.ClaimAndDiscard(ev.ClaimPung(), claim.tile)
    if claim.verb is PkuVerb.CHI:
        return ev.ClaimAndDiscard(ev.ClaimChow(claim.tile), claim.tile)
    raise PkuFormatError(f"'Ignore' lists a {claim.verb.value}, which is not a claim")


class _Script:
    """Walks a match's steps and writes the four seats' answers, stage by stage."""

    def __init__(self, match: PkuMatch) -> None:
        self.match = match
        self.steps = match.steps
        self.stages: list[StageResponses] = [_ALL_PASS, _ALL_PASS]

    def at(self, i: int, what: str) -> PkuStep:
        if i >= len(self.steps):
            raise PkuFormatError(f"match {self.match.match_id} ends where {what} was expected")
        return self.steps[i]

    def expect(self, i: int, seat: int, verbs: tuple[PkuVerb, ...]) -> PkuStep:
        step = self.at(i, f"seat {seat} to {'/'.join(v.value for v in verbs)}")
        if step.seat != seat or step.verb not in verbs:
            raise PkuFormatError(
                f"line {step.line}: expected seat {seat} to "
                f"{'/'.join(v.value for v in verbs)}, got Player {step.seat} {step.verb.value}"
            )
        return step

    def run(self) -> list[StageResponses]:
        i = 0
        while i < len(self.steps):
            draw = self.steps[i]
            if draw.verb is not PkuVerb.DRAW:
                raise PkuFormatError(f"line {draw.line}: expected a Draw, got {draw.verb.value}")
            i = self.after_draw(i + 1, draw.seat)
        return self.stages

    def after_draw(self, i: int, seat: int) -> int:
        verbs = (PkuVerb.PLAY, PkuVerb.ANGANG, PkuVerb.BUGANG, PkuVerb.HU)
        act = self.expect(i, seat, verbs)
        if act.verb is PkuVerb.HU:
            self.stages.append(_alone(seat, ev.DeclareWin()))
            return i + 1
        if act.verb is PkuVerb.PLAY:
            self.stages.append(_alone(seat, ev.Discard(act.tile)))
            return self.after_discard(i + 1)
        if act.verb is PkuVerb.ANGANG:
            self.stages.append(_alone(seat, ev.DeclareConcealedKong(act.tile)))
            self.stages.append(_ALL_PASS)
            return i + 1
        self.stages.append(_alone(seat, ev.DeclareAddedKong(act.tile)))
        robber = self.steps[i + 1] if i + 1 < len(self.steps) else None
        if robber is not None and robber.verb is PkuVerb.HU and robber.seat != seat:
            self.stages.append(_alone(robber.seat, ev.DeclareWin()))
            return i + 2
        self.stages.append(_ALL_PASS)
        return i + 1

    def after_discard(self, i: int) -> int:
        """Claims on a discard (the step before ``i``); returns the next step to read."""
        while True:
            if i >= len(self.steps) or self.steps[i].verb is PkuVerb.DRAW:
                self.stages.append(_ALL_PASS)
                return i
            claim = self.steps[i]
            answers: list[ev.Action] = [ev.Pass()] * SEATS
            for lost in claim.ignored:
                answers[lost.seat] = _losing_claim(lost)
            if claim.verb in (PkuVerb.HU, PkuVerb.GANG):
                answers[claim.seat] = (ev.DeclareWin() if claim.verb is PkuVerb.HU
                                       else ev.ClaimKong())
                self.stages.append((answers[0], answers[1], answers[2], answers[3]))
                if claim.verb is PkuVerb.GANG:
                    self.stages.append(_ALL_PASS)
                return i + 1
            if claim.verb not in (PkuVerb.CHI, PkuVerb.PENG):
                raise PkuFormatError(f"line {claim.line}: {claim.verb.value} is not a claim")
            play = self.expect(i + 1, claim.seat, (PkuVerb.PLAY,))
            answers[claim.seat] = ev.ClaimAndDiscard(
                ev.ClaimChow(claim.tile) if claim.verb is PkuVerb.CHI else ev.ClaimPung(),
                play.tile)
            self.stages.append((answers[0], answers[1], answers[2], answers[3]))
            i += 2


def botzone_responses(match: PkuMatch) -> list[StageResponses]:
    """The four seats' answers at every stage of the Botzone judge, seating and deal first."""
    return _Script(match).run()
