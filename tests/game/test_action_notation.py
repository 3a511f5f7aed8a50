"""Actions name themselves for people: a claim by its meld, the discard after it apart."""

from __future__ import annotations

import pytest

from game import events as ev
from game.tiles import Notation, parse_tile


def t(name: str) -> int:
    return parse_tile(name, Notation.COMPACT)


@pytest.mark.parametrize(("action", "claimed", "text"), [
    (ev.Pass(), None, "pass"),
    (ev.DeclareWin(), t("5p"), "win on 5p"),
    (ev.Discard(t("4m")), None, "discard 4m"),
    (ev.ClaimAndDiscard(ev.ClaimChow(t("2m")), t("3z")), t("1m"),
     "chow 1m2m3m, then discard 3z"),
    (ev.ClaimAndDiscard(ev.ClaimChow(t("7p")), t("5s")), None, "chow 6p7p8p, then discard 5s"),
    (ev.ClaimAndDiscard(ev.ClaimPung(), t("9s")), t("5p"), "pung 5p5p5p, then discard 9s"),
    (ev.ClaimAndDiscard(ev.ClaimPung(), t("9s")), None, "pung, then discard 9s"),
    (ev.ClaimKong(), t("7z"), "kong 7z7z7z7z"),
    (ev.DeclareConcealedKong(t("1z")), None, "concealed kong 1z1z1z1z"),
    (ev.DeclareAddedKong(t("9m")), None, "added kong 9m9m9m9m"),
    (ev.ClaimChow(t("8s")), None, "chow 7s8s9s"),
    (ev.ClaimPung(), t("2p"), "pung 2p2p2p"),
])
def test_notation(action: ev.Action, claimed: int | None, text: str) -> None:
    assert action.notation(claimed) == text
