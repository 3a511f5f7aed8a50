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
- ``--serve``: serve the pages it wrote, by name and as it wrote them (nothing is read
  back from the folder: no listing, no other file, no link, no hard link) from a small
  http.server on 127.0.0.1, to requests naming that host (``127.0.0.1:PORT`` or
  ``localhost:PORT``: a page of another site that rebinds its name to 127.0.0.1 gets
  nothing).

The output never replaces the input, and never writes through a symbolic link: every page
is written to a new file and renamed into place, so a link planted mid-run is replaced.
"""

from __future__ import annotations

import argparse
import os
import stat
import sys
import time
import webbrowser
from collections.abc import Iterable, Mapping
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from arena.players.lineup import agent_player
from arena.review.viewer.build import DEFAULT_BUDGET, BuildOptions, build_match
from arena.review.viewer.model import ViewerError
from arena.review.viewer.page import write_pages
from arena.review.viewer.sources import load_games
from bot.options import int_range, positive_int, seat_index


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", type=Path,
                   help="a game record (.jsonl), a Botzone match log (.json), a PKU data.txt "
                        "file, or a directory of records and logs")
    p.add_argument("--seat", type=seat_index, metavar="0-3",
                   help="open on this seat's view; with --reask, re-ask only this seat")
    p.add_argument("--out", type=Path,
                   help="the HTML file (one game) or directory (many games) to write; "
                        "default: in the current directory, named after FILE (never the "
                        "input itself, never through a symbolic link)")
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
                   help="serve the pages it wrote (and nothing else) from "
                        "http://127.0.0.1:PORT/ until interrupted; only requests for "
                        "127.0.0.1 or localhost are answered")
    p.add_argument("--port", type=int_range(0, 65535), default=0,
                   help="for --serve (default: a free port)")
    p.add_argument("--no-browser", action="store_true",
                   help="for --serve: only print the address, open no browser")


class PageServer(ThreadingHTTPServer):
    """Serves a fixed set of pages, read when it starts; see :func:`make_server`."""

    pages: dict[str, bytes]
    hosts: frozenset[str]
    index: str


class _PagesHandler(BaseHTTPRequestHandler):
    server: PageServer

    def do_GET(self) -> None:
        self._serve(body=True)

    def do_HEAD(self) -> None:
        self._serve(body=False)

    def _serve(self, body: bool) -> None:
        host = (self.headers.get("Host") or "").strip().lower()
        if host not in self.server.hosts:
            self.send_error(421, "Misdirected Request", "this server answers only to "
                            "127.0.0.1 and localhost")
            return
        path = unquote(urlsplit(self.path).path).lstrip("/") or self.server.index
        data = self.server.pages.get(path)
        if data is None:
            self.send_error(404, "Not Found")
            return
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        if body:
            self.wfile.write(data)

    def log_message(self, format: str, *args: Any) -> None:
        pass


def _read_page(path: Path) -> bytes | None:
    """A page's bytes, or None for anything but a regular file (a link is not followed)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    except OSError:
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        with os.fdopen(fd, "rb", closefd=False) as f:
            return f.read()
    finally:
        os.close(fd)


def make_server(directory: Path, port: int = 0,
                pages: Iterable[Path] | None = None) -> PageServer:
    """An http.server on 127.0.0.1 (port 0: any free port) serving ``pages`` (default: the
    ``.html`` files of ``directory``), read now; no listing, no other file, no link
    followed, and only to requests whose Host is ``127.0.0.1:PORT`` or ``localhost:PORT``.
    ``mjbot view --serve`` serves what it wrote instead (:func:`serve_pages`)."""
    chosen = list(pages) if pages is not None else sorted(directory.glob("*.html"))
    served: dict[str, bytes] = {}
    for page in chosen:
        data = _read_page(page)
        if data is not None:
            served[page.name] = data
    return serve_pages(served, port)


def serve_pages(pages: Mapping[str, bytes], port: int = 0) -> PageServer:
    """An http.server on 127.0.0.1 serving exactly ``pages`` (file name -> bytes), by name:
    nothing is read from disk, so nothing put in the folder (another page, a link, a hard
    link to a secret) is ever served.  Only requests whose Host is ``127.0.0.1:PORT`` or
    ``localhost:PORT`` are answered."""
    served = dict(pages)
    server = PageServer(("127.0.0.1", port), _PagesHandler)
    bound = server.server_address[1]
    server.pages = served
    server.hosts = frozenset({f"127.0.0.1:{bound}", f"localhost:{bound}"})
    server.index = "index.html" if "index.html" in served else next(iter(served), "")
    return server


def check_out(source: Path, out: Path) -> None:
    """Refuse an output that is the input or a symbolic link (a planted link would make
    the pages overwrite what it points to)."""
    if out.is_symlink():
        raise ValueError(f"--out {out}: a symbolic link; not written through")
    if out.exists() and source.exists() and os.path.samefile(out, source):
        raise ValueError(f"--out {out}: would overwrite the input {source}")
    if out.is_dir():
        for page in out.glob("*.html"):
            if page.is_symlink():
                raise ValueError(f"--out {out}: {page.name} is a symbolic link; "
                                 "not written through")


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
        check_out(args.file, out)
        written = write_pages(match, out, args.seat)
    except (OSError, ValueError, ViewerError) as exc:
        print(f"mjbot view: {exc}", file=sys.stderr)
        return 2
    page = written.first
    seconds = time.perf_counter() - started
    size = sum(len(data) for data in written.pages.values())
    steps = sum(len(g.steps) for g in match.games)
    disagreements = sum(len(g.disagreements()) for g in match.games)
    files = len(written.pages)
    print(f"{page}: {len(games)} game{'s' * (len(games) != 1)}, {steps} steps, "
          f"{files} file{'s' * (files != 1)}, {size / 1024:.0f} KiB, "
          f"built in {seconds:.2f} s"
          + (f", {disagreements} disagreements" if args.reask else ""))
    for g in match.games:
        for note in g.notes:
            print(f"  {g.title}: {note}")
    if args.serve:
        server = serve_pages(written.pages, args.port)
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
