"""Rule sets as values: ``mcr-botzone``, ``taiwan-16`` and ``mahjong-0``.

A :class:`Ruleset` is passed around, never read from a global.  Its ``family``
(:class:`Family`) is the one answer to "which rules are these" (what a win must
reach and how it is scored); the deficiency maths reads ``melds_needed``,
``has_honours`` and ``special_shapes`` from it.
"""

from dataclasses import dataclass, replace
from enum import Enum

from game.tiles import NUM_KINDS, TileError, tile_name


class Family(Enum):
    """Which rules a rule set follows: what a declared win must reach and how it is scored."""

    MCR = "mcr"
    """Chinese Official: the fan counted by PyMahjongGB, a minimum fan, the special shapes
    (mcr-botzone)."""
    TAIWAN = "taiwan"
    """Taiwanese 16-tile: five melds and a pair, no minimum, tai scored at the table
    (taiwan-16)."""
    PLAIN = "plain"
    """Melds and a pair, no minimum, nothing counted (mahjong-0, the papers' game)."""


class WallLayout(Enum):
    PER_SEAT = "per-seat"
    """Botzone duplicate format: every seat owns a wall of :data:`PER_SEAT_WALL` and draws
    from its back."""
    SINGLE = "single"
    """One wall; draws from the front, replacements from the back."""


PER_SEAT_WALL = 34
"""Tiles in each seat's own wall in Botzone's duplicate format (four walls of 34: 136)."""


@dataclass(frozen=True)
class Ruleset:
    name: str
    family: "Family"
    tile_kinds: int
    """34 with honours, 27 for suits only."""
    flowers: bool
    hand_size: int
    """Tiles dealt to each seat (13 or 16); a full hand holds one more."""
    melds_needed: int
    """Melds in a winning hand besides the pair (4, or 5 for 16-tile hands)."""
    special_shapes: bool
    """Seven pairs, thirteen orphans, honors-and-knitted and knitted straight (MCR)."""
    min_fan: int
    """Minimum fan to declare a win (before flowers); 0 means none."""
    wall_layout: "WallLayout"
    dead_wall: int
    """Tiles that are never drawn normally (16 in taiwan-16)."""
    discard_with_claim: bool = True
    """A chow or pung names the discard after it in the same answer
    (:class:`game.events.ClaimAndDiscard`: Botzone's ``PENG T``); False: the table takes
    the claim alone and asks for the discard next (the Olympiad flow of taiwan-16)."""

    @property
    def has_honours(self) -> bool:
        return self.tile_kinds == 34

    @property
    def total_tiles(self) -> int:
        return self.tile_kinds * 4 + (8 if self.flowers else 0)

    def check_tile(self, tile: int, what: str) -> None:
        """:class:`TileError` unless ``tile`` is a kind this rule set's hands hold
        (no honours in mahjong-0; flowers are set aside, never held)."""
        if not 0 <= tile < NUM_KINDS:
            name = tile_name(tile) if 0 <= tile < 42 else f"tile index {tile}"
            raise TileError(f"{what}: {name} is not a tile a hand holds")
        if tile >= self.tile_kinds:
            raise TileError(f"{what}: {tile_name(tile)} is an honour; {self.name} plays "
                            "with suits only")

    def melds_left(self, declared: int, what: str = "declared melds") -> int:
        """Melds still to make after ``declared`` declared melds; :class:`ValueError` naming
        ``what`` when a hand of this rule set cannot hold that many."""
        if not 0 <= declared <= self.melds_needed:
            raise ValueError(f"{what}: {declared} declared melds; a {self.name} hand holds "
                             f"0-{self.melds_needed}")
        return self.melds_needed - declared

    def wall_after_deal(self, flowers_shown: int) -> int:
        """Tiles left in a single wall once the four hands are dealt and the deal's flowers
        replaced (the dead wall included)."""
        return self.total_tiles - 4 * self.hand_size - flowers_shown


MCR_BOTZONE = Ruleset(
    name="mcr-botzone",
    family=Family.MCR,
    tile_kinds=34,
    flowers=False,
    hand_size=13,
    melds_needed=4,
    special_shapes=True,
    min_fan=8,
    wall_layout=WallLayout.PER_SEAT,
    dead_wall=0,
)
MCR_BOTZONE_FLOWERS = replace(MCR_BOTZONE, name="mcr-botzone-flowers", flowers=True)
"""The 144-tile variant with flowers (BUHUA), on request."""
TAIWAN_16 = Ruleset(
    name="taiwan-16",
    family=Family.TAIWAN,
    tile_kinds=34,
    flowers=True,
    hand_size=16,
    melds_needed=5,
    special_shapes=False,
    min_fan=0,
    wall_layout=WallLayout.SINGLE,
    dead_wall=16,
    discard_with_claim=False,
)
MAHJONG_0 = Ruleset(
    name="mahjong-0",
    family=Family.PLAIN,
    tile_kinds=27,
    flowers=False,
    hand_size=13,
    melds_needed=4,
    special_shapes=False,
    min_fan=0,
    wall_layout=WallLayout.SINGLE,
    dead_wall=0,
)

RULESETS: "dict[str, Ruleset]" = {
    r.name: r for r in (MCR_BOTZONE, MCR_BOTZONE_FLOWERS, TAIWAN_16, MAHJONG_0)
}


def get_ruleset(name: str) -> "Ruleset":
    try:
        return RULESETS[name]
    except KeyError:
        raise ValueError(
            f"unknown rule set {name!r}; known: {', '.join(sorted(RULESETS))}"
        ) from None
