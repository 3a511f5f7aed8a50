"""``mjbot play botzone``: play on a platform."""

from __future__ import annotations

import argparse


def add_arguments(p: argparse.ArgumentParser) -> None:
    sub = p.add_subparsers(dest="platform", required=True)
    bz = sub.add_parser("botzone", help="Botzone Chinese Standard Mahjong on stdin/stdout")
    bz.add_argument("--no-keep-running", action="store_true",
                    help="answer one turn and exit (the history is replayed every turn)")
    bz.add_argument("--think", type=float, default=0.8, metavar="SECONDS",
                    help="thinking time per turn (the first turns get double)")


def run(args: argparse.Namespace) -> int:
    if args.platform == "botzone":
        from bot.botzone import main

        return main(keep_running=not args.no_keep_running, think_seconds=args.think)
    raise SystemExit(f"unknown platform {args.platform}")
