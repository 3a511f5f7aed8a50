"""The judge mock against 8 real Botzone matches.

Fed the walls and prevalent wind from ``initdata`` and the bots' recorded
answers, ``BotzoneTable`` must send exactly the requests the platform sent
(every judge entry, every seat) and end with the same scores; its fans must
be the ones the judge displayed.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from support import BOTZONE_LOG_DIR, botzone_logs

from game.events import InvalidAction, PlatformFault, Response, Won
from game.rules import MCR_BOTZONE
from game.table import BotzoneStage, BotzoneTable
from game.tiles import Notation, parse_tile
from protocols.botzone_codec import decode_response, format_request, format_requests

LOG_DIR = BOTZONE_LOG_DIR
LOGS = botzone_logs()

# PyMahjongGB 1.4 names the three waits differently from the judge's fan table.
JUDGE_FAN_NAME = {"独听・边张": "边张", "独听・嵌张": "嵌张", "独听・单钓": "单钓将"}


def load(path: Path) -> dict[str, Any]:
    match: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return match


def table_of(match: dict[str, Any]) -> BotzoneTable:
    init = json.loads(match["initdata"])
    wall = [parse_tile(t, Notation.BOTZONE) for t in init["walltiles"].split()]
    return BotzoneTable(wall, init["quan"])


def responses_of(entry: dict[str, Any]) -> list[Response]:
    out: list[Response] = []
    for seat in range(4):
        answer = entry[str(seat)]
        if answer["verdict"] != "OK":
            out.append(PlatformFault(answer["verdict"]))
        else:
            out.append(decode_response(answer["response"]))
    return out


def judge_entries(match: dict[str, Any]) -> list[tuple[dict[str, Any], dict[str, Any] | None]]:
    """``(judge output, the bots' answers to it)`` pairs, in log order."""
    logs = match["logs"]
    return [
        (logs[k]["output"], logs[k + 1] if k + 1 < len(logs) else None)
        for k in range(0, len(logs), 2)
    ]


def tile_census(table: BotzoneTable) -> Counter[int]:
    """Every tile the table can account for, from the seats' own views (not the walls)."""
    census: Counter[int] = Counter()
    for seat in range(4):
        view = table.view(seat)
        census.update(view.hand)
        if view.drawn is not None:
            census[view.drawn] += 1
        for meld in view.melds:
            census.update(meld.tiles)
        census.update(view.table[seat].river)
    return census


def test_there_are_eight_logs() -> None:
    assert len(LOGS) == 8


@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.name[:24])
def test_requests_and_scores_match_the_platform(path: Path) -> None:
    match = load(path)
    table = table_of(match)
    requests_checked = 0
    for output, answers in judge_entries(match):
        if output["command"] == "request":
            expected = tuple(output["content"][str(s)] for s in range(4))
            assert format_requests(table.requests) == expected, f"request {requests_checked}"
            requests_checked += 1
            assert answers is not None
            responses = responses_of(answers)
            assert not any(isinstance(r, InvalidAction) for r in responses)
            table.respond(responses)
        else:
            assert output["command"] == "finish"
            assert table.result is not None, "the platform finished, the mock did not"
            expected_scores = tuple(output["content"][str(s)] for s in range(4))
            assert table.result.scores == expected_scores
    assert table.finished
    assert requests_checked == len(match["logs"]) // 2


@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.name[:24])
def test_fans_match_the_judges_display(path: Path) -> None:
    match = load(path)
    table = table_of(match)
    for _, answers in judge_entries(match):
        if answers is not None:
            table.respond(responses_of(answers))
    final = match["logs"][-1]["output"]["display"]
    assert table.result is not None
    ending = table.result.ending
    assert isinstance(ending, Won)
    assert ending.seat == final["player"]
    assert ending.fan_total == final["fanCnt"]
    ours = [(JUDGE_FAN_NAME.get(f.name, f.name), f.count, f.value) for f in ending.fans]
    judge = [(f["name"], f["cnt"], f["value"]) for f in final["fan"]]
    assert ours == judge


@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.name[:24])
def test_every_tile_is_accounted_for_at_every_stage(path: Path) -> None:
    match = load(path)
    table = table_of(match)
    for _, answers in judge_entries(match):
        if answers is None or table.finished:
            break
        census = tile_census(table)
        walls = sum(table.view(0).table[s].wall_remaining for s in range(4))
        assert sum(census.values()) + walls == MCR_BOTZONE.total_tiles
        assert max(census.values()) <= 4
        for seat in range(4):
            public = table.view(0).table[seat]
            own = table.view(seat)
            assert public.concealed_tiles == len(own.hand) + (own.drawn is not None)
        table.respond(responses_of(answers))


@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.name[:24])
def test_every_recorded_answer_was_legal(path: Path) -> None:
    """The strong bot never erred, so each answer is among the table's legal actions."""
    match = load(path)
    table = table_of(match)
    for _, answers in judge_entries(match):
        if answers is None:
            break
        responses = responses_of(answers)
        for seat, response in enumerate(responses):
            assert response in table.legal_actions(seat), (table.stage, seat, response)
        table.respond(responses)
    assert table.stage is BotzoneStage.FINISHED


@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.name[:24])
def test_events_seen_by_a_seat_are_the_requests_it_received(path: Path) -> None:
    match = load(path)
    table = table_of(match)
    received: list[list[str]] = [[], [], [], []]
    for output, answers in judge_entries(match):
        if output["command"] == "request":
            for seat in range(4):
                received[seat].append(output["content"][str(seat)])
        if answers is not None:
            table.respond(responses_of(answers))
    for seat in range(4):
        seen = [format_request(e, seat) for e in table.events_seen_by(seat)]
        assert seen == received[seat]
