"""The Olympiad header, seq stamping, per-seat log and resume rules (both ends)."""

from __future__ import annotations

import json

from protocols.olympiad_log import ResumeCursor, SeatLog, stamped


def test_every_message_gets_the_header_first() -> None:
    text = stamped({"type": "draw", "v": 9, "seq": 99, "seat": 1}, table="t1", seq=4)
    assert text == '{"v":1,"type":"draw","table":"t1","seq":4,"seat":1}'


def test_the_log_numbers_messages_and_resume_skips_closed_asks() -> None:
    log = SeatLog("t1")
    assert log.append({"type": "deal"}) [0] == 1
    seq_ask, _ = log.append({"type": "ask", "id": "a1"}, ask_id="a1")
    log.append({"type": "discard"})
    seq_open, _ = log.append({"type": "ask", "id": "a2"}, ask_id="a2")
    assert (seq_ask, seq_open, log.seq) == (2, 4, 4)
    assert json.loads(log.unlogged({"type": "welcome"}))["seq"] == 4  # not logged
    resent = log.resume(1, "a2", "OPEN-ASK")
    # a1 is closed: left out; the open ask comes again at its place, with its time left
    assert [json.loads(t)["type"] if t != "OPEN-ASK" else t for t in resent] == [
        "discard", "OPEN-ASK"]
    # resumed after the open ask's own seq: it is still sent, last
    assert log.resume(4, "a2", "OPEN-ASK") == ["OPEN-ASK"]
    assert log.resume(4, None, "") == []


def test_a_replay_starts_no_earlier_than_the_seats_latest_end() -> None:
    """A join with no ``resume_from`` (or a games-old one) gets the latest ``end`` and the
    game after it, not the whole table session: a re-join costs at most one game."""
    log = SeatLog("t1")
    for game in range(3):
        log.append({"type": "deal", "game": game})
        log.append({"type": "discard"})
        log.append({"type": "end", "game": game})
    log.append({"type": "deal", "game": 3})
    log.append({"type": "draw"})

    def kinds(texts: list[str]) -> list[tuple[str, object]]:
        return [(m["type"], m.get("game")) for m in map(json.loads, texts)]

    current = [("end", 2), ("deal", 3), ("draw", None)]
    assert log.floor == 8
    assert kinds(log.resume(0, None, "")) == current
    assert kinds(log.resume(4, None, "")) == current  # two games back
    assert kinds(log.resume(9, None, "")) == current[1:]
    assert kinds(log.resume(10, None, "")) == current[2:]
    assert log.resume(11, None, "") == []


def test_the_players_cursor_drops_seen_messages_and_repeats_its_act() -> None:
    cursor = ResumeCursor()
    assert cursor.resume_from is None
    assert cursor.is_new(1) and cursor.is_new(2)
    assert not cursor.is_new(2) and not cursor.is_new(1)  # a duplicate, a replay
    cursor.ask_seen(3)
    cursor.sent("a1", '{"type":"act"}')
    assert cursor.repeat_for("a1") == '{"type":"act"}' and cursor.repeat_for("a2") is None
    assert cursor.resume_from == 3
