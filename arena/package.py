"""``mjbot package botzone OUT.zip``: a Botzone upload.

The zip has ``__main__.py`` at its root and the packages game/, strategy/,
protocols/ and bot/ beside it, so ``python OUT.zip`` runs the bot.  On Botzone
the only third-party packages are numpy and PyMahjongGB: numba is switched off
(``MJBOT_NO_NUMBA=1``; every kernel runs as plain Python), and nothing the
bot imports at play time needs more.
"""

from __future__ import annotations

import argparse
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("game", "strategy", "protocols", "bot")
MAIN = '''"""mjbot for Botzone: keep-running, simple or JSON interaction (detected)."""
import os
import sys

os.environ.setdefault("MJBOT_NO_NUMBA", "1")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from bot.botzone import main  # noqa: E402

sys.exit(main(keep_running="--no-keep-running" not in sys.argv, think_seconds=2.0))
'''


def build(out: Path) -> list[str]:
    """Write the zip; returns the archive names."""
    names = []
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("__main__.py", MAIN)
        names.append("__main__.py")
        for package in PACKAGES:
            for path in sorted((ROOT / package).rglob("*.py")):
                name = path.relative_to(ROOT).as_posix()
                zf.write(path, name)
                names.append(name)
    return names


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("platform", choices=["botzone"])
    p.add_argument("out", type=Path, help="the zip to write")


def run(args: argparse.Namespace) -> int:
    names = build(args.out)
    print(f"wrote {args.out} ({len(names)} files, {args.out.stat().st_size // 1024} KiB)")
    return 0
