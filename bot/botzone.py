"""``mjbot play botzone``: the bot on Botzone's stdin/stdout protocol.

Both interactions (simple: line counts; JSON: one object per turn), with
keep-running (answer, print ``>>>BOTZONE_REQUEST_KEEP_RUNNING<<<``, then read
only the next request) or without it (rebuild the seat from the history each
turn).  Each request becomes events for the shared :class:`bot.session.SeatSession`
(the same one the Olympiad client uses): an answer that is late, fails or is
not legal is replaced by the safest legal action, and the reason goes to
stderr (JSON: the debug field), never to the answer line.
"""

from __future__ import annotations

import contextlib
import json
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TextIO

from bot.agent import Agent, Decision
from bot.session import SeatSession
from game.rules import MCR_BOTZONE, Ruleset
from protocols.botzone_codec import (
    ProtocolError,
    RequestDecoder,
    format_response,
    parse_response,
)
from protocols.botzone_envelope import KEEP_RUNNING
from strategy.knowledge import KnowledgeError


@dataclass
class Answer:
    response: str
    debug: str
    decision: Decision | None


class BotzoneSeat:
    """One seat: decodes requests into events for the shared :class:`SeatSession`."""

    def __init__(self, rules: Ruleset = MCR_BOTZONE, think_seconds: float = 0.8,
                 agent: Agent | None = None) -> None:
        self.rules = rules
        self.think_seconds = think_seconds
        self.session = SeatSession(agent or Agent(rules))
        self.agent = self.session.agent
        self.decoder = RequestDecoder()
        self.turns = 0

    def close(self) -> None:
        self.session.close()

    def observe_only(self, request: str, response: str = "") -> None:
        """Apply a past request and note the answer given to it (history replay)."""
        self.agent.observe(self.decoder.decode(request))
        if response:
            with contextlib.suppress(ProtocolError):
                self.agent.view.answered(parse_response(response))

    def answer(self, request: str) -> Answer:
        self.turns += 1
        try:
            self.session.observe([self.decoder.decode(request)])
        except ProtocolError as exc:
            self.session.lose(f"bad request: {exc}")
        if not self.session.asked() and not self.session.lost:
            return Answer("PASS", "", None)
        # the platform doubles the first turns' limit; we think for 80 % of ours
        limit = self.think_seconds * (2 if self.turns <= 3 else 1)
        decision = self.session.answer_now(limit)
        debug = decision.note if decision.method == "fallback" else ""
        return Answer(format_response(decision.action), debug, decision)


# ---------------------------------------------------------------- the stdin/stdout loop
def _lines(stream: TextIO) -> Iterator[str]:
    for line in stream:
        yield line.rstrip("\r\n")


def _next_request(lines: Iterator[str]) -> str | None:
    """The next request in keep-running mode: skips blank data/globaldata lines; accepts a bare
    line, a JSON-quoted string or a JSON object with ``requests``."""
    for line in lines:
        text = line.strip()
        if not text:
            continue
        if text.startswith('"'):
            try:
                value = json.loads(text)
                return str(value)
            except json.JSONDecodeError:
                return text.strip('"')
        if text.startswith("{"):
            try:
                obj = json.loads(text)
            except json.JSONDecodeError:
                return text
            requests = obj.get("requests") or []
            return str(requests[-1]) if requests else ""
        return text
    return None


def run(stdin: TextIO, stdout: TextIO, stderr: TextIO, *, rules: Ruleset = MCR_BOTZONE,
        keep_running: bool = True, think_seconds: float = 0.8,
        log: Callable[[str], None] | None = None) -> int:
    """Serve one Botzone bot process until stdin ends (or after one turn without keep-running)."""
    seat = BotzoneSeat(rules, think_seconds)
    lines = _lines(stdin)
    first = next(lines, None)
    while first is not None and not first.strip():
        first = next(lines, None)
    if first is None:
        return 0
    json_mode = first.lstrip().startswith("{")
    try:
        if json_mode:
            obj = json.loads(first)
            requests = [str(r) for r in obj.get("requests", [])]
            responses = [str(r) for r in obj.get("responses", [])]
        else:
            n = int(first.strip())
            history = [next(lines, "") for _ in range(2 * n - 1)]
            requests = history[0::2]
            responses = history[1::2]
    except (ValueError, json.JSONDecodeError) as exc:
        stderr.write(f"mjbot: unreadable first input ({exc}); answering PASS\n")
        _write(stdout, "PASS", "", json_mode)
        return 0
    for i, past in enumerate(requests[:-1]):
        try:
            seat.observe_only(past, responses[i] if i < len(responses) else "")
        except (ProtocolError, KnowledgeError, ValueError) as exc:
            stderr.write(f"mjbot: history line {past!r} skipped: {exc}\n")
            seat.session.lose(f"history line {past!r}: {exc}")
    current = requests[-1] if requests else ""
    while True:
        answer = seat.answer(current)
        if answer.debug:
            stderr.write(f"mjbot: {answer.debug}\n")
            stderr.flush()
        _write(stdout, answer.response, answer.debug, json_mode)
        if log is not None and answer.decision is not None:
            log(json.dumps(answer.decision.info()))
        if not keep_running:
            break
        stdout.write(KEEP_RUNNING + "\n")
        stdout.flush()
        nxt = _next_request(lines)
        if nxt is None:
            break
        current = nxt
    seat.close()
    return 0


def _write(stdout: TextIO, response: str, debug: str, json_mode: bool) -> None:
    if json_mode:
        stdout.write(json.dumps({"response": response, "debug": debug[:1000]},
                                separators=(",", ":")) + "\n")
    else:
        stdout.write(response + "\n")
    stdout.flush()


def main(keep_running: bool = True, think_seconds: float = 0.8) -> int:
    return run(sys.stdin, sys.stdout, sys.stderr, keep_running=keep_running,
               think_seconds=think_seconds)
