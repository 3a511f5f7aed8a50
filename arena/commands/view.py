"""``mjbot view``: see :mod:`arena.review.viewer.command`."""

from arena.review.viewer.command import add_arguments, run

__all__ = ["add_arguments", "run"]
