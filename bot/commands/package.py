"""``mjbot package botzone OUT.zip``: see :mod:`bot.package`."""

from bot.package import add_arguments, run

__all__ = ["add_arguments", "run"]
