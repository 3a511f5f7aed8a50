"""``mjbot play botzone``: the bot on Botzone's stdin/stdout protocol.

Both interactions (simple: line counts; JSON: one object per turn), with
keep-running (answer, print ``>>>BOTZONE_REQUEST_KEEP_RUNNING<<<``, then read
only the next request) or without it (rebuild the seat from the history each
turn).  Each request becomes events for the shared :class:`bot.session.SeatSession`
(the same one the Olympiad client uses): an answer that is late, fails or is
not legal is replaced by the safest legal action, and the reason goes to
stderr (JSON: the debug field), never to the answer line.
"""

import contextlib
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TextIO

from bot.agent import Decision, Strategy
from bot.platform import PlatformSeat
from bot.session import SeatSession
from game.events import Discard, Event
from game.rules import MCR_BOTZONE, Ruleset
from game.tiles import Notation, TileError, is_flower, parse_tile
from protocols.botzone_codec import (
    ProtocolError,
    RequestDecoder,
    format_response,
    parse_response,
)
from protocols.botzone_envelope import (
    KEEP_RUNNING,
    MAX_LINE_CHARS,
    EnvelopeError,
    format_answer,
    read_first_input,
    read_next_request,
)
from strategy.policy import Method

THINK_SECONDS = 2.0
"""Thinking time per turn: a safe share of Botzone's 6 s for Python (the session's
deadline is 80 % of it; the first turns get double, as the platform's limit is)."""


@dataclass
class Answer:
    response: str
    debug: str
    decision: "Decision | None"


class BotzoneSeat(PlatformSeat[str, str]):
    """The Botzone dialect: request lines in, response text out."""

    def __init__(self, rules: "Ruleset" = MCR_BOTZONE, think_seconds: float = THINK_SECONDS,
                 strategy: "Strategy | None" = None, *, work_budget: "int | None" = None) -> None:
        super().__init__(SeatSession(rules, strategy, work_budget=work_budget))
        self.rules = rules
        self.think_seconds = think_seconds
        self.decoder = RequestDecoder()
        self.turns = 0

    def decode(self, wire: str) -> "list[Event]":
        return [self.decoder.decode(wire)]

    def close(self) -> None:
        self.session.close()

    def encode(self, decision: "Decision") -> str:
        return format_response(decision.action)

    def observe_only(self, request: str, response: str = "") -> None:
        """Apply a past request and note the answer given to it (history replay)."""
        self.take(request)
        if response:
            with contextlib.suppress(ProtocolError):
                self.session.answered(parse_response(response))

    def answer(self, request: str) -> "Answer":
        self.turns += 1
        applied = self.take(request)
        session = self.session
        if not session.asked() and not session.lost:
            return Answer("PASS", "", None)
        if not applied:
            drawn = self._unapplied_draw(request)
            if drawn is not None:
                return Answer(self.encode(drawn), drawn.note, drawn)
        # the platform doubles the first turns' limit; we think for 80 % of ours
        limit = self.think_seconds * (2 if self.turns <= 3 else 1)
        decision = session.answer_now(limit)
        debug = decision.note if decision.fell_back else ""
        return Answer(self.encode(decision), debug, decision)

    def _unapplied_draw(self, request: str) -> "Decision | None":
        """Our own draw (``2 T``) that could not be applied still asks for a discard, and
        the judge punishes anything else: play the drawn tile when it reads (the judge
        gave it to us), else the last tile the view holds."""
        tokens = request.split()
        if not tokens or tokens[0] != "2":
            return None
        tile: "int | None" = None
        if len(tokens) == 2:
            with contextlib.suppress(TileError):
                tile = parse_tile(tokens[1], Notation.BOTZONE)
        held = self.session.view.concealed_tiles()
        if tile is None or is_flower(tile):
            tile = held[-1] if held else None
        if tile is None:
            return None
        decision = Decision(Discard(tile), Method.FALLBACK,
                            note=f"state lost: {self.session.lost}; discarding a held tile")
        self.session.answered(decision.action)
        return decision


# ---------------------------------------------------------------- the stdin/stdout loop
class LongLine(str):
    """What stands for an input line over :data:`MAX_LINE_CHARS`: a text no request
    reads as, naming the length; ``head`` is the line's start (its interaction)."""

    head: str = ""


def _lines(stream: "TextIO", limit: int = MAX_LINE_CHARS) -> "Iterator[str]":
    """The input's lines without their ends; a line longer than ``limit`` is read in
    pieces and dropped (a :class:`LongLine` in its place), so it is answered at once and
    never held whole."""
    while True:
        line = stream.readline(limit + 1)
        if not line:
            return
        if len(line) <= limit or line.endswith("\n"):
            yield line.rstrip("\r\n")
            continue
        head, length = line[:100], len(line)
        while line and not line.endswith("\n"):
            line = stream.readline(limit)
            length += len(line)
        long = LongLine(f"<an input line of {length} characters, more than {limit}>")
        long.head = head
        yield long


def run(stdin: "TextIO", stdout: "TextIO", stderr: "TextIO", *, rules: "Ruleset" = MCR_BOTZONE,
        keep_running: bool = True, think_seconds: float = THINK_SECONDS,
        log: "Callable[[str], None] | None" = None,
        strategy: "Callable[[Ruleset], Strategy] | None" = None,
        work_budget: "int | None" = None, first_answered: bool = False) -> int:
    """Serve one Botzone bot process until stdin ends (or after one turn without keep-running).

    Every request gets exactly one answer line (and the keep-running marker in that
    mode), whatever the input: unreadable input is answered safely and said once on
    stderr, clipped.  ``strategy``: makes the strategy for the rules (called once, after
    the seat request is answered), else the default strategy (``mjbot play botzone
    --sample`` passes the arena's sampling planner).
    ``work_budget``: decide on this many kernel calls instead of the clock, so the same
    requests get the same answers on any machine and load (reproducible local games).
    ``first_answered``: the first request was answered before the player was loaded
    (:mod:`bot.start`), so its answer (and keep-running marker) is not written again."""
    seat = BotzoneSeat(rules, think_seconds, None if strategy is None else strategy(rules),
                       work_budget=work_budget)
    reconfigure = getattr(stdin, "reconfigure", None)
    if reconfigure is not None:  # bytes that are not UTF-8 reach the decoder, which says so
        with contextlib.suppress(Exception):
            reconfigure(errors="replace")
    lines = _lines(stdin)
    first = next(lines, None)
    while first is not None and not first.strip():
        first = next(lines, None)
    if first is None:
        return 0
    json_mode = (first.head if isinstance(first, LongLine) else first).lstrip().startswith("{")
    said = ""

    def say(note: str) -> None:
        nonlocal said
        if note and note != said:
            stderr.write(f"mjbot: {note[:500]}\n")
            stderr.flush()
            said = note

    current: "str | None"
    try:
        opening = read_first_input(first, lambda: next(lines, None))
    except EnvelopeError as exc:
        seat.session.lose(f"unreadable first input: {exc}")
        current = None
    else:
        for i, past in enumerate(opening.requests[:-1]):
            seat.observe_only(past, opening.responses[i] if i < len(opening.responses) else "")
        current = opening.requests[-1]
        # the turn of the game, not of this process: without keep-running every process
        # starts at its game's latest request, and only the first turns get double time
        seat.turns = len(opening.requests) - 1
    while True:
        answer = seat.answer(current) if current is not None else Answer(
            "PASS", f"state lost: {seat.session.lost}", None)
        if not first_answered:
            say(answer.debug)
            stdout.write(format_answer(answer.response, answer.debug, json_mode) + "\n")
            stdout.flush()
            if log is not None and answer.decision is not None:
                log(json.dumps(answer.decision.info()))
        if not keep_running:
            break
        if not first_answered:
            stdout.write(KEEP_RUNNING + "\n")
            stdout.flush()
        first_answered = False
        current = None
        for line in lines:
            current = read_next_request(line)
            if current is not None:
                break
        if current is None:
            break
    seat.close()
    return 0
