"""The README read as a test reads it: its sections, fenced code blocks and tables, each with
the line it starts on, so that a failure names the README line that stopped being true
(``tests/test_readme.py``)."""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from pathlib import Path

from support import ROOT

README = ROOT / "README.md"


@dataclass(frozen=True)
class Block:
    """A fenced code block: its language and its lines, the first at README line ``line``."""

    lang: str
    line: int
    lines: tuple[str, ...]


@dataclass(frozen=True)
class Row:
    """A table row: its cells (stripped) at README line ``line``."""

    line: int
    cells: tuple[str, ...]


class Readme:
    """README.md's lines (numbered from 1, as an editor shows them)."""

    def __init__(self, path: Path = README) -> None:
        self.path = path
        self.lines = path.read_text(encoding="utf-8").splitlines()

    def at(self, line: int) -> str:
        """``README.md:N: text``: how an assertion names the line that broke."""
        return f"{self.path.name}:{line}: {self.lines[line - 1].strip()}"

    def find(self, text: str, start: int = 1) -> int:
        """The number of the line at or after ``start`` where ``text`` begins (it may run on
        over line breaks: any run of spaces and line breaks matches one space)."""
        starts, joined = [], ""
        for line in self.lines[start - 1:]:
            starts.append(len(joined))
            joined += line.strip() + " "
        pattern = r"\s+".join(re.escape(word) for word in text.split())
        found = re.search(pattern, joined)
        if found is None:
            raise AssertionError(f"{self.path.name} has no {text!r} (from line {start})")
        return start + bisect.bisect_right(starts, found.start()) - 1

    def section(self, heading: str) -> tuple[int, int]:
        """The lines (first, last) under the heading ``heading`` (any level), up to the next
        heading of the same or a higher level."""
        for number, text in enumerate(self.lines, 1):
            found = re.fullmatch(r"(#+)\s+(.*?)\s*", text)
            if found and found.group(2) == heading:
                level = len(found.group(1))
                end = len(self.lines)
                for later in range(number + 1, len(self.lines) + 1):
                    other = re.match(r"(#+)\s", self.lines[later - 1])
                    if other and len(other.group(1)) <= level and not self._in_block(later):
                        end = later - 1
                        break
                return number, end
        raise AssertionError(f"{self.path.name} has no heading {heading!r}")

    def text(self, first: int, last: int) -> str:
        """Lines ``first``..``last`` as one paragraph (line breaks as spaces, fenced blocks
        left out), so a backticked span that wraps is one span."""
        kept, fenced = [], self._in_block(first)
        for line in self.lines[first - 1:last]:
            if line.startswith("```"):
                fenced = not fenced
            elif not fenced:
                kept.append(line.strip())
        return " ".join(kept)

    def _in_block(self, line: int) -> bool:
        fences = sum(1 for text in self.lines[:line - 1] if text.startswith("```"))
        return fences % 2 == 1

    def block_after(self, line: int, lang: str) -> Block:
        """The first fenced block of language ``lang`` after README line ``line`` (after the
        block that line is in, if any)."""
        number = line + 1
        while self._in_block(number):
            number += 1
        while number <= len(self.lines):
            opening = self.lines[number - 1]
            if opening.startswith("```"):
                closing = number + 1
                while not self.lines[closing - 1].startswith("```"):
                    closing += 1
                if opening[3:].strip() == lang:
                    return Block(lang, number + 1, tuple(self.lines[number:closing - 1]))
                number = closing
            number += 1
        raise AssertionError(f"{self.path.name} has no ```{lang} block after line {line}")

    def table(self, header: str) -> list[Row]:
        """The body rows of the table whose header row's first cell is ``header``."""
        for number, text in enumerate(self.lines, 1):
            if text.startswith("|") and _cells(text)[0] == header:
                rows = []
                for body in range(number + 2, len(self.lines) + 1):
                    row = self.lines[body - 1]
                    if not row.startswith("|"):
                        break
                    rows.append(Row(body, _cells(row)))
                return rows
        raise AssertionError(f"{self.path.name} has no table with the header {header!r}")


def _cells(row: str) -> tuple[str, ...]:
    """A Markdown table row's cells; ``\\|`` inside a cell is a literal bar."""
    parts = re.split(r"(?<!\\)\|", row.strip().strip("|"))
    return tuple(part.strip().replace("\\|", "|") for part in parts)


def code_spans(text: str) -> list[str]:
    """The backticked spans of ``text``, in order."""
    return re.findall(r"`([^`]+)`", text)


def continued(lines: tuple[str, ...] | list[str]) -> list[str]:
    """Shell lines with ``\\`` continuations joined, comments and blank lines kept."""
    out: list[str] = []
    pending = ""
    for line in lines:
        if line.rstrip().endswith("\\"):
            pending += line.rstrip()[:-1].rstrip() + " "
            continue
        out.append(pending + line.strip() if pending else line)
        pending = ""
    if pending:
        out.append(pending.rstrip())
    return out
