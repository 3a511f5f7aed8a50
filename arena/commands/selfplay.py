"""``mjbot selfplay``: see :mod:`arena.tables.selfplay`."""

from arena.tables.selfplay import add_arguments, run

__all__ = ["add_arguments", "run"]
