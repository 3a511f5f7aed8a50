"""Botzone request and response lines <-> typed events and actions."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support import botzone_logs

from game import events as ev
from game.tiles import Notation, parse_tile
from protocols.botzone_codec import (
    ProtocolError,
    RequestDecoder,
    decode_response,
    format_request,
    format_requests,
    format_response,
    parse_response,
)

LOGS = botzone_logs()


def t(name: str) -> int:
    return parse_tile(name, Notation.BOTZONE)


HAND = "W1 W1 B2 B3 B4 T5 T6 T7 F1 F2 J1 J2 J3"


# ---------------------------------------------------------------- responses
@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("PASS", ev.Pass()),
        ("HU", ev.DeclareWin()),
        ("PLAY W1", ev.Discard(t("W1"))),
        ("PENG J3", ev.ClaimAndDiscard(ev.ClaimPung(), t("J3"))),
        ("GANG", ev.ClaimKong()),
        ("GANG T9", ev.DeclareConcealedKong(t("T9"))),
        ("BUGANG F4", ev.DeclareAddedKong(t("F4"))),
        ("CHI B2 W7", ev.ClaimAndDiscard(ev.ClaimChow(t("B2")), t("W7"))),
    ],
)
def test_responses_round_trip(text: str, action: object) -> None:
    assert parse_response(text) == action
    assert format_response(parse_response(text)) == text


@pytest.mark.parametrize(
    ("text", "names", "attempted"),
    [
        ("", "empty", None),
        ("   ", "empty", None),
        ("pass", "'pass'", None),
        ("DISCARD W1", "'DISCARD'", None),
        ("PLAY", "PLAY takes 1", None),
        ("PLAY W1 W2", "got 2", None),
        ("PASS W1", "PASS takes 0", None),
        ("CHI W2", "CHI takes 2", None),
        ("PLAY X1", "'X1'", ev.ActionKind.DISCARD),
        ("PENG W0", "'W0'", ev.ActionKind.PUNG),
        ("CHI W2 Z9", "'Z9'", ev.ActionKind.CHOW),
        ("GANG w1", "'w1'", ev.ActionKind.CONCEALED_KONG),
        ("BUGANG 12", "'12'", ev.ActionKind.ADDED_KONG),
    ],
)
def test_malformed_responses_name_the_bad_token(
    text: str, names: str, attempted: ev.ActionKind | None
) -> None:
    with pytest.raises(ProtocolError, match=names):
        parse_response(text)
    decoded = decode_response(text)
    assert isinstance(decoded, ev.InvalidAction)
    assert decoded.text == text and names in decoded.reason
    assert decoded.attempted is attempted


def test_decode_response_passes_good_answers_through() -> None:
    assert decode_response("PENG W1") == ev.ClaimAndDiscard(ev.ClaimPung(), t("W1"))


# ---------------------------------------------------------------- requests
def test_requests_format_as_botzone_sends_them() -> None:
    hand = tuple(t(x) for x in HAND.split())
    assert format_request(ev.SeatAssigned(2, 1), 2) == "0 2 1"
    assert format_request(ev.Dealt(2, hand), 2) == "1 0 0 0 0 " + HAND
    assert format_request(ev.Drew(2, t("T3")), 2) == "2 T3"
    assert format_request(ev.Drew(1, None), 2) == "3 1 DRAW"
    assert format_request(ev.Drew(1, t("T3")), 2) == "3 1 DRAW"  # never leaks another's draw
    assert format_request(ev.Discarded(1, t("B9")), 2) == "3 1 PLAY B9"
    assert format_request(ev.Punged(3, t("B9"), t("F1")), 2) == "3 3 PENG F1"
    assert format_request(ev.Chowed(2, t("B8"), t("B9"), t("W1")), 0) == "3 2 CHI B8 W1"
    assert format_request(ev.Konged(0, t("B9")), 1) == "3 0 GANG"
    assert format_request(ev.ConcealedKonged(0, t("B9")), 1) == "3 0 GANG"
    assert format_request(ev.KongAdded(0, t("B9")), 1) == "3 0 BUGANG B9"
    assert format_request(ev.FlowerReplaced(0, t("H3")), 1) == "3 0 BUHUA H3"
    dealt = ev.Dealt(0, hand, (1, 0, 0, 1), (t("H1"), t("H8")))
    assert format_request(dealt, 0) == "1 1 0 0 1 " + HAND + " H1 H8"


def test_a_seat_is_never_sent_another_seats_hand() -> None:
    with pytest.raises(ProtocolError, match="seat 1's deal"):
        format_request(ev.Dealt(1, (0,) * 13), 2)
    with pytest.raises(ProtocolError, match="needs its tile"):
        format_request(ev.Drew(2, None), 2)


def test_decoder_fills_in_claimed_tiles_and_tells_the_two_kongs_apart() -> None:
    decoder = RequestDecoder()
    lines = [
        ("0 1 3", ev.SeatAssigned(1, 3)),
        ("1 0 0 0 0 " + HAND, ev.Dealt(1, tuple(t(x) for x in HAND.split()))),
        ("3 0 DRAW", ev.Drew(0, None)),
        ("3 0 PLAY W5", ev.Discarded(0, t("W5"))),
        ("3 1 CHI W5 F1", ev.Chowed(1, t("W5"), t("W5"), t("F1"))),
        ("3 3 PENG J1", ev.Punged(3, t("F1"), t("J1"))),
        ("3 1 GANG", ev.Konged(1, t("J1"))),
        ("2 B3", ev.Drew(1, t("B3"))),
        ("3 1 GANG", ev.ConcealedKonged(1, None)),
        ("2 B4", ev.Drew(1, t("B4"))),
        ("3 1 BUGANG B4", ev.KongAdded(1, t("B4"))),
        ("2 B5", ev.Drew(1, t("B5"))),
        ("3 1 PLAY B5", ev.Discarded(1, t("B5"))),
        ("3 2 DRAW", ev.Drew(2, None)),
        ("3 2 GANG", ev.ConcealedKonged(2, None)),
    ]
    for line, event in lines:
        assert decoder.decode(line) == event, line
        assert format_request(event, 1) == line


@pytest.mark.parametrize(
    ("lines", "names"),
    [
        (["0 1 9"], "'9'"),
        (["0 x 1"], "'x'"),
        (["0 1"], "seat and a wind"),
        (["7 W1"], "'7'"),
        ([""], "empty"),
        (["2 W1"], "before the seat"),
        (["0 1 0", "2 Q5"], "'Q5'"),
        (["0 1 0", "2 W1 W2"], "one tile"),
        (["0 1 0", "1 0 0 0 0 W1 W2"], "13 tiles"),
        (["0 1 0", "1 0 0 0 1 " + HAND], "announces 1 flowers but lists 0"),
        (["0 1 0", "1 0 0 0 0 " + HAND.replace("J3", "H1")], "'H1' among"),
        (["0 1 0", "1 0 0 0 0 " + HAND + " W1"], "announces 0 flowers but lists 1"),
        (["0 1 0", "3 5 DRAW"], "'5'"),
        (["0 1 0", "3 2 DANCE"], "'DANCE'"),
        (["0 1 0", "3 2 PLAY"], "PLAY takes 1"),
        (["0 1 0", "3 2 PLAY W10"], "'W10'"),
        (["0 1 0", "3 2 PENG W1"], "without a discard"),
        (["0 1 0", "3 2 PLAY W1", "3 2 PENG W1"], "without a discard"),
        (["0 1 0", "3 2 GANG"], "without a discard"),
        (["0 1 0", "3 2 BUHUA W1"], "'W1' is not a flower"),
        (["0 1 0", "3 2"], "seat and an action"),
    ],
)
def test_malformed_requests_name_the_bad_token(lines: list[str], names: str) -> None:
    decoder = RequestDecoder()
    for line in lines[:-1]:
        decoder.decode(line)
    with pytest.raises(ProtocolError, match=names):
        decoder.decode(lines[-1])


def test_a_bad_line_leaves_the_decoder_as_it_was() -> None:
    decoder = RequestDecoder()
    decoder.decode("0 2 0")
    decoder.decode("3 1 PLAY W3")
    with pytest.raises(ProtocolError):
        decoder.decode("3 2 PENG X3")
    assert decoder.decode("3 2 PENG W4") == ev.Punged(2, t("W3"), t("W4"))


@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.name[:24])
def test_every_line_of_the_real_logs_round_trips(path: Path) -> None:
    logs = json.loads(path.read_text(encoding="utf-8"))["logs"]
    decoders = [RequestDecoder() for _ in range(4)]
    lines = 0
    for entry in logs:
        if "output" in entry:
            if entry["output"]["command"] != "request":
                continue
            events = []
            for seat in range(4):
                line = entry["output"]["content"][str(seat)]
                events.append(decoders[seat].decode(line))
                assert format_request(events[-1], seat) == line
                lines += 1
            assert format_requests(events) == tuple(
                entry["output"]["content"][str(s)] for s in range(4)
            )
        else:
            for seat in range(4):
                text = entry[str(seat)]["response"]
                assert format_response(parse_response(text)) == text
    requests = sum(1 for e in logs if "output" in e and e["output"]["command"] == "request")
    assert lines == 4 * requests > 0
