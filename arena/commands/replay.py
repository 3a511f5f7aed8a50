"""``mjbot replay``: see :mod:`arena.review.replay`."""

from arena.review.replay import add_arguments, run

__all__ = ["add_arguments", "run"]
