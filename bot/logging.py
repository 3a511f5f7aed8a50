"""structlog set-up: one event per line on stderr, JSON when stderr is not a terminal.

stdout belongs to the protocols (Botzone reads the bot's answer there), so
logs never go to stdout.
"""

from __future__ import annotations

import logging
import sys
from typing import Any

import structlog


def configure_logging(level: str = "INFO", json_output: bool | None = None) -> None:
    if json_output is None:
        json_output = not sys.stderr.isatty()
    processors: list[Any] = [
        structlog.contextvars.merge_contextvars,
        structlog.processors.add_log_level,
        structlog.processors.TimeStamper(fmt="iso", utc=True),
        structlog.processors.format_exc_info,
    ]
    renderer: Any = (
        structlog.processors.JSONRenderer()
        if json_output
        else structlog.dev.ConsoleRenderer(colors=False)
    )
    structlog.configure(
        processors=[*processors, renderer],
        wrapper_class=structlog.make_filtering_bound_logger(
            logging.getLevelNamesMapping().get(level.upper(), logging.INFO)
        ),
        logger_factory=_StderrLogger,
        cache_logger_on_first_use=False,
    )


class _StderrLogger:
    """Writes each event line to ``sys.stderr`` as it is when the event is logged, not as it
    was when logging was configured (a test's captured stream may be closed since)."""

    def __init__(self, *args: Any) -> None:
        return None

    def msg(self, message: str) -> None:
        print(message, file=sys.stderr, flush=True)

    log = debug = info = warn = warning = error = critical = exception = fatal = msg


def get_logger(name: str) -> Any:
    """A logger onto stderr: when nothing configured structlog yet (a library use, a Ray
    worker, a command without ``--log-level``), this configures it first, since structlog's
    own default prints to stdout."""
    if not structlog.is_configured():
        configure_logging()
    return structlog.get_logger(name)
