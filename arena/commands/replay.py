"""``mjbot replay``: see :mod:`arena.replay`."""

from arena.replay import add_arguments, run

__all__ = ["add_arguments", "run"]
