"""``mjbot view FILE``: a replay viewer in the browser for any record mjbot reads.

FILE is a game record (``.jsonl``: self-play, the Botzone judge mock, the
Olympiad referee), a Botzone match log (``.json``), a PKU data.txt file, or a
directory of records and logs.  One game becomes one self-contained HTML file;
many games (a directory, a data.txt file) a directory with an index page (each
seat's running score) and one page per game.

- ``--seat S``: open the pages on seat S's view (the other hands hidden until
  the end); with ``--reask``, only seat S is re-asked;
- ``--reask``: ask the seat's own player again at every decision (of seat S, or of
  all four seats; a player that is no agent of ours, or a Botzone log's seat: the
  shipped bot; ``--player SPEC``: that one) and mark where it disagrees with what
  was played;
- ``--serve``: serve the page from a small http.server on 127.0.0.1.
"""

from __future__ import annotations

import argparse
import functools
import sys
import time
import webbrowser
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from arena.commands.options import int_range, positive_int, seat_index
from arena.lineup import agent_player
from arena.viewer.build import DEFAULT_BUDGET, BuildOptions, build_match
from arena.viewer.model import ViewerError
from arena.viewer.page import write_pages
from arena.viewer.sources import load_games


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", type=Path,
                   help="a game record (.jsonl), a Botzone match log (.json), a PKU data.txt "
                        "file, or a directory of records and logs")
    p.add_argument("--seat", type=seat_index, metavar="0-3",
                   help="open on this seat's view; with --reask, re-ask only this seat")
    p.add_argument("--out", type=Path,
                   help="the HTML file (one game) or directory (many games) to write; "
                        "default: beside the current directory, named after FILE")
    p.add_argument("--reask", action="store_true",
                   help="ask the seat's player (else the shipped bot) again at every decision "
                        "and mark disagreements")
    p.add_argument("--player", metavar="SPEC",
                   help="with --reask: re-ask this player (planner, baseline-v1, ...); "
                        "default: each seat's own player, else the shipped bot")
    p.add_argument("--budget", type=positive_int, default=DEFAULT_BUDGET,
                   help="kernel calls per re-asked decision of the shipped bot (a player "
                        "named by the record or --player keeps its own)")
    p.add_argument("--serve", action="store_true",
                   help="serve the page from http://127.0.0.1:PORT/ until interrupted")
    p.add_argument("--port", type=int_range(0, 65535), default=0,
                   help="for --serve (default: a free port)")
    p.add_argument("--no-browser", action="store_true",
                   help="for --serve: only print the address, open no browser")


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


def make_server(directory: Path, port: int = 0) -> ThreadingHTTPServer:
    """An http.server on 127.0.0.1 serving ``directory`` (port 0: any free port)."""
    handler = functools.partial(_QuietHandler, directory=str(directory))
    return ThreadingHTTPServer(("127.0.0.1", port), handler)


def default_out(path: Path, games: int) -> Path:
    name = path.name.removesuffix(".jsonl").removesuffix(".json").removesuffix(".txt")
    return Path.cwd() / (f"{name}.html" if games == 1 else f"{name}-view")


def run(args: argparse.Namespace) -> int:
    started = time.perf_counter()
    try:
        if args.player is not None:
            agent_player(args.player)
        games = load_games(args.file)
        seats = ((args.seat,) if args.seat is not None else (0, 1, 2, 3)) if args.reask else ()
        match = build_match(games, args.file.name, BuildOptions(seats, args.budget, args.player))
        out = args.out or default_out(args.file, len(games))
        page = write_pages(match, out, args.seat)
    except (OSError, ValueError, ViewerError) as exc:
        print(f"mjbot view: {exc}", file=sys.stderr)
        return 2
    seconds = time.perf_counter() - started
    written = [page] if len(games) == 1 else sorted(out.iterdir())
    size = sum(p.stat().st_size for p in written)
    steps = sum(len(g.steps) for g in match.games)
    disagreements = sum(len(g.disagreements()) for g in match.games)
    print(f"{page}: {len(games)} game{'s' * (len(games) != 1)}, {steps} steps, "
          f"{len(written)} file{'s' * (len(written) != 1)}, {size / 1024:.0f} KiB, "
          f"built in {seconds:.2f} s"
          + (f", {disagreements} disagreements" if args.reask else ""))
    for g in match.games:
        for note in g.notes:
            print(f"  {g.title}: {note}")
    if args.serve:
        server = make_server(page.parent, args.port)
        url = f"http://127.0.0.1:{server.server_address[1]}/{page.name}"
        print(f"serving {url} (Ctrl-C stops)", flush=True)
        if not args.no_browser:
            webbrowser.open(url)  # does nothing where no browser is known
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass
        finally:
            server.server_close()
    return 0
