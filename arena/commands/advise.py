"""``mjbot advise``: the shipped bot's answer to a hand, with every candidate's numbers.

The hand, its declared melds, the unseen tiles and the offered discard make a seat view
(:class:`bot.seat.PlayerState`, seat 0, east wind) whose ask the rule book fills (a win is
offered when it is one); the shipped bot (:func:`bot.planner.default_strategy`) answers it
through a :class:`bot.session.SeatSession`, as on a platform: ``mjbot advise`` and
``mjbot play`` give the same answer to the same situation."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

import numpy as np

from arena.commands.deficiency import input_error, parse_unseen
from arena.players.lineup import DEFAULT_BUDGET
from arena.players.situation import advice_view
from arena.records.decisions import SeatChoice
from bot.options import positive_int
from bot.session import SeatSession
from game.melds import meld_shape
from game.rules import RULESETS, Family, get_ruleset
from game.tiles import Notation, TileError, counts_of, parse_counts, parse_tiles, tile_name
from strategy.deadline import Deadline
from strategy.policy import Candidate, Method, PolicyError


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("hand", help="concealed hand: 3m+2 tiles for a discard, 3m+1 with --claim")
    p.add_argument("--rules", default="mcr-botzone", choices=sorted(RULESETS))
    p.add_argument("--melds", default="",
                   help="declared melds, comma-separated tile groups (e.g. '123m,555p')")
    p.add_argument("--unseen", help="knowledge base (34 digits or a tile list); default: "
                   "every copy not in the hand or the melds")
    p.add_argument("--claim", metavar="TILE", help="another seat's discard to answer")
    p.add_argument("--from-left", action="store_true",
                   help="the discard comes from the seat before yours (a chow is allowed)")
    p.add_argument("--drawn", metavar="TILE",
                   help="which tile of the hand was just drawn (it decides a self-drawn "
                        "win's fan); default: the hand's last tile as written")
    p.add_argument("--budget", type=positive_int, default=DEFAULT_BUDGET, metavar="CALLS",
                   help="kernel calls the bot may spend (its arena budget); default "
                        f"{DEFAULT_BUDGET}")
    p.add_argument("--notation", choices=[n.value for n in Notation])
    p.add_argument("--json", action="store_true")


def run(args: argparse.Namespace) -> int:
    rules = get_ruleset(args.rules)
    notation = Notation(args.notation) if args.notation else None
    try:
        hand = parse_counts(args.hand, notation)
        for tile in np.nonzero(hand)[0]:
            rules.check_tile(int(tile), "hand")
        meld_groups = [parse_tiles(g, notation) for g in args.melds.split(",") if g.strip()]
        for group in meld_groups:
            meld_shape(group, rules)
        melds_needed = rules.melds_left(len(meld_groups), "--melds")
        shown = counts_of([t for g in meld_groups for t in g])
        claim = None
        if args.claim is not None:
            claimed = parse_tiles(args.claim, notation)
            if len(claimed) != 1:
                raise TileError(f"--claim {args.claim!r}: {len(claimed)} tiles; a claim "
                                "answers one discarded tile")
            claim = claimed[0]
            rules.check_tile(claim, "--claim")
        elif args.from_left:
            raise ValueError("--from-left says where a --claim comes from; give --claim TILE")
        if args.unseen:
            unseen = parse_unseen(args.unseen, rules.tile_kinds, notation)
            for tile in np.nonzero(unseen)[0]:
                rules.check_tile(int(tile), "--unseen")
        else:
            unseen = (4 - hand - shown).astype(np.int8)
            if claim is not None:
                unseen[claim] -= 1
            if not rules.has_honours:
                unseen[27:] = 0
        if (unseen < 0).any():
            bad = int(np.nonzero(unseen < 0)[0][0])
            raise TileError(f"more than four {tile_name(bad)} between hand, melds and claim")
        size = 3 * melds_needed + (1 if args.claim is not None else 2)
        if int(hand.sum()) != size:
            raise TileError(_size_message(args.hand, int(hand.sum()), len(meld_groups),
                                          melds_needed, args.claim is not None))
        drawn = None
        if claim is None:
            drawn = parse_tiles(args.drawn, notation)[0] if args.drawn else \
                parse_tiles(args.hand, notation)[-1]
            if hand[drawn] == 0:
                raise TileError(f"--drawn {tile_name(drawn)} is not in the hand")
        elif args.drawn:
            raise ValueError("--drawn names the tile drawn before a discard; a --claim "
                             "answers another seat's discard")
        view = advice_view(rules, hand, unseen, meld_groups, claim, args.from_left, drawn)
        session = SeatSession(rules, work_budget=args.budget)
        session.view = view
        decision = session.answer_inline(Deadline(budget=args.budget))
    except (TileError, PolicyError, ValueError) as exc:
        print(f"mjbot advise: {input_error(exc)}", file=sys.stderr)
        return 2
    advice = decision.action.notation(claim)
    reasons, ties = chosen_first(decision.reasons, advice)
    if args.json:
        print(json.dumps({"advice": advice, "ties": [c.label for c in ties],
                          **SeatChoice.of(decision).at(0, "mjbot").to_json()}))
        return 0
    counted = decision.fan is not None and rules.family is Family.MCR
    fan = f" ({decision.fan} fan)" if counted else ""
    # a cut search's method names its cause; anything else cut short is said here
    said = decision.finished or decision.method in (Method.SEARCH_CUT, Method.SEARCH_CLOCK_CUT)
    print(f"advice: {advice}{fan}  [{decision.describe_method()}"
          f"{'' if said else ', cut by its budget'}]"
          f"{f'  {decision.note}' if decision.note else ''}")
    if ties:
        print(f"tie: {', '.join(c.label for c in ties)} "
              f"{'has' if len(ties) == 1 else 'have'} the same {_tie_number(reasons[0])} as "
              f"{advice}; the bot's order among equals chose {advice}")
    for c in reasons:
        print("  " + c.describe())
    return 0


def _size_message(text: str, tiles: int, declared: int, needed: int, claim: bool) -> str:
    """Why a hand of ``tiles`` tiles is the wrong size, and which size each question takes:
    3m+2 tiles to discard after a draw, 3m+1 to answer another seat's discard (--claim)."""
    draw, answer = 3 * needed + 2, 3 * needed + 1
    head = (f"hand {text!r}: {tiles} tiles; with {declared} declared melds "
            f"{'a claim answers' if claim else 'a discard needs'} {answer if claim else draw}")
    if not claim and tiles == answer:
        return head + f" ({answer} tiles answer another seat's discard: give it with --claim TILE)"
    if claim and tiles == draw:
        return head + f" ({draw} tiles are a discard after a draw: leave out --claim)"
    return head + (f" (a discard after a draw takes {draw} tiles, an answer to another seat's "
                   f"discard {answer} with --claim TILE)")


def _tie_number(c: Candidate) -> str:
    """What two candidates tie on: the value, for a candidate the value weighed, else the
    numbers listed."""
    outlook = getattr(c, "outlook", None)
    return f"value ({outlook.value:+.2f})" if outlook is not None else "numbers"


def _tie_key(c: Candidate) -> object:
    outlook = getattr(c, "outlook", None)
    if outlook is not None:
        return round(outlook.value, 2)  # as shown
    return tuple((n, v) for n, v in c.numbers() if n not in ("work", "µs"))


def chosen_first(reasons: Sequence[Candidate], advice: str
                 ) -> tuple[list[Candidate], list[Candidate]]:
    """The candidates with the one the advice names first, and the others that tie with it
    on the number the list is ordered by (shown alike), which a reader could take for the
    choice."""
    chosen = next((c for c in reasons if c.label == advice), None)
    if chosen is None:
        return list(reasons), []
    rest = [c for c in reasons if c is not chosen]
    return [chosen, *rest], [c for c in rest if _tie_key(c) == _tie_key(chosen)]
