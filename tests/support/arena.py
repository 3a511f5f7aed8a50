"""Helpers for the arena's tests: they import the Olympiad referee and the viewer, which
need the arena extra (``pip install -e '.[arena]'``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from arena.platforms.olympiad.config import RefereeConfig
from arena.review.viewer.sources import GameSource, read_botzone_log
from game.table import BotzoneTable
from game.tiles import parse_tile

OLYMPIAD_SEED = 11


def olympiad_config(tmp: Path, **kw: Any) -> RefereeConfig:
    """One table, one game of seed 11, a 20 s deadline (deterministic agents never need
    it), records in ``tmp``; ``kw`` overrides any of them."""
    base: dict[str, Any] = {"tables": 1, "games": 1, "seed": OLYMPIAD_SEED,
                            "decision_ms": 20_000, "records": tmp}
    base.update(kw)
    return RefereeConfig(**base)


def botzone_judge_mock(path: Path) -> tuple[BotzoneTable, list[Any], GameSource]:
    """A Botzone match log (``*_lite.json``) replayed by hand: our table (the judge's mock)
    on the log's wall and prevalent wind, the log's turns (their ``response`` answers to
    feed the table) and the log read as the viewer reads it."""
    data = json.loads(path.read_text())
    init = json.loads(data["initdata"])
    table = BotzoneTable([parse_tile(x) for x in init["walltiles"].split()], init["quan"])
    return table, data["logs"], read_botzone_log(path)
