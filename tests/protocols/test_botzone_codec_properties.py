"""Property-based tests of the Botzone codec (hypothesis): any text decodes to an event or a
ProtocolError naming the problem, never another exception, and leaves the decoder as it
was when it fails; every event and action survives format -> parse."""

from __future__ import annotations

import copy
import re

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from game import events as ev
from game.tiles import NUM_KINDS
from protocols.botzone_codec import (
    ProtocolError,
    RequestDecoder,
    decode_response,
    format_request,
    format_response,
    parse_response,
)

SETTINGS = settings(max_examples=400, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])

suited = st.integers(0, NUM_KINDS - 1)
flower = st.integers(NUM_KINDS, 41)
seat = st.integers(0, 3)
TOKENS = ["0", "1", "2", "3", "4", "13", "-1", "²", "٣", "W1", "J3", "H8", "H9", "X1", "PLAY",
          "PENG", "CHI", "GANG", "BUGANG", "BUHUA", "DRAW", "HU", "PASS", "\x00", "1e3", "0x1"]
# lines made of protocol-ish tokens reach deeper than random characters
protocolish = st.lists(st.sampled_from(TOKENS) | st.text(max_size=4), max_size=22).map(" ".join)
any_line = st.text(max_size=80) | protocolish


def decoded_or_refused(decoder: RequestDecoder, line: str) -> ev.Event | None:
    """Decode ``line``; a refusal must be a ProtocolError that leaves the decoder untouched."""
    before = copy.deepcopy(vars(decoder))
    try:
        return decoder.decode(line)
    except ProtocolError as exc:
        assert str(exc), "a ProtocolError must say what is wrong"
        assert vars(decoder) == before, "a refused line changed the decoder"
        return None


@SETTINGS
@given(st.lists(any_line, max_size=12), st.none() | seat)
@example(["0 ² 1"], None)
@example(["0 0 0", "1 0 0 0 ² " + " ".join(["W1"] * 13)], None)
@example(["0 1 0", "3 0 PLAY W5", "3 1 CHI H1 W5"], None)
def test_any_lines_decode_to_events_or_a_protocol_error(lines: list[str],
                                                        viewer: int | None) -> None:
    decoder = RequestDecoder(viewer)
    for line in lines:
        decoded_or_refused(decoder, line)


@SETTINGS
@given(any_line)
@example("PLAY ²")
@example("CHI W1 W3")
def test_any_answer_is_an_action_or_an_invalid_action(text: str) -> None:
    answer = decode_response(text)
    assert isinstance(answer, ev.Action | ev.InvalidAction)
    if isinstance(answer, ev.InvalidAction):
        assert answer.reason and answer.text == text
        try:
            parse_response(text)
        except ProtocolError:
            pass
        else:
            raise AssertionError(f"{text!r} parses but decodes as invalid")
    else:
        # what reads as an action is written back as the same tokens
        assert format_response(answer).split() == text.split()


chow_middle = st.integers(0, 26).filter(lambda t: t % 9 not in (0, 8))
actions = st.one_of(
    st.just(ev.Pass()), st.just(ev.DeclareWin()), st.just(ev.ClaimKong()),
    suited.map(ev.Discard), suited.map(lambda x: ev.ClaimAndDiscard(ev.ClaimPung(), x)),
    suited.map(ev.DeclareConcealedKong), suited.map(ev.DeclareAddedKong),
    st.builds(lambda m, x: ev.ClaimAndDiscard(ev.ClaimChow(m), x), chow_middle, suited),
)


@SETTINGS
@given(actions)
def test_every_action_survives_format_and_parse(action: ev.Action) -> None:
    text = format_response(action)
    assert parse_response(text) == action
    assert parse_response(f"  {text.replace(' ', '   ')} \n") == action


@st.composite
def games(draw: st.DrawFn) -> tuple[int, list[ev.Event]]:
    """A viewer and a sequence of events as Botzone would send them to it: the seat, the
    deal, then draws, discards, claims, kongs and flowers in an order the decoder can
    follow (a claim answers the last discard of another seat)."""
    viewer = draw(seat)
    counts = draw(st.tuples(*[st.integers(0, 2)] * 4))
    events: list[ev.Event] = [
        ev.SeatAssigned(viewer, draw(seat)),
        ev.Dealt(viewer, tuple(draw(st.lists(suited, min_size=13, max_size=13))), counts,
              tuple(draw(st.lists(flower, min_size=sum(counts), max_size=sum(counts))))),
    ]
    last_discard: tuple[int, int] | None = None
    last_drawer: int | None = None
    for _ in range(draw(st.integers(0, 30))):
        who = draw(seat)
        options = ["draw", "discard", "flower", "added kong"]
        if last_discard is not None and last_discard[0] != who:
            options += ["pung", "chow", "kong"]
        if last_drawer == who:
            options.append("concealed kong")
        kind = draw(st.sampled_from(options))
        event: ev.Event
        if kind == "draw":
            tile = draw(suited)
            event = ev.Drew(who, tile if who == viewer else None)
        elif kind == "discard":
            event = ev.Discarded(who, draw(suited))
        elif kind == "flower":
            event = ev.FlowerReplaced(who, draw(flower))
        elif kind == "added kong":
            event = ev.KongAdded(who, draw(suited))
        elif kind == "concealed kong":
            event = ev.ConcealedKonged(who, None)
        elif kind == "pung":
            assert last_discard is not None
            event = ev.Punged(who, last_discard[1], draw(suited))
        elif kind == "chow":
            assert last_discard is not None
            claimed = last_discard[1]
            middles = [m for m in (claimed - 1, claimed, claimed + 1)
                       if 0 <= m < 27 and m % 9 not in (0, 8) and m // 9 == claimed // 9]
            if not middles:
                event = ev.Punged(who, claimed, draw(suited))
            else:
                event = ev.Chowed(who, draw(st.sampled_from(middles)), claimed, draw(suited))
        else:
            assert last_discard is not None
            event = ev.Konged(who, last_discard[1])
        events.append(event)
        last_drawer = who if isinstance(event, ev.Drew) else None
        if isinstance(event, ev.Discarded):
            last_discard = (who, event.tile)
        elif isinstance(event, ev.Punged | ev.Chowed):
            last_discard = (who, event.discard)
        elif not isinstance(event, ev.FlowerReplaced):
            last_discard = None
    return viewer, events


@SETTINGS
@given(games())
def test_every_request_line_decodes_to_the_event_it_was_made_from(
        game: tuple[int, list[ev.Event]]) -> None:
    viewer, events = game
    decoder = RequestDecoder()
    for event in events:
        line = format_request(event, viewer)
        assert decoder.decode(line) == event, line


@SETTINGS
@given(games(), st.data())
def test_a_damaged_line_in_a_game_is_refused_or_read_and_the_game_goes_on(
        game: tuple[int, list[ev.Event]], data: st.DataObject) -> None:
    """Truncated, doubled, reordered or garbled lines: each is refused with a ProtocolError
    or read as some event; the decoder then reads the remaining lines as before or refuses
    them too, never raising anything else."""
    viewer, events = game
    lines = [format_request(e, viewer) for e in events]
    damaged = list(lines)
    for _ in range(data.draw(st.integers(1, 4))):
        i = data.draw(st.integers(0, len(damaged) - 1))
        how = data.draw(st.sampled_from(["truncate", "double", "swap", "garble", "drop"]))
        if how == "truncate":
            damaged[i] = damaged[i][: data.draw(st.integers(0, len(damaged[i])))]
        elif how == "double":
            damaged.insert(i, damaged[i])
        elif how == "swap" and i + 1 < len(damaged):
            damaged[i], damaged[i + 1] = damaged[i + 1], damaged[i]
        elif how == "garble":
            damaged[i] = data.draw(any_line)
        elif how == "drop" and len(damaged) > 1:
            del damaged[i]
    decoder = RequestDecoder()
    for line in damaged:
        decoded_or_refused(decoder, line)


@pytest.mark.parametrize(("lines", "says"), [
    (["0 ² 1"], "bad seat '²'"),
    (["0 ٣ 1"], "bad seat '٣'"),
    (["0 1 0", "3 0 PLAY H1"], "PLAY of the flower 'H1'"),
    (["0 1 0", "3 0 PLAY W5", "3 1 PENG H2"], "PENG of the flower 'H2'"),
    (["0 1 0", "3 0 PLAY W5", "3 1 CHI H1 W5"], "CHI of the flower 'H1'"),
    (["0 1 0", "3 0 PLAY W5", "3 1 CHI W1 W5"], "CHI around 'W1': the middle of a chow"),
    (["0 1 0", "3 0 PLAY F1", "3 1 CHI F2 W5"], "CHI around 'F2': the middle of a chow"),
    (["0 1 0", "3 0 PLAY W5", "3 1 CHI W8 B1"], "CHI around 'W8' cannot hold the claimed W5"),
    (["0 1 0", "3 0 PLAY B1", "3 1 CHI W8 B1"], "CHI around 'W8' cannot hold the claimed B1"),
])
def test_lines_found_by_the_properties_are_refused_naming_the_token(lines: list[str],
                                                                   says: str) -> None:
    decoder = RequestDecoder()
    for line in lines[:-1]:
        decoder.decode(line)
    with pytest.raises(ProtocolError, match=re.escape(says)):
        decoder.decode(lines[-1])
