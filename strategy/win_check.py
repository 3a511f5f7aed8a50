"""The step-value search's win check under mcr-botzone: does a completed hand reach the
minimum fan (8 plus the seat's flowers)?

The search counts a completed hand as a win only if the rule book would let it be declared
(:func:`game.rulebook.declarable_win`, as a win on a discard: the flags a leaf cannot know
left out), so among discards of equal deficiency it prefers those whose completions can be
declared.  The fan total of a completed hand depends on the hand, the declared melds, the
seat and the prevalent wind only, so :class:`FanTotals` keeps the totals across decisions
while those stay."""

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from game.melds import Meld
from game.rulebook import declarable_win, minimum_fan, win_context
from game.rules import Family, Ruleset
from game.tiles import NUM_KINDS
from strategy.policy import WinCheck

_KINDS = np.arange(NUM_KINDS)


@dataclass
class FanTotals:
    """Fan totals of completed hands (their counts' bytes -> the total, -1 for no
    declarable win) under one context (the declared melds, the seat, the prevalent wind)."""

    context: "tuple[object, ...]" = ()
    totals: "dict[bytes, int]" = field(default_factory=dict)

    def reset(self) -> None:
        self.context, self.totals = (), {}

    def check(self, rules: "Ruleset", melds: "Sequence[Meld]", seat: int, prevalent_wind: int,
              flowers: int) -> "WinCheck | None":
        """The search's win check for a seat with these declared ``melds`` and ``flowers``
        (None but under MCR, where a win must reach a minimum fan)."""
        if rules.family is not Family.MCR:
            return None
        declared = tuple(melds)
        if self.context != (declared, seat, prevalent_wind):
            self.context = (declared, seat, prevalent_wind)
            self.totals = {}
        totals = self.totals
        need = minimum_fan(rules, flowers)
        on_a_discard = win_context(seat=seat, prevalent_wind=prevalent_wind, self_drawn=False)

        def check(counts: "np.ndarray") -> bool:
            key = counts.tobytes()
            total = totals.get(key)
            if total is None:
                tiles = np.repeat(_KINDS, counts).tolist()
                win = tiles.pop()
                offer = declarable_win(rules, tiles, declared, win, on_a_discard)
                total = -1 if offer is None else offer.fan
                totals[key] = total
            return total >= need

        return check
