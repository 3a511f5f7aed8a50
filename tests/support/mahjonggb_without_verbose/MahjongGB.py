"""MahjongGB as it was before March 2021, when ``verbose`` was added: the installed binding's
calculator with its old signature and answer, ``((value times count, name), ...)``.

Botzone's copy is of unknown age; the upload gate plays the zip with this module first on
its path (``arena/platforms/botzone_judge/upload_gate.py``).  CPython 3.6 code, like the upload.
"""

import importlib.machinery
import importlib.util
import os
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))
_SPEC = importlib.machinery.PathFinder.find_spec(
    "MahjongGB", [p for p in sys.path if os.path.abspath(p or ".") != _HERE])
if _SPEC is None or _SPEC.loader is None:
    raise ImportError("no MahjongGB installed beneath the one without verbose")
_SELF = sys.modules[__name__]
_REAL = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(_REAL)  # type: ignore[union-attr]
sys.modules[__name__] = _SELF  # the binding put itself there as it loaded


def MahjongFanCalculator(pack, hand, winTile, flowerCount, isSelfDrawn, is4thTile,
                         isAboutKong, isWallLast, seatWind, prevalentWind):
    """The old signature: no ``verbose`` (passing it is a TypeError, as it was)."""
    return _REAL.MahjongFanCalculator(
        pack=pack, hand=hand, winTile=winTile, flowerCount=flowerCount,
        isSelfDrawn=isSelfDrawn, is4thTile=is4thTile, isAboutKong=isAboutKong,
        isWallLast=isWallLast, seatWind=seatWind, prevalentWind=prevalentWind,
        verbose=False)
