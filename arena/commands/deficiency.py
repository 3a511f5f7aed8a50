"""``mjbot deficiency HAND``: the deficiency per shape and the useful tiles."""

from __future__ import annotations

import argparse
import json
import re
import sys

import numpy as np

from bot.options import non_negative_int
from game.rules import RULESETS, get_ruleset
from game.tiles import (
    NUM_KINDS,
    AmbiguousNotation,
    Counts,
    Notation,
    TileError,
    counts_of,
    format_tiles,
    parse_counts,
    parse_tiles,
    tile_name,
)
from strategy.deficiency import UNREACHABLE, shape_deficiency, useful_tiles


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "hand", help="the concealed hand in any notation (W1 B2.., 123m.., (B1B2)(C1)..)"
    )
    p.add_argument("--rules", default="mcr-botzone", choices=sorted(RULESETS))
    p.add_argument(
        "--unseen",
        help="the knowledge base: 34 digits in index order (27 for mahjong-0: characters, "
        "dots, bamboo) or a list of tiles, each occurrence one copy; default: every copy "
        "not in the hand",
    )
    p.add_argument("--declared", type=non_negative_int, default=0, help="number of declared melds")
    p.add_argument("--notation", choices=[n.value for n in Notation], help="force a notation")
    p.add_argument("--json", action="store_true", help="print one JSON object")


def input_error(exc: Exception) -> str:
    """What a command says of a refused hand or tile string: the error, and for a string
    two notations read differently, the option that names one."""
    if isinstance(exc, AmbiguousNotation):
        return (f"{exc}: give --notation botzone (B = dots) or --notation paper "
                "(B = bamboo)")
    return str(exc)


def parse_unseen(text: str, kinds: int, notation: Notation | None) -> Counts:
    """34 (or 27) digits in index order, or a list of tiles."""
    digits = re.sub(r"[\s,()\[\]]", "", text)
    if digits.isdigit():
        if len(digits) != kinds:
            raise TileError(
                f"unseen counts have {len(digits)} digits; this rule set needs {kinds}"
            )
        out = np.zeros(NUM_KINDS, dtype=np.int8)
        for t, ch in enumerate(digits):
            if int(ch) > 4:
                raise TileError(f"unseen count {ch} for {tile_name(t)}: at most four exist")
            out[t] = int(ch)
        return out
    return counts_of(parse_tiles(text, notation))


def run(args: argparse.Namespace) -> int:
    ruleset = get_ruleset(args.rules)
    notation = Notation(args.notation) if args.notation else None
    try:
        ruleset.melds_left(args.declared, "--declared")
        hand = parse_counts(args.hand, notation)
        for tile in np.nonzero(hand)[0]:
            ruleset.check_tile(int(tile), "hand")
        unseen = (
            parse_unseen(args.unseen, ruleset.tile_kinds, notation) if args.unseen else None
        )
        shapes = shape_deficiency(hand, ruleset, unseen, args.declared)
        melds_needed = ruleset.melds_needed - args.declared
        useful = (
            useful_tiles(hand, ruleset, unseen, args.declared)
            if int(hand.sum()) == 3 * melds_needed + 1
            else None
        )
    except (TileError, ValueError) as exc:
        print(f"mjbot deficiency: {input_error(exc)}", file=sys.stderr)
        return 2
    per_shape = {
        name: (None if value >= UNREACHABLE else value)
        for name, value in shapes.as_dict().items()
        if name == "regular" or ruleset.special_shapes
    }
    best = None if shapes.best >= UNREACHABLE else shapes.best
    if args.json:
        payload = {
            "hand": format_tiles(np.repeat(np.arange(NUM_KINDS), hand).tolist()),
            "rules": ruleset.name,
            "deficiency": best,
            "shanten": None if best is None else best - 1,
            "shapes": per_shape,
            "useful_tiles": None if useful is None else [tile_name(t) for t in useful],
        }
        print(json.dumps(payload))
        return 0
    print(f"hand       {format_tiles(np.repeat(np.arange(NUM_KINDS), hand).tolist())}")
    print(f"rules      {ruleset.name}")
    for name, value in per_shape.items():
        print(f"{name:<20} {'unreachable' if value is None else value}")
    print(f"deficiency {'unreachable' if best is None else best}"
          f" (shanten {'-' if best is None else best - 1})")
    if useful is not None:
        print(f"useful     {format_tiles(useful) or '-'} ({len(useful)} kinds)")
    return 0
