"""What the Botzone upload needs of Python 3.7 and later, written for CPython 3.6.

Botzone runs a Python upload with ``/usr/bin/python3.6`` (``protocols/botzone.md``,
"Runtime"), so every module the upload imports is 3.6 code; the few names newer
Pythons give are defined here once.
"""

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the type checker's alone: vermin is told so (novm)
    from typing import Protocol as Protocol  # novm
else:  # typing.Protocol is 3.8; at run time a protocol is only a documented base class
    Protocol = object

_ASCII_DIGITS = re.compile(r"[0-9]+")


def ascii_digits(text: str) -> bool:
    """``text.isascii() and text.isdigit()`` (``str.isascii`` is 3.7): one or more of 0-9;
    ``'²'`` and other Unicode digits are not."""
    return _ASCII_DIGITS.fullmatch(text) is not None


def comb(n: int, k: int) -> int:
    """``math.comb`` (3.8): the number of ways to choose ``k`` of ``n``; 0 when ``k > n``."""
    if k < 0 or n < 0:
        raise ValueError(f"comb needs non-negative n and k, got {n} and {k}")
    if k > n:
        return 0
    k = min(k, n - k)
    result = 1
    for i in range(1, k + 1):
        result = result * (n - k + i) // i
    return result
