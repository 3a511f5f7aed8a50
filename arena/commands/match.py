"""``mjbot match olympiad``: a whole local match in one process, no external service.

The referee, the transport (WebSocket on a free loopback port, or MQTT through
an embedded amqtt broker started and stopped here) and four of our agents
per table, each through the same client session loop as ``mjbot play olympiad``;
with ``--thinkers N`` the agents think in N processes of idle CPU priority
(:mod:`arena.players.thinker`).
"""

from __future__ import annotations

import argparse
import asyncio
import json

from arena.commands.referee import add_olympiad_arguments, olympiad_config
from bot.options import non_negative_int


def add_arguments(p: argparse.ArgumentParser) -> None:
    sub = p.add_subparsers(dest="platform", required=True)
    ol = sub.add_parser("olympiad", help="taiwan-16 over WebSocket or MQTT, all in-process",
                        description="A whole local Olympiad match in one process: the "
                        "referee, the transport (WebSocket, or MQTT through an embedded broker) "
                        "and four of our agents per table.")
    add_olympiad_arguments(ol)
    ol.add_argument("--broker", metavar="URL",
                    help="MQTT: use this broker instead of the embedded one")
    ol.add_argument("--thinkers", type=non_negative_int, default=0, metavar="N",
                    help="our agents think in N processes of idle CPU priority, leaving the "
                    "referee's and the seats' event loops the CPU (default: 0, a decision "
                    "thread in this process)")
    ol.add_argument("--log-level", default="WARNING", help="structlog level on stderr")


def run(args: argparse.Namespace) -> int:
    from arena.platforms.olympiad.match import render, run_match, summary_json

    config = olympiad_config(args, "match")
    if config is None:
        return 2
    result = asyncio.run(run_match(config, args.transport, broker=args.broker,
                                   thinkers=args.thinkers))
    print(json.dumps(summary_json(result.summaries)) if args.json
          else render(result.summaries, f"{args.transport} {result.url}"))
    return 0
