"""``mjbot replay``: see :mod:`bot.replay`."""

from bot.replay import add_arguments, run

__all__ = ["add_arguments", "run"]
