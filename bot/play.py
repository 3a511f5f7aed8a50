"""``mjbot play botzone`` and ``mjbot play olympiad``: play on a platform."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from bot.options import fraction, positive_float, positive_int, seat_index


def add_arguments(p: argparse.ArgumentParser) -> None:
    sub = p.add_subparsers(dest="platform", required=True)
    bz = sub.add_parser("botzone", help="Botzone Chinese Standard Mahjong on stdin/stdout",
                        description="Play one Botzone seat on stdin/stdout, as Botzone runs a "
                        "bot (simple or JSON interaction, detected; keep-running unless "
                        "--no-keep-running).")
    bz.add_argument("--no-keep-running", action="store_true",
                    help="answer one turn and exit (the history is replayed every turn)")
    bz.add_argument("--think", type=positive_float, default=2.0, metavar="SECONDS",
                    help="thinking time per turn (Botzone gives Python 6 s for a game's "
                    "first turn and 4 s for every kept-running turn after it)")
    bz.add_argument("--sample", action="store_true",
                    help="spend the thinking time on the sampling search at the top "
                    "(bot.sampling_planner; needs numba) instead of the fast planner alone")
    bz.add_argument("--work-budget", type=positive_int, default=None, metavar="CALLS",
                    help="decide on this many kernel calls instead of the clock: the same "
                    "answers on any machine and load (reproducible local games; the "
                    "platform's time limit still applies)")
    ol = sub.add_parser("olympiad", help="Olympiad-style taiwan-16 over WebSocket or MQTT",
                        description="Play one seat of an Olympiad-style taiwan-16 table: join "
                        "the referee over WebSocket (--ws) or MQTT (--mqtt) with the seat's "
                        "secret and answer every ask.")
    add_seat_arguments(ol)
    ol.add_argument("--name", default="mjbot", help="the name sent in join")
    ol.add_argument("--think-fraction", type=fraction, default=0.5,
                    help="share of each ask's deadline the agent may think")


SECRET_ENV = "MJBOT_SEAT_SECRET"


def add_seat_arguments(p: argparse.ArgumentParser) -> None:
    """--ws URL | --mqtt URL, --table, --seat, --secret, --ca (shared with ``mjbot wrap``)."""
    where = p.add_mutually_exclusive_group(required=True)
    where.add_argument("--ws", metavar="URL", help="the referee's ws://HOST:PORT/ or wss://")
    where.add_argument("--mqtt", metavar="URL", help="the broker's mqtt://HOST:PORT or mqtts://")
    p.add_argument("--table", required=True, help="table id, e.g. t1")
    p.add_argument("--seat", type=seat_index, required=True, metavar="0-3")
    p.add_argument("--secret", metavar="SECRET",
                   help=f"the seat's secret from the organiser (better: the {SECRET_ENV} "
                   "environment variable, which other users of the machine cannot read)")
    p.add_argument("--ca", type=Path, metavar="FILE",
                   help="wss:// or mqtts://: the CA certificate(s) to check the server's "
                   "certificate against (default: the system's)")
    p.add_argument("--log-level", default="INFO", help="structlog level on stderr")


def seat_secret(args: argparse.Namespace, command: str) -> str | None:
    """The seat's secret from --secret or the environment (None after printing why not)."""
    secret: str | None = args.secret or os.environ.get(SECRET_ENV)
    if not secret:
        print(f"mjbot {command}: give the seat's secret in {SECRET_ENV} (or --secret)",
              file=sys.stderr)
        return None
    if args.ca is not None and not args.ca.is_file():
        print(f"mjbot {command}: --ca {args.ca}: no such file", file=sys.stderr)
        return None
    return secret


def run(args: argparse.Namespace) -> int:
    if args.platform == "botzone":
        from bot.start import play_botzone

        # the sampler is an arena experiment, loaded only when asked (never in the zip)
        strategy = None
        if args.sample:
            from bot.sampling_planner import sampling_strategy

            strategy = sampling_strategy
        return play_botzone(keep_running=not args.no_keep_running, think_seconds=args.think,
                            strategy=strategy, work_budget=args.work_budget)
    if args.platform == "olympiad":
        import asyncio

        from bot.start import prefer_cached_kernels, warm_in_background

        prefer_cached_kernels()  # a turn never waits for a compile: plain Python until cached
        from bot.logging import configure_logging
        from bot.olympiad_client import AgentPlayer
        from protocols.olympiad_connect import client_transport
        from protocols.olympiad_session import play_seat

        warm_in_background(lambda note: print(f"mjbot play olympiad: {note}", file=sys.stderr))

        secret = seat_secret(args, "play olympiad")
        if secret is None:
            return 2
        configure_logging(args.log_level)
        transport = client_transport(args.ws, args.mqtt, args.table, args.seat, secret, args.ca)
        player = AgentPlayer(think_fraction=args.think_fraction)
        report = asyncio.run(play_seat(transport, player, table=args.table, seat=args.seat,
                                       name=args.name, secret=secret))
        print(f"games {report.games}, reconnects {report.reconnects}, acts {report.acts}, "
              f"errors {len(report.errors)}", file=sys.stderr)
        if report.fatal:
            print(f"mjbot play olympiad: the referee ended this seat: {report.fatal}",
                  file=sys.stderr)
            return 1
        return 0
    raise SystemExit(f"unknown platform {args.platform}")
