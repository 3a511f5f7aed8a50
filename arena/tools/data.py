"""Where the tools find the repository's game data (``data/`` in the checkout).

``data/README.md`` names each file's source.  The folder is the repository's ``data/``
beside the packages (a clone, or an editable install of one), or the folder named by the
``MJBOT_DATA`` environment variable (a non-editable install has no ``data/`` beside it).
"""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ENV = "MJBOT_DATA"


class DataMissing(FileNotFoundError):
    """A data file or folder the tool needs is not there; the message says where it looked."""


def data_dir() -> Path:
    """The data folder: ``$MJBOT_DATA`` when set, else the checkout's ``data/``."""
    given = os.environ.get(ENV)
    return Path(given) if given else ROOT / "data"


def _where() -> str:
    return (f"{data_dir()} (the repository's data/ folder; set {ENV} to another copy, "
            "e.g. when mjbot is installed from a wheel)")


def botzone_logs() -> list[Path]:
    """The real Botzone match logs (``*_lite.json``), sorted; none raises :class:`DataMissing`."""
    folder = data_dir() / "botzone-match-logs"
    logs = sorted(folder.glob("*_lite.json"))
    if not logs:
        raise DataMissing(f"no Botzone match logs (*_lite.json) in {folder}; looked in "
                          f"{_where()}")
    return logs


def pku_sample() -> Path:
    """The PKU data set's 16-match sample; missing raises :class:`DataMissing`."""
    path = data_dir() / "pku-datatxt" / "sample.txt"
    if not path.is_file():
        raise DataMissing(f"no PKU sample at {path}; looked in {_where()}")
    return path
