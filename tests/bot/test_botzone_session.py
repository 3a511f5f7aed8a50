"""The Botzone bot through its real stdin/stdout protocol, against the judge mock's requests."""

from __future__ import annotations

import io
import json

import numpy as np

from bot.botzone import KEEP_RUNNING, BotzoneSeat, run
from game.events import Pass
from game.table import BotzoneTable, random_walltiles
from protocols.botzone_codec import decode_response, format_request

BUDGET = 3_000
"""Decisions on kernel calls, not the clock: the same answers on any machine and load."""


def play_with_sessions(seed: int) -> tuple[BotzoneTable, list[list[str]], list[list[str]]]:
    """A whole game: four BotzoneSeat objects answer the table's request lines."""
    table = BotzoneTable(random_walltiles(np.random.default_rng(seed)), seed % 4)
    seats = [BotzoneSeat(work_budget=BUDGET) for _ in range(4)]
    requests: list[list[str]] = [[] for _ in range(4)]
    responses: list[list[str]] = [[] for _ in range(4)]
    while not table.finished:
        answers = []
        for s, event in enumerate(table.requests):
            line = format_request(event, s)
            requests[s].append(line)
            text = seats[s].answer(line).response
            responses[s].append(text)
            answers.append(decode_response(text))
        table.respond(answers)
    for seat in seats:
        seat.close()
    return table, requests, responses


def test_whole_games_through_the_codec_have_no_wrong_action() -> None:
    for seed in range(6):
        table, _, _ = play_with_sessions(seed)
        assert table.result is not None
        assert type(table.result.ending).__name__ in ("Won", "WallExhausted"), table.result


def test_simple_mode_without_keep_running_rebuilds_from_history() -> None:
    """Every turn as a fresh process: the history replayed gives the same answer."""
    _, requests, responses = play_with_sessions(11)
    seat = 0
    checked = 0
    for turn in range(1, len(requests[seat]) + 1, 7):
        lines = [str(turn)]
        for i in range(turn - 1):
            lines += [requests[seat][i], responses[seat][i]]
        lines.append(requests[seat][turn - 1])
        out = io.StringIO()
        run(io.StringIO("\n".join(lines) + "\n"), out, io.StringIO(), keep_running=False,
            work_budget=BUDGET)
        assert out.getvalue().splitlines() == [responses[seat][turn - 1]]
        checked += 1
    assert checked > 5


def test_json_mode_keep_running_accepts_bare_and_quoted_requests() -> None:
    _, requests, responses = play_with_sessions(12)
    seat = 1
    first = json.dumps({"requests": requests[seat][:1], "responses": []})
    rest = [json.dumps(r) if i % 2 else r for i, r in enumerate(requests[seat][1:])]
    out = io.StringIO()
    run(io.StringIO("\n".join([first, *rest]) + "\n"), out, io.StringIO(), work_budget=BUDGET)
    lines = out.getvalue().splitlines()
    answers = [json.loads(line)["response"] for line in lines if line != KEEP_RUNNING]
    assert lines.count(KEEP_RUNNING) == len(requests[seat])
    assert answers == responses[seat]


def test_garbage_requests_get_a_legal_answer_and_a_reason() -> None:
    seat = BotzoneSeat()
    a = seat.answer("0 2 1")
    assert a.response == "PASS"
    a = seat.answer("3 9 PLAY W1")
    assert a.response == "PASS" and "seat" in a.debug
    a = seat.answer("1 0 0 0 0 W1 W1 W1 W1 W1 B1 B2 B3 T1 T2 T3 F1 F2")
    assert a.response == "PASS" and a.debug
    assert isinstance(decode_response(a.response), Pass)


def test_the_sampling_planner_answers_every_request_with_a_legal_line() -> None:
    """``mjbot play botzone --sample`` (the arena's sampler handed to the loop): one answer
    line (and the marker) per request."""
    from bot.sampling_planner import sampling_strategy

    _, requests, _ = play_with_sessions(13)
    seat = 2
    first = json.dumps({"requests": requests[seat][:1], "responses": []})
    out = io.StringIO()
    run(io.StringIO("\n".join([first, *requests[seat][1:30]]) + "\n"), out, io.StringIO(),
        think_seconds=0.3, strategy=sampling_strategy)
    lines = out.getvalue().splitlines()
    answers = [json.loads(line)["response"] for line in lines if line != KEEP_RUNNING]
    assert len(answers) == 30 and lines.count(KEEP_RUNNING) == 30
    assert all(a.split()[0] in ("PASS", "PLAY", "PENG", "CHI", "GANG", "BUGANG", "HU")
               for a in answers)


def test_a_work_budget_gives_the_same_answers_whatever_the_clock() -> None:
    """``mjbot play botzone --work-budget N``: decisions on kernel calls, not on time, so a
    seat answers a whole game's requests the same with a tiny or a large thinking time."""
    _, requests, _ = play_with_sessions(14)
    seat = 3
    stream = "\n".join([json.dumps({"requests": requests[seat][:1], "responses": []}),
                        *requests[seat][1:]]) + "\n"
    answers = []
    for think in (0.001, 5.0):
        out = io.StringIO()
        run(io.StringIO(stream), out, io.StringIO(), think_seconds=think, work_budget=3000)
        answers.append([line for line in out.getvalue().splitlines() if line != KEEP_RUNNING])
    assert len(answers[0]) == len(requests[seat]) and answers[0] == answers[1]
