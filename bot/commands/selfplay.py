"""``mjbot selfplay``: see :mod:`bot.selfplay`."""

from bot.selfplay import add_arguments, run

__all__ = ["add_arguments", "run"]
