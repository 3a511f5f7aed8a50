"""The pages: a game's steps as one JSON blob inside one self-contained HTML file, and a
match's index page with each seat's running score drawn as an inline SVG plot.

The JSON is compact: the seat states are interned (an event changes one or two
seats, so most steps share the other states with the step before), tiles are
indices (the page names them ``5m``, ``1z``, ``3f``).
"""

from __future__ import annotations

import html
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.review.viewer.assets import CSS, INDEX_CSS, JS
from arena.review.viewer.model import (
    DecisionView,
    Ending,
    GameView,
    MatchView,
    SeatDecision,
    SeatState,
)
from arena.tools.output_files import replace_file

SEAT_COLOURS = ("#c92a2a", "#1864ab", "#2b8a3e", "#e67700")


# ---------------------------------------------------------------- JSON
def _decision_view(dv: DecisionView) -> dict[str, Any]:
    cols: list[str] = []
    for row in dv.candidates:
        for name, _ in row.numbers:
            if name not in cols:
                cols.append(name)
    rows = []
    for row in dv.candidates:
        values = dict(row.numbers)
        rows.append([row.label, [values.get(c, "") for c in cols], row.note])
    return {"action": dv.words or dv.action, "method": dv.method, "note": dv.note,
            "chosen": dv.chosen, "cols": cols, "rows": rows}


def _decision(d: SeatDecision) -> dict[str, Any]:
    return {"seat": d.seat, "played": d.played_words or d.played, "disagrees": d.disagrees,
            "played_row": d.played_row, "lost": d.lost,
            "recorded": _decision_view(d.recorded) if d.recorded is not None else None,
            "today": _decision_view(d.today) if d.today is not None else None}


def _state(s: SeatState) -> list[Any]:
    return [list(s.hand), s.drawn,
            [[m.kind, list(m.tiles), m.claimed, m.from_seat] for m in s.melds],
            [[r.tile, -1 if r.claimed_by is None else r.claimed_by] for r in s.river],
            list(s.flowers)]


def _ending(e: Ending) -> dict[str, Any]:
    return {"kind": e.kind, "scores": list(e.scores), "winner": e.winner, "tile": e.tile,
            "self_drawn": e.self_drawn, "robbed_kong": e.robbed_kong, "payer": e.payer,
            "fans": [[f.name, f.english_name, f.value, f.count] for f in e.fans],
            "fan_total": e.fan_total, "penalized": e.penalized, "detail": e.detail}


def game_json(game: GameView) -> dict[str, Any]:
    """The blob the page reads."""
    interned: dict[SeatState, int] = {}
    states: list[list[Any]] = []

    def ref(s: SeatState) -> int:
        i = interned.get(s)
        if i is None:
            i = interned[s] = len(states)
            states.append(_state(s))
        return i

    steps = [{"e": st.event, "a": st.actor, "s": [ref(s) for s in st.seats], "w": list(st.wall),
              "d": [_decision(d) for d in st.decisions]} for st in game.steps]
    return {
        "title": game.title, "source": game.source, "rules": game.rules,
        "unit": "tai" if game.rules.startswith("taiwan") else "fan",
        "prevalent": game.prevalent_wind, "dealer": game.dealer,
        "names": [player_name(s, n) for s, n in enumerate(game.names)],
        "winds": list(game.seat_winds), "scores_before": list(game.scores_before),
        "walls_per_seat": len(game.steps[0].wall) == 4 if game.steps else True,
        "reasked": list(game.reasked), "notes": list(game.notes),
        "states": states, "steps": steps,
        "ending": _ending(game.ending) if game.ending is not None else None,
    }


def player_name(seat: int, name: str) -> str:
    """A seat's player name, or "" where the source names none (it would read ``seat 0 ·
    seat 0`` beside the seat's number)."""
    return "" if name in ("", f"seat {seat}") else name


def _embed(data: dict[str, Any]) -> str:
    """JSON safe inside a <script> element: no ``<`` at all (``</script>``, ``<!--`` in a
    player's name would end or change the element), and no line separators."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return (text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))


# ---------------------------------------------------------------- pages
@dataclass(frozen=True)
class Links:
    """Where the game page's header links go (a match's index, the games around it)."""

    index: str | None = None
    previous: str | None = None
    next: str | None = None


def render_game(game: GameView, links: Links = Links(), view_seat: int | None = None) -> str:
    e = html.escape
    nav = " ".join(f'<a href="{e(href)}">{label}</a>' for label, href in (
        ("index", links.index), ("previous game", links.previous), ("next game", links.next))
        if href)
    options = "".join(
        f'<option value="{s}"{" selected" if view_seat == s else ""}>seat {s}\'s view</option>'
        for s in range(4))
    winds = "ESWN"
    meta = (f"<span>{e(game.rules)}</span><span>prevalent wind {winds[game.prevalent_wind]}"
            f"</span><span>dealer seat {game.dealer}</span>"
            f"<span class=\"note\">{e(game.source)}</span>")
    default_hash = "" if view_seat is None else (
        f'<script>if(!location.hash)location.hash="seat={view_seat}";</script>')
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{e(game.title)} · mjbot view</title>
<style>{CSS}</style>{default_hash}</head>
<body>
<header><h1>{e(game.title)}</h1><div class="meta">{meta}</div><nav>{nav}</nav></header>
<div id="controls">
<button id="first" title="first step (Home)">|&lt;</button>
<button id="prev" title="previous step (←)">&lt;</button>
<input id="slider" type="range" min="0" value="0" aria-label="step">
<button id="next" title="next step (→)">&gt;</button>
<button id="last" title="last step (End)">&gt;|</button>
<span id="stepinfo"></span>
<button id="prevdec" title="previous step with a decision (p)">◀ decision</button>
<button id="nextdec" title="next step with a decision (n)">decision ▶</button>
<label>view <select id="view"><option value="all">all hands open</option>{options}</select>
</label>
<span id="walls" class="walls"></span>
</div>
<div id="event"></div>
<main>
<div id="table"></div>
<div id="side">
<div id="ending" class="box ending" hidden></div>
<div id="decisions" class="box"></div>
<div id="disagreements" class="box"></div>
<div id="notes"></div>
</div>
</main>
<script type="application/json" id="game-data">{_embed(game_json(game))}</script>
<script>{JS}</script>
</body></html>
"""


def score_plot(match: MatchView, width: int = 640, height: int = 220) -> str:
    """Each seat's running score over the games, as an inline SVG."""
    totals = match.running_scores()
    n = len(totals) - 1
    lo = min(min(t) for t in totals)
    hi = max(max(t) for t in totals)
    if hi == lo:
        hi, lo = hi + 1, lo - 1
    pad = 34

    def x(i: int) -> float:
        return pad + (width - 2 * pad) * (i / max(1, n))

    def y(v: int) -> float:
        return height - pad + (2 * pad - height) * (v - lo) / (hi - lo)

    parts = [f'<svg class="plot" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" xmlns="http://www.w3.org/2000/svg" '
             'role="img" aria-label="running score per seat">',
             f'<line x1="{pad}" x2="{width - pad}" y1="{y(0):.1f}" y2="{y(0):.1f}" '
             'stroke="#aaa" stroke-dasharray="3 3"/>',
             f'<text x="4" y="{y(hi) + 4:.1f}" font-size="11">{hi}</text>',
             f'<text x="4" y="{y(lo) + 4:.1f}" font-size="11">{lo}</text>',
             f'<text x="{width - pad}" y="{height - 8}" font-size="11" '
             f'text-anchor="end">game {n}</text>']
    for seat in range(4):
        points = " ".join(f"{x(i):.1f},{y(t[seat]):.1f}" for i, t in enumerate(totals))
        parts.append(f'<polyline data-seat="{seat}" fill="none" stroke-width="2" '
                     f'stroke="{SEAT_COLOURS[seat]}" points="{points}"/>')
    parts.append("</svg>")
    return "".join(parts)


def render_index(match: MatchView, hrefs: Sequence[str]) -> str:
    e = html.escape
    totals = match.running_scores()
    legend = "".join(f'<span style="color:{SEAT_COLOURS[s]}">seat {s}: {totals[-1][s]:+d}</span>'
                     for s in range(4))
    rows = []
    for i, (g, href) in enumerate(zip(match.games, hrefs, strict=True)):
        end = g.ending
        what = "-" if end is None else {"WallExhausted": "draw (wall exhausted)",
                                        "Penalized": f"seat {end.penalized} penalised"}.get(
                                            end.kind, end.kind)
        if end is not None and end.kind == "Won":
            unit = "tai" if g.rules.startswith("taiwan") else "fan"
            how = "self-drawn" if end.self_drawn else f"from seat {end.payer}"
            what = f"seat {end.winner} wins, {end.fan_total} {unit} ({how})"
        scores = " ".join(f"{x:+d}" for x in end.scores) if end is not None else ""
        running = " ".join(f"{x:+d}" for x in totals[i + 1])
        dis = len(g.disagreements())
        rows.append(f'<tr><td>{i + 1}</td><td><a href="{e(href)}">{e(g.title)}</a></td>'
                    f"<td>{e(what)}</td><td>{scores}</td><td>{running}</td>"
                    f"<td>{dis if g.reasked else ''}</td></tr>")
    names = ", ".join(f"seat {s}: {e(player_name(s, n))}"
                      for s, n in enumerate(match.games[0].names)
                      if player_name(s, n)) if match.games else ""
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{e(match.title)} · mjbot view</title>
<style>{INDEX_CSS}</style></head>
<body><header><h1>{e(match.title)}: {len(match.games)} games</h1>
<div>{names}</div></header>
<main>
<h2>Running score per seat</h2>
{score_plot(match)}
<div class="legend">{legend}</div>
<h2>Games</h2>
<table class="games"><tr><th>#</th><th>game</th><th>ending</th><th>scores</th>
<th>running</th><th>disagreements</th></tr>
{"".join(rows)}
</table>
</main></body></html>
"""


@dataclass(frozen=True)
class WrittenPages:
    """The pages one run wrote: the one to open, and every page by file name with the bytes
    written (what ``--serve`` serves: these pages, as written, nothing else)."""

    first: Path
    pages: dict[str, bytes]


def write_pages(match: MatchView, out: Path, view_seat: int | None = None) -> WrittenPages:
    """One game: ``out`` is its HTML file.  A match: ``out`` is a directory with
    ``index.html`` and one page per game.  Every page is written to a new file and renamed
    into place (:func:`arena.tools.output_files.replace_file`): a link planted under a page's name,
    even while the pages are being written, is replaced, never followed."""
    if len(match.games) == 1:
        out.parent.mkdir(parents=True, exist_ok=True)
        data = _write(out, render_game(match.games[0], view_seat=view_seat))
        return WrittenPages(out, {out.name: data})
    out.mkdir(parents=True, exist_ok=True)
    names = [f"game-{i + 1:03d}.html" for i in range(len(match.games))]
    written: dict[str, bytes] = {}
    for i, game in enumerate(match.games):
        links = Links("index.html", names[i - 1] if i > 0 else None,
                      names[i + 1] if i + 1 < len(names) else None)
        written[names[i]] = _write(out / names[i], render_game(game, links, view_seat))
    index = out / "index.html"
    written[index.name] = _write(index, render_index(match, names))
    return WrittenPages(index, written)


def _write(path: Path, text: str) -> bytes:
    replace_file(path, text)
    return text.encode()
