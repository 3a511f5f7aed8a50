"""Reading every kind of game mjbot reads, for the viewer: one :class:`GameSource` per game.

- mjbot's JSON Lines game records (:mod:`arena.records.files`: self-play, the Botzone
  judge mock, the Olympiad referee; mcr-botzone and taiwan-16 with flowers);
- Botzone match logs (the JSON a match page downloads, read by
  :mod:`protocols.botzone_matchlog`): the judge mock is replayed with the log's walls and
  answers to get every tile;
- the PKU data.txt format (many matches per file), replayed the same way;
- a directory: every record (``*.jsonl``) and match log (``*.json``) in it.

This is the one module of the viewer that imports the replay, the records and
the protocol readers (they move between packages; re-point them here).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arena.records.decisions import Considered, DecisionRecord
from arena.records.files import read_record
from arena.review.replay import (
    ReplayStep,
    Turn,
    reasked_player,
    replay,
    steps_from_lines,
    steps_from_record,
)
from game.events import Event, GameResult, InvalidAction
from game.rules import MCR_BOTZONE, Ruleset
from game.table import BotzoneTable, play_game
from protocols.botzone_codec import format_request
from protocols.botzone_matchlog import judge_table, load_match_log
from protocols.pku_datatxt import botzone_responses, parse_pku_datatxt, walltiles_of

__all__ = ["GameSource", "RecordedDecision", "ReplayStep", "Turn", "load_games", "reask"]


@dataclass(frozen=True)
class RecordedDecision:
    """A decision a record kept with its reasons (self-play records of mjbot seats)."""

    seat: int
    player: str
    action: str
    method: str
    note: str
    candidates: tuple[Considered, ...]


@dataclass(frozen=True)
class GameSource:
    """One game as read: the full history (every tile shown) and what the viewer needs
    besides; ``seat_steps(seat)`` gives the seat's requests and answers as the replay
    reads them (for re-asking the agent)."""

    title: str
    source: str
    rules: Ruleset
    prevalent_wind: int
    dealer: int
    names: tuple[str, str, str, str]
    history: tuple[Event, ...]
    result: GameResult | None
    seat_steps: Callable[[int], list[ReplayStep]] = field(compare=False)
    decisions: tuple[RecordedDecision, ...] = ()
    notes: tuple[str, ...] = ()


def reask(steps: list[ReplayStep], rules: Ruleset, budget: int,
          player: str | None = None) -> list[Turn]:
    """The seat's player (or the shipped bot) on its steps again
    (:func:`arena.review.replay.reasked_player`, :func:`arena.review.replay.replay`)."""
    asked = reasked_player(player, rules)
    return replay(steps, budget=asked.budget_or(budget), rules=rules, agent=asked.strategy)


# ---------------------------------------------------------------- records
def read_record_game(path: Path) -> GameSource:
    record = read_record(path)
    header = record.header
    rules = MCR_BOTZONE if header.rules is None else header.rules
    decisions = tuple(
        RecordedDecision(d.seat, d.player, d.action, d.method,
                         "" if d.reasons is None else d.reasons.note,
                         () if d.reasons is None else d.reasons.candidates)
        for d in record.decisions if isinstance(d, DecisionRecord))
    result = record.result
    title = path.stem
    return GameSource(
        title=title, source=str(path), rules=rules,
        prevalent_wind=0 if header.prevalent_wind is None else header.prevalent_wind,
        dealer=0 if header.dealer is None else header.dealer, names=header.names,
        history=record.events, result=result,
        seat_steps=lambda seat: steps_from_record(path, seat)[1],
        decisions=decisions)


# ---------------------------------------------------------------- Botzone match logs
def read_botzone_log(path: Path) -> GameSource:
    log = load_match_log(path)
    table = judge_table(log)
    notes: list[str] = []
    for k, responses in enumerate(log.stages(), 1):
        bad = [f"seat {s}: {r.text!r}" for s, r in enumerate(responses)
               if isinstance(r, InvalidAction)]
        if bad:
            notes.append(f"judge entry {k}: unreadable answers ({'; '.join(bad)})")
    if not table.finished:
        notes.append("the log ends before the game does")
    return GameSource(
        title=path.name.removesuffix(".json").removesuffix("_lite"), source=str(path),
        rules=MCR_BOTZONE, prevalent_wind=log.prevalent_wind, dealer=0, names=log.names,
        history=table.history, result=table.result,
        seat_steps=lambda seat: steps_from_lines(log.seat_lines(seat)),
        notes=tuple(notes))


# ---------------------------------------------------------------- PKU data.txt
def read_pku(path: Path) -> list[GameSource]:
    games = []
    for match in parse_pku_datatxt(path.read_text(encoding="utf-8")):
        stages = botzone_responses(match)
        table = play_game(walltiles_of(match), match.prevalent_wind, stages)

        def seat_steps(seat: int, table: BotzoneTable = table,
                       stages: list[Any] = stages) -> list[ReplayStep]:
            seen = table.events_seen_by(seat)
            return [ReplayStep(e, format_request(e, seat), stages[k][seat] if k < len(stages)
                               else None) for k, e in enumerate(seen)]

        games.append(GameSource(
            title=f"{path.stem} {match.match_id}", source=f"{path}#{match.match_id}",
            rules=MCR_BOTZONE, prevalent_wind=match.prevalent_wind, dealer=0,
            names=("seat 0", "seat 1", "seat 2", "seat 3"),
            history=table.history, result=table.result, seat_steps=seat_steps))
    return games


# ---------------------------------------------------------------- any file
def load_games(path: Path) -> list[GameSource]:
    """Every game in ``path``: a record, a match log, a data.txt file or a directory of them."""
    if path.is_dir():
        files = sorted(p for p in path.iterdir() if p.suffix in (".jsonl", ".json"))
        if not files:
            raise ValueError(f"{path}: no game records (.jsonl) or match logs (.json) in it")
        return [g for f in files for g in load_games(f)]
    if path.suffix == ".jsonl":
        return [read_record_game(path)]
    if path.suffix == ".json":
        return [read_botzone_log(path)]
    head = path.read_text(encoding="utf-8", errors="replace")[:4096]
    if "Match " in head:
        games = read_pku(path)
        if not games:
            raise ValueError(f"{path}: no match in this data.txt file")
        return games
    raise ValueError(f"{path}: not a game record (.jsonl), a Botzone match log (.json) "
                     "or a PKU data.txt file")
