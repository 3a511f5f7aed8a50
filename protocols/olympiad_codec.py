"""Olympiad messages <-> the table's events and actions (``game.events``).

Referee side: :func:`options_for` lists a seat's legal actions as an
``ask``'s options; :func:`action_for` reads an ``act`` against them (or
raises :class:`MessageError` with code ``illegal_action``); :func:`messages_for`
turns one table event into what one seat is shown.

Player side: :class:`EventDecoder` turns the referee's messages back into
the events the agent's seat view understands.  Botzone's events bundle a
claim with the claimer's discard (``Punged``/``Chowed``); the Olympiad flow
sends the ``meld`` first and the discard after it, so the decoder holds a
chow/pong ``meld`` until that seat's ``discard`` arrives and then yields one
``Punged``/``Chowed``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from game import events as ev
from game.rulebook import safest_action
from protocols.olympiad import (
    Act,
    AskMsg,
    Deal,
    DiscardMsg,
    Draw,
    Flower,
    MeldMsg,
    MessageError,
    Option,
    tile_index,
    tile_str,
)


# ---------------------------------------------------------------- referee side
def options_for(legal: Sequence[ev.Action], tile_in_play: int | None = None) -> list[Option]:
    """The ``ask`` options for a seat's legal actions, in a fixed order."""
    discards = sorted({a.tile for a in legal if isinstance(a, ev.Discard)})
    kongs = sorted({a.tile for a in legal
                    if isinstance(a, ev.DeclareConcealedKong | ev.DeclareAddedKong)}
                   | ({tile_in_play} if any(isinstance(a, ev.ClaimKong) for a in legal)
                      and tile_in_play is not None else set()))
    chows = sorted({a.middle for a in legal if isinstance(a, ev.ClaimChow)})
    out: list[Option] = []
    if any(isinstance(a, ev.DeclareWin) for a in legal):
        out.append(Option(kind="win"))
    if kongs:
        out.append(Option(kind="kong", tiles=[tile_str(t) for t in kongs]))
    if any(isinstance(a, ev.ClaimPung) for a in legal):
        out.append(Option(kind="pong"))
    if chows:
        out.append(Option(kind="chow", tiles=[[tile_str(m - 1), tile_str(m), tile_str(m + 1)]
                                              for m in chows]))
    if discards:
        out.append(Option(kind="discard", tiles=[tile_str(t) for t in discards]))
    if any(isinstance(a, ev.Pass) for a in legal):
        out.append(Option(kind="pass"))
    return out


def _illegal(why: str) -> MessageError:
    return MessageError("illegal_action", why)


def action_for(act: Act, legal: Sequence[ev.Action]) -> ev.Action:
    """The table action an ``act`` asks for, if it is among ``legal``."""
    kind = act.kind
    if kind == "pass":
        chosen: ev.Action = ev.Pass()
    elif kind == "win":
        chosen = ev.DeclareWin()
    elif kind == "pong":
        chosen = ev.ClaimPung()
    elif kind == "discard":
        if act.tile is None:
            raise MessageError("invalid_message", "act discard: missing field 'tile'")
        chosen = ev.Discard(tile_index(act.tile))
    elif kind == "chow":
        if not act.tiles or len(act.tiles) != 3:
            raise MessageError("invalid_message", "act chow: 'tiles' must list the chow's 3 tiles")
        chow = sorted(tile_index(t, in_hand=True) for t in act.tiles)
        if not (chow[0] + 1 == chow[1] == chow[2] - 1 and chow[0] // 9 == chow[2] // 9 < 3):
            raise _illegal(f"{' '.join(act.tiles)} is not a chow")
        chosen = ev.ClaimChow(chow[1])
    else:  # kong
        tile = act.tile or (act.tiles[0] if act.tiles else None)
        kongs = [a for a in legal if isinstance(a, ev.DeclareConcealedKong | ev.DeclareAddedKong)]
        claim = next((a for a in legal if isinstance(a, ev.ClaimKong)), None)
        if claim is not None and not kongs:
            chosen = claim  # the tile (if given) is checked against the ask's option by the caller
        elif tile is None:
            raise MessageError("invalid_message", "act kong: missing field 'tile'")
        else:
            t = tile_index(tile)
            match = next((a for a in kongs if a.tile == t), None)
            if match is None:
                raise _illegal(f"no kong of {tile} is possible")
            chosen = match
    if chosen not in legal:
        raise _illegal(f"{_describe(chosen)} is not among this ask's options")
    return chosen


def _describe(action: ev.Action) -> str:
    tile = getattr(action, "tile", None)
    if isinstance(action, ev.ClaimChow):
        tile = action.middle
    return action.kind.value + (f" {tile_str(tile)}" if isinstance(tile, int) else "")


def _meld_kind(event: ev.Event) -> str:
    if isinstance(event, ev.Melded):
        return "chow" if event.kind is ev.ActionKind.CHOW else "pong"
    if isinstance(event, ev.Konged):
        return "kong"
    if isinstance(event, ev.ConcealedKonged):
        return "concealed_kong"
    return "added_kong"


def event_fields(event: ev.Event, viewer: int, *, wall: int, from_seat: int | None = None,
                 dealer: int = 0, game: int = 0,
                 prevalent_wind: int = 0) -> dict[str, Any] | None:
    """What ``viewer`` is shown of ``event``: one message's fields without ``table``/``seq``,
    or None when the viewer is shown nothing.

    ``wall`` is the number of tiles left after the event; ``from_seat`` the
    discarder whose tile a claimed kong took.  Plain dicts on this hot path;
    the tests parse every message a referee sends with the pydantic models.
    """
    if isinstance(event, ev.Drew):
        out: dict[str, Any] = {"v": 1, "type": "draw", "seat": event.seat}
        if event.seat == viewer and event.tile is not None:
            out["tile"] = tile_str(event.tile)
        out.update(replacement=event.replacement, wall=wall)
        return out
    if isinstance(event, ev.Discarded):
        return {"v": 1, "type": "discard", "seat": event.seat, "tile": tile_str(event.tile)}
    if isinstance(event, ev.FlowerReplaced):
        return {"v": 1, "type": "flower", "seat": event.seat, "flower": tile_str(event.flower)}
    if isinstance(event, ev.Melded | ev.Konged | ev.ConcealedKonged | ev.KongAdded):
        meld: dict[str, Any] = {"v": 1, "type": "meld", "seat": event.seat,
                                "kind": _meld_kind(event)}
        if isinstance(event, ev.Melded):
            meld.update(tiles=[tile_str(t) for t in event.tiles], from_seat=event.from_seat)
        elif isinstance(event, ev.ConcealedKonged):
            if event.seat == viewer and event.tile is not None:
                meld["tiles"] = [tile_str(event.tile)] * 4
        else:
            meld["tiles"] = [tile_str(event.tile)] * 4
            if isinstance(event, ev.Konged) and from_seat is not None:
                meld["from_seat"] = from_seat
        return meld
    if isinstance(event, ev.Dealt):
        if event.seat != viewer:
            return None
        per_seat: list[list[str]] = []
        flowers = list(event.flowers)
        for n in event.flower_counts:
            per_seat.append([tile_str(f) for f in flowers[:n]])
            flowers = flowers[n:]
        return {"v": 1, "type": "deal", "game": game, "dealer": dealer,
                "prevalent_wind": prevalent_wind,
                "hand": [tile_str(t) for t in sorted(event.tiles)], "flowers": per_seat,
                "wall": wall}
    if isinstance(event, ev.SeatAssigned):
        return None
    raise MessageError("internal", f"no Olympiad message for {type(event).__name__}")


# ---------------------------------------------------------------- claims
class ClaimFolder:
    """Each chow/pung ``Melded`` and the discard after it as one ``Punged``/``Chowed``.

    The Olympiad flow announces a claim and the claimer's discard separately; a seat
    view (and the Botzone judge) take them as one event.  Fed events in order, it
    holds a claim until its owner's discard; a claim followed by anything else (a game
    cut short) is passed on as it is.
    """

    def __init__(self) -> None:
        self.held: ev.Melded | None = None

    def feed(self, event: ev.Event) -> list[ev.Event]:
        held, self.held = self.held, None
        out: list[ev.Event] = []
        if held is not None:
            if isinstance(event, ev.Discarded) and event.seat == held.seat:
                return [held.with_discard(event.tile)]
            out.append(held)
        if isinstance(event, ev.Melded):
            self.held = event
        else:
            out.append(event)
        return out

    def flush(self) -> list[ev.Event]:
        held, self.held = self.held, None
        return [] if held is None else [held]


def joined_claims(events: Iterable[ev.Event]) -> list[ev.Event]:
    """A whole history with every claim folded with its discard (:class:`ClaimFolder`)."""
    folder = ClaimFolder()
    out = [e for event in events for e in folder.feed(event)]
    return out + folder.flush()


# ---------------------------------------------------------------- player side
class EventDecoder:
    """One seat's referee messages -> ``game.events`` for the agent's seat view: a chow or
    pung and the discard after it as the two events they are (:class:`ev.Melded`, then
    :class:`ev.Discarded`; the view asks for the claimer's discard in between)."""

    def __init__(self) -> None:
        self.seat = 0
        self._last_discard: int | None = None
        self._last_discarder = 0

    def decode(self, msg: Any) -> list[ev.Event]:
        if isinstance(msg, Deal):
            self._last_discard = None
            flowers = [tile_index(f) for seat in msg.flowers for f in seat]
            counts = tuple(len(seat) for seat in msg.flowers)
            hand = tuple(tile_index(t, in_hand=True) for t in msg.hand)
            return [ev.SeatAssigned(self.seat, msg.prevalent_wind),
                    ev.Dealt(self.seat, hand, (counts[0], counts[1], counts[2], counts[3]),
                          tuple(flowers))]
        if isinstance(msg, Draw):
            tile = tile_index(msg.tile) if msg.tile is not None else None
            return [ev.Drew(msg.seat, tile, msg.replacement)]
        if isinstance(msg, Flower):
            return [ev.FlowerReplaced(msg.seat, tile_index(msg.flower))]
        if isinstance(msg, DiscardMsg):
            tile = tile_index(msg.tile, in_hand=True)
            self._last_discard, self._last_discarder = tile, msg.seat
            return [ev.Discarded(msg.seat, tile)]
        if isinstance(msg, MeldMsg):
            if msg.kind in ("chow", "pong"):
                return [self._claim(msg)]
            tile = tile_index(msg.tiles[0], in_hand=True) if msg.tiles else None
            if msg.kind == "kong":
                if tile is None:
                    raise MessageError("invalid_message", "meld kong: missing 'tiles'")
                return [ev.Konged(msg.seat, tile)]
            if msg.kind == "concealed_kong":
                return [ev.ConcealedKonged(msg.seat, tile)]
            if tile is None:
                raise MessageError("invalid_message", "meld added_kong: missing 'tiles'")
            return [ev.KongAdded(msg.seat, tile)]
        return []

    def _claim(self, msg: MeldMsg) -> ev.Melded:
        """A chow/pong ``meld`` message as the table's event (it took the last discard)."""
        if not msg.tiles or len(msg.tiles) != 3:
            raise MessageError("invalid_message", f"meld {msg.kind}: needs three 'tiles'")
        tiles = sorted(tile_index(t, in_hand=True) for t in msg.tiles)
        claimed = self._last_discard if self._last_discard in tiles else tiles[1]
        kind = ev.ActionKind.PUNG if msg.kind == "pong" else ev.ActionKind.CHOW
        from_seat = msg.from_seat if msg.from_seat is not None else self._last_discarder
        return ev.Melded(msg.seat, kind, (tiles[0], tiles[1], tiles[2]), claimed, from_seat)


def act_for(action: ev.Action, ask_id: str, tile_in_play: int | None) -> Act:
    """The ``act`` for one of the agent's actions (a claim alone: the discard after it is
    asked next)."""
    if isinstance(action, ev.Discard):
        return Act(id=ask_id, kind="discard", tile=tile_str(action.tile))
    if isinstance(action, ev.DeclareWin):
        return Act(id=ask_id, kind="win")
    if isinstance(action, ev.DeclareConcealedKong | ev.DeclareAddedKong):
        return Act(id=ask_id, kind="kong", tile=tile_str(action.tile))
    if isinstance(action, ev.ClaimKong):
        return Act(id=ask_id, kind="kong",
                   tile=tile_str(tile_in_play) if tile_in_play is not None else None)
    if isinstance(action, ev.ClaimPung):
        return Act(id=ask_id, kind="pong")
    if isinstance(action, ev.ClaimChow):
        m = action.middle
        return Act(id=ask_id, kind="chow", tiles=[tile_str(m - 1), tile_str(m), tile_str(m + 1)])
    return Act(id=ask_id, kind="pass")


def safest_act(ask: AskMsg, drawn: str | None = None) -> Act:
    """The one safest-answer rule (:func:`game.rulebook.safest_action`) on an ask's
    options: pass if allowed, else discard the drawn tile, else the last discard offered."""
    tiles = {t: tile_index(t, in_hand=True) for o in ask.options if o.kind == "discard"
             for t in (o.tiles or []) if isinstance(t, str)}
    offered: list[ev.Action] = [ev.Discard(i) for i in tiles.values()]
    if any(o.kind == "pass" for o in ask.options):
        offered.insert(0, ev.Pass())
    drawn_tile = tiles.get(drawn) if drawn is not None else None
    if not offered:
        return Act(id=ask.id, kind=ask.options[0].kind)
    return act_for(safest_action(offered, drawn_tile), ask.id, None)


def act_allowed(act: Act, options: Sequence[Option]) -> bool:
    """Whether ``act`` is one of an ``ask``'s options (client-side check before sending)."""
    for opt in options:
        if opt.kind != act.kind:
            continue
        if act.kind in ("win", "pong", "pass"):
            return True
        if act.kind in ("discard", "kong"):
            return act.tile is None or (opt.tiles is not None and act.tile in opt.tiles)
        if act.kind == "chow" and opt.tiles is not None and act.tiles is not None:
            return sorted(act.tiles) in [sorted(c) for c in opt.tiles if isinstance(c, list)]
    return False
