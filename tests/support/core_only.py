"""A core install, simulated: the modules of mjbot's extras made unimportable.

``block()`` puts a finder first on ``sys.meta_path`` that refuses every module of the
extras (and of the dev tools a core install lacks), raising the same
``ModuleNotFoundError`` a missing package does.  Tests run it in a subprocess, before the
code under test is imported::

    python -c "import support.core_only as c; c.block(); ..."
"""

from __future__ import annotations

import importlib.abc
import sys
from collections.abc import Iterable, Sequence
from types import ModuleType

OLYMPIAD = ("pydantic", "websockets", "aiomqtt")
ARENA = ("amqtt", "tqdm", "ray", "matplotlib")
DEV_ONLY = ("mahjong", "cryptography", "playwright")
"""The dev extra's packages a test run on a core install lacks (pytest and hypothesis are
what such a run adds)."""
EXTRAS = OLYMPIAD + ARENA + DEV_ONLY


class _Refuse(importlib.abc.MetaPathFinder):
    def __init__(self, names: Iterable[str]) -> None:
        self.names = frozenset(names)

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> None:
        if fullname.split(".")[0] in self.names:
            raise ModuleNotFoundError(f"No module named {fullname!r}", name=fullname)
        return None


def block(names: Iterable[str] = EXTRAS) -> None:
    """Make ``names`` (top-level packages) unimportable in this process."""
    names = tuple(names)
    for loaded in [m for m in sys.modules if m.split(".")[0] in names]:
        del sys.modules[loaded]
    sys.meta_path.insert(0, _Refuse(names))


def imported(names: Iterable[str] = EXTRAS) -> list[str]:
    """Which of ``names`` this process has imported."""
    return sorted({m.split(".")[0] for m in sys.modules} & set(names))
