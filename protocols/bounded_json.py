"""JSON from someone else, read with limits: size and nesting depth are checked before
parsing, and what the parser itself can raise is turned into one error.

``json.loads`` recurses once per nesting level (100,000 ``[`` raise ``RecursionError``,
which is no ``ValueError`` and ends any receive loop that only expects bad JSON), and
refuses an integer of more than 4,300 digits with a plain ``ValueError``.
:func:`loads_bounded` refuses both, and anything too long, with :class:`JsonInputError`
(a ``ValueError``) whose message names what was wrong.  Every reader of foreign JSON uses
it: the Olympiad referee and client (:mod:`protocols.olympiad`), the Botzone bot
(:mod:`protocols.botzone_envelope`), game records (:mod:`arena.records.files`) and the secrets file.

Every check is linear in the text and runs in C (``str.count``, ``str.replace``,
``str.split``, one regex without backtracking, ``itertools.accumulate``): refusing any
text costs about what ``json.loads`` costs on a flat string of its size.  Part of the
Botzone upload: CPython 3.6 code.
"""

import json
import re
from itertools import accumulate
from typing import Any, Optional, Union

MAX_DEPTH = 32
"""Nesting levels allowed by default: no message of ours goes deeper than 6."""
MAX_CHARS = 1 << 20
"""Characters allowed by default (1 MiB)."""
MAX_DOCUMENT_CHARS = 1 << 26
"""Characters of a whole file read as one JSON document (a Botzone match log: 64 MiB)."""

_NOT_BRACKETS = re.compile(r"[^\[\]{}]+")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


class JsonInputError(ValueError):
    """JSON that is refused: not JSON, too long, too deep, or a number too long to read."""


def _brackets_outside_strings(text: str) -> str:
    """The ``[]{}`` of ``text`` that are outside JSON strings, in order.

    Escapes first: ``\\\\`` pairs go (left to right, as a reader pairs them), then every
    backslash left escapes the character after it, so ``\\"`` goes too.  What remains has
    a quote only where a string starts or ends: splitting on quotes puts the text outside
    strings at the even places (an unterminated string runs to the end).  Escapes outside
    strings, which JSON does not have, change only what follows a point where every reader
    stops anyway."""
    if "\\" in text:
        text = text.replace("\\\\", "").replace('\\"', "")
    if '"' in text:
        text = "".join(text.split('"')[::2])
    return _NOT_BRACKETS.sub("", text)


def nesting_depth(text: str, stop_above: Optional[int] = None) -> int:
    """The deepest nesting of ``[`` and ``{`` outside strings, in linear time (no parse).

    A close before its open counts down (below zero, too): no reader gets past it, so only
    the text before it matters, and there the count is exact.  ``stop_above``: stop as soon
    as the depth passes it and return ``stop_above + 1``."""
    brackets = _brackets_outside_strings(text)
    if stop_above is not None and _deeper_than(brackets, stop_above):
        return stop_above + 1
    return max(0, max(accumulate(map(_STEP.__getitem__, brackets)), default=0))


def _deeper_than(brackets: str, bound: int) -> bool:
    """Whether the running depth of ``brackets`` passes ``bound`` (stops where it does)."""
    return any(map(bound.__lt__, accumulate(map(_STEP.__getitem__, brackets))))


def loads_bounded(text: Union[str, bytes, bytearray], *, max_depth: int = MAX_DEPTH,
                  max_chars: int = MAX_CHARS) -> Any:
    """``json.loads(text)`` within limits; :class:`JsonInputError` names what was wrong."""
    if len(text) > max_chars:
        unit = "bytes" if isinstance(text, (bytes, bytearray)) else "characters"
        raise JsonInputError(f"{len(text)} {unit}, more than the {max_chars} allowed")
    if isinstance(text, (bytes, bytearray)):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise JsonInputError(f"not UTF-8 (byte {exc.start})") from None
    if (text.count("[") + text.count("{") > max_depth  # only then can it be too deep
            and _deeper_than(_brackets_outside_strings(text), max_depth)):
        raise JsonInputError(f"nested more than {max_depth} deep, the most allowed")
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise JsonInputError(f"not JSON: {exc}") from None
    except RecursionError:
        raise JsonInputError("nested too deep to read") from None
    except ValueError as exc:  # e.g. an integer of more than 4,300 digits
        raise JsonInputError(f"not readable: {str(exc)[:120]}") from None


__all__ = ["MAX_CHARS", "MAX_DEPTH", "MAX_DOCUMENT_CHARS", "JsonInputError", "loads_bounded",
           "nesting_depth"]
