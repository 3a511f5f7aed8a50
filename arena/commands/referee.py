"""``mjbot referee botzone|olympiad``: the platform mocks.

``botzone``: four programs play under the Botzone judge (:mod:`arena.platforms.botzone_judge`).
``olympiad``: taiwan-16 tables served over WebSocket or MQTT
(:mod:`arena.platforms.olympiad.referee`).
``verify``: check an Olympiad match's records against the walls' commitment
(:mod:`arena.platforms.olympiad.walls`).
"""

from __future__ import annotations

import argparse
import json
import shlex
import shutil
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from bot.logging import configure_logging
from bot.options import non_negative_int, positive_float, positive_int

if TYPE_CHECKING:
    from arena.platforms.olympiad.access import SeatSecrets
    from arena.platforms.olympiad.config import RefereeConfig
    from arena.platforms.olympiad.match import Tls
from arena.platforms.botzone_judge.match import (
    JudgeMatchConfig,
    MatchInterrupted,
    WallsFileError,
    play_match,
    read_walls,
    render,
)
from arena.platforms.botzone_judge.turns import DEFAULT_MEMORY_LIMIT, DEFAULT_TIME_LIMIT
from protocols.botzone_envelope import Interaction


def add_arguments(p: argparse.ArgumentParser) -> None:
    sub = p.add_subparsers(dest="platform", required=True)
    bz = sub.add_parser("botzone", help="Botzone Chinese Standard Mahjong over stdin/stdout",
                        description="Run four programs as Botzone does and referee their games.")
    bz.add_argument("--bots", nargs=4, required=True, metavar="CMD",
                    help="four commands, one per seat 0-3 (each split like a shell would)")
    bz.add_argument("--games", type=positive_int, default=None,
                    help="games to play (default: 1, or every wall in --walls)")
    bz.add_argument("--seed", type=non_negative_int, default=1,
                    help="walls from this seed (no --walls)")
    bz.add_argument("--walls", type=Path, metavar="FILE",
                    help="one wall per line: 136 Botzone tile names, or a JSON list")
    bz.add_argument("--time-limit", type=positive_float, default=DEFAULT_TIME_LIMIT,
                    metavar="SECONDS",
                    help="per turn that starts the program, wall clock (a seat's first turn "
                    "of a game gets double; a turn that resumes a kept-running program gets "
                    "2/3 of it: Botzone's 6 s and 4 s for Python)")
    bz.add_argument("--memory-limit", type=positive_int, default=DEFAULT_MEMORY_LIMIT,
                    metavar="MB",
                    help="passed on in JSON input; not enforced")
    bz.add_argument("--interaction", choices=[m.value for m in Interaction],
                    default=Interaction.SIMPLE.value)
    bz.add_argument("--records", type=Path, metavar="DIR", help="write one record per game here")
    bz.add_argument("--log-level", default="INFO", help="structlog level on stderr")
    bz.add_argument("--json", action="store_true", help="print the totals as JSON")
    ol = sub.add_parser("olympiad", help="Olympiad-style taiwan-16 referee over WebSocket or MQTT",
                        description="Serve taiwan-16 tables; players join with mjbot play "
                        "olympiad, mjbot wrap or any client of the protocol.")
    add_olympiad_arguments(ol)
    ol.add_argument("--listen", default="127.0.0.1:8765", metavar="HOST:PORT",
                    help="WebSocket: where to serve ws://HOST:PORT/")
    ol.add_argument("--broker", metavar="URL",
                    help="MQTT: the broker's mqtt://HOST:PORT (default: an embedded broker)")
    ol.add_argument("--log-level", default="INFO", help="structlog level on stderr")
    add_access_arguments(ol)
    vf = sub.add_parser("verify", help="check an Olympiad match's walls against its commitment",
                        description="Check the records of a finished Olympiad match: each "
                        "table's revealed seed and salt open the commitment its seats were "
                        "sent, and every recorded wall is the one that seed deals.")
    vf.add_argument("records", type=Path, nargs="+", metavar="PATH",
                    help="record files (.jsonl) or directories of them")


def add_access_arguments(p: argparse.ArgumentParser) -> None:
    """Who may play which seat, and TLS (``referee olympiad`` only)."""
    secrets = p.add_mutually_exclusive_group(required=True)
    secrets.add_argument("--secrets", type=Path, metavar="FILE",
                         help='the seats\' secrets, from a file the organiser controls: '
                         '{"referee": SECRET, "seats": {"t1": [4 secrets], ...}}')
    secrets.add_argument("--write-secrets", type=Path, metavar="FILE",
                         help="generate the seats' secrets and write them here (mode 0600) "
                         "for the organiser to hand each player its own")
    p.add_argument("--tls-cert", type=Path, metavar="FILE",
                   help="serve wss:// (and the embedded broker mqtts://) with this certificate "
                   "chain (PEM)")
    p.add_argument("--tls-key", type=Path, metavar="FILE", help="the certificate's key (PEM)")
    p.add_argument("--ca", type=Path, metavar="FILE",
                   help="MQTT: the CA to check an mqtts:// --broker's certificate against")
    p.add_argument("--broker-config", type=Path, metavar="DIR",
                   help="MQTT: write a mosquitto configuration here (mosquitto.conf, "
                   "passwords, acl: each seat's user on its own topics only)")
    p.add_argument("--prepare-only", action="store_true",
                   help="write the secrets and the broker configuration, then exit")
    p.add_argument("--overwrite", action="store_true",
                   help="replace an existing --write-secrets file and --broker-config files "
                   "(by default they are refused; links are never followed either way)")


def add_olympiad_arguments(p: argparse.ArgumentParser) -> None:
    """Options shared by ``referee olympiad`` and ``match olympiad``."""
    p.add_argument("--transport", choices=["ws", "mqtt"], default="ws")
    p.add_argument("--tables", type=positive_int, default=1)
    p.add_argument("--games", type=positive_int, default=1, help="games per table")
    p.add_argument("--seed", type=non_negative_int, default=None,
                   help="walls from (seed, table, game), for reproducible tests: the walls are "
                   "then predictable (default: a secret seed per table, committed to at the "
                   "start and revealed after the table's last game)")
    p.add_argument("--decision-ms", type=positive_int, default=1000, help="deadline of every ask")
    p.add_argument("--policy", choices=["default", "forfeit"], default="default",
                   help="late or illegal answers: pass/discard the drawn tile, or forfeit")
    p.add_argument("--records", type=Path, metavar="DIR", help="write one record per game here")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.add_argument("--wall", choices=["single", "sdw"], default="single",
                   help="one wall, or the stable draw wall (Tang, Chen & Wu; per-seat sub-walls)")
    p.add_argument("--round-floor-ms", type=non_negative_int, default=None, metavar="MS",
                   help="the shortest a claim window lasts, from a discard to the next message "
                   "(every other seat is asked, and the round ends no sooner), so its length "
                   "does not tell who could claim; 0: none (default: 200 for referee "
                   "olympiad, a tournament; 0 for match olympiad, local play)")
    p.add_argument("--join-deadline", type=positive_float, default=120.0, metavar="SECONDS",
                   help="how long a table waits for its four seats; then it plays, and a "
                   "seat that never joined is answered at once by --policy (default: 120)")


def olympiad_config(args: argparse.Namespace, command: str) -> RefereeConfig | None:
    """The referee's configuration from the shared options (None after printing why not)."""
    from arena.platforms.olympiad.config import TOURNAMENT_ROUND_FLOOR_MS, RefereeConfig
    from arena.tools.output_files import output_directory
    from game.stable_wall import WallMode

    configure_logging(args.log_level)
    try:
        if args.records is not None:  # checked and made before any game, not after one
            output_directory(args.records)
        if args.seed is not None:
            print(f"mjbot {command}: warning: --seed {args.seed}: the walls are predictable "
                  "(anyone who knows or guesses the seed can compute every hidden tile); "
                  "leave --seed out for a tournament", file=sys.stderr)
        return RefereeConfig(tables=args.tables, games=args.games, seed=args.seed,
                             decision_ms=args.decision_ms, policy=args.policy,
                             records=args.records, wall_mode=WallMode(args.wall),
                             join_deadline=args.join_deadline,
                             round_floor_ms=args.round_floor_ms if args.round_floor_ms is not None
                             else TOURNAMENT_ROUND_FLOOR_MS if command == "referee" else 0)
    except ValueError as exc:
        print(f"mjbot {command}: {exc}", file=sys.stderr)
        return None


def _access(args: argparse.Namespace,
            config: RefereeConfig) -> tuple[SeatSecrets, Tls | None] | str:
    """(the seats' secrets, the TLS files or None), or what is wrong."""
    from arena.platforms.olympiad.access import SeatSecrets, SecretsError, write_mosquitto_config
    from arena.platforms.olympiad.match import Tls
    from arena.tools.output_files import OutputError

    tables = config.table_ids()
    if (args.tls_cert is None) != (args.tls_key is None):
        return "give both --tls-cert and --tls-key, or neither"
    for option, path in (("--tls-cert", args.tls_cert), ("--tls-key", args.tls_key),
                         ("--ca", args.ca)):
        if path is not None and not path.is_file():
            return f"{option} {path}: no such file"
    tls = Tls(args.tls_cert, args.tls_key, args.ca) if args.tls_cert is not None else None
    try:
        if args.secrets is not None:
            seat_secrets = SeatSecrets.read(args.secrets)
            seat_secrets.covers(tables)
            if args.secrets.stat().st_mode & 0o077:
                print(f"mjbot referee: warning: {args.secrets} can be read by other users "
                      "(chmod 600 it)", file=sys.stderr)
        else:
            seat_secrets = SeatSecrets.generate(tables)
            seat_secrets.write(args.write_secrets, overwrite=args.overwrite)
            print(f"mjbot referee: wrote the seats' secrets to {args.write_secrets} (0600)",
                  file=sys.stderr)
        if args.broker_config is not None:
            files = write_mosquitto_config(args.broker_config, seat_secrets, tables,
                                           listen=_broker_listen(args.broker),
                                           tls_cert=args.tls_cert, tls_key=args.tls_key,
                                           overwrite=args.overwrite)
            print(f"mjbot referee: wrote a mosquitto configuration: mosquitto -c {files.conf}",
                  file=sys.stderr)
    except (SecretsError, OutputError) as exc:
        return str(exc)
    except OSError as exc:
        return f"{exc.filename or ''}: {exc.strerror or exc}".lstrip(": ")
    return seat_secrets, tls


def _broker_listen(broker: str | None) -> str:
    from protocols.olympiad_transport import host_port

    if broker is None:
        return "127.0.0.1:1883"
    host, port = host_port(broker, 8883 if broker.startswith("mqtts:") else 1883)
    return f"{host}:{port}"


def run_olympiad(args: argparse.Namespace) -> int:
    import asyncio

    from arena.platforms.olympiad.match import render, serving, summary_json
    from arena.platforms.olympiad.referee import Referee

    config = olympiad_config(args, "referee")
    if config is None:
        return 2
    access = _access(args, config)
    if isinstance(access, str):
        print(f"mjbot referee: {access}", file=sys.stderr)
        return 2
    seat_secrets, tls = access
    if args.prepare_only:
        return 0

    async def main() -> int:
        referee = Referee(config, seat_secrets=seat_secrets)
        async with serving(referee, args.transport, listen=args.listen, broker=args.broker,
                           tls=tls, ca=args.ca, broker_wait=120.0) as url:
            tables = ", ".join(referee.tables)
            print(f"mjbot referee: serving {url} (tables {tables}); waiting for players",
                  file=sys.stderr, flush=True)
            summaries = await referee.run()
        print(json.dumps(summary_json(summaries)) if args.json else render(summaries))
        return 0

    try:
        return asyncio.run(main())
    except KeyboardInterrupt:
        return 130


def _check_commands(commands: list[str]) -> str | None:
    for seat, command in enumerate(commands):
        try:
            argv = shlex.split(command)
        except ValueError as exc:
            return f"seat {seat}: cannot split command {command!r}: {exc}"
        if not argv:
            return f"seat {seat}: empty command"
        if shutil.which(argv[0]) is None and not Path(argv[0]).is_file():
            return f"seat {seat}: program {argv[0]!r} not found"
    return None


def run_verify(args: argparse.Namespace) -> int:
    from arena.platforms.olympiad.walls import verify_records

    paths: list[Path] = []
    for path in args.records:
        if path.is_dir():
            paths += sorted(path.glob("*.jsonl"))
        elif path.is_file():
            paths.append(path)
        else:
            print(f"mjbot referee verify: {path}: no such file or directory", file=sys.stderr)
            return 2
    if not paths:
        print("mjbot referee verify: no records (.jsonl) given", file=sys.stderr)
        return 2
    checked = verify_records(paths)
    for problem in checked.problems:
        print(f"mjbot referee verify: {problem}", file=sys.stderr)
    if not checked.ok:
        return 1
    tables = ", ".join(f"{t} ({n} game{'s' * (n != 1)})" for t, n in sorted(checked.games.items()))
    print(f"walls as committed: {tables}")
    return 0


def run(args: argparse.Namespace) -> int:
    if args.platform == "olympiad":
        return run_olympiad(args)
    if args.platform == "verify":
        return run_verify(args)
    if args.platform != "botzone":
        raise SystemExit(f"unknown platform {args.platform}")
    configure_logging(args.log_level)
    problem = _check_commands(args.bots)
    walls = None
    if problem is None and args.walls is not None:
        try:
            walls = tuple(read_walls(args.walls))
        except (OSError, WallsFileError) as exc:
            problem = str(exc)
    games = args.games if args.games is not None else (len(walls) if walls else 1)
    if problem is None and games < 1:
        problem = f"--games must be at least 1, got {games}"
    if problem is None and walls is not None and games > len(walls):
        problem = f"--games {games} but {args.walls} holds {len(walls)} walls"
    if problem is None and args.time_limit <= 0:
        problem = f"--time-limit must be positive, got {args.time_limit}"
    if problem is not None:
        print(f"mjbot referee: {problem}", file=sys.stderr)
        return 2
    c0, c1, c2, c3 = args.bots
    config = JudgeMatchConfig(
        commands=(c0, c1, c2, c3), games=games, seed=args.seed, walls=walls,
        time_limit=args.time_limit, memory_limit=args.memory_limit,
        interaction=Interaction(args.interaction), records=args.records)
    try:
        report = play_match(config)
    except MatchInterrupted as exc:
        print(f"mjbot referee: {exc}; every bot process was killed", file=sys.stderr)
        return 128 + exc.signal_number
    except KeyboardInterrupt:
        print("mjbot referee: interrupted; every bot process was killed", file=sys.stderr)
        return 130
    if args.json:
        print(json.dumps(report.to_json()))
    else:
        print(render(report))
    return 0
