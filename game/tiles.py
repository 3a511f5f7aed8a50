"""The tile index and its notations.

One index space everywhere inside the program (see DESIGN.md):

=======  ==========================  =========  =========  =====
index    tiles                       Botzone    compact    paper
=======  ==========================  =========  =========  =====
0-8      characters 1-9 (万)          W1-W9      1m-9m      C1-C9
9-17     dots 1-9 (饼/筒)              B1-B9      1p-9p      D1-D9
18-26    bamboo 1-9 (条)               T1-T9      1s-9s      B1-B9
27-30    winds E S W N               F1-F4      1z-4z      -
31-33    dragons red, green, white   J1-J3      7z 6z 5z   -
34-41    flowers and seasons         H1-H8      1f-8f      -
=======  ==========================  =========  =========  =====

The papers ("Let's Play Mahjong!", "A Fast Algorithm for Computing the
Deficiency Number of a Mahjong Hand") write B = bamboo, C = characters,
D = dots; Botzone writes B = dots.  The same letter names different suits, so
every conversion goes through the index, never by letter.
"""

import re
from collections.abc import Iterable, Sequence
from enum import Enum
from typing import TYPE_CHECKING

import numpy as np

NUM_KINDS = 34
"""Tile kinds that take part in hands (suits and honours)."""
NUM_SUITED = 27
FIRST_HONOUR = 27
FIRST_FLOWER = 34
NUM_FLOWERS = 8
NUM_INDICES = 42
"""Kinds including the eight flowers."""

EAST, SOUTH, WEST, NORTH = 27, 28, 29, 30
RED, GREEN, WHITE = 31, 32, 33
WINDS = (EAST, SOUTH, WEST, NORTH)
DRAGONS = (RED, GREEN, WHITE)
TERMINALS_AND_HONOURS = (0, 8, 9, 17, 18, 26, *WINDS, *DRAGONS)

if TYPE_CHECKING:
    import numpy.typing as npt

    Counts = npt.NDArray[np.int8]
    """A count vector: ``Counts[i]`` copies of tile kind ``i`` (length 34)."""
else:  # numpy.typing is numpy 1.21; the upload runs on Botzone's older numpy
    Counts = np.ndarray


class TileError(ValueError):
    """A tile, notation or count vector that the program cannot accept."""


class AmbiguousNotation(TileError):
    """A tile string that two notations read differently (``B1``: Botzone's dots, the
    papers' bamboo); the caller must name the notation."""


class Notation(Enum):
    BOTZONE = "botzone"
    COMPACT = "compact"
    PAPER = "paper"


def is_flower(tile: int) -> bool:
    return FIRST_FLOWER <= tile < NUM_INDICES


# ---------------------------------------------------------------- Botzone
_BOTZONE_SUIT = {"W": 0, "B": 9, "T": 18}


def _botzone_name(tile: int) -> str:
    if tile < NUM_SUITED:
        return "WBT"[tile // 9] + str(tile % 9 + 1)
    if tile < 31:
        return f"F{tile - 26}"
    if tile < 34:
        return f"J{tile - 30}"
    return f"H{tile - 33}"


# ---------------------------------------------------------------- compact
_COMPACT_SUIT = {"m": 0, "p": 9, "s": 18}
# 1z-4z winds; 5z white, 6z green, 7z red (index 33, 32, 31)
_COMPACT_HONOUR = {1: EAST, 2: SOUTH, 3: WEST, 4: NORTH, 5: WHITE, 6: GREEN, 7: RED}
_HONOUR_COMPACT = {v: k for k, v in _COMPACT_HONOUR.items()}


def _compact_name(tile: int) -> str:
    if tile < NUM_SUITED:
        return f"{tile % 9 + 1}{'mps'[tile // 9]}"
    if tile < NUM_KINDS:
        return f"{_HONOUR_COMPACT[tile]}z"
    return f"{tile - 33}f"


# ---------------------------------------------------------------- paper
PAPER_SUIT_TO_INDEX = {"B": 18, "C": 0, "D": 9}
"""The papers' colours: B = bamboo (our s), C = characters (m), D = dots (p)."""
PAPER_COLOUR_ORDER = ("B", "C", "D")
"""The order in which the papers write a 27-entry knowledge base."""


def _paper_name(tile: int) -> str:
    if tile >= NUM_SUITED:
        raise TileError(f"tile {_compact_name(tile)} has no paper notation (suits only)")
    return {0: "C", 1: "D", 2: "B"}[tile // 9] + str(tile % 9 + 1)


_NAMERS = {
    Notation.BOTZONE: _botzone_name,
    Notation.COMPACT: _compact_name,
    Notation.PAPER: _paper_name,
}

_BOTZONE_INDEX = {_botzone_name(t): t for t in range(NUM_INDICES)}
_COMPACT_INDEX = {_compact_name(t): t for t in range(NUM_INDICES)}
_PAPER_INDEX = {_paper_name(t): t for t in range(NUM_SUITED)}


def tile_name(tile: int, notation: "Notation" = Notation.COMPACT) -> str:
    if not 0 <= tile < NUM_INDICES:
        raise TileError(f"tile index {tile} is outside 0-{NUM_INDICES - 1}")
    return _NAMERS[notation](tile)


def parse_tile(token: str, notation: "Notation" = Notation.BOTZONE) -> int:
    """One tile in the given notation; the error names the token."""
    table = {
        Notation.BOTZONE: _BOTZONE_INDEX,
        Notation.COMPACT: _COMPACT_INDEX,
        Notation.PAPER: _PAPER_INDEX,
    }[notation]
    t = table.get(token.strip())
    if t is None:
        raise TileError(f"unknown tile {token!r} in {notation.value} notation")
    return t


_BOTZONE_RE = re.compile(r"[WBTFJH][1-9]")
_PAPER_RE = re.compile(r"[BCD][1-9]")
_COMPACT_GROUP_RE = re.compile(r"([0-9]+)([mpszf])")


def detect_notation(text: str) -> "Notation":
    """Guess the notation of a tile string; refuses the ambiguous ones.

    Compact is recognised by digits before a suit letter (``123m``); Botzone
    by its letters W T F J H; the papers' by C or D.  A string made only of
    ``B1``-style tokens is ambiguous (Botzone dots or paper bamboo) and raises.
    """
    s = re.sub(r"[\s,()\[\]]", "", text)
    if not s:
        raise TileError("empty tile string")
    if re.fullmatch(r"([0-9]+[mpszf])+", s):
        return Notation.COMPACT
    letters = set(re.findall(r"[A-Za-z]", s))
    if letters & set("WTFJH") and not letters & set("CD"):
        return Notation.BOTZONE
    if letters & set("CD") and not letters & set("WTFJH"):
        return Notation.PAPER
    if letters == {"B"}:
        raise AmbiguousNotation(
            f"{text!r} is ambiguous: B means dots in Botzone notation and bamboo in the "
            "papers'; name the notation"
        )
    raise TileError(f"cannot tell the notation of {text!r}")


def parse_tiles(text: str, notation: "Notation | None" = None) -> "list[int]":
    """A list of tiles: ``W1 W2 B3``, ``123m456p77z``, ``(B1B2)(C1)(D4D5)``.

    Every error names the offending token.
    """
    if notation is None:
        notation = detect_notation(text)
    s = text.strip()
    if notation is Notation.COMPACT:
        compact = re.sub(r"[\s,]", "", s)
        pos = 0
        out: "list[int]" = []
        for m in _COMPACT_GROUP_RE.finditer(compact):
            if m.start() != pos:
                raise TileError(f"unexpected {compact[pos:m.start()]!r} in {text!r}")
            pos = m.end()
            for d in m.group(1):
                out.append(parse_tile(d + m.group(2), Notation.COMPACT))
        if pos != len(compact):
            raise TileError(f"unexpected {compact[pos:]!r} in {text!r}")
        return out
    pattern = _BOTZONE_RE if notation is Notation.BOTZONE else _PAPER_RE
    body = re.sub(r"[\s,()\[\]]", "", s)
    pos = 0
    out = []
    while pos < len(body):
        token = pattern.match(body, pos)
        if token is None:
            bad = body[pos : pos + 2]
            raise TileError(f"unknown tile {bad!r} in {notation.value} notation in {text!r}")
        out.append(parse_tile(token.group(0), notation))
        pos = token.end()
    return out


def format_tiles(tiles: "Iterable[int]", notation: "Notation" = Notation.COMPACT) -> str:
    """Tiles in a notation: compact groups (``123m55z``), Botzone tokens, paper groups."""
    ts = sorted(tiles)
    if notation is Notation.BOTZONE:
        return " ".join(_botzone_name(t) for t in ts)
    if notation is Notation.PAPER:
        groups = []
        for colour in PAPER_COLOUR_ORDER:
            base = PAPER_SUIT_TO_INDEX[colour]
            part = "".join(_paper_name(t) for t in ts if base <= t < base + 9)
            groups.append(f"({part or '·'})")
        extra = [t for t in ts if t >= NUM_SUITED]
        if extra:
            raise TileError(f"tiles {format_tiles(extra)} have no paper notation")
        return "".join(groups)
    out = []
    for suit, letter in ((0, "m"), (9, "p"), (18, "s")):
        digits = "".join(str(t - suit + 1) for t in ts if suit <= t < suit + 9)
        if digits:
            out.append(digits + letter)
    honours = sorted(_HONOUR_COMPACT[t] for t in ts if FIRST_HONOUR <= t < NUM_KINDS)
    if honours:
        out.append("".join(map(str, honours)) + "z")
    flowers = [t - 33 for t in ts if t >= FIRST_FLOWER]
    if flowers:
        out.append("".join(map(str, flowers)) + "f")
    return "".join(out)


# ---------------------------------------------------------------- count vectors
def counts_of(tiles: "Iterable[int]", size: int = NUM_KINDS) -> "Counts":
    """The count vector of a list of tiles; refuses five of a kind, naming the tile."""
    c = np.zeros(size, dtype=np.int8)
    for t in tiles:
        if not 0 <= t < size:
            raise TileError(f"tile index {t} does not fit a count vector of {size}")
        c[t] += 1
        if c[t] > 4:
            raise TileError(f"five copies of {tile_name(t)}")
    return c


def tiles_of(counts: "Sequence[int] | Counts") -> "list[int]":
    return [t for t, n in enumerate(counts) for _ in range(int(n))]


def parse_counts(text: str, notation: "Notation | None" = None) -> "Counts":
    """A hand in any notation as a count vector (flowers are refused here)."""
    tiles = parse_tiles(text, notation)
    for t in tiles:
        if is_flower(t):
            raise TileError(f"flower {tile_name(t)} cannot be part of a hand")
    return counts_of(tiles)


def parse_paper_counts(text: str) -> "Counts":
    """A knowledge base as the papers write it: three 9-digit groups, B, C, D order.

    ``(001100121)(010000030)(032242321)`` gives bamboo, then characters, then
    dots; the result is a count vector in the program's index order.
    """
    digits = re.sub(r"[\s,()\[\]]", "", text)
    if not digits.isdigit() or len(digits) != 27:
        raise TileError(f"a paper knowledge base is 27 digits in B, C, D order, not {text!r}")
    out = np.zeros(NUM_KINDS, dtype=np.int8)
    for group, colour in enumerate(PAPER_COLOUR_ORDER):
        base = PAPER_SUIT_TO_INDEX[colour]
        for r in range(9):
            n = int(digits[9 * group + r])
            if n > 4:
                raise TileError(f"{n} copies of {_paper_name(base + r)} in {text!r}")
            out[base + r] = n
    return out
