"""The Botzone interaction envelope, both ends of the wire.

Botzone speaks to a bot in one of two *interactions*, with or without
*keep-running* (``>>>BOTZONE_REQUEST_KEEP_RUNNING<<<``):

- simple: ``n``, then 2n-1 lines (requests and the bot's own responses
  alternating), then the ``data`` and ``globaldata`` lines; the bot answers its
  response on the first line, then optional debug, data and globaldata lines;
- JSON: one object ``{"requests", "responses", "data", "globaldata",
  "time_limit", "memory_limit"}`` in, one compact ``{"response", "debug", ...}``
  line out;
- keep-running: a bot that prints the marker after its answer is paused and later
  gets only the new request (simple: the bare line; JSON: the request as a JSON
  string).

The platform's end (:class:`SimpleInteraction`, :class:`JsonInteraction`: turn a
seat's turn into input text and read the program's output) is what the judge
mock (:mod:`arena.platforms.botzone_judge`) writes and reads; the bot's end
(:func:`read_first_input`, :func:`read_next_request`, :func:`format_answer`) is
what ``mjbot play botzone`` (:mod:`bot.botzone`) reads and writes.  Pure text,
no I/O.
"""

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Union

from game.compat import ascii_digits
from protocols.botzone_codec import clip
from protocols.bounded_json import JsonInputError, loads_bounded

KEEP_RUNNING = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"
"""The line a program prints after its answer to stay running."""


class Interaction(Enum):
    SIMPLE = "simple"
    JSON = "json"


# ---------------------------------------------------------------- one turn, as data
@dataclass(frozen=True)
class TurnInput:
    """What a seat is asked on one turn of a game."""

    turn: int
    """1 for the seat's first request of the game."""
    requests: "tuple[str, ...]"
    """Every request of the game so far, the new one last."""
    responses: "tuple[str, ...]"
    """The seat's answers to the earlier requests."""
    time_limit: float
    """Seconds for this turn when the program starts afresh for it (already doubled on the
    first turn)."""
    data: str = ""
    globaldata: str = ""
    kept_running_limit: "float | None" = None
    """Seconds for this turn when a kept-running program is resumed for it (Botzone: 4 s for
    Python, against 6 s for a fresh start); None: ``time_limit``."""



# ---------------------------------------------------------------- interactions (pure text)
@dataclass(frozen=True)
class Output:
    """A program's output lines for one turn, read by an interaction."""

    response: str
    unreadable: "str | None" = None
    debug: str = ""
    data: str = ""
    globaldata: "str | None" = None


def _number(x: float) -> "int | float":
    return int(x) if float(x).is_integer() else x


class SimpleInteraction:
    """Line counts: ``n``, then 2n-1 lines of requests and own responses, then data and
    globaldata; the answer is the first line, then optional debug, data, globaldata lines."""

    mode = Interaction.SIMPLE

    def first_input(self, turn: "TurnInput", memory_limit: int) -> str:
        lines = [str(len(turn.requests))]
        for i, request in enumerate(turn.requests):
            lines.append(request)
            if i < len(turn.requests) - 1:
                lines.append(turn.responses[i])
        lines += [turn.data, turn.globaldata]
        return "\n".join(lines) + "\n"

    def next_input(self, request: str) -> str:
        return request + "\n"

    def read_output(self, lines: "Sequence[str]") -> "Output":
        padded = [*lines, "", "", ""]
        globaldata = lines[3] if len(lines) > 3 else None
        return Output(response=padded[0], debug=padded[1], data=padded[2], globaldata=globaldata)


class JsonInteraction:
    """One JSON object per turn in; one compact JSON line ``{"response": ...}`` out.

    ``time_limit`` in the input is this turn's limit in seconds (doubled on the first
    turn), ``memory_limit`` the platform's in MB (not enforced here)."""

    mode = Interaction.JSON

    def first_input(self, turn: "TurnInput", memory_limit: int) -> str:
        obj = {
            "requests": list(turn.requests),
            "responses": list(turn.responses),
            "data": turn.data,
            "globaldata": turn.globaldata,
            "time_limit": _number(turn.time_limit),
            "memory_limit": memory_limit,
        }
        return json.dumps(obj, separators=(",", ":")) + "\n"

    def next_input(self, request: str) -> str:
        return json.dumps(request) + "\n"

    def read_output(self, lines: "Sequence[str]") -> "Output":
        text = next((line for line in lines if line.strip()), "")
        if not text:
            return Output(response="", unreadable="no output")
        try:
            obj = loads_bounded(text, max_chars=MAX_LINE_CHARS)
        except JsonInputError as exc:
            return Output(response=text[:200], unreadable=f"output is not JSON ({exc})")
        if not isinstance(obj, dict) or "response" not in obj:
            return Output(response=text[:200], unreadable='output has no "response" field')
        response = obj["response"]
        if not isinstance(response, str):
            return Output(response=json.dumps(response)[:200],
                          unreadable='"response" is not a string')
        globaldata = obj.get("globaldata")
        return Output(response=response, debug=_text(obj.get("debug", "")),
                      data=_text(obj.get("data", "")),
                      globaldata=None if globaldata is None else _text(globaldata))


def _text(value: object) -> str:
    return value if isinstance(value, str) else json.dumps(value)


InteractionStyle = Union[SimpleInteraction, JsonInteraction]


def interaction_for(mode: "Interaction | str") -> "InteractionStyle":
    return SimpleInteraction() if Interaction(mode) is Interaction.SIMPLE else JsonInteraction()




# ---------------------------------------------------------------- the bot's end
MAX_HISTORY_REQUESTS = 1000
"""More requests than any Botzone game sends to one seat (about 300 at most): a first
line announcing more is refused rather than read."""
MAX_DEBUG_CHARS = 1000
MAX_LINE_CHARS = 1 << 22
"""The longest input line read (4 MiB: a whole game's history with its data is far
shorter); a longer one is answered as unreadable without being kept."""
MAX_JSON_DEPTH = 16
"""The deepest nesting read in an input (Botzone's go 2 deep)."""


class EnvelopeError(ValueError):
    """Input that does not follow the interaction; the message names what was wrong."""


@dataclass(frozen=True)
class FirstInput:
    """The first turn as the bot reads it: the game's requests so far (the new one last)
    and the bot's own earlier responses."""

    json_mode: bool
    requests: "tuple[str, ...]"
    responses: "tuple[str, ...]"


def _strings(value: object, field: str) -> "tuple[str, ...]":
    if not isinstance(value, list):
        raise EnvelopeError(f'"{field}" is {type(value).__name__}, not a list')
    if len(value) > MAX_HISTORY_REQUESTS:
        raise EnvelopeError(f'"{field}" holds {len(value)} items, more than '
                            f"{MAX_HISTORY_REQUESTS}")
    return tuple(v if isinstance(v, str) else json.dumps(v) for v in value)


def read_first_input(first: str, more: "Callable[[], str | None]") -> "FirstInput":
    """The first input: a JSON object (JSON interaction) or ``n`` and 2n-1 lines (simple;
    ``more`` gives the next line, None at the end of input).  Raises
    :class:`EnvelopeError` naming what was wrong; nothing beyond the announced lines is read."""
    text = first.strip()
    if text.startswith("{"):
        try:
            obj = loads_bounded(text, max_depth=MAX_JSON_DEPTH, max_chars=MAX_LINE_CHARS)
        except JsonInputError as exc:
            raise EnvelopeError(f"first input is not JSON ({exc})") from None
        if not isinstance(obj, dict):
            raise EnvelopeError("first input is not a JSON object")
        requests = _strings(obj.get("requests", []), "requests")
        responses = _strings(obj.get("responses", []), "responses")
        if not requests:
            raise EnvelopeError('"requests" is empty')
        return FirstInput(True, requests, responses)
    if not ascii_digits(text):  # '²' is a digit to str.isdigit
        raise EnvelopeError(f"first line {clip(text)} is neither a number nor a JSON object")
    if len(text) > 12:  # no int() of thousands of digits
        raise EnvelopeError(f"first line announces a {len(text)}-digit number of requests: "
                            f"expected 1 to {MAX_HISTORY_REQUESTS}")
    n = int(text)
    if not 1 <= n <= MAX_HISTORY_REQUESTS:
        raise EnvelopeError(f"first line announces {n} requests: expected 1 to "
                            f"{MAX_HISTORY_REQUESTS}")
    history: "list[str]" = []
    for _ in range(2 * n - 1):
        line = more()
        if line is None:
            raise EnvelopeError(f"input ended after {len(history)} of the {2 * n - 1} "
                                "history lines")
        history.append(line)
    return FirstInput(False, tuple(history[0::2]), tuple(history[1::2]))


def read_next_request(line: str) -> "str | None":
    """A keep-running turn's request: a bare line, a JSON string or a JSON object whose
    ``requests`` list ends with it.  None for a blank line (Botzone's empty data lines)."""
    text = line.strip()
    if not text:
        return None
    if text.startswith('"'):
        try:
            value = loads_bounded(text, max_depth=MAX_JSON_DEPTH, max_chars=MAX_LINE_CHARS)
        except JsonInputError:
            return text.strip('"')
        return value if isinstance(value, str) else json.dumps(value)
    if text.startswith("{"):
        try:
            obj = loads_bounded(text, max_depth=MAX_JSON_DEPTH, max_chars=MAX_LINE_CHARS)
        except JsonInputError:
            return text
        requests = obj.get("requests") if isinstance(obj, dict) else None
        if isinstance(requests, list) and requests:
            last = requests[-1]
            return last if isinstance(last, str) else json.dumps(last)
        return text
    return text


def format_answer(response: str, debug: str, json_mode: bool) -> str:
    """The answer line (without its newline); debug text only in the JSON interaction,
    cut to :data:`MAX_DEBUG_CHARS`."""
    if json_mode:
        return json.dumps({"response": response, "debug": debug[:MAX_DEBUG_CHARS]},
                          separators=(",", ":"))
    return response
