"""Every numeric option of every command is range-checked: the command exits with 2 and
names the option (bot/options.py holds the checks)."""

from __future__ import annotations

import argparse

import pytest

from arena.cli import main
from bot.options import (
    finite_float,
    fraction,
    int_range,
    non_negative_int,
    positive_float,
    positive_int,
    probability,
    seat_index,
)

HAND = "1112345678999m"

# (command line, the option the error must name)
REFUSED = [
    (["play", "botzone", "--think", "-1"], "--think"),
    (["play", "botzone", "--think", "0"], "--think"),
    (["play", "botzone", "--think", "nan"], "--think"),
    (["play", "botzone", "--think", "inf"], "--think"),
    (["play", "olympiad", "--ws", "ws://x/", "--table", "t1", "--seat", "0",
      "--think-fraction", "1.5"], "--think-fraction"),
    (["play", "olympiad", "--ws", "ws://x/", "--table", "t1", "--seat", "0",
      "--think-fraction", "nan"], "--think-fraction"),
    (["play", "olympiad", "--ws", "ws://x/", "--table", "t1", "--seat", "4"], "--seat"),
    (["wrap", "--ws", "ws://x/", "--table", "t1", "--seat", "-1", "--", "true"], "--seat"),
    (["deficiency", HAND, "--declared", "-1"], "--declared"),
    (["deficiency", HAND, "--declared", "nan"], "--declared"),
    (["deficiency", HAND, "--declared", "5"], "--declared"),
    (["bench", "decide", "--budget-ms", "-1"], "--budget-ms"),
    (["bench", "decide", "--budget-ms", "inf"], "--budget-ms"),
    (["bench", "decide", "--seed", "-3"], "--seed"),
    (["selfplay", "--games", "0"], "--games"),
    (["selfplay", "--workers", "-2"], "--workers"),
    (["selfplay", "--seed", "-1"], "--seed"),
    (["replay", "x.jsonl", "--seat", "7"], "--seat"),
    (["replay", "x.jsonl", "--turn", "0"], "--turn"),
    (["referee", "botzone", "--bots", "a", "b", "c", "d", "--time-limit", "nan"],
     "--time-limit"),
    (["referee", "botzone", "--bots", "a", "b", "c", "d", "--time-limit", "-1"],
     "--time-limit"),
    (["referee", "botzone", "--bots", "a", "b", "c", "d", "--memory-limit", "0"],
     "--memory-limit"),
    (["referee", "botzone", "--bots", "a", "b", "c", "d", "--games", "-1"], "--games"),
    (["referee", "botzone", "--bots", "a", "b", "c", "d", "--seed", "-1"], "--seed"),
    (["referee", "olympiad", "--tables", "0"], "--tables"),
    (["referee", "olympiad", "--decision-ms", "-5"], "--decision-ms"),
    (["referee", "olympiad", "--games", "1.5"], "--games"),
    (["match", "olympiad", "--thinkers", "-1"], "--thinkers"),
    (["match", "olympiad", "--seed", "-1"], "--seed"),
]


@pytest.mark.parametrize(("argv", "option"), REFUSED, ids=lambda v: " ".join(v)
                         if isinstance(v, list) else v)
def test_a_bad_number_is_refused_naming_the_option(
        capsys: pytest.CaptureFixture[str], argv: list[str], option: str) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert option in err, err


@pytest.mark.parametrize(("check", "text", "value"), [
    (positive_int, "3", 3), (non_negative_int, "0", 0), (seat_index, "3", 3),
    (positive_float, "0.25", 0.25), (fraction, "1", 1.0), (fraction, "0.5", 0.5),
    (int_range(2, 4), "4", 4), (finite_float, "-35", -35.0), (probability, "0.05", 0.05),
])
def test_good_numbers_pass(check: object, text: str, value: float) -> None:
    assert check(text) == value  # type: ignore[operator]


@pytest.mark.parametrize(("check", "text", "says"), [
    (positive_int, "0", "at least 1"), (positive_int, "x", "not a whole number"),
    (non_negative_int, "-1", "0 or more"), (seat_index, "4", "0-3"),
    (positive_float, "0", "above 0"), (positive_float, "-inf", "finite"),
    (positive_float, "nan", "finite"), (fraction, "0", "at most 1"),
    (fraction, "1.01", "at most 1"), (int_range(2, 4), "1", "2-4"),
    (finite_float, "inf", "finite"), (finite_float, "NaN", "finite"),
    (probability, "1", "below 1"), (probability, "0", "above 0"),
])
def test_bad_numbers_say_why(check: object, text: str, says: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError, match=says):
        check(text)  # type: ignore[operator]


def test_help_exits_0_and_a_missing_argument_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", "--help"]) == 0
    assert "--allow-incomplete" in capsys.readouterr().out
    assert main(["replay"]) == 2
    assert "file" in capsys.readouterr().err


def every_option(parser: argparse.ArgumentParser, path: str = "mjbot"
                 ) -> list[tuple[str, argparse.Action]]:
    """(command path, action) for every option and argument under ``parser``."""
    out = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, child in action.choices.items():
                out += every_option(child, f"{path} {name}")
        else:
            out.append((path, action))
    return out


def test_no_command_reads_a_number_unchecked() -> None:
    """Every number an option takes goes through bot.options (int or float alone
    would take -1, nan and inf): a new option must use one of its types."""
    from arena.cli import COMMANDS, build_parser

    raw = []
    for name in COMMANDS:
        for path, action in every_option(build_parser(name)):
            if action.type in (int, float):
                raw.append(f"{path} {'/'.join(action.option_strings) or action.dest}")
    assert raw == [], f"numeric options without a range check: {raw}"


def test_the_walk_sees_every_numeric_option() -> None:
    """The walk above reaches nested sub-commands (referee botzone --time-limit)."""
    from arena.cli import build_parser

    seen = {(path, tuple(a.option_strings)): a.type for path, a in
            every_option(build_parser("referee"))}
    assert seen[("mjbot referee botzone", ("--time-limit",))] is positive_float
