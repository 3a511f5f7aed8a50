"""Replay rebuilds every seat from the real Botzone logs and from our own records."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support import botzone_logs

from arena.review.replay import replay, steps_from_lines, steps_from_record
from arena.tables.selfplay import play_one
from bot.agent import Decision
from bot.seat import PlayerState
from game.events import DeclareWin, Discard
from protocols.botzone_matchlog import load_match_log
from strategy.deadline import Deadline
from strategy.policy import Method

LOGS = botzone_logs()


@pytest.mark.parametrize("path", LOGS[:4], ids=lambda p: p.name[:8])
def test_every_seat_of_a_match_log_rebuilds_and_gets_an_answer(path: Path) -> None:
    log = load_match_log(path)
    for seat in range(4):
        lines = log.seat_lines(seat)
        assert lines and lines[0][0].startswith("0 ")
        turns = replay(steps_from_lines(lines), budget=500)
        assert len(turns) == len(lines)
        # at every turn the agent's hand matches the tile count the protocol implies
        for t in turns:
            if t.ours is not None and t.request.startswith("2 "):
                assert t.ours.action is not None


class AlwaysWin:
    """Declares a win at every ask, legal or not."""

    def decide(self, view: PlayerState, deadline: Deadline | None = None) -> Decision:
        return Decision(DeclareWin(), Method.WIN)

    def reset(self) -> None:
        pass


class Fails:
    def decide(self, view: PlayerState, deadline: Deadline | None = None) -> Decision:
        raise RuntimeError("no answer")

    def reset(self) -> None:
        pass


def test_a_reask_is_checked_as_a_live_turn_is() -> None:
    """The re-asked player answers through the seat session: a false win is replaced by the
    safest legal answer with the reason, and so is a strategy that fails, as in a game."""
    steps = steps_from_lines(load_match_log(LOGS[0]).seat_lines(0))
    failed = [t.ours for t in replay(steps, budget=500, agent=Fails())  # type: ignore[arg-type]
              if t.ours is not None]
    assert len(failed) > 20 and all(
        d.method is Method.FALLBACK and d.note == "strategy failed: RuntimeError: no answer"
        for d in failed)
    assert any(isinstance(d.action, Discard) for d in failed)
    wins = [t.ours for t in replay(steps, budget=500, agent=AlwaysWin())  # type: ignore[arg-type]
            if t.ours is not None]
    replaced = [d for d in wins if d.method is Method.FALLBACK]
    assert len(replaced) > 20 and all(d.note.startswith("strategy declared a false win")
                                      and d.action != DeclareWin() for d in replaced)
    assert all(d in replaced or d.action == DeclareWin() for d in wins)


def test_a_record_replays_with_what_each_seat_played(tmp_path: Path) -> None:
    play_one((1, 9, ["mjbot", "mjbot", "greedy", "random"], "mcr-botzone", str(tmp_path)))
    record = tmp_path / "game-9-00001.jsonl"
    for seat in range(4):
        rules, steps = steps_from_record(record, seat)
        turns = replay(steps, budget=4_000, rules=rules)
        assert len(turns) == len(steps)
    # seat 0 was our own agent with the same budget: the agent agrees with itself
    rules, steps = steps_from_record(record, 1)
    turns = replay(steps, budget=4_000, rules=rules)
    decided = [t for t in turns if t.ours is not None and t.played not in ("", "PASS")]
    assert decided


def test_a_seat_is_reasked_as_the_player_the_record_names(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An arena record's planner seat replays as the planner it was (no disagreement: the
    decisions are reproducible), the baseline's seats as baseline-v1, a greedy seat as the
    shipped bot; ``--player`` re-asks another agent, and refuses a player that is none."""
    from arena.cli import main
    from arena.review.replay import reasked_player
    from arena.tables.games import GameSpec, Rules
    from arena.tables.play import play
    from bot.planner import Planner
    from game.rules import MCR_BOTZONE

    progs = ("planner", "baseline-v1", "greedy", "baseline-v1")
    record = play(GameSpec(Rules.MCR_BOTZONE, 81, 2, 0, progs, progs, record=True)).record
    assert record is not None
    path = tmp_path / "game.jsonl"
    path.write_text("\n".join(record) + "\n")
    for seat, name in ((0, "planner"), (1, "baseline-v1")):
        assert main(["replay", str(path), "--seat", str(seat), "--json"]) == 0
        out = json.loads(capsys.readouterr().out)
        assert out["player"] == name and out["decisions"] > 10
        assert out["disagreements"] == []
    assert main(["replay", str(path), "--seat", "2", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["player"] == "the shipped bot (planner)"
    assert isinstance(reasked_player("greedy", MCR_BOTZONE).strategy, Planner)
    # the baseline's seat re-asked as the planner: they play differently somewhere
    assert main(["replay", str(path), "--seat", "1", "--player", "planner", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["player"] == "planner" and out["disagreements"]
    assert main(["replay", str(path), "--player", "greedy"]) == 2
    assert "not a player that decides by an agent" in capsys.readouterr().err
    assert main(["replay", str(path), "--player", "nosuch"]) == 2
