"""``mjbot view`` end to end without a browser: the pages it writes for a multi-game file,
an Olympiad record, bad input, the JSON blob's safety and the local server."""

from __future__ import annotations

import json
import re
import threading
import urllib.request
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from support import botzone_log, pku_sample

from arena.cli import main as mjbot
from arena.review.viewer.build import build_game
from arena.review.viewer.command import make_server
from arena.review.viewer.page import render_game
from arena.review.viewer.sources import load_games
from protocols.pku_datatxt import PkuVerb, parse_pku_datatxt

PKU = pku_sample()
LOG = botzone_log("6a20231658ebe27b197daaa8_lite.json")


def blob(page: Path) -> dict[str, Any]:
    """The JSON the page embeds."""
    text = page.read_text(encoding="utf-8")
    found = re.search(r'<script type="application/json" id="game-data">(.*?)</script>', text,
                      re.S)
    assert found is not None
    data: dict[str, Any] = json.loads(found.group(1))
    return data


def test_a_data_txt_file_becomes_an_index_and_a_page_per_match(tmp_path: Path) -> None:
    out = tmp_path / "sample"
    assert mjbot(["view", str(PKU), "--out", str(out)]) == 0
    matches = parse_pku_datatxt(PKU.read_text(encoding="utf-8"))
    pages = sorted(out.glob("game-*.html"))
    assert len(pages) == len(matches) == 16
    index = (out / "index.html").read_text(encoding="utf-8")
    # the plot: one line per seat, one point per game plus the start
    lines = re.findall(r'<polyline data-seat="(\d)"[^>]* points="([^"]*)"', index)
    assert [s for s, _ in lines] == ["0", "1", "2", "3"]
    assert all(len(points.split()) == 17 for _, points in lines)
    totals = [sum(m.scores[s] for m in matches) for s in range(4)]
    legend = re.findall(r"seat (\d): ([+-]\d+)</span>", index)
    assert [int(x) for _, x in legend] == totals
    assert all(f'href="{p.name}"' in index for p in pages)
    running = [0, 0, 0, 0]
    for page, match in zip(pages, matches, strict=True):
        data = blob(page)
        assert data["scores_before"] == running
        assert data["ending"]["scores"] == list(match.scores)
        if match.fan_total is not None:
            assert data["ending"]["fan_total"] == match.fan_total
            assert "wins" in data["steps"][-1]["e"]
        # one step for the deal, one per line of the file after the deals (but a chow or
        # pung and its discard are one event, and the win is the end), one for the end
        joined = sum(s.verb in (PkuVerb.CHI, PkuVerb.PENG, PkuVerb.HU) for s in match.steps)
        assert len(data["steps"]) == 1 + len(match.steps) - joined + 1
        running = [r + s for r, s in zip(running, match.scores, strict=True)]


def test_an_olympiad_record_shows_flowers_one_wall_and_tai(tmp_path: Path) -> None:
    records = tmp_path / "records"
    assert mjbot(["match", "olympiad", "--games", "1", "--seed", "44", "--records",
                  str(records), "--decision-ms", "5000"]) == 0
    [record] = sorted(records.glob("*.jsonl"))
    out = tmp_path / "oly.html"
    assert mjbot(["view", str(record), "--out", str(out)]) == 0
    data = blob(out)
    assert data["rules"] == "taiwan-16" and data["unit"] == "tai"
    assert data["walls_per_seat"] is False
    first = data["steps"][0]
    assert len(first["w"]) == 1 and first["w"][0] < 144 - 4 * 16 - 16 + 1
    states = data["states"]
    # flowers: all eight are on the table by the end of a full game, or some by any end
    last_flowers = [len(states[i][4]) for i in data["steps"][-1]["s"]]
    assert sum(last_flowers) >= 1
    flower_tiles = {t for i in data["steps"][-1]["s"] for t in states[i][4]}
    assert flower_tiles <= set(range(34, 42))
    # 16-tile hands: concealed + drawn + three per meld is 16 or 17 at every step
    for step in data["steps"][:-1]:
        for i in step["s"]:
            hand, drawn, melds, _, _ = states[i]
            assert len(hand) + (drawn is not None and drawn < 34) + 3 * len(melds) in (16, 17)


@pytest.mark.parametrize(("name", "content", "message"), [
    ("missing.jsonl", None, "missing.jsonl"),
    ("log.json", '{"logs": 3}', "not a Botzone match log"),
    ("notes.txt", "hello", "not a game record"),
    ("bad.jsonl", '{"record": "header"}\n{"record": "event", "type": "Flew"}\n',
     "unknown event type 'Flew'"),
])
def test_bad_input_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str,
                            content: str | None, message: str) -> None:
    path = tmp_path / name
    if content is not None:
        path.write_text(content)
    assert mjbot(["view", str(path), "--out", str(tmp_path / "x.html")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("mjbot view: ") and message in err
    assert not (tmp_path / "x.html").exists()


def test_the_blob_cannot_close_its_script_element(tmp_path: Path) -> None:
    [game] = load_games(LOG)
    title = "</script><script>alert(1)</script> <!-- a comment? & \u2028"
    view = replace(build_game(game), title=title, names=("<!--", "seat 1", "b", "c"))
    page = tmp_path / "p.html"
    page.write_text(render_game(view))
    text = page.read_text()
    assert text.count("</script>") == 2  # the blob's and the program's
    found = re.search(r'id="game-data">(.*?)</script>', text, re.S)
    assert found is not None and "<" not in found.group(1)
    data = blob(page)
    assert data["title"] == title
    assert data["names"] == ["<!--", "", "b", "c"]  # a seat without a name shows none


def test_the_local_server_serves_the_page(tmp_path: Path) -> None:
    out = tmp_path / "g.html"
    assert mjbot(["view", str(LOG), "--out", str(out)]) == 0
    server = make_server(tmp_path)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        host, port = server.server_address[:2]
        assert host == "127.0.0.1"
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/g.html", timeout=10) as r:
            assert r.status == 200
            assert r.read() == out.read_bytes()
    finally:
        server.shutdown()
        server.server_close()
