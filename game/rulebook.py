"""The rule book: every rule a table, a seat, a strategy or a codec asks, written once.

- **Legal answers**: after a draw (:func:`legal_after_draw`), on another seat's discard
  (:func:`legal_on_discard`: Botzone's claims name their discard, the Olympiad flow's
  calls do not) and on an added kong (:func:`legal_on_added_kong`).  The tables list
  them for the judge and the seat view lists them for the player from the same
  functions, handed what each knows (the table its walls, the view its counts of them).
- **Declarable wins**: :func:`win_context` is the one builder of a win's circumstances
  (:class:`game.scoring.mcr.WinContext`, as the ``mahjong`` library's ``HandConfig``
  carries a win's flags), and :func:`declarable_win` says whether a hand wins on a tile
  and for how many fan: under mcr-botzone PyMahjongGB's total, at least 8 plus the
  seat's flowers; under taiwan-16 and mahjong-0 the shape of melds and a pair (no
  minimum; taiwan-16's tai are scored at the table, :mod:`game.scoring.tai`).
- **Points of a result**: :func:`mcr_scores` (Botzone: a discarder pays 8 + fan, the
  others 8; a self-draw takes 8 + fan from each) and :func:`mcr_win_points` (what the
  winner gains).
- **The safest answer** (:func:`safest_action`) for a seat that failed, was late or
  lost its state, and the referee's default.

The model is python-chess's ``Board.legal_moves``: one list of legal moves, reused by
every engine protocol.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np

from game import events as ev
from game.melds import Meld, Pung, chow_middles, chow_tiles
from game.rules import Family, Ruleset
from game.scoring.mcr import WinContext, mcr_fans
from game.scoring.tai import is_complete
from game.tiles import NUM_KINDS

__all__ = [
    "WIN_BASE",
    "WinOffer",
    "claim_answer",
    "declarable_win",
    "kong_forbidden",
    "legal_after_claim",
    "legal_after_draw",
    "legal_on_added_kong",
    "legal_on_discard",
    "mcr_scores",
    "mcr_win_points",
    "minimum_fan",
    "safest_action",
    "taken_by",
    "win_context",
    "with_discards",
]

if TYPE_CHECKING:  # the type checker's alone: vermin is told so (novm)
    Counts = Sequence[int] | np.ndarray  # novm
    """A seat's concealed tiles as 34 counts (a list at the tables, a numpy vector in a
    view)."""

WIN_BASE = 8
"""Botzone's base points of a win, paid by every other seat."""


# ---------------------------------------------------------------- wins
@dataclass(frozen=True)
class WinOffer:
    """A declarable win: its fan total and items (under taiwan-16 and mahjong-0 the seat
    counts no fan: 0 and no items; the table scores tai when the win is declared)."""

    fan: int
    fans: "tuple[ev.FanItem, ...]" = ()


def win_context(*, seat: int, prevalent_wind: int, self_drawn: bool, robbing: bool = False,
                visible_copies: int = 0, after_kong: bool = False, wall_last: bool = False,
                flowers: int = 0) -> "WinContext":
    """The one builder of a win's circumstances.

    ``visible_copies``: copies of the winning tile in discards and exposed melds (the
    fourth tile when they and a drawn one make four); ``after_kong``: the draw replaced
    a kong (about-kong when self-drawn; robbing an added kong is about-kong too);
    ``wall_last``: the wall of the seat after the drawer or discarder is empty."""
    return WinContext(seat, prevalent_wind, self_drawn=self_drawn,
                      fourth_tile=visible_copies + int(self_drawn) == 4,
                      about_kong=(after_kong and self_drawn) or robbing,
                      wall_last=wall_last, flower_count=flowers)


def minimum_fan(rules: "Ruleset", flowers: int = 0) -> int:
    """The least fan a declared win must reach: under MCR the rule set's minimum plus the
    seat's flowers (each is a fan the judge adds); else 0 (no fan is counted)."""
    return rules.min_fan + flowers if rules.family is Family.MCR else 0


def declarable_win(rules: "Ruleset", concealed: "Sequence[int]", melds: "Sequence[Meld]", tile: int,
                   context: "WinContext") -> "WinOffer | None":
    """The win if a seat holding ``concealed`` (its concealed tiles, without ``tile``) and
    ``melds`` may declare one on ``tile`` now; None if that would be a false win."""
    if rules.family is Family.MCR:
        fans = mcr_fans(concealed, melds, tile, context)
        if fans is None:
            return None
        total = sum(f.total for f in fans)
        if total < minimum_fan(rules, context.flower_count):
            return None
        return WinOffer(total, fans)
    counts = [0] * NUM_KINDS
    for t in concealed:
        counts[t] += 1
    counts[tile] += 1
    if not is_complete(counts, rules.melds_needed - len(melds)):
        return None
    return WinOffer(0)


def mcr_win_points(fan: int, self_drawn: bool) -> int:
    """What a win of ``fan`` brings its winner under Botzone's scoring."""
    return 3 * (WIN_BASE + fan) if self_drawn else 3 * WIN_BASE + fan


def mcr_scores(winner: int, fan: int, payer: "int | None") -> "tuple[int, int, int, int]":
    """The four seats' scores of a win (``payer`` None: self-drawn)."""
    scores = [0] * 4
    for s in range(4):
        if s == winner:
            scores[s] = mcr_win_points(fan, payer is None)
        elif payer is None or s == payer:
            scores[s] = -(WIN_BASE + fan)
        else:
            scores[s] = -WIN_BASE
    return (scores[0], scores[1], scores[2], scores[3])


# ---------------------------------------------------------------- legal answers
_DISCARD = tuple(ev.Discard(t) for t in range(NUM_KINDS))
"""One answer per kind (actions are frozen values: a seat's answers share them)."""


def _discards(counts: "Counts") -> "list[ev.Action]":
    return [_DISCARD[t] for t in range(NUM_KINDS) if counts[t] > 0]


def kong_forbidden(own_wall: int, next_wall: int) -> "str | None":
    """Why a kong may not be declared now, None when it may.  Its replacement tile comes
    from the seat's own wall, and the wall of the seat after the last discarder or drawer
    must still hold a tile (Botzone's per-seat walls); with one shared wall both are the
    tiles left."""
    if own_wall <= 0:
        return "its own wall is empty"
    if next_wall <= 0:
        return "the wall of the seat after the last discarder or drawer is empty"
    return None


def legal_after_draw(counts: "Counts", melds: "Sequence[Meld]", *, kong_allowed: bool,
                     win: bool) -> "tuple[ev.Action, ...]":
    """A seat's answers after its draw: ``counts`` its concealed tiles with the drawn one;
    ``kong_allowed`` whether a kong may be declared now (Botzone: its own and the next
    seat's walls are not empty; taiwan-16: the wall is not empty); ``win`` whether
    :func:`declarable_win` allows one."""
    actions = _discards(counts)
    if kong_allowed:
        actions += [ev.DeclareConcealedKong(t) for t in range(NUM_KINDS) if counts[t] >= 4]
        actions += [ev.DeclareAddedKong(m.tile) for m in melds
                    if isinstance(m, Pung) and counts[m.tile] > 0]
    if win:
        actions.append(ev.DeclareWin())
    return tuple(actions)


def legal_after_claim(counts: "Counts") -> "tuple[ev.Action, ...]":
    """A seat's answers once its chow or pung is taken (the Olympiad flow asks for the
    discard after it separately): any tile of ``counts``, its concealed tiles after the
    meld."""
    return tuple(_discards(counts))


def legal_on_discard(counts: "Counts", tile: int, *, from_left: bool, kong_allowed: bool,
                     win: bool, names_discard: bool) -> "tuple[ev.Action, ...]":
    """A seat's answers to another seat's discard of ``tile``: pass, win, pung, kong, and
    chow from the seat on the discarder's left (``from_left``).

    A pung or chow of the last discard is taken (Botzone's judge takes it, although its
    wiki says otherwise); ``kong_allowed``: a kong needs a replacement tile (Botzone: this
    seat's wall, and the wall of the seat after the discarder).  ``names_discard``
    (:attr:`game.rules.Ruleset.discard_with_claim`): a chow or pung is answered with the
    discard after it (:class:`ClaimAndDiscard`, one answer per discard, in
    :func:`with_discards`' order), else alone (the Olympiad flow asks for the discard
    next, :func:`legal_after_claim`)."""
    actions: "list[ev.Action]" = [ev.Pass()]
    if win:
        actions.append(ev.DeclareWin())
    if counts[tile] >= 2:
        pung = ev.ClaimPung()
        actions += with_discards(pung, counts, tile) if names_discard else [pung]
    if counts[tile] >= 3 and kong_allowed:
        actions.append(ev.ClaimKong())
    if from_left:
        for middle in chow_middles(tile):
            need = [t for t in chow_tiles(middle) if t != tile]
            if all(counts[t] > 0 for t in need):
                chow = ev.ClaimChow(middle)
                actions += with_discards(chow, counts, tile) if names_discard else [chow]
    return tuple(actions)


def taken_by(claim: "ev.ClaimPung | ev.ClaimChow", tile: int) -> "list[int]":
    """The tiles a chow or pung of the discard ``tile`` takes from the hand."""
    if isinstance(claim, ev.ClaimPung):
        return [tile, tile]
    return [t for t in chow_tiles(claim.middle) if t != tile]


def claim_answer(claim: "ev.ClaimPung | ev.ClaimChow", discard: int,
                 legal: "Sequence[ev.Action]") -> "ev.Action | None":
    """The answer among ``legal`` that makes ``claim`` and then discards ``discard``: the two
    in one answer where the table takes them so, the claim alone where it asks for the
    discard next; None if neither is legal."""
    both = ev.ClaimAndDiscard(claim, discard)
    if both in legal:
        return both
    return claim if claim in legal else None


def with_discards(claim: "ev.ClaimPung | ev.ClaimChow", counts: "Counts",
                  tile: int) -> "list[ev.ClaimAndDiscard]":
    """``claim`` of the discard ``tile`` with each discard the hand ``counts`` leaves after
    it, in tile order."""
    after = list(counts)
    for t in taken_by(claim, tile):
        after[t] -= 1
    return [_claim_and_discard(claim, t) for t in range(NUM_KINDS) if after[t] > 0]


@lru_cache(maxsize=None)
def _claim_and_discard(claim: "ev.ClaimPung | ev.ClaimChow", tile: int) -> "ev.ClaimAndDiscard":
    """One value per claim and discard (at most 21 chows and a pung, times 34 kinds), its
    tiles Python ints whatever integers the first caller gave."""
    plain = claim if isinstance(claim, ev.ClaimPung) else ev.ClaimChow(int(claim.middle))
    return ev.ClaimAndDiscard(plain, int(tile))


def legal_on_added_kong(win: bool) -> "tuple[ev.Action, ...]":
    """Another seat's answers to an added kong: pass, or rob it when that wins."""
    return (ev.Pass(), ev.DeclareWin()) if win else (ev.Pass(),)


# ---------------------------------------------------------------- the safest answer
def safest_action(legal: "Sequence[ev.Action]", drawn: "int | None" = None) -> "ev.Action":
    """The safest of the legal answers, for a seat whose strategy failed, was late or lost
    its state, and for a referee's default: pass if allowed; else discard the drawn tile;
    else the last discard offered; else the first legal answer (pass when nothing is
    offered)."""
    if ev.Pass() in legal:
        return ev.Pass()
    if drawn is not None and ev.Discard(drawn) in legal:
        return ev.Discard(drawn)
    discards = [a for a in legal if isinstance(a, ev.Discard)]
    if discards:
        return discards[-1]
    return legal[0] if legal else ev.Pass()
