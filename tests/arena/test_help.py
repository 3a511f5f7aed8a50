"""``--help`` of every command: every option says what it does and shows its default once
(never ``(default: None)``), every command and sub-command and every benchmark has a
description, and the arena's players are listed by name."""

from __future__ import annotations

import argparse
import re
from collections.abc import Iterator

import pytest

from arena.cli import COMMANDS, HelpFormatter, build_parser, main


def parsers(parser: argparse.ArgumentParser, path: str = "mjbot"
            ) -> Iterator[tuple[str, argparse.ArgumentParser]]:
    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, child in action.choices.items():
                yield from parsers(child, f"{path} {name}")


def every_parser() -> list[tuple[str, argparse.ArgumentParser]]:
    out = []
    for name in COMMANDS:
        out += [(path, p) for path, p in parsers(build_parser(name)) if path != "mjbot"
                and path.split()[1] == name]
    return out


def test_every_option_has_help_and_one_default() -> None:
    missing, doubled = [], []
    formatter = HelpFormatter("mjbot")
    for path, parser in every_parser():
        for action in parser._actions:
            if isinstance(action, argparse._HelpAction | argparse._SubParsersAction):
                continue
            name = "/".join(action.option_strings) or action.dest
            if not (action.help or "").strip():
                missing.append(f"{path} {name}")
                continue
            shown = (formatter._get_help_string(action) or "") % {**vars(action),
                                                                  "prog": path}
            if len(re.findall(r"[(;,]\s*default\b", shown)) > 1 or "default: None" in shown:
                doubled.append(f"{path} {name}: {shown}")
    assert missing == [], missing
    assert doubled == [], doubled


def test_every_command_has_a_description() -> None:
    bare = [path for path, parser in every_parser() if not (parser.description or "").strip()]
    assert bare == []


def test_every_benchmark_is_described_in_bench_help(capsys: pytest.CaptureFixture[str]
                                                    ) -> None:
    from arena.commands.bench import BENCHES, DESCRIPTIONS

    assert set(DESCRIPTIONS) == set(BENCHES)
    assert main(["bench", "--help"]) == 0
    text = capsys.readouterr().out
    for name, line in DESCRIPTIONS.items():
        assert f"  {name}" in text and line.split(":")[0][:40] in " ".join(text.split())


def test_the_arena_lists_its_players_in_help(capsys: pytest.CaptureFixture[str]) -> None:
    from arena.players.lineup import PlayerKind

    assert main(["arena", "--help"]) == 0
    text = capsys.readouterr().out
    for kind in PlayerKind:
        assert f"\n  {kind.value}" in text, kind.value
    assert "(default: None)" not in text


def test_no_help_shows_restructuredtext_markup(capsys: pytest.CaptureFixture[str]) -> None:
    """Help is read in a terminal: no ``double backticks`` or :role: markup of docstrings."""
    texts = [("mjbot", build_parser().format_help())]
    texts += [(path, parser.format_help()) for path, parser in every_parser()]
    marked = [path for path, text in texts
              if "``" in text or re.search(r":(class|func|mod|data|meth|attr):", text)]
    assert marked == []


def test_version_prints_the_installed_version(capsys: pytest.CaptureFixture[str]) -> None:
    from importlib.metadata import version

    assert main(["--version"]) == 0
    assert capsys.readouterr().out == f"mjbot {version('mjbot')}\n"
