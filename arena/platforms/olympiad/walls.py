"""Where an Olympiad table's walls come from, committed before the first game and revealed
after the last, so that no seat can predict them and anyone can check them afterwards.

Each table has a seed: without ``--seed``, 256 random bits from :mod:`secrets`, drawn for
that table alone; with ``--seed N`` (reproducible testing), ``N`` for every table, and the
walls are predictable by anyone who knows or guesses ``N``.  Game ``g`` of table ``k``
(``t1`` is ``k = 0``) is dealt from ``shuffled_wall(taiwan-16, default_rng([seed, k, g]))``;
under the stable draw wall the reshuffles of that game draw from
``default_rng([int(sha256("mjbot-olympiad-sdw-v1:SEED:k:g"), 16), i])`` (with ``--seed``:
from the wall itself, as before).

The commitment, sent in every ``welcome`` of the table and written in every record header,
is ``sha256("mjbot-olympiad-walls-v1:" + SALT + ":" + SEED)`` in hex, SEED in decimal and
SALT 32 hex digits (random; with ``--seed``, derived from it, so a seeded run is the same
in every run).  The last ``end`` of the table reveals SEED and SALT, and the table's records
are then rewritten with them (``seed``, ``salt``) and made readable (0644); until then they
carry neither and are readable by their owner only (0600).  :func:`verify_records` checks a
directory of records: every commitment opens to its seed and salt, every wall is the one the
seed deals.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
import secrets
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from arena.records.fields import RecordError
from arena.records.files import MAX_RECORD_LINE, VERSION, read_record
from arena.records.lines import HeaderLayout, RecordHeader
from arena.tools.output_files import replace_file
from game.rules import TAIWAN_16
from game.stable_wall import WallMode
from game.taiwan import TaiwanTable
from game.walls import shuffled_wall
from protocols.bounded_json import JsonInputError, loads_bounded
from protocols.olympiad import wall_commitment

SEED_BITS = 256
SALT_HEX = 32
"""The salt: 16 random bytes, 32 hex digits."""
RECORD_MODE_PLAYING = 0o600
RECORD_MODE_REVEALED = 0o644


@dataclass(frozen=True)
class WallSeed:
    """One table's seed and salt; ``predictable`` when the organiser gave the seed."""

    seed: int = field(repr=False)
    salt: str = field(repr=False)
    predictable: bool = False

    @classmethod
    def secret(cls) -> WallSeed:
        """A seed nobody can guess: 256 bits from :mod:`secrets`, and a random salt."""
        return cls(secrets.randbits(SEED_BITS), secrets.token_hex(SALT_HEX // 2))

    @classmethod
    def fixed(cls, seed: int) -> WallSeed:
        """The organiser's ``--seed``: the same walls, commitment and records in every run
        (and walls that whoever knows or guesses the seed can compute)."""
        if seed < 0:
            raise ValueError(f"seed {seed} is negative")
        salt = hashlib.sha256(f"mjbot-olympiad-fixed-salt:{seed}".encode()).hexdigest()
        return cls(seed, salt[:SALT_HEX], predictable=True)

    @property
    def commitment(self) -> str:
        return wall_commitment(str(self.seed), self.salt)

    def wall(self, table_index: int, game: int) -> tuple[int, ...]:
        return table_wall(self.seed, table_index, game)

    def reshuffle_seed(self, table_index: int, game: int) -> int | None:
        """The stable draw wall's reshuffle seed of one game: from the secret; None (the wall
        itself, as before) for a given seed."""
        if self.predictable:
            return None
        return reshuffle_seed(self.seed, table_index, game)


def table_wall(seed: int, table_index: int, game: int) -> tuple[int, ...]:
    """The wall of game ``game`` of the table numbered ``table_index`` (from 0)."""
    return shuffled_wall(TAIWAN_16, np.random.default_rng([seed, table_index, game]))


def reshuffle_seed(seed: int, table_index: int, game: int) -> int:
    text = f"mjbot-olympiad-sdw-v1:{seed}:{table_index}:{game}"
    return int(hashlib.sha256(text.encode()).hexdigest(), 16)


def table_index(table: str) -> int:
    """A table id's number, from 0 (``t1`` -> 0): the digits it ends with, minus one."""
    found = re.search(r"(\d+)$", table)
    if found is None or int(found.group(1)) < 1:
        raise ValueError(f"table {table!r}: its id does not end with its number (1, 2, ...)")
    return int(found.group(1)) - 1


# ---------------------------------------------------------------- records
def reveal_record(path: Path, seed: WallSeed) -> None:
    """Write the seed and salt into a record's header, and make it readable (0644)."""
    text = path.read_text()
    first, _, rest = text.partition("\n")
    try:
        data = loads_bounded(first, max_chars=MAX_RECORD_LINE)
    except JsonInputError as exc:
        raise RecordError(f"{path}:1: {exc}") from None
    if not isinstance(data, dict) or data.pop("record", None) != "header":
        raise RecordError(f"{path}:1: not a header line")
    version = data.get("version", VERSION)
    header = RecordHeader.from_json(data)
    if header.commitment != seed.commitment:
        raise RecordError(f"{path}: its commitment is not this table's")
    opened = dataclasses.replace(header, seed=seed.seed, salt=seed.salt)
    line = json.dumps({"record": "header", "version": version, **opened.to_json()})
    replace_file(path, line + "\n" + rest, RECORD_MODE_REVEALED)


@dataclass(frozen=True)
class Verified:
    """What :func:`verify_records` checked: games per table and the problems found."""

    games: dict[str, int]
    problems: list[str]

    @property
    def ok(self) -> bool:
        return not self.problems and bool(self.games)


def verify_records(paths: Iterable[Path]) -> Verified:
    """Check Olympiad records after their match: each header's commitment opens to its
    revealed seed and salt, and its wall is the one that seed deals to its table and game.
    One commitment per table; the recorded deal must be its wall's."""
    games: dict[str, int] = {}
    commitments: dict[str, str] = {}
    problems: list[str] = []
    for path in paths:
        try:
            record = read_record(path)
        except (OSError, RecordError) as exc:
            problems.append(f"{path}: cannot read: {exc}")
            continue
        header = record.header
        if header.layout is not HeaderLayout.OLYMPIAD or header.table is None \
                or header.game is None:
            problems.append(f"{path}: not an Olympiad referee's record")
            continue
        if header.commitment is None:
            problems.append(f"{path}: no commitment (written before walls were committed)")
            continue
        if header.seed is None or header.salt is None:
            problems.append(f"{path}: the seed is not revealed (the table had not finished)")
            continue
        if wall_commitment(str(header.seed), header.salt) != header.commitment:
            problems.append(f"{path}: the revealed seed and salt do not open the commitment")
            continue
        if commitments.setdefault(header.table, header.commitment) != header.commitment:
            problems.append(f"{path}: table {header.table} has another commitment elsewhere")
        try:
            index = table_index(header.table)
        except ValueError as exc:
            problems.append(f"{path}: {exc}")
            continue
        if header.walltiles != table_wall(header.seed, index, header.game):
            problems.append(f"{path}: the wall is not the one the seed deals to table "
                            f"{header.table} game {header.game}")
            continue
        dealt = TaiwanTable(header.walltiles, header.prevalent_wind or 0, header.dealer or 0,
                            wall_mode=header.wall_mode or WallMode.SINGLE).history
        if tuple(record.events[:len(dealt)]) != tuple(dealt):
            problems.append(f"{path}: the recorded deal is not the deal of its wall")
            continue
        games[header.table] = games.get(header.table, 0) + 1
    return Verified(games, problems)


__all__ = ["RECORD_MODE_PLAYING", "RECORD_MODE_REVEALED", "Verified", "WallSeed",
           "reshuffle_seed", "reveal_record", "table_index", "table_wall", "verify_records"]
