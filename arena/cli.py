"""The ``mjbot`` command: a thin dispatcher over one module per sub-command.

Sub-command modules are imported only when used, so ``mjbot play botzone``
does not pay for the benchmark or referee code at start-up.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from typing import Any

# name -> (module under arena.commands, one-line help)
COMMANDS: dict[str, tuple[str, str]] = {
    "deficiency": ("deficiency", "deficiency per winning shape and the useful tiles of a hand"),
    "advise": ("advise", "the recommended discard or call with every candidate's numbers"),
    "bench": ("bench", "benchmarks that print a table (and --json)"),
    "package": ("package", "build a Botzone upload (a zip with __main__.py at its root)"),
    "play": ("play", "play on a platform (Botzone stdin/stdout, Olympiad WebSocket/MQTT)"),
    "wrap": ("wrap", "play an Olympiad seat for any program speaking JSON lines on stdio"),
    "match": ("match", "a whole local Olympiad match in one process (referee, transport, bots)"),
    "selfplay": ("selfplay", "in-process games between named players, with statistics"),
    "referee": ("referee", "run four programs as a platform does and referee their games"),
    "arena": ("arena", "a duplicate match between players: statistics, SPRT, plot, on Ray"),
    "experiment": ("experiment", "reproduce a paper's experiment (sdw: paper 002's tables)"),
    "replay": ("replay", "rebuild a seat's view from a record or a Botzone log; re-ask the agent"),
    "view": ("view", "a replay viewer in the browser: any record as one self-contained HTML page"),
}


class Parser(argparse.ArgumentParser):
    """Every (sub-)command's ``--help`` shows the options' defaults."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", argparse.ArgumentDefaultsHelpFormatter)
        super().__init__(*args, **kwargs)


def build_parser(selected: str | None = None) -> argparse.ArgumentParser:
    """The parser; only the selected command's module is imported to add its options."""
    parser = Parser(prog="mjbot", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, (module, help_text) in COMMANDS.items():
        child = sub.add_parser(name, help=help_text, description=help_text)
        if name == selected:
            importlib.import_module(f"arena.commands.{module}").add_arguments(child)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    selected = next((a for a in argv if not a.startswith("-")), None)
    try:
        args = build_parser(selected).parse_args(argv)
    except SystemExit as exc:  # a refused option (argparse printed why) or --help
        if exc.code is None or isinstance(exc.code, int):
            return exc.code or 0
        return 2
    module = importlib.import_module(f"arena.commands.{COMMANDS[args.command][0]}")
    code: int = module.run(args)
    return code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
