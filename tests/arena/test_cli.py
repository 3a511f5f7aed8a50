"""The command line: deficiency, advise and the benchmarks' JSON output."""

from __future__ import annotations

import json

import pytest

from arena.cli import main


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict:
    assert main(list(argv)) == 0
    return json.loads(capsys.readouterr().out)


def test_deficiency_command(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_json(capsys, "deficiency", "1112345678999m", "--json")
    assert out["deficiency"] == 1 and len(out["useful_tiles"]) == 9
    out = run_json(capsys, "deficiency", "(C1C4C6C7C8C9)(D1D2D3D6D6D7D8)", "--rules",
                   "mahjong-0", "--unseen", "010000030 032242321 001100121", "--json")
    assert out["deficiency"] == 4


def test_five_of_a_tile_exits_non_zero_naming_it(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deficiency", "W1 W1 W1 W1 W2 W3 W4 W5 W6 W7 W8 W9 W9", "--unseen",
                 "W1"]) == 2
    assert "1m" in capsys.readouterr().err
    assert main(["deficiency", "W1 W1 W1 W1 W1 W3 W4 W5 W6 W7 W8 W9 W9"]) == 2
    assert "five copies of 1m" in capsys.readouterr().err


def test_advise_reproduces_example_3(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_json(capsys, "advise", "(B1B2B3B7B8B9)(C2C2C2)(D1D2D3D5D9)", "--rules",
                   "mahjong-0", "--unseen", "000000000 010110001 000000000", "--json")
    assert out["advice"] == "discard 9p" and out["player"] == "mjbot"
    assert out["candidates"][0]["tile"] == "9p"
    assert out["candidates"][0]["value"] == pytest.approx(7 / 12)


def test_advise_names_a_claim_by_its_meld_and_the_discard_after_it(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["advise", "23m55p1z456p789s99m", "--claim", "1m", "--from-left"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("advice: chow 1m2m3m, then discard 1z"), out
    assert "  chow 1m2m3m, then discard 1z: deficiency 1" in out
    data = run_json(capsys, "advise", "23m55p1z456p789s99m", "--claim", "1m", "--from-left",
                    "--json")
    assert data["advice"] == "chow 1m2m3m, then discard 1z"
    first = data["candidates"][0]
    assert first["meld"] == ["1m", "2m", "3m"] and first["tile"] == "1z"


@pytest.mark.parametrize(("argv", "advice"), [
    (["123m456p789s11222z"], "win"),  # a complete hand: the shipped bot declares it
    (["19m19p19s1234567z1m"], "win"),  # thirteen orphans
    (["123m456p789s1122z", "--claim", "2z"], "win on 2z"),  # its own numbers favour it
])
def test_advise_gives_the_shipped_bots_answer_wins_included(
        capsys: pytest.CaptureFixture[str], argv: list[str], advice: str) -> None:
    """``mjbot advise`` asks the shipped bot (the planner under mcr-botzone) through its seat
    session: a win the rule book offers is declared (the step-value agent answered 'discard 1m'
    and 'pass' here before)."""
    out = run_json(capsys, "advise", *argv, "--json")
    assert out["advice"] == advice and out["method"] == "win", out


def test_bench_deficiency_quick_json(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_json(capsys, "bench", "deficiency", "--quick", "--json")
    methods = {r["method"] for r in out["rows"]}
    assert "production kernel (batch, per hand)" in methods and len(out["rows"]) == 18
    for r in out["rows"]:
        if r["method"].startswith(("production", "quadtree")):
            assert r["agree_with_kernel"] == r["pairs"]


def test_bench_call_quick_json(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_json(capsys, "bench", "call", "--quick", "--json")
    calls = {(r["tiles"], r["call"]) for r in out["rows"]}
    assert (14, "deficiency(hand, 4, kb)") in calls and (13, "deficiency(hand, 4)") in calls
    assert len(out["rows"]) == 12 and all(r["median_us"] > 0 for r in out["rows"])


def test_bench_decide_quick_json(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_json(capsys, "bench", "decide", "--quick", "--json")
    assert out["rows"][0]["rules"] == "all" and out["rows"][0]["n"] > 40


def test_bench_selfplay_quick_json(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_json(capsys, "bench", "selfplay", "--quick", "--json")
    rows = out["rows"]
    assert rows["start-up to first answer, s (median)"] > 0
    assert 20 < rows["peak resident memory over a game, MB"] < 1000
    assert out["refereed_games"] == 2
    assert any(name.startswith("referee botzone games/s") for name in rows)
    assert all(v > 0 for v in rows.values())


@pytest.mark.parametrize("thinkers", ["0", "1"])
def test_match_olympiad_json(capsys: pytest.CaptureFixture[str], thinkers: str) -> None:
    out = run_json(capsys, "match", "olympiad", "--tables", "2", "--decision-ms", "3000",
                   "--thinkers", thinkers, "--json")
    assert len(out["games"]) == 2 and sum(out["totals_by_seat"]) == 0
    assert all(g["violations"] == [] for g in out["games"])


def test_match_olympiad_refuses_negative_thinkers(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["match", "olympiad", "--thinkers", "-1"]) == 2
    assert "--thinkers" in capsys.readouterr().err


@pytest.mark.parametrize(("argv", "says"), [
    (["123456789m12p", "--melds", "12m"], "meld 12m: 2 tiles"),
    (["123456789m12p", "--melds", "135m"], "meld 135m: neither a chow"),
    (["123456789m12p", "--melds", "123z"], "meld 123z: honours cannot form a chow"),
    (["123456789m12p", "--melds", "111z", "--rules", "mahjong-0"],
     "meld 111z: 1z is an honour; mahjong-0 plays with suits only"),
    (["12m", "--melds", "111p,222p,333p,444p,555p"],
     "--melds: 5 declared melds; a mcr-botzone hand holds 0-4"),
    (["1234567899m123p", "--claim", "1m2m"], "--claim '1m2m': 2 tiles"),
    (["1234567m125p1s11z", "--rules", "mahjong-0", "--claim", "1s"],
     "hand: 1z is an honour; mahjong-0 plays with suits only"),
    (["1234567m125p1s11s", "--rules", "mahjong-0", "--claim", "1z"],
     "--claim: 1z is an honour; mahjong-0 plays with suits only"),
    (["1234567m125p1s11s", "--rules", "mahjong-0", "--unseen", "1z"],
     "--unseen: 1z is an honour"),
    (["1234567899m123p", "--from-left"], "--from-left says where a --claim comes from"),
    (["123m456m789m123p5p"], "a discard needs 14 (13 tiles answer another seat's discard: "
     "give it with --claim TILE)"),
    (["123m456m789m123p55p", "--claim", "5p"],
     "a claim answers 13 (14 tiles are a discard after a draw: leave out --claim)"),
    (["123m456m789m12p"], "a discard needs 14 (a discard after a draw takes 14 tiles, an "
     "answer to another seat's discard 13 with --claim TILE)"),
])
def test_advise_refuses_what_the_rules_do_not_allow(capsys: pytest.CaptureFixture[str],
                                                    argv: list[str], says: str) -> None:
    assert main(["advise", *argv]) == 2
    err = capsys.readouterr().err
    assert says in err, err


def test_advise_accepts_a_kong_and_a_chow_among_its_melds(
        capsys: pytest.CaptureFixture[str]) -> None:
    out = run_json(capsys, "advise", "123455m12p", "--melds", "5555z,789s", "--json")
    assert out["advice"].startswith("discard ")


def test_deficiency_refuses_an_honour_under_mahjong_0(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deficiency", "1112345678999m", "--rules", "mahjong-0"]) == 0
    capsys.readouterr()
    assert main(["deficiency", "111234567899m1z", "--rules", "mahjong-0"]) == 2
    assert "hand: 1z is an honour" in capsys.readouterr().err


@pytest.mark.parametrize("command", ["advise", "deficiency"])
def test_an_ambiguous_notation_is_refused_naming_the_option(
        command: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([command, "B1B2B3B4B5B6B7B8B9B1B1B2B2B3"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.splitlines()) == 1
    assert err.rstrip().endswith("give --notation botzone (B = dots) or --notation paper "
                                 "(B = bamboo)"), err
    assert main([command, "B1B2B3B4B5B6B7B8B9B1B1B2B2B3", "--notation", "botzone",
                 "--json"]) == 0
    capsys.readouterr()


def test_a_winning_advice_says_its_fan(capsys: pytest.CaptureFixture[str]) -> None:
    fan = run_json(capsys, "advise", "123m456m789m123p55p", "--json")["fan"]
    assert fan is not None and fan >= 8
    assert main(["advise", "123m456m789m123p55p"]) == 0
    assert capsys.readouterr().out.startswith(f"advice: win ({fan} fan)  [win]")


def test_advise_lists_the_chosen_candidate_first_and_says_a_tie(
        capsys: pytest.CaptureFixture[str]) -> None:
    """3z and 7z leave the same value: the one chosen comes first, the other is named as
    a tie, not taken for the choice."""
    assert main(["advise", "123m456p789s3z7z", "--melds", "555p", "--drawn", "7z"]) == 0
    lines = capsys.readouterr().out.splitlines()
    advice = lines[0].removeprefix("advice: ").split("  [")[0]
    assert lines[1].startswith("tie: discard ") and lines[1].endswith(f"chose {advice}")
    assert lines[2].startswith(f"  {advice}: ")


def test_chosen_first_orders_and_finds_ties() -> None:
    from arena.commands.advise import chosen_first
    from game.events import ActionKind
    from strategy.policy import Candidate

    def c(tile: int, chance: float, work: int = 0) -> Candidate:
        return Candidate(ActionKind.DISCARD, tile, 1, None, chance, 2, work)

    a, b, d = c(27, 0.5, work=10), c(31, 0.5, work=99), c(0, 0.25)
    ordered, ties = chosen_first((a, b, d), "discard 7z")  # 31 is 7z (red)
    assert ordered == [b, a, d] and ties == [a]  # work spent is no number of the choice
    assert chosen_first((a, d), "discard 1z") == ([a, d], [])
    assert chosen_first((a, d), "pass") == ([a, d], [])  # not among them: as given
