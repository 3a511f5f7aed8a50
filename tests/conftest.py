"""Shared test helpers: where ../shared lives beside the project."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

# Ray in the tests (a local Ray, the two-node test cluster) resolves "this node" to the
# loopback address, as it does on a laptop, so no test traffic leaves 127.0.0.1; read by
# ray when it is imported, so set before any test imports it
os.environ["RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"] = "0"

from arena.olympiad_referee import RefereeConfig

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("MJBOT_SHARED", ROOT.parent / "shared"))


OLYMPIAD_SEED = 11


def olympiad_config(tmp: Path, **kw: Any) -> RefereeConfig:
    """One table, one game of seed 11, a 20 s deadline (deterministic agents never need
    it), records in ``tmp``; ``kw`` overrides any of them."""
    base: dict[str, Any] = {"tables": 1, "games": 1, "seed": OLYMPIAD_SEED,
                            "decision_ms": 20_000, "records": tmp}
    base.update(kw)
    return RefereeConfig(**base)
