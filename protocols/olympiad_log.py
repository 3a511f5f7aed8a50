"""The Olympiad message header, per-seat sequence numbers and the resume rules, both ends.

Every message the referee sends to a seat carries ``{"v": 1, "type", "table", "seq"}``
before its own fields.  Each seat has one message log for the whole table session,
numbered by ``seq`` (1, 2, ...); ``welcome`` and ``error`` are not logged and carry
the seat's current seq.

Resume rules:

- the referee's end (:class:`SeatLog`): a ``join`` with ``resume_from = n`` gets
  every logged message after ``n``, in order, except asks that are already closed,
  but nothing before the seat's latest ``end`` (a games-old ``n``, or none, gets that
  ``end`` and the game after it: what a player needs to go on, and no more, so a
  re-join costs at most one game's messages); the open ask, if any, is sent again with
  its original seq and id and the time it has left (at its place in the log, or last if
  the log had dropped it);
- the player's end (:class:`ResumeCursor`): a message whose seq was seen already is
  dropped (a QoS 1 duplicate, or a replay after a reconnect); an ``ask`` already
  answered gets the very same ``act`` text again (the referee ignores repeats).

Pure bookkeeping on text and numbers: no I/O, no clock.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

PROTOCOL_VERSION = 1


def stamped(fields: Mapping[str, Any], *, table: str, seq: int) -> str:
    """One message as compact JSON: the header first, then ``fields`` (their own
    ``v``/``type`` are taken from the header's place)."""
    msg = {"v": PROTOCOL_VERSION, "type": fields["type"], "table": table, "seq": seq,
           **{k: v for k, v in fields.items() if k not in ("v", "type", "table", "seq")}}
    return json.dumps(msg, separators=(",", ":"))


@dataclass(frozen=True)
class LogEntry:
    seq: int
    text: str
    ask_id: str | None
    """The ask's id for an ``ask`` (its text is rebuilt with the time left on resume)."""


@dataclass
class SeatLog:
    """One seat's numbered message log on the referee's side."""

    table: str
    seq: int = 0
    entries: list[LogEntry] = field(default_factory=list)
    floor: int = 0
    """The seq before the latest ``end``: no replay starts earlier."""

    def append(self, fields: Mapping[str, Any], ask_id: str | None = None) -> tuple[int, str]:
        """Number, stamp and log one message; returns its seq and text."""
        self.seq += 1
        text = stamped(fields, table=self.table, seq=self.seq)
        self.entries.append(LogEntry(self.seq, text, ask_id))
        if fields.get("type") == "end":
            self.floor = self.seq - 1
        return self.seq, text

    def unlogged(self, fields: Mapping[str, Any]) -> str:
        """A message outside the log (``welcome``, ``error``): it carries the current seq."""
        return stamped(fields, table=self.table, seq=self.seq)

    def resume(self, after: int, open_ask: str | None, open_ask_text: str) -> list[str]:
        """The texts to send to a seat that resumes after ``after``: the logged messages
        after it (after :attr:`floor` at the earliest), closed asks left out, the open ask
        (id ``open_ask``) as ``open_ask_text`` at its place, or last when it is older."""
        out: list[str] = []
        resent_open = False
        start = max(after, self.floor)
        for entry in self.entries[start:]:  # entry k has seq k + 1
            if entry.ask_id is not None:
                if entry.ask_id == open_ask:
                    out.append(open_ask_text)
                    resent_open = True
                continue
            out.append(entry.text)
        if open_ask is not None and not resent_open:
            out.append(open_ask_text)
        return out


@dataclass
class ResumeCursor:
    """The player's end: which messages are new, and the act already sent for each ask."""

    last_seq: int = 0
    answered: dict[str, str] = field(default_factory=dict)

    def is_new(self, seq: int) -> bool:
        """Whether a logged message (not an ask) is seen for the first time; records it."""
        if seq <= self.last_seq:
            return False
        self.last_seq = seq
        return True

    def repeat_for(self, ask_id: str) -> str | None:
        """The act text already sent for this ask, if any (to send again, unchanged)."""
        return self.answered.get(ask_id)

    def ask_seen(self, seq: int) -> None:
        self.last_seq = max(self.last_seq, seq)

    def sent(self, ask_id: str, act_text: str) -> None:
        self.answered[ask_id] = act_text

    @property
    def resume_from(self) -> int | None:
        """What ``join`` sends as ``resume_from`` (None before any message)."""
        return self.last_seq or None
