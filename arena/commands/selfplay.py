"""``mjbot selfplay``: see :mod:`arena.selfplay`."""

from arena.selfplay import add_arguments, run

__all__ = ["add_arguments", "run"]
