"""``mjbot view``: see :mod:`arena.viewer.command`."""

from arena.viewer.command import add_arguments, run

__all__ = ["add_arguments", "run"]
