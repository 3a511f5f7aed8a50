"""``mjbot wrap (--ws URL | --mqtt URL) --table T --seat N -- PROGRAM [ARGS...]``.

Plays one Olympiad seat on behalf of any program that reads the referee's
messages as JSON lines on stdin and writes ``act`` lines on stdout (``id``,
``type`` and ``v`` may be left out: the wrapper fills them in from the ask).
"""

from __future__ import annotations

import argparse
import asyncio
import sys

from bot.play import add_seat_arguments, seat_secret


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_seat_arguments(p)
    p.add_argument("--name", default="", help="the name sent in join (default: the program)")
    p.add_argument("program", nargs=argparse.REMAINDER, help="-- PROGRAM [ARGS...]")


def run(args: argparse.Namespace) -> int:
    from arena.platforms.olympiad.program import ProgramExited, ProgramPlayer
    from bot.logging import configure_logging
    from protocols.olympiad_connect import client_transport
    from protocols.olympiad_session import play_seat

    argv = list(args.program)
    if argv and argv[0] == "--":
        argv = argv[1:]
    if not argv:
        print("mjbot wrap: give the program after --", file=sys.stderr)
        return 2
    secret = seat_secret(args, "wrap")
    if secret is None:
        return 2
    configure_logging(args.log_level)
    transport = client_transport(args.ws, args.mqtt, args.table, args.seat, secret, args.ca)

    async def main() -> int:
        player = ProgramPlayer(argv)
        try:
            await player.start()
        except OSError as exc:
            print(f"mjbot wrap: cannot start {argv[0]}: {exc}", file=sys.stderr)
            return 2
        try:
            report = await play_seat(transport, player, table=args.table, seat=args.seat,
                                     name=args.name or argv[0], secret=secret)
        except ProgramExited as exc:
            print(f"mjbot wrap: {exc}", file=sys.stderr)
            return 1
        finally:
            await player.close()
        print(f"games {report.games}, reconnects {report.reconnects}, acts {report.acts}",
              file=sys.stderr)
        if report.fatal:
            print(f"mjbot wrap: the referee ended this seat: {report.fatal}", file=sys.stderr)
            return 1
        return 0

    return asyncio.run(main())
