"""Argparse types for every numeric option of every command, checked in one place.

Each type reads the option's text and either returns the number or raises
:class:`argparse.ArgumentTypeError` with a message saying what was wrong; argparse
prefixes it with the option's name (``argument --think: ...``) and exits with 2.
Floats must be finite: ``nan`` and ``inf`` are refused everywhere.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable


def _integer(text: str) -> int:
    try:
        return int(text.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None


def _finite(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"{text!r} is not a finite number")
    return value


def positive_int(text: str) -> int:
    """A whole number of at least 1."""
    value = _integer(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def non_negative_int(text: str) -> int:
    """A whole number of at least 0 (a seed, a count that may be zero)."""
    value = _integer(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, got {value}")
    return value


def seat_index(text: str) -> int:
    """A seat, 0-3."""
    value = _integer(text)
    if not 0 <= value <= 3:
        raise argparse.ArgumentTypeError(f"a seat is 0-3, got {value}")
    return value


def positive_float(text: str) -> float:
    """A finite number above 0 (seconds, milliseconds)."""
    value = _finite(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"must be above 0, got {text}")
    return value


def finite_float(text: str) -> float:
    """Any finite number (a hypothesis in Elo, which may be negative)."""
    return _finite(text)


def probability(text: str) -> float:
    """A finite number strictly between 0 and 1 (an error rate)."""
    value = _finite(text)
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"must be above 0 and below 1, got {text}")
    return value


def fraction(text: str) -> float:
    """A finite share above 0 and at most 1."""
    value = _finite(text)
    if not 0 < value <= 1:
        raise argparse.ArgumentTypeError(f"must be above 0 and at most 1, got {text}")
    return value


def int_range(low: int, high: int) -> Callable[[str], int]:
    """A whole number from ``low`` to ``high`` inclusive."""

    def check(text: str) -> int:
        value = _integer(text)
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be {low}-{high}, got {value}")
        return value

    check.__name__ = f"int_{low}_to_{high}"
    return check
