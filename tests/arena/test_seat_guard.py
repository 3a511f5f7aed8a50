"""One seat's failure never ends a match: an exception in an in-process seat
becomes that seat's fallback answer, the record keeps it as a ``fallback`` decision with
its reason, the summary reports it, and the match goes on; in the in-process arena and
through the Botzone judge mock.  Also: four copies of one player make a match."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from arena.records.decisions import DecisionRecord
from arena.records.files import read_record
from arena.tables.games import GameSpec, Rules
from arena.tables.match import MatchConfig, MatchProgress, render, run_match, summarize
from arena.tables.play import play
from arena.tables.runner import Runner
from bot.planner import Planner
from bot.seat import PlayerState
from game.stable_wall import WallMode

PY = sys.executable
MJBOT = str(Path(sys.executable).parent / "mjbot")

TSUMOGIRI = r'''
import sys
KEEP = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"
n = int(sys.stdin.readline())
lines = [sys.stdin.readline() for _ in range(2 * n + 1)]
request = lines[2 * n - 2].strip()
while request:
    parts = request.split()
    print("PLAY " + parts[1] if parts[0] == "2" else "PASS", flush=True)
    print(KEEP, flush=True)
    request = sys.stdin.readline().strip()
'''
"""A Botzone program (simple interaction, keep-running) that discards what it draws."""

BOOM = "strategy failed: RuntimeError: boom"


@pytest.fixture
def tsumogiri(tmp_path: Path) -> str:
    path = tmp_path / "tsumogiri.py"
    path.write_text(TSUMOGIRI)
    return f"botzone:{PY} {path}"


@pytest.fixture
def raising_planner(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The planner raises on every decision from its view's 30th event on."""
    decide = Planner.decide

    def boom(self: Planner, view: PlayerState, *args: object, **kwargs: object) -> object:
        if view.events >= 30:
            raise RuntimeError("boom")
        return decide(self, view, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Planner, "decide", boom)
    yield


def fallbacks(path: Path) -> list[DecisionRecord]:
    record = read_record(path)
    assert record.incomplete is None  # the game is recorded to its end
    return [d for d in record.decisions
            if isinstance(d, DecisionRecord) and d.method == "fallback"]


def test_a_raising_strategy_costs_its_seat_answers_not_the_match(
        raising_planner: None, tmp_path: Path) -> None:
    records = tmp_path / "records"
    config = MatchConfig(("planner:budget=50", "baseline-v1:budget=50"), games=4, seed=3,
                         records=records)
    progress = run_match(config, Runner(workers=0))
    summary = summarize(progress, 1.0, "in-process")
    assert summary.games == 4
    assert summary.failures and {f.reason for f in summary.failures} == {BOOM}
    assert {f.player for f in summary.failures} == {"planner:budget=50"}
    assert len(summary.failures) == sum(len(g.failures) for g in progress.played)
    data = summary.to_json()
    assert data["seat_failures"][0]["reason"] == BOOM
    assert "seat failures (each answered by the seat's fallback)" in render(summary)
    files = sorted(records.glob("game-*.jsonl"))
    assert len(files) == 4
    noted = [d for f in files for d in fallbacks(f)]
    assert noted and all(d.player == "planner:budget=50" for d in noted)
    assert all(d.reasons is not None and d.reasons.note == BOOM for d in noted)


def test_a_raising_strategy_under_taiwan_16_takes_the_tables_default(
        raising_planner: None) -> None:
    players = ("planner:budget=50", "greedy", "planner:budget=50", "greedy")
    game = play(GameSpec(Rules.TAIWAN_16, 5, 0, 0, players, players, WallMode.SINGLE,
                         record=True))
    assert game.failures and all(f.reason == BOOM for f in game.failures)
    assert {f.seat for f in game.failures} <= {0, 2}
    assert game.record is not None and '"method": "fallback"' in "".join(game.record)


def test_a_view_that_cannot_take_an_event_answers_safely_to_the_end(
        monkeypatch: pytest.MonkeyPatch) -> None:
    observe = PlayerState.observe

    def broken(self: PlayerState, event: object) -> None:
        if self.seat == 1 and self.events == 40:
            raise ValueError("a fifth copy")
        observe(self, event)  # type: ignore[arg-type]

    monkeypatch.setattr(PlayerState, "observe", broken)
    players = ("baseline-v1:budget=50",) * 4
    game = play(GameSpec(Rules.MCR_BOTZONE, 9, 0, 0, players, players, record=True))
    [failure] = game.failures
    lost = failure.reason
    assert failure.seat == 1 and lost.startswith("observing Drew: ")
    assert lost.endswith("ValueError: a fifth copy")
    # the view missed its own draw: its safe answer is a pass, which the judge penalises
    assert game.outcome.penalized == 1
    assert game.penalty.startswith("WA: after its draw must PLAY")
    assert game.record is not None
    assert f'"method": "fallback", "note": "state lost: {lost}"' in "".join(game.record)
    # the summary reports the failure and the penalty with their reasons
    progress = MatchProgress(MatchConfig(players, games=1))
    progress.add_wall([game])
    summary = summarize(progress, 1.0, "in-process")
    assert [(p.seat, p.reason) for p in summary.penalties] == [(1, game.penalty)]
    assert [(f.seat, f.reason) for f in summary.failures] == [(1, lost)]
    text = render(summary)
    assert "games ended by a penalty: 1" in text and game.penalty in text


def test_a_raising_strategy_behind_the_judge_mock(
        raising_planner: None, tsumogiri: str, tmp_path: Path) -> None:
    records = tmp_path / "records"
    config = MatchConfig(("planner:budget=50", tsumogiri, tsumogiri, tsumogiri), games=4,
                         seed=7, records=records)
    progress = run_match(config, Runner(workers=0))
    summary = summarize(progress, 1.0, "in-process")
    assert summary.games == 4 and not summary.penalties
    assert summary.failures and {f.reason for f in summary.failures} == {BOOM}
    files = sorted(records.glob("game-*.jsonl"))
    assert len(files) == 4
    assert any(fallbacks(f) for f in files)


def test_four_copies_of_one_player_make_a_match(capsys: pytest.CaptureFixture[str]) -> None:
    from arena.cli import main

    assert main(["arena", *["baseline-v1:budget=50"] * 4, "--games", "2", "--workers", "0",
                 "--json", "--no-progress"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["games"] == 2 and data["b"] is None and data["difference"] is None
    assert [p["player"] for p in data["players"]] == ["baseline-v1:budget=50"]
    assert main(["arena", *["greedy"] * 4, "--sprt", "0", "1", "--workers", "0"]) == 2
    assert "compares two programs" in capsys.readouterr().err


def test_arena_json_is_alone_on_stdout_with_a_botzone_program(tsumogiri: str) -> None:
    """The judge mock's log lines go to stderr: stdout is the JSON summary."""
    done = subprocess.run(
        [MJBOT, "arena", "greedy", tsumogiri, "--rules", "mcr-botzone", "--games", "2",
         "--workers", "0", "--json", "--no-progress"],
        capture_output=True, text=True, check=True, timeout=600)
    data = json.loads(done.stdout)
    assert data["games"] == 2
    assert "game start" in done.stderr and "game over" in done.stderr


def test_a_request_the_seat_cannot_read_loses_its_view_not_the_match() -> None:
    import asyncio

    from arena.players.lineup import ArenaSeat, parse_player
    from arena.tables.external import InProcessChannel
    from protocols.botzone_envelope import TurnInput

    players = ("greedy", "botzone:x", "botzone:x", "botzone:x")
    spec = GameSpec(Rules.MCR_BOTZONE, 1, 0, 0, players, players)
    channel = InProcessChannel(ArenaSeat(parse_player("greedy"), spec.rules.ruleset, [1]), 0,
                               spec, [])
    requests: tuple[str, ...] = ()
    replies = []
    for line in ("0 0 0", "9 not a request", "3 1 PLAY W1"):
        requests += (line,)
        turn = TurnInput(len(requests), requests, (), 6.0)
        replies.append(asyncio.run(channel.turn(turn)).response)
    assert replies == ["PASS"] * 3
    assert [f.reason for f in channel.failures] == [
        "undecodable request: unknown request type '9' in '9 not a request'"]
