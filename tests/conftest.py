"""Shared test helpers: where ../shared lives beside the project."""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path(os.environ.get("MJBOT_SHARED", ROOT.parent / "shared"))
