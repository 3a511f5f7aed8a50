"""Botzone Chinese Standard Mahjong wire text <-> ``game.events``.

Requests (judge -> bot), one line each, as seat ``viewer`` receives them::

    0 seat quan                    SeatAssigned
    1 f0 f1 f2 f3 t1..t13 flowers  Dealt
    2 T                            Drew (the viewer drew T)
    3 p BUHUA H                    FlowerReplaced
    3 p DRAW                       Drew (tile hidden)
    3 p PLAY T                     Discarded
    3 p PENG T                     Punged (T = the discard after the pung)
    3 p CHI M T                    Chowed (M = middle of the chow)
    3 p GANG                       Konged on the last discard, or ConcealedKonged
    3 p BUGANG T                   KongAdded

Responses (bot -> judge): ``PASS``, ``HU``, ``PLAY T``, ``GANG T`` (concealed),
``BUGANG T``, ``PENG T``, ``CHI M T``, ``GANG`` (on a discard).

A request does not name the claimed tile of ``PENG``/``CHI``/``GANG`` nor say
which kind ``GANG`` is: :class:`RequestDecoder` keeps the little context that
needs.  Errors are :class:`ProtocolError` and name the offending token; the
judge side reads answers with :func:`decode_response`, which never raises and
returns an :class:`~game.events.InvalidAction` instead.

Standard library plus ``game`` only.
"""

from game import events as ev
from game.compat import ascii_digits
from game.melds import chow_middles, is_chow_middle
from game.tiles import NUM_KINDS, Notation, TileError, parse_tile, tile_name

HAND_SIZE = 13


class ProtocolError(ValueError):
    """Wire text that does not follow the Botzone protocol; the message names the token."""


def clip(text: str, limit: int = 80) -> str:
    """``text`` for a message: its start, and its length when it was cut (a megabyte line
    must not make a megabyte message)."""
    return repr(text) if len(text) <= limit else f"{text[:limit]!r}... ({len(text)} chars)"


def _name(tile: int) -> str:
    return tile_name(tile, Notation.BOTZONE)


def _tile(token: str, text: str) -> int:
    try:
        return parse_tile(token, Notation.BOTZONE)
    except TileError:
        raise ProtocolError(f"unknown tile {clip(token, 20)} in {clip(text)}") from None


def _int(token: str, text: str, what: str, upper: int) -> int:
    if not ascii_digits(token) or not 0 <= int(token) <= upper:
        raise ProtocolError(f"bad {what} {clip(token, 20)} in {clip(text)}: expected 0-{upper}")
    return int(token)


# ---------------------------------------------------------------- responses
_RESPONSE_ARITY = {
    "PASS": (0,),
    "HU": (0,),
    "PLAY": (1,),
    "PENG": (1,),
    "BUGANG": (1,),
    "GANG": (0, 1),
    "CHI": (2,),
}
_KIND_BY_VERB = {
    "PASS": ev.ActionKind.PASS,
    "HU": ev.ActionKind.WIN,
    "PLAY": ev.ActionKind.DISCARD,
    "PENG": ev.ActionKind.PUNG,
    "BUGANG": ev.ActionKind.ADDED_KONG,
    "CHI": ev.ActionKind.CHOW,
}


def _shape(text: str) -> "tuple[list[str], ev.ActionKind | None]":
    """The tokens and the action the text is shaped like (verb and arity right)."""
    tokens = text.split()
    if not tokens:
        return tokens, None
    verb, args = tokens[0], len(tokens) - 1
    if verb not in _RESPONSE_ARITY or args not in _RESPONSE_ARITY[verb]:
        return tokens, None
    if verb == "GANG":
        return tokens, ev.ActionKind.CONCEALED_KONG if args else ev.ActionKind.KONG
    return tokens, _KIND_BY_VERB[verb]


def parse_response(text: str) -> "ev.Action":
    """A bot's answer; raises :class:`ProtocolError` naming the bad token."""
    tokens, kind = _shape(text)
    if not tokens:
        raise ProtocolError("empty response")
    if kind is None:
        verb = tokens[0]
        if verb not in _RESPONSE_ARITY:
            raise ProtocolError(f"unknown action {clip(verb, 20)} in response {clip(text)}")
        wanted = " or ".join(str(n) for n in _RESPONSE_ARITY[verb])
        raise ProtocolError(
            f"{verb} takes {wanted} argument(s), got {len(tokens) - 1} in response {clip(text)}"
        )
    tiles = [_tile(tok, text) for tok in tokens[1:]]
    if kind is ev.ActionKind.PASS:
        return ev.Pass()
    if kind is ev.ActionKind.WIN:
        return ev.DeclareWin()
    if kind is ev.ActionKind.KONG:
        return ev.ClaimKong()
    if kind is ev.ActionKind.DISCARD:
        return ev.Discard(tiles[0])
    if kind is ev.ActionKind.PUNG:
        return ev.ClaimAndDiscard(ev.ClaimPung(), tiles[0])
    if kind is ev.ActionKind.CONCEALED_KONG:
        return ev.DeclareConcealedKong(tiles[0])
    if kind is ev.ActionKind.ADDED_KONG:
        return ev.DeclareAddedKong(tiles[0])
    return ev.ClaimAndDiscard(ev.ClaimChow(tiles[0]), tiles[1])


def decode_response(text: str) -> "ev.Action | ev.InvalidAction":
    """Like :func:`parse_response`, but an unreadable answer becomes an ``InvalidAction``."""
    try:
        return parse_response(text)
    except ProtocolError as error:
        return ev.InvalidAction(text=text, reason=str(error), attempted=_shape(text)[1])


def format_response(action: "ev.Action") -> str:
    if isinstance(action, ev.Pass):
        return "PASS"
    if isinstance(action, ev.DeclareWin):
        return "HU"
    if isinstance(action, ev.ClaimKong):
        return "GANG"
    if isinstance(action, ev.Discard):
        return f"PLAY {_name(action.tile)}"
    if isinstance(action, ev.ClaimAndDiscard) and isinstance(action.claim, ev.ClaimPung):
        return f"PENG {_name(action.discard)}"
    if isinstance(action, ev.DeclareConcealedKong):
        return f"GANG {_name(action.tile)}"
    if isinstance(action, ev.DeclareAddedKong):
        return f"BUGANG {_name(action.tile)}"
    if isinstance(action, ev.ClaimAndDiscard) and isinstance(action.claim, ev.ClaimChow):
        return f"CHI {_name(action.claim.middle)} {_name(action.discard)}"
    raise ProtocolError(f"{type(action).__name__} has no Botzone response (the discard is missing)")


# ---------------------------------------------------------------- requests
def format_request(event: "ev.Event", viewer: int) -> str:
    """The request line seat ``viewer`` receives for ``event``."""
    if isinstance(event, ev.SeatAssigned):
        return f"0 {event.seat} {event.prevalent_wind}"
    if isinstance(event, ev.Dealt):
        if event.seat != viewer:
            raise ProtocolError(f"seat {viewer} is never sent seat {event.seat}'s deal")
        parts = ["1", *map(str, event.flower_counts), *map(_name, event.tiles)]
        return " ".join(parts + [_name(f) for f in event.flowers])
    if isinstance(event, ev.Drew):
        if event.seat != viewer:
            return f"3 {event.seat} DRAW"
        if event.tile is None:
            raise ProtocolError(f"seat {viewer}'s own draw needs its tile")
        return f"2 {_name(event.tile)}"
    prefix = f"3 {event.seat}"
    if isinstance(event, ev.FlowerReplaced):
        return f"{prefix} BUHUA {_name(event.flower)}"
    if isinstance(event, ev.Discarded):
        return f"{prefix} PLAY {_name(event.tile)}"
    if isinstance(event, ev.Punged):
        return f"{prefix} PENG {_name(event.discard)}"
    if isinstance(event, ev.Chowed):
        return f"{prefix} CHI {_name(event.middle)} {_name(event.discard)}"
    if isinstance(event, (ev.Konged, ev.ConcealedKonged)):
        return f"{prefix} GANG"
    if isinstance(event, ev.KongAdded):
        return f"{prefix} BUGANG {_name(event.tile)}"
    raise ProtocolError(f"{type(event).__name__} has no Botzone request")


def format_requests(events: "tuple[ev.Event, ...] | list[ev.Event]") -> "tuple[str, ...]":
    """One request line per seat from the per-seat events (``BotzoneTable.requests``)."""
    return tuple(format_request(e, viewer) for viewer, e in enumerate(events))


class RequestDecoder:
    """Reads one seat's request lines in order, filling in what a line leaves out.

    It remembers the last discard (the tile a ``PENG``/``CHI``/``GANG`` claims)
    and whether the last event was a draw (then ``GANG`` is concealed).  A bad
    line raises :class:`ProtocolError` and leaves the decoder as it was.
    """

    def __init__(self, viewer: "int | None" = None) -> None:
        self.viewer = viewer
        self._last_discard: "tuple[int, int] | None" = None
        self._last_drawer: "int | None" = None

    def decode(self, line: str) -> "ev.Event":
        event = self._parse(line)
        self._remember(event)
        return event

    def _remember(self, event: "ev.Event") -> None:
        if isinstance(event, ev.SeatAssigned):
            self.viewer = event.seat
        self._last_drawer = event.seat if isinstance(event, ev.Drew) else None
        if isinstance(event, ev.Discarded):
            self._last_discard = (event.seat, event.tile)
        elif isinstance(event, (ev.Punged, ev.Chowed)):
            self._last_discard = (event.seat, event.discard)
        elif not isinstance(event, ev.FlowerReplaced):
            self._last_discard = None

    def _claimed(self, seat: int, action: str, line: str) -> int:
        if self._last_discard is None or self._last_discard[0] == seat:
            raise ProtocolError(
                f"{action} by seat {seat} without a discard to claim in {clip(line)}")
        return self._last_discard[1]

    def _parse(self, line: str) -> "ev.Event":
        tokens = line.split()
        if not tokens:
            raise ProtocolError("empty request")
        kind = tokens[0]
        if kind == "0":
            if len(tokens) != 3:
                raise ProtocolError(f"request 0 takes a seat and a wind, got {clip(line)}")
            return ev.SeatAssigned(
                _int(tokens[1], line, "seat", 3), _int(tokens[2], line, "prevalent wind", 3)
            )
        if kind == "1":
            return self._deal(tokens, line)
        if kind == "2":
            if len(tokens) != 2:
                raise ProtocolError(f"request 2 takes one tile, got {clip(line)}")
            return ev.Drew(self._own_seat(line), _tile(tokens[1], line))
        if kind == "3":
            return self._table_event(tokens, line)
        raise ProtocolError(f"unknown request type {clip(kind, 20)} in {clip(line)}")

    def _own_seat(self, line: str) -> int:
        if self.viewer is None:
            raise ProtocolError(f"{clip(line)} arrived before the seat was known (request 0)")
        return self.viewer

    def _deal(self, tokens: "list[str]", line: str) -> "ev.Dealt":
        seat = self._own_seat(line)
        if len(tokens) < 5 + HAND_SIZE:
            raise ProtocolError(f"request 1 needs 4 flower counts and 13 tiles, got {clip(line)}")
        c0, c1, c2, c3 = (_int(tok, line, "flower count", 8) for tok in tokens[1:5])
        hand = tuple(_tile(tok, line) for tok in tokens[5 : 5 + HAND_SIZE])
        for tok, t in zip(tokens[5 : 5 + HAND_SIZE], hand):
            if t >= NUM_KINDS:
                raise ProtocolError(
                    f"flower {clip(tok, 20)} among the 13 dealt tiles in {clip(line)}")
        flower_tokens = tokens[5 + HAND_SIZE :]
        if len(flower_tokens) != c0 + c1 + c2 + c3:
            raise ProtocolError(
                f"request 1 announces {c0 + c1 + c2 + c3} flowers but lists "
                f"{len(flower_tokens)} in {clip(line)}"
            )
        flowers = tuple(_tile(tok, line) for tok in flower_tokens)
        for tok, t in zip(flower_tokens, flowers):
            if t < NUM_KINDS:
                raise ProtocolError(f"{clip(tok, 20)} is not a flower in {clip(line)}")
        return ev.Dealt(seat, hand, (c0, c1, c2, c3), flowers)

    def _table_event(self, tokens: "list[str]", line: str) -> "ev.Event":
        if len(tokens) < 3:
            raise ProtocolError(f"request 3 needs a seat and an action, got {clip(line)}")
        seat = _int(tokens[1], line, "seat", 3)
        action, args = tokens[2], tokens[3:]
        arity = {"DRAW": 0, "GANG": 0, "PLAY": 1, "PENG": 1, "BUGANG": 1, "BUHUA": 1, "CHI": 2}
        if action not in arity:
            raise ProtocolError(f"unknown action {clip(action, 20)} in {clip(line)}")
        if len(args) != arity[action]:
            raise ProtocolError(
                f"{action} takes {arity[action]} argument(s), got {len(args)} in {clip(line)}"
            )
        tiles = [_tile(tok, line) for tok in args]
        if action != "BUHUA":
            for tok, tile in zip(args, tiles):
                if tile >= NUM_KINDS:
                    raise ProtocolError(f"{action} of the flower {clip(tok, 20)} in {clip(line)}")
        if action == "CHI" and not is_chow_middle(tiles[0]):
            raise ProtocolError(f"CHI around {clip(args[0], 20)}: the middle of a chow is a "
                                f"suited 2-8, in {clip(line)}")
        if action == "DRAW":
            return ev.Drew(seat, None)
        if action == "PLAY":
            return ev.Discarded(seat, tiles[0])
        if action == "PENG":
            return ev.Punged(seat, self._claimed(seat, action, line), tiles[0])
        if action == "CHI":
            claimed = self._claimed(seat, action, line)
            if tiles[0] not in chow_middles(claimed):
                raise ProtocolError(f"CHI around {args[0]!r} cannot hold the claimed "
                                    f"{_name(claimed)} in {line!r}")
            return ev.Chowed(seat, tiles[0], claimed, tiles[1])
        if action == "BUGANG":
            return ev.KongAdded(seat, tiles[0])
        if action == "BUHUA":
            if tiles[0] < NUM_KINDS:
                raise ProtocolError(f"{clip(args[0], 20)} is not a flower in {clip(line)}")
            return ev.FlowerReplaced(seat, tiles[0])
        if self._last_drawer == seat:
            return ev.ConcealedKonged(seat, None)
        return ev.Konged(seat, self._claimed(seat, action, line))
