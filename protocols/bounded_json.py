"""JSON from someone else, read with limits: size and nesting depth are checked before
parsing, and what the parser itself can raise is turned into one error.

``json.loads`` recurses once per nesting level (100,000 ``[`` raise ``RecursionError``,
which is no ``ValueError`` and ends any receive loop that only expects bad JSON), and
refuses an integer of more than 4,300 digits with a plain ``ValueError``.
:func:`loads_bounded` refuses both, and anything too long, with :class:`JsonInputError`
(a ``ValueError``) whose message names what was wrong.  Every reader of foreign JSON uses
it: the Olympiad referee and client (:mod:`protocols.olympiad`), the Botzone bot
(:mod:`protocols.botzone_envelope`), game records (:mod:`arena.records`) and the secrets file.
"""

from __future__ import annotations

import json
import re
from typing import Any

MAX_DEPTH = 32
"""Nesting levels allowed by default: no message of ours goes deeper than 6."""
MAX_CHARS = 1 << 20
"""Characters allowed by default (1 MiB)."""
MAX_DOCUMENT_CHARS = 1 << 26
"""Characters of a whole file read as one JSON document (a Botzone match log: 64 MiB)."""

_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKETS = re.compile(r"[\[\]{}]")


class JsonInputError(ValueError):
    """JSON that is refused: not JSON, too long, too deep, or a number too long to read."""


def nesting_depth(text: str) -> int:
    """The deepest nesting of ``[`` and ``{`` outside strings (a cheap scan, no parse)."""
    depth = deepest = 0
    for match in _BRACKETS.finditer(_STRING.sub("", text)):
        if match.group() in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth = max(0, depth - 1)
    return deepest


def loads_bounded(text: str | bytes | bytearray, *, max_depth: int = MAX_DEPTH,
                  max_chars: int = MAX_CHARS) -> Any:
    """``json.loads(text)`` within limits; :class:`JsonInputError` names what was wrong."""
    if len(text) > max_chars:
        unit = "bytes" if isinstance(text, bytes | bytearray) else "characters"
        raise JsonInputError(f"{len(text)} {unit}, more than the {max_chars} allowed")
    if isinstance(text, bytes | bytearray):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise JsonInputError(f"not UTF-8 (byte {exc.start})") from None
    if text.count("[") + text.count("{") > max_depth:  # only then can it be too deep
        depth = nesting_depth(text)
        if depth > max_depth:
            raise JsonInputError(f"nested {depth} deep, more than the {max_depth} allowed")
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
