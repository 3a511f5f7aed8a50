"""``mjbot replay FILE``: rebuild a seat's view turn by turn and ask today's agent again.

FILE is a game record written by mjbot (JSON Lines, :mod:`bot.records`) or a
Botzone match log (the JSON a match page downloads: ``logs`` alternating judge
requests and the bots' answers).  For the chosen seat the replay feeds every
request to a fresh agent; at each turn where the seat had a decision it asks
the agent what it would play now, with its reasons.

- ``--turn N``: print the state at turn N (the seat's N-th request), what was
  played and what today's agent plays, with every candidate's numbers;
- ``--diff``: list every turn where today's agent disagrees with what was played.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from bot.agent import Agent, Decision
from bot.records import read_record
from game.events import (
    Chowed,
    ConcealedKonged,
    Dealt,
    Discarded,
    Event,
    KongAdded,
    Konged,
    Punged,
    as_seen_by,
)
from game.rules import MCR_BOTZONE
from game.tiles import Notation, format_tiles, tile_name
from protocols.botzone_codec import (
    ProtocolError,
    RequestDecoder,
    format_request,
    format_response,
    parse_response,
)
from strategy.stepvalue import Deadline


@dataclass(frozen=True)
class Turn:
    index: int
    request: str
    played: str
    ours: Decision | None
    hand: str
    unseen_total: int


def seat_lines_from_match_log(data: dict[str, object], seat: int) -> list[tuple[str, str]]:
    """(request, response) lines of one seat in a Botzone match log."""
    logs = data.get("logs")
    if not isinstance(logs, list):
        raise ValueError("not a Botzone match log: no 'logs' list")
    out: list[tuple[str, str]] = []
    pending: str | None = None
    key = str(seat)
    for entry in logs:
        if not isinstance(entry, dict):
            continue
        output = entry.get("output")
        if isinstance(output, dict):
            if output.get("command") == "request":
                content = output.get("content", {})
                pending = str(content.get(key)) if isinstance(content, dict) else None
        elif key in entry and pending is not None:
            answer = entry[key]
            out.append((pending, str(answer.get("response", "")) if isinstance(answer, dict)
                        else ""))
            pending = None
    return out


def _caused_by(event: Event, seat: int) -> str | None:
    """The response that produced ``event`` if ``seat`` made it."""
    if getattr(event, "seat", None) != seat:
        return None
    if isinstance(event, Discarded):
        return f"PLAY {tile_name(event.tile, Notation.BOTZONE)}"
    if isinstance(event, ConcealedKonged) and event.tile is not None:
        return f"GANG {tile_name(event.tile, Notation.BOTZONE)}"
    if isinstance(event, Punged | Chowed | Konged | ConcealedKonged | KongAdded):
        return format_request(event, seat).split(" ", 2)[2]
    return None


def seat_lines_from_record(path: Path, seat: int) -> list[tuple[str, str]]:
    """(request, response) lines of one seat, rebuilt from a game record's full history.

    What the seat played is read off the event that followed its request (its
    discard, claim or kong; ``HU`` when the result names it the winner); a
    claim that lost to another seat's shows as ``PASS``.
    """
    record = read_record(path)
    events = list(record.events)
    winner = record.result.get("seat") if record.result else None
    prevalent = int(record.header.get("prevalent_wind", 0))
    out: list[tuple[str, str]] = [(f"0 {seat} {prevalent}", "PASS")]
    for i, e in enumerate(events):
        if isinstance(e, Dealt) and e.seat != seat:
            continue
        request = format_request(as_seen_by(e, seat), seat)
        nxt = events[i + 1] if i + 1 < len(events) else None
        played = _caused_by(nxt, seat) if nxt is not None else None
        if played is None:
            played = "HU" if nxt is None and winner == seat else "PASS"
        out.append((request, played))
    return out


def replay(lines: list[tuple[str, str]], budget: int = 20_000) -> list[Turn]:
    agent = Agent(MCR_BOTZONE)
    decoder = RequestDecoder()
    turns = []
    for i, (request, played) in enumerate(lines, 1):
        agent.observe(decoder.decode(request))
        ours = None
        if agent.view.asked() != "none":
            ours = agent.decide(Deadline(budget=budget))
        if played:
            # the view follows what was played, not what today's agent would play
            with contextlib.suppress(ProtocolError):
                agent.view.answered(parse_response(played))
        turns.append(Turn(i, request, played, ours, format_tiles(np.repeat(
            np.arange(34), agent.view.hand).tolist()), agent.view.kb.unseen_total()))
    return turns


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", type=Path, help="a game record (.jsonl) or a Botzone match log (.json)")
    p.add_argument("--seat", type=int, default=0)
    p.add_argument("--turn", type=int, help="show this turn in full")
    p.add_argument("--diff", action="store_true", help="list the turns where we now disagree")
    p.add_argument("--json", action="store_true")


def run(args: argparse.Namespace) -> int:
    try:
        if args.file.suffix == ".jsonl":
            lines = seat_lines_from_record(args.file, args.seat)
        else:
            lines = seat_lines_from_match_log(json.loads(args.file.read_text()), args.seat)
        turns = replay(lines)
    except (OSError, ValueError) as exc:
        print(f"mjbot replay: {exc}", file=sys.stderr)
        return 2
    decided = [t for t in turns if t.ours is not None]
    if args.turn is not None:
        chosen = [t for t in turns if t.index == args.turn]
        if not chosen:
            print(f"mjbot replay: no turn {args.turn} (1-{len(turns)})", file=sys.stderr)
            return 2
        t = chosen[0]
        print(f"turn {t.index}: request {t.request!r}")
        print(f"hand {t.hand}  unseen {t.unseen_total}")
        print(f"played   {t.played or '-'}")
        if t.ours is not None:
            print(f"today    {format_response(t.ours.action)}  [{t.ours.method}] {t.ours.note}")
            for c in t.ours.reasons:
                print("  " + c.describe())
        return 0
    diffs = [t for t in decided if t.played and t.ours is not None
             and format_response(t.ours.action) != t.played]
    if args.json:
        print(json.dumps({"turns": len(turns), "decisions": len(decided), "disagreements": [
            {"turn": t.index, "request": t.request, "played": t.played,
             "today": format_response(t.ours.action) if t.ours else None} for t in diffs]}))
        return 0
    print(f"seat {args.seat}: {len(turns)} requests, {len(decided)} decisions, "
          f"{len(diffs)} where today's agent disagrees")
    if args.diff:
        for t in diffs:
            assert t.ours is not None
            print(f"  turn {t.index:>3}: {t.request:<22} played {t.played:<12} "
                  f"today {format_response(t.ours.action)}")
    return 0
