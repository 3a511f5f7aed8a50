"""Joins at a tournament: names are NFKC-normalised, printable and fixed for the match; a
refused join's connection is closed with the reason it was refused; a seat that never
joins does not hold its table: after the join deadline it is played safe (or forfeits)."""

from __future__ import annotations

import asyncio
import json
import unicodedata
from pathlib import Path

import pytest
import websockets
from hypothesis import given, settings
from hypothesis import strategies as st
from support.arena import olympiad_config
from support.olympiad_players import QuickPlayer

from arena.platforms.olympiad.match import serving
from arena.platforms.olympiad.referee import Referee
from game.events import Penalized
from protocols.olympiad import Join, MessageError, seat_name
from protocols.olympiad_session import play_seat
from protocols.olympiad_ws import WsClient


def _join(referee: Referee, seat: int, name: str, session: str = "s") -> str:
    return Join(name=name, table="t1", seat=seat, session=session,
                token=referee.secrets.secret("t1", seat)).to_json()


async def _answer(ws: websockets.ClientConnection) -> dict[str, object]:
    data: dict[str, object] = json.loads(await asyncio.wait_for(ws.recv(), 10))
    return data


@pytest.mark.parametrize("name", ["p\x00", "right\u202eleft", "\x1b[31mred", "tab\there",
                                  "line\u2028sep", " ", "\u200b"])
async def test_a_name_with_a_control_or_invisible_character_is_refused(
        tmp_path: Path, name: str) -> None:
    referee = Referee(olympiad_config(tmp_path))
    async with serving(referee, "ws") as url, websockets.connect(url) as ws:
        await ws.send(_join(referee, 0, name))
        error = await _answer(ws)
        assert error["type"] == "error" and error["code"] == "bad_name" and error["fatal"]
        await asyncio.wait_for(ws.wait_closed(), 10)
        assert ws.close_reason is not None and "name" in ws.close_reason
        assert "taken over" not in ws.close_reason
    assert not referee.tables["t1"].seats[0].joined


async def test_names_are_nfkc_normalised_and_fixed_for_the_match(tmp_path: Path) -> None:
    referee = Referee(olympiad_config(tmp_path))
    async with serving(referee, "ws") as url, websockets.connect(url) as first:
        await first.send(_join(referee, 0, "\uff4d\uff4a\uff42\uff4f\uff54"))  # fullwidth
        welcome = await _answer(first)
        assert welcome["type"] == "welcome"
        assert welcome["players"] == ["mjbot", "", "", ""]
        # a takeover with the secret but another name is refused; the seat stays
        async with websockets.connect(url) as second:
            await second.send(_join(referee, 0, "mallory", session="other"))
            error = await _answer(second)
            assert error["code"] == "name_fixed" and error["fatal"]
            await asyncio.wait_for(second.wait_closed(), 10)
            assert second.close_reason is not None and "name" in second.close_reason
        # the same name (in any NFKC form) may take the seat back, as a restarted bot does
        async with websockets.connect(url) as third:
            await third.send(_join(referee, 0, "mjbot", session="restart"))
            assert (await _answer(third))["type"] == "welcome"
    assert referee.tables["t1"].seats[0].name == "mjbot"


async def test_a_refused_join_is_closed_with_what_was_refused(tmp_path: Path) -> None:
    referee = Referee(olympiad_config(tmp_path))
    async with serving(referee, "ws") as url, websockets.connect(url) as ws:
        await ws.send(Join(name="p", table="t1", seat=0, token="x" * 32).to_json())
        assert (await _answer(ws))["code"] == "forbidden"
        await asyncio.wait_for(ws.wait_closed(), 10)
        assert ws.close_reason is not None
        assert "forbidden" in ws.close_reason and "taken over" not in ws.close_reason


@pytest.mark.parametrize("policy", ["default", "forfeit"])
async def test_a_seat_that_never_joins_is_played_safe_after_the_join_deadline(
        tmp_path: Path, policy: str) -> None:
    """Three seats join, seat 2 never does: after the deadline the table plays, the absent
    seat's asks are answered at once by the policy (its 20 s deadline is not waited for)."""
    config = olympiad_config(tmp_path, join_deadline=0.5, policy=policy, games=2)
    referee = Referee(config)
    async with serving(referee, "ws") as url:
        seats = [asyncio.create_task(play_seat(
            WsClient(url), QuickPlayer(), table="t1", seat=s, name=f"p{s}",
            secret=referee.secrets.secret("t1", s))) for s in (0, 1, 3)]
        summaries = await asyncio.wait_for(referee.run(), 60)
        await asyncio.wait_for(asyncio.gather(*seats), 10)
    assert len(summaries) == 2
    for summary in summaries:
        assert summary.violations and {v.seat for v in summary.violations} == {2}
        assert all("never joined" in v.detail for v in summary.violations)
        if policy == "forfeit":
            ending = summary.result.ending
            assert isinstance(ending, Penalized) and ending.seat == 2


HOSTILE_NAMES = ["p\x00", "\u202eevil", "\x1b]0;title\x07", "a\u200db", "\ufeffname",
                 "x" * 65, "\ufdfa" * 4, " lead", "trail ", "\U000e0041tag"]
"""Names the fuzz below always tries: NUL, a bidi override, an ESC sequence, zero-width
joiners, a byte-order mark, too long (also only after NFKC: U+FDFA is 18 letters), spaces
around, a tag character."""


@settings(max_examples=3000, deadline=None, database=None)
@given(st.sampled_from(HOSTILE_NAMES) | st.text(max_size=80))
def test_a_name_is_refused_by_name_or_kept_normalised_and_printable(text: str) -> None:
    try:
        name = seat_name(text)
    except MessageError as exc:
        assert exc.code == "bad_name" and exc.message.startswith("name: ")
        assert text not in HOSTILE_NAMES[:1] or "U+0000" in exc.message
        return
    assert text not in HOSTILE_NAMES
    assert name == unicodedata.normalize("NFKC", name) == seat_name(name)
    assert name.isprintable() and name == name.strip() and 0 < len(name) <= 64
    assert not any(unicodedata.category(c) in ("Cc", "Cf", "Co", "Cn", "Zl", "Zp")
                   for c in name)
