"""The viewer in a real browser: headless Chromium (Debian's package) driven by Playwright.

The page is made by ``mjbot view`` from a real Botzone match log and served by the
command's own local server.  At given stages of the game the test steps the page
there (keys, buttons, the URL hash), reads the tiles it shows (``data-tile``
attributes) and checks them against independent states: the hand against the
replay's (``mjbot replay``'s seat view, fed the seat's requests), the discards
and melds of every seat against the judge mock's views.  Screenshots of a
mid-game step and of the end go to ``$MJBOT_ARTIFACTS`` (default ``tests/artifacts``).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from support import ROOT, botzone_log, pku_sample
from support.arena import botzone_judge_mock

from arena.cli import main as mjbot
from arena.review.viewer.build import seen_indices
from arena.review.viewer.command import make_server
from arena.review.viewer.model import table_steps
from arena.review.viewer.sources import read_botzone_log, reask
from game.events import Won
from game.melds import ConcealedKong
from game.tiles import parse_tiles, tile_name
from protocols.botzone_codec import decode_response

CHROMIUM = Path(os.environ.get("MJBOT_CHROMIUM", "/usr/bin/chromium"))
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
LOG = botzone_log("6a201f5a58ebe27b197da7f1_lite.json")
SEAT = 1
ARTIFACTS = Path(os.environ.get("MJBOT_ARTIFACTS", ROOT / "tests" / "artifacts"))

sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is absent")
if not CHROMIUM.exists():
    pytest.skip(f"no Chromium at {CHROMIUM}: install Debian's chromium (scripts/setup.sh does)",
                allow_module_level=True)


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The page of the log, written by ``mjbot view`` and served on 127.0.0.1."""
    out = tmp_path_factory.mktemp("view") / "game.html"
    assert mjbot(["view", str(LOG), "--out", str(out), "--seat", str(SEAT)]) == 0
    server = make_server(out.parent)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/{out.name}"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield b
        b.close()


@pytest.fixture(scope="module")
def page(browser: Any, served: str) -> Iterator[Any]:
    pg = browser.new_page(viewport={"width": 1400, "height": 1000})
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.goto(served)
    yield pg
    pg.close()
    assert not errors, f"the page raised: {errors}"


def shown(pg: Any, seat: int) -> dict[str, Any]:
    """What the page shows of ``seat``: hand (drawn tile last), discards, melds."""
    box = f'#table [data-seat="{seat}"]'
    return pg.evaluate("""(box) => {
        const q = (sel) => [...document.querySelectorAll(box + " " + sel)];
        return {
          hand: q(".hand .tile").map((t) => t.dataset.tile),
          river: q(".river .tile").map((t) => [t.dataset.tile, t.dataset.claimedBy ?? null]),
          melds: q(".meld").filter((m) => m.dataset.kind !== "flowers")
                  .map((m) => [m.dataset.kind, m.dataset.tiles, m.dataset.from ?? null]),
        };
    }""", box)


def current_step(pg: Any) -> int:
    return int(pg.get_attribute("#table", "data-step"))


def test_the_page_shows_the_replays_state_at_given_turns(page: Any) -> None:
    table, logs, game = botzone_judge_mock(LOG)
    _, step_of = table_steps(game.rules, game.history, game.result)
    where = seen_indices(game.history, SEAT)
    # the replay's seat view, turn by turn (a tiny budget: only its hands are read)
    turns = reask(game.seat_steps(SEAT), game.rules, budget=50)
    stages = [k for k in range(1, len(logs), 2)]
    targets = {10, 35, 61, 90, len(stages) - 1}
    checked = 0
    page.goto(page.url.split("#")[0] + f"#step=0&seat={SEAT}")
    for n, k in enumerate(stages):
        if n in targets:
            idx = len(table.history) - 1
            step = step_of[idx]
            if n == 10:  # by the keyboard
                page.keyboard.press("Home")
                for _ in range(step):
                    page.keyboard.press("ArrowRight")
            elif n == 35:  # by the buttons
                page.click("#last")
                for _ in range(current_step(page) - step):
                    page.click("#prev")
            else:  # by a link
                page.evaluate("(h) => { location.hash = h; }", f"step={step}&seat={SEAT}")
                page.wait_for_function(f"document.getElementById('table').dataset.step == {step}")
            assert current_step(page) == step
            turn = turns[where.index(idx)]
            mine = shown(page, SEAT)
            assert sorted(mine["hand"]) == sorted(tile_name(t) for t in parse_tiles(turn.hand))
            for seat in range(4):
                view = table.view(seat)
                public = view.table[seat]
                seen = shown(page, seat)
                unclaimed = [t for t, by in seen["river"] if by is None]
                assert unclaimed == [tile_name(t) for t in public.river], (n, seat)
                melds = [(" ".join(tile_name(t) for t in m.tiles),
                          None if isinstance(m, ConcealedKong) else str(m.provider))
                         for m in view.melds]
                assert [(tiles, src) for _, tiles, src in seen["melds"]] == melds, (n, seat)
                if seat != SEAT:  # seat 1's view: the others' hands are hidden
                    assert set(seen["hand"]) == {"back"}
                    assert len(seen["hand"]) == len(view.hand) + (view.drawn is not None)
            checked += 1
            if n == 61:
                save(page, "viewer-mid-game.png")
        table.respond([decode_response(logs[k][str(s)]["response"]) for s in range(4)])
    assert checked == len(targets)


def test_the_end_shows_the_winning_hand_its_fans_and_the_scores(page: Any) -> None:
    game = read_botzone_log(LOG)
    assert game.result is not None
    page.goto(page.url.split("#")[0] + "#step=0")
    page.keyboard.press("End")
    end = game.result.ending
    assert isinstance(end, Won)
    assert page.is_visible("#ending")
    fans = page.eval_on_selector_all("#ending .fans tr", "(rows) => rows.length")
    assert fans == len(end.fans) + 1  # and the total
    text = page.inner_text("#ending")
    assert "seat 0 wins on 1m, on seat 3's discard" in text
    assert "11 fan" in text and "+35 -8 -8 -19" in text
    # every hand is open at the end; the winner's shows the winning tile, marked
    for seat in range(4):
        assert "back" not in shown(page, seat)["hand"]
    assert page.get_attribute('[data-seat="0"] .hand .tile.win', "data-tile") == "1m"
    scores = page.eval_on_selector_all("#table .score", "(s) => s.map((e) => e.textContent)")
    assert scores == ["score 0 +35 = 35", "score 0 -8 = -8", "score 0 -8 = -8",
                      "score 0 -19 = -19"]
    save(page, "viewer-end.png")


def save(pg: Any, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    pg.screenshot(path=str(ARTIFACTS / name), full_page=True)
    assert (ARTIFACTS / name).stat().st_size > 10_000


def test_reask_lists_disagreements_that_jump_to_their_step(browser: Any, tmp_path: Path) -> None:
    out = tmp_path / "reask.html"
    assert mjbot(["view", str(LOG), "--out", str(out), "--reask", "--seat", "2",
                  "--budget", "2000"]) == 0
    pg = browser.new_page(viewport={"width": 1400, "height": 1000})
    pg.goto(out.as_uri())
    links = pg.query_selector_all("#disagreements li")
    assert links, "seat 2's play differs from the re-asked player's somewhere"
    last = links[-1]
    target = int(last.get_attribute("data-step"))
    last.query_selector("a").click()
    assert current_step(pg) == target
    assert pg.evaluate("location.hash") == f"#step={target}&seat=2"
    decision = pg.query_selector('#decisions .decision[data-disagrees="1"]')
    assert decision is not None and decision.get_attribute("data-seat") == "2"
    # today's choice and the played action are both marked among the candidates
    today = pg.query_selector("#decisions tr.chosen")
    played = pg.query_selector("#decisions tr.played")
    assert today is not None and played is not None
    assert today.get_attribute("data-label") != played.get_attribute("data-label")
    save(pg, "viewer-disagreement.png")
    # seat 0's view shows seat 0's decisions only (there are none: only seat 2 was re-asked)
    pg.select_option("#view", "0")
    assert pg.query_selector_all("#decisions .decision") == []
    assert pg.evaluate("location.hash") == f"#step={target}&seat=0"
    # a disagreement of another seat opens with every hand shown
    pg.query_selector_all("#disagreements li a")[0].click()
    assert pg.get_attribute("#table", "data-view") == "all"
    assert pg.query_selector('#decisions .decision[data-seat="2"]') is not None
    pg.close()


def test_a_name_with_markup_in_it_does_not_blank_the_page(browser: Any, tmp_path: Path) -> None:
    """A player chooses its join name: ``<!--`` or ``</script>`` in it once made the embedded
    JSON unreadable and the page empty.  The page also draws Chinese fan names (a CJK font)
    and reads its disagreements as words."""
    from dataclasses import replace

    from arena.review.viewer.build import BuildOptions, build_game
    from arena.review.viewer.page import render_game

    [game] = [read_botzone_log(LOG)]
    name = "<!-- a </script> name"
    view = replace(build_game(game, BuildOptions(reask_seats=(2,), budget=2000)),
                   names=(name, "seat 1", "b", "c"))
    out = tmp_path / "markup.html"
    out.write_text(render_game(view), encoding="utf-8")
    pg = browser.new_page(viewport={"width": 1400, "height": 1000})
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.goto(out.as_uri() + "#step=0")
    pg.wait_for_selector("#table .seat")
    heads = pg.eval_on_selector_all("#table .seat .name", "(n) => n.map((e) => e.textContent)")
    # seat 1 has no name of its own: no "seat 1 · seat 1"
    assert heads == [f"seat 0 \u00b7 {name}", "seat 1", "seat 2 \u00b7 b", "seat 3 \u00b7 c"]
    links = pg.eval_on_selector_all("#disagreements li a", "(a) => a.map((e) => e.textContent)")
    assert links and all(" \u2014 played: " in t and " \u00b7 now: " in t and "=" not in t
                         for t in links), links
    pg.keyboard.press("End")
    assert pg.is_visible("#ending")
    save(pg, "viewer-markup-name-end.png")
    pg.close()
    assert not errors, errors


def test_a_match_index_links_to_its_games(browser: Any, tmp_path: Path) -> None:
    pku = pku_sample()
    out = tmp_path / "sample"
    assert mjbot(["view", str(pku), "--out", str(out)]) == 0
    pg = browser.new_page(viewport={"width": 1000, "height": 800})
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.goto((out / "index.html").as_uri())
    assert len(pg.query_selector_all("svg.plot polyline")) == 4
    save(pg, "viewer-match-index.png")
    pg.click("table.games a >> nth=2")
    pg.wait_for_selector("#table .seat")
    assert pg.url.endswith("game-003.html#step=0")
    pg.click("text=next game")
    pg.wait_for_selector("#table .seat")
    assert pg.url.split("#")[0].endswith("game-004.html")
    assert len(pg.query_selector_all("#table .seat")) == 4
    pg.close()
    assert not errors, errors
