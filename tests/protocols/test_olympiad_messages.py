"""The Olympiad messages at the JSON edge, and the codec between them and table actions."""

from __future__ import annotations

import json

import pytest

from game.events import ActionKind as K
from game.events import (
    ClaimChow,
    ClaimKong,
    ClaimPung,
    DeclareAddedKong,
    DeclareConcealedKong,
    DeclareWin,
    Discard,
    Discarded,
    Drew,
    Melded,
    Pass,
    Punged,
)
from game.tiles import parse_tile
from protocols.olympiad import (
    Act,
    AskMsg,
    MessageError,
    parse_player_message,
    parse_referee_message,
)
from protocols.olympiad_codec import (
    EventDecoder,
    act_allowed,
    act_for,
    action_for,
    event_fields,
    options_for,
)


def t(name: str) -> int:
    from game.tiles import Notation

    return parse_tile(name, Notation.COMPACT)


@pytest.mark.parametrize(("text", "code", "names"), [
    ("{not json", "malformed_json", "not JSON"),
    ("[1, 2]", "malformed_json", "JSON object"),
    ('{"v": 1}', "invalid_message", "type"),
    ('{"v": 1, "type": "hello"}', "unknown_type", "hello"),
    ('{"v": 2, "type": "join", "name": "a", "table": "t1", "seat": 0}', "bad_version", "2"),
    ('{"v": 1, "type": "join", "name": "a", "table": "t1"}', "invalid_message", "seat"),
    ('{"v": 1, "type": "join", "name": "a", "table": "t1", "seat": 4}', "invalid_message", "seat"),
    ('{"v": 1, "type": "act", "kind": "discard", "tile": "5m"}', "invalid_message", "id"),
    ('{"v": 1, "type": "act", "id": "a", "kind": "discard", "tile": "0m"}', "invalid_message",
     "0m"),
    ('{"v": 1, "type": "act", "id": "a", "kind": "shout"}', "invalid_message", "kind"),
])
def test_bad_player_messages_name_the_problem(text: str, code: str, names: str) -> None:
    with pytest.raises(MessageError) as err:
        parse_player_message(text)
    assert err.value.code == code
    assert names in err.value.message


def test_player_messages_round_trip() -> None:
    act = Act(id="t1-0-3-1", kind="chow", tiles=["3s", "4s", "5s"])
    assert parse_player_message(act.to_json()) == act
    join = parse_player_message('{"v":1,"type":"join","name":"x","table":"t1","seat":2,'
                                '"resume_from":17}')
    assert join.resume_from == 17


def test_options_list_every_legal_action_once() -> None:
    legal = [Pass(), DeclareWin(), ClaimPung(), ClaimKong(), ClaimChow(t("4s")), ClaimChow(t("5s"))]
    options = options_for(legal, tile_in_play=t("5s"))
    assert [o.model_dump(exclude_none=True) for o in options] == [
        {"kind": "win"}, {"kind": "kong", "tiles": ["5s"]}, {"kind": "pong"},
        {"kind": "chow", "tiles": [["3s", "4s", "5s"], ["4s", "5s", "6s"]]}, {"kind": "pass"}]
    after_draw = [Discard(t("1m")), Discard(t("9p")), DeclareConcealedKong(t("7z")),
                  DeclareAddedKong(t("2s"))]
    kinds = [o.model_dump(exclude_none=True) for o in options_for(after_draw)]
    assert kinds == [{"kind": "kong", "tiles": ["2s", "7z"]},
                     {"kind": "discard", "tiles": ["1m", "9p"]}]


def test_acts_map_to_the_legal_action_or_are_refused() -> None:
    legal = [Pass(), ClaimPung(), ClaimChow(t("4s")), ClaimKong()]
    assert action_for(Act(id="a", kind="pong"), legal) == ClaimPung()
    assert action_for(Act(id="a", kind="chow", tiles=["5s", "3s", "4s"]), legal) == ClaimChow(
        t("4s"))
    assert action_for(Act(id="a", kind="kong", tile="5s"), legal) == ClaimKong()
    with pytest.raises(MessageError) as err:
        action_for(Act(id="a", kind="win"), legal)
    assert err.value.code == "illegal_action"
    with pytest.raises(MessageError) as err:
        action_for(Act(id="a", kind="chow", tiles=["7s", "8s", "9s"]), legal)
    assert err.value.code == "illegal_action"
    with pytest.raises(MessageError) as err:
        action_for(Act(id="a", kind="chow", tiles=["8s", "9s", "1p"]), legal)
    assert "not a chow" in err.value.message
    draw = [Discard(t("1m")), DeclareConcealedKong(t("7z"))]
    assert action_for(Act(id="a", kind="kong", tile="7z"), draw) == DeclareConcealedKong(t("7z"))
    with pytest.raises(MessageError) as err:
        action_for(Act(id="a", kind="discard", tile="2m"), draw)
    assert err.value.code == "illegal_action" and "2m" in err.value.message
    with pytest.raises(MessageError) as err:
        action_for(Act(id="a", kind="discard"), draw)
    assert err.value.code == "invalid_message"


def test_the_seat_sees_only_its_own_draws_and_concealed_kongs() -> None:
    seen = event_fields(Drew(2, t("5m"), replacement=True), viewer=2, wall=40)
    hidden = event_fields(Drew(2, t("5m")), viewer=1, wall=40)
    assert seen == {"v": 1, "type": "draw", "seat": 2, "tile": "5m", "replacement": True,
                    "wall": 40}
    assert hidden is not None and "tile" not in hidden
    from game.events import ConcealedKonged

    own = event_fields(ConcealedKonged(1, t("6z")), viewer=1, wall=3)
    other = event_fields(ConcealedKonged(1, None), viewer=0, wall=3)
    assert own is not None and other is not None
    assert own["tiles"] == ["6z"] * 4 and "tiles" not in other


def test_decoder_gives_a_meld_and_its_discard_as_two_events() -> None:
    """The seat view asks its own claimer's discard between them (``AskKind.CALLED``); a
    whole history still folds into Botzone's shape (``joined_claims``)."""
    decoder = EventDecoder()
    decoder.seat = 0
    msgs = [
        {"type": "discard", "seat": 1, "tile": "5p"},
        {"type": "meld", "seat": 2, "kind": "pong", "tiles": ["5p", "5p", "5p"], "from_seat": 1},
        {"type": "discard", "seat": 2, "tile": "9m"},
        {"type": "meld", "seat": 3, "kind": "chow", "tiles": ["8m", "9m", "7m"], "from_seat": 2},
        {"type": "discard", "seat": 3, "tile": "1z"},
    ]
    events = []
    for i, m in enumerate(msgs, 1):
        text = json.dumps({"v": 1, "table": "t1", "seq": i, **m})
        events += decoder.decode(parse_referee_message(text))
    from game.events import Chowed
    from protocols.olympiad_codec import joined_claims

    assert events == [Discarded(1, t("5p")), Melded(2, K.PUNG, (t("5p"),) * 3, t("5p"), 1),
                      Discarded(2, t("9m")),
                      Melded(3, K.CHOW, (t("7m"), t("8m"), t("9m")), t("9m"), 2),
                      Discarded(3, t("1z"))]
    assert joined_claims(events) == [Discarded(1, t("5p")), Punged(2, t("5p"), t("9m")),
                                     Chowed(3, t("8m"), t("9m"), t("1z"))]
    assert Melded(2, K.PUNG, (t("5p"),) * 3, t("5p"), 1).kind is K.PUNG


def test_client_side_acts_are_checked_against_the_options() -> None:
    ask = AskMsg(table="t1", seq=5, id="x", deadline_ms=100, options=[
        {"kind": "chow", "tiles": [["3s", "4s", "5s"]]}, {"kind": "pass"}])  # type: ignore[list-item]
    assert act_allowed(act_for(ClaimChow(t("4s")), "x", None), ask.options)
    assert not act_allowed(act_for(ClaimChow(t("5s")), "x", None), ask.options)
    assert not act_allowed(act_for(Discard(t("1m")), "x", None), ask.options)
    assert act_allowed(act_for(Pass(), "x", None), ask.options)
