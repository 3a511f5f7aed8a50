"""``mjbot package botzone OUT.zip``: see :mod:`arena.tools.package`."""

from arena.tools.package import add_arguments, run

__all__ = ["add_arguments", "run"]
