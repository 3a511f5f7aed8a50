"""The ``mjbot`` command: a thin dispatcher over one module per sub-command.

Sub-command modules are imported only when used, so ``mjbot play botzone``
does not pay for the benchmark or referee code at start-up.  A command that
needs one of the package's extras says which, and how to install it, before
importing anything of its own (``--help`` included).
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

EXTRAS: dict[str, tuple[str, ...]] = {
    "olympiad": ("pydantic", "websockets", "aiomqtt"),
    "arena": ("pydantic", "websockets", "aiomqtt", "amqtt", "tqdm", "matplotlib"),
    "cluster": ("pydantic", "websockets", "aiomqtt", "amqtt", "tqdm", "matplotlib", "ray"),
    "dev": ("mahjong",),
}
"""The modules a command of each extra imports (pyproject.toml's optional dependencies;
``dev``: only what a command, ``bench deficiency``, needs of it)."""


@dataclass(frozen=True)
class Command:
    """A sub-command: its module (``add_arguments`` and ``run``), its one-line help, the extra
    every use of it needs and the extras its own sub-commands need, by name."""

    module: str
    help: str
    extra: str | None = None
    sub_extras: Mapping[str, str] = field(default_factory=dict)


_ARENA_BENCHES = ("selfplay", "olympiad", "agreement", "zip", "soak", "sampling",
                  "planner", "startup", "decide")

COMMANDS: dict[str, Command] = {
    "deficiency": Command("arena.commands.deficiency",
                          "deficiency per winning shape and the useful tiles of a hand"),
    "advise": Command("arena.commands.advise",
                      "the shipped bot's answer to a hand with every candidate's numbers",
                      extra="arena"),
    "bench": Command("arena.commands.bench",
                     "benchmarks that print a table of medians (and --json)",
                     sub_extras={**dict.fromkeys(_ARENA_BENCHES, "arena"),
                                 "arena": "cluster", "deficiency": "dev"}),
    "package": Command("arena.commands.package",
                       "build a Botzone upload (a zip with __main__.py at its root)"),
    "play": Command("bot.play",
                    "play on a platform (Botzone stdin/stdout, Olympiad WebSocket/MQTT)",
                    sub_extras={"olympiad": "olympiad"}),
    "wrap": Command("arena.commands.wrap",
                    "play an Olympiad seat for any program speaking JSON lines on stdio",
                    extra="olympiad"),
    "match": Command("arena.commands.match",
                     "a whole local Olympiad match in one process (referee, transport, bots)",
                     extra="arena"),
    "selfplay": Command("arena.commands.selfplay",
                        "in-process games between named players, with statistics",
                        extra="arena"),
    "referee": Command("arena.commands.referee",
                       "run four programs as a platform does and referee their games",
                       extra="arena"),
    "arena": Command("arena.commands.arena",
                     "a duplicate match between players: statistics, SPRT, plot",
                     extra="arena"),
    "experiment": Command("arena.commands.experiment",
                          "reproduce a paper's experiment (sdw: the stable-draw-wall "
                          "paper's tables; imitate: the discard ranker fitted to the Botzone "
                          "logs)",
                          extra="arena"),
    "replay": Command("arena.commands.replay",
                      "rebuild a seat's view from a record or a Botzone log; re-ask the agent",
                      extra="arena"),
    "view": Command("arena.commands.view",
                    "a replay viewer in the browser: any record as one self-contained HTML page",
                    extra="arena"),
}


COMMON_HELP: dict[str, str] = {
    "json": "print the result as one JSON object",
    "seed": "the seed of the walls (the same seed plays the same games)",
    "rules": "the rule set",
    "notation": "the tile notation of the input (default: detected)",
    "seat": "the seat, 0-3",
    "games": "games to play",
    "workers": "processes playing games side by side",
    "tables": "tables played at once",
    "transport": "ws: WebSocket; mqtt: MQTT through a broker",
    "interaction": "Botzone's interaction: simple (line counts) or json (one object per turn)",
    "no_progress": "no progress on stderr",
    "platform": "the platform",
}
"""Help for the options many commands share, where a command gives none of its own."""


def _fill_help(parser: argparse.ArgumentParser) -> None:
    """Give every option without help text its :data:`COMMON_HELP`, under every
    sub-command."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for child in action.choices.values():
                _fill_help(child)
        elif not action.help and action.dest in COMMON_HELP:
            action.help = COMMON_HELP[action.dest]


class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """Shows an option's default once: appended as ``(default: X)`` unless its help already
    says its default, and never for a default of nothing (None, False, an empty text)."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help or ""
        default = action.default
        if ("default" in text or default is None or default is False or default == ""
                or default is argparse.SUPPRESS or not action.option_strings):
            return text
        return f"{text} (default: %(default)s)" if text else "default: %(default)s"


class Parser(argparse.ArgumentParser):
    """Every (sub-)command's ``--help`` shows each option's default once."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(*args, **kwargs)


def _missing(modules: Sequence[str]) -> list[str]:
    missing = []
    for name in modules:
        try:
            found = importlib.util.find_spec(name) is not None
        except (ImportError, ValueError):
            found = False
        if not found:
            missing.append(name)
    return missing


def needed_extra(argv: Sequence[str]) -> tuple[str, str, list[str]] | None:
    """For the command line ``argv``: (the command's words, the extra it needs, the modules
    of it that are missing), or None when nothing it needs is missing.  Reads only the
    words, imports nothing."""
    words = [a for a in argv if not a.startswith("-")]
    if not words or words[0] not in COMMANDS:
        return None
    command = COMMANDS[words[0]]
    sub = next((w for w in words[1:] if w in command.sub_extras), None)
    extra = command.sub_extras[sub] if sub is not None else command.extra
    if extra is None:
        return None
    missing = _missing(EXTRAS[extra])
    if not missing:
        return None
    return " ".join(w for w in (words[0], sub) if w is not None), extra, missing


def install_command(extra: str) -> str:
    """How to add ``extra`` to the install: mjbot is installed from its clone (no package
    index has it), editable, so the clone's edits take effect."""
    return f"pip install -e '.[{extra}]' in the mjbot clone"


def extra_message(words: str, extra: str, missing: Sequence[str]) -> str:
    """What a command needing a missing extra prints."""
    return (f"mjbot {words} needs the {extra} extra (missing: {', '.join(missing)}): "
            f"{install_command(extra)}")


def _listed_help(command: Command) -> str:
    if command.extra is not None:
        return f"{command.help} (needs mjbot[{command.extra}])"
    return command.help


DESCRIPTION = ("mjbot: a Mahjong competition bot (Botzone's Chinese Standard Mahjong, an "
               "Olympiad-style taiwan-16 server) and the tools around it: local referees, "
               "matches with statistics, replay and a viewer, benchmarks.")
"""What ``mjbot --help`` says first."""


def version() -> str:
    """The installed package's version (``mjbot --version``)."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed_version

    try:
        return installed_version("mjbot")
    except PackageNotFoundError:
        return "unknown (not installed: pip install -e . in the clone)"


def build_parser(selected: str | None = None) -> argparse.ArgumentParser:
    """The parser; only the selected command's module is imported to add its options."""
    parser = Parser(prog="mjbot", description=DESCRIPTION, epilog=(
        "A command marked (needs mjbot[EXTRA]) needs that extra: pip install -e '.[EXTRA]' "
        "in the mjbot clone.  The core install (pip install -e .) plays on Botzone, builds "
        "the Botzone zip, computes deficiencies and runs the call benchmark."))
    parser.add_argument("--version", action="version", version=f"mjbot {version()}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, command in COMMANDS.items():
        child = sub.add_parser(name, help=_listed_help(command), description=command.help)
        if name == selected:
            importlib.import_module(command.module).add_arguments(child)
            _fill_help(child)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    selected = next((a for a in argv if not a.startswith("-")), None)
    lacking = needed_extra(argv)
    if lacking is not None:
        print(extra_message(*lacking), file=sys.stderr)
        return 2
    try:
        args = build_parser(selected).parse_args(argv)
    except SystemExit as exc:  # a refused option (argparse printed why) or --help
        if exc.code is None or isinstance(exc.code, int):
            return exc.code or 0
        return 2
    if args.command != "play":  # a player starts without structlog (bot.start; play olympiad
        from bot.logging import configure_logging  # configures its own)

        configure_logging()  # logs go to stderr in every command (--log-level reconfigures)
    if args.command in COMPUTES:
        _say_if_cold(args.command)
    module = importlib.import_module(COMMANDS[args.command].module)
    code: int = module.run(args)
    return code


COMPUTES = frozenset({"deficiency", "advise", "bench", "selfplay", "arena", "match",
                      "experiment", "replay", "view"})
"""The commands that run the strategy's kernels in this process (a player, ``play``, never
compiles during a turn: :mod:`bot.start`)."""


def _say_if_cold(command: str) -> None:
    """Say so when this run will compile the kernels (the first run after an install or an
    edit of ``strategy/``), so a long first call is not a mystery."""
    from strategy import jit

    if jit.HAVE_NUMBA and not jit.kernels_cached():
        print(f"mjbot {command}: the numba kernels are not compiled yet: this run compiles "
              "those it uses (minutes the first time; python -m strategy.warmup compiles "
              "them all ahead, once)", file=sys.stderr, flush=True)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
