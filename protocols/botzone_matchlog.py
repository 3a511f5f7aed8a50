"""Botzone match logs: the JSON a Botzone match page downloads (``*_lite.json``).

A log is an object with ``initdata`` (the judge's start data: ``walltiles``, the 136
duplicate-wall tiles in Botzone notation, and ``quan``, the prevalent wind; a JSON
string or an object), ``players`` (their names) and ``logs``, which alternates:

- the judge's entries (even places): ``output.command`` is ``request``, with
  ``output.content`` the request text of each seat (``"0"`` .. ``"3"``), or ``finish``
  at the end of the game;
- the bots' answers to the request before (odd places): one object per seat with its
  ``verdict`` (``OK``, ``TLE``, ...) and ``response`` text (none after a time-out).

:func:`read_match_log` reads one with limits (size and nesting depth are checked before
parsing, :func:`protocols.bounded_json.loads_bounded`; Botzone writes 7 levels) and checks
its whole shape at once: input that is not a match log is a :class:`MatchLogError`
naming the entry and the field (``logs[5].output.content.2``).  :func:`judge_table`
plays a log's answers through the judge mock (:class:`game.table.BotzoneTable`) on the
log's wall, which rebuilds every event of the game with every tile shown.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from game import events as ev
from game.table import BotzoneTable
from game.tiles import Notation, TileError, parse_tile
from game.turn_order import SEATS
from protocols.botzone_codec import decode_response
from protocols.bounded_json import MAX_DOCUMENT_CHARS, JsonInputError, loads_bounded


class MatchLogError(ValueError):
    """Text that is not a Botzone match log; the message names the entry and the field."""


@dataclass(frozen=True)
class Answer:
    """One bot's answer to a judge request: its verdict, and its response text (empty when
    it sent none, a time-out)."""

    verdict: str
    response: str

    def action(self) -> ev.Response:
        """The answer as the judge takes it: a fault unless the verdict is ``OK``, else the
        response decoded (an unreadable one is an :class:`game.events.InvalidAction`)."""
        if self.verdict != "OK":
            return ev.PlatformFault(self.verdict)
        return decode_response(self.response)


@dataclass(frozen=True)
class JudgeTurn:
    """One judge entry and the bots' answers to it."""

    entry: int
    """The judge entry's place in ``logs``."""
    command: str
    """``request`` or ``finish`` (anything else the judge wrote, as written)."""
    requests: tuple[str, ...]
    """Each seat's request text (empty unless the command is ``request``)."""
    answers: tuple[Answer | None, ...] | None
    """Each seat's answer (None: the log holds none for that seat); None when no answers
    follow (the finish, or a log that ends at a request)."""


@dataclass(frozen=True)
class MatchLog:
    """A Botzone match log, read and checked."""

    walltiles: tuple[int, ...]
    prevalent_wind: int
    names: tuple[str, str, str, str]
    """The players' names as the log gives them (``seat N`` where it gives none)."""
    turns: tuple[JudgeTurn, ...]

    @property
    def answered(self) -> list[JudgeTurn]:
        """The requests that the bots answered, in order (the judge's stages)."""
        return [t for t in self.turns if t.command == "request" and t.answers is not None]

    def stages(self) -> list[list[ev.Response]]:
        """The four seats' answers at every stage, as the judge takes them (a seat with no
        answer in the log is a ``missing`` fault)."""
        return [[ev.PlatformFault("missing") if a is None else a.action() for a in t.answers
                 or ()] for t in self.answered]

    def seat_lines(self, seat: int) -> list[tuple[str, str]]:
        """(request, response) lines of one seat, for every request the bots answered; a
        response the log does not hold (a time-out, no answer of the seat) is empty."""
        out = []
        for t in self.answered:
            answer = t.answers[seat] if t.answers is not None else None
            out.append((t.requests[seat], "" if answer is None else answer.response))
        return out

    @property
    def incomplete(self) -> str | None:
        """Why the log does not hold a whole game (None: the judge finished it)."""
        if not self.turns:
            return "the log holds no judge output"
        last = self.turns[-1]
        if last.command != "finish":
            return (f"the game was cut short: the judge's last output (of {len(self.turns)}) "
                    f"is a {last.command!r}, not 'finish'")
        return None


def read_match_log(text: str | bytes) -> MatchLog:
    """A Botzone match log from its text; :class:`MatchLogError` names what is wrong."""
    if not text.strip():
        raise MatchLogError("empty")
    try:
        data = loads_bounded(text, max_chars=MAX_DOCUMENT_CHARS)
    except JsonInputError as exc:
        raise MatchLogError(str(exc)) from None
    if not isinstance(data, dict) or not isinstance(data.get("logs"), list):
        raise MatchLogError("not a Botzone match log: expected an object with a 'logs' list")
    wall, quan = _initdata(data.get("initdata"))
    return MatchLog(wall, quan, _names(data.get("players")), _turns(data["logs"]))


def load_match_log(path: Path) -> MatchLog:
    """The match log in the file ``path``, read no further than the size allowed; the
    error names the file."""
    with path.open("rb") as f:
        raw = f.read(MAX_DOCUMENT_CHARS + 1)
    try:
        return read_match_log(raw)
    except MatchLogError as exc:
        raise MatchLogError(f"{path}: {exc}") from None


def judge_table(log: MatchLog) -> BotzoneTable:
    """The judge mock on the log's wall, fed the log's answers until the game or the log
    ends (:attr:`BotzoneTable.finished` says which)."""
    table = BotzoneTable(log.walltiles, log.prevalent_wind)
    for responses in log.stages():
        if table.finished:
            break
        table.respond(responses)
    return table


# ---------------------------------------------------------------- the parts
def _initdata(init: object) -> tuple[tuple[int, ...], int]:
    if isinstance(init, str):
        try:
            init = loads_bounded(init)
        except JsonInputError as exc:
            raise MatchLogError(f"initdata: {exc}") from None
    if not isinstance(init, dict):
        raise MatchLogError("initdata: expected the judge's start data (an object or its "
                            f"JSON text), got {type(init).__name__}")
    walltiles = init.get("walltiles")
    if not isinstance(walltiles, str):
        raise MatchLogError("initdata.walltiles: expected the wall's tiles as text")
    wall = []
    for i, token in enumerate(walltiles.split()):
        try:
            wall.append(parse_tile(token, Notation.BOTZONE))
        except TileError as exc:
            raise MatchLogError(f"initdata.walltiles[{i}]: {exc}") from None
    quan = init.get("quan", 0)
    if isinstance(quan, bool) or not isinstance(quan, int) or not 0 <= quan < SEATS:
        raise MatchLogError(f"initdata.quan: expected the prevalent wind 0-3, got {quan!r}")
    return tuple(wall), quan


def _names(players: object) -> tuple[str, str, str, str]:
    names = [f"seat {s}" for s in range(SEATS)]
    if isinstance(players, list) and len(players) == SEATS:
        names = [str(p.get("name", names[s])) if isinstance(p, dict) else str(p)
                 for s, p in enumerate(players)]
    return names[0], names[1], names[2], names[3]


def _turns(logs: list[Any]) -> tuple[JudgeTurn, ...]:
    turns = []
    for k in range(0, len(logs), 2):
        command, requests = _judge_entry(logs[k], f"logs[{k}]")
        answers = _answers(logs[k + 1], f"logs[{k + 1}]") if k + 1 < len(logs) else None
        turns.append(JudgeTurn(k, command, requests, answers))
    return tuple(turns)


def _judge_entry(entry: object, where: str) -> tuple[str, tuple[str, ...]]:
    output = _object(entry, where).get("output")
    if not isinstance(output, dict):
        raise MatchLogError(f"{where}.output: expected the judge's output object")
    command = output.get("command")
    if not isinstance(command, str):
        raise MatchLogError(f"{where}.output.command: expected text, got {command!r}")
    if command != "request":
        return command, ()
    content = output.get("content")
    if not isinstance(content, dict):
        raise MatchLogError(f"{where}.output.content: expected each seat's request text")
    requests = []
    for seat in range(SEATS):
        text = content.get(str(seat))
        if not isinstance(text, str):
            raise MatchLogError(f"{where}.output.content.{seat}: expected seat {seat}'s "
                                f"request text, got {text!r}")
        requests.append(text)
    return command, tuple(requests)


def _answers(entry: object, where: str) -> tuple[Answer | None, ...]:
    entry = _object(entry, where)
    out: list[Answer | None] = []
    for seat in range(SEATS):
        answer = entry.get(str(seat))
        if answer is None:
            out.append(None)
            continue
        if not isinstance(answer, dict):
            raise MatchLogError(f"{where}.{seat}: expected seat {seat}'s answer object, "
                                f"got {type(answer).__name__}")
        verdict = answer.get("verdict", "OK")
        response = answer.get("response", "")
        if not isinstance(verdict, str):
            raise MatchLogError(f"{where}.{seat}.verdict: expected text, got {verdict!r}")
        if not isinstance(response, str):
            raise MatchLogError(f"{where}.{seat}.response: expected text, got {response!r}")
        out.append(Answer(verdict, response))
    return tuple(out)


def _object(entry: object, where: str) -> dict[str, Any]:
    if not isinstance(entry, dict):
        raise MatchLogError(f"{where}: expected an object, got {type(entry).__name__}")
    return entry


__all__ = ["Answer", "JudgeTurn", "MatchLog", "MatchLogError", "judge_table",
           "load_match_log", "read_match_log"]
