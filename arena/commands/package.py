"""``mjbot package botzone OUT.zip``: see :mod:`arena.package`."""

from arena.package import add_arguments, run

__all__ = ["add_arguments", "run"]
