"""``mjbot view`` and the files around it: every page is written without following a link
(one planted while the pages are being written included), and ``--serve`` serves the
pages this run wrote, by name, as it wrote them: not another ``*.html`` of the folder,
not a hard link to a secret."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from support import pku_sample

import arena.review.viewer.page as page_module
from arena.cli import main as mjbot
from arena.review.viewer import command

PKU = pku_sample()


def test_a_link_planted_while_the_pages_are_written_is_not_followed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The output directory is checked once before writing; a link put under a page's name
    after that (here: while the second page renders) must be replaced, not written through."""
    out = tmp_path / "view"
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    render = page_module.render_game
    calls = 0

    def planting(*args: Any, **kw: Any) -> str:
        nonlocal calls
        calls += 1
        if calls == 2:
            for name in ("game-003.html", "index.html"):
                (out / name).symlink_to(victim)
        return render(*args, **kw)

    monkeypatch.setattr(page_module, "render_game", planting)
    assert mjbot(["view", str(PKU), "--out", str(out)]) == 0
    assert victim.read_text() == "precious\n"
    for name in ("game-003.html", "index.html"):
        assert not (out / name).is_symlink()
        assert (out / name).read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def test_a_single_page_is_not_written_through_a_link_planted_after_the_check(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from support import botzone_log

    log = botzone_log("6a20231658ebe27b197daaa8_lite.json")
    out = tmp_path / "g.html"
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    render = page_module.render_game

    def planting(*args: Any, **kw: Any) -> str:
        out.symlink_to(victim)
        return render(*args, **kw)

    monkeypatch.setattr(page_module, "render_game", planting)
    assert mjbot(["view", str(log), "--out", str(out)]) == 0
    assert victim.read_text() == "precious\n" and not out.is_symlink()


def test_serve_offers_only_the_pages_it_wrote(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """A hard link named like a page (``hard.html`` -> ``secrets.json``) and another page
    that was already in the folder are not served; the pages are served as written."""
    out = tmp_path / "view"
    out.mkdir()
    secret = tmp_path / "secrets.json"
    secret.write_text('{"referee": "not for the browser"}\n')
    os.link(secret, out / "hard.html")
    (out / "old.html").write_text("<p>an older page</p>")
    served: dict[str, bytes] = {}

    def capture(self: command.PageServer) -> None:
        served.update(self.pages)
        raise KeyboardInterrupt

    monkeypatch.setattr(command.PageServer, "serve_forever", capture)
    assert mjbot(["view", str(PKU), "--out", str(out), "--serve", "--no-browser"]) == 0
    assert "hard.html" not in served and "old.html" not in served
    assert "index.html" in served and len(served) == 17
    assert all(b"not for the browser" not in data for data in served.values())
    assert served["index.html"] == (out / "index.html").read_bytes()
