"""``mjbot advise``: the recommended discard or call, with every candidate's numbers."""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import asdict

import numpy as np

from arena.commands.deficiency import parse_unseen
from game import events as ev
from game.melds import meld_shape
from game.rules import RULESETS, get_ruleset
from game.tiles import Notation, TileError, counts_of, parse_counts, parse_tiles, tile_name
from strategy.policy import Choice, PolicyError, choose_claim, choose_discard
from strategy.stepvalue import Deadline


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
    p.add_argument("--notation", choices=[n.value for n in Notation])
    p.add_argument("--json", action="store_true")


def _choice_json(choice: Choice) -> dict[str, object]:
    def cand(c: object) -> dict[str, object]:
        d = asdict(c)  # type: ignore[call-overload]
        d["tile"] = None if d["tile"] is None else tile_name(d["tile"])
        d["meld"] = [tile_name(t) for t in d["meld"]]
        d["label"] = c.label  # type: ignore[attr-defined]
        d["action"] = d["action"].value
        return d

    return {
        "action": choice.action.value,
        "tile": None if choice.tile is None else tile_name(choice.tile),
        "meld": [tile_name(t) for t in choice.meld_tiles],
        "method": choice.describe_method(),
        "finished": choice.finished,
        "candidates": [cand(c) for c in choice.candidates],
    }


def advice_action(choice: Choice) -> ev.Action:
    """The action ``choice`` recommends (a claim's candidate names the discard after it)."""
    kind, tile = choice.action, choice.tile
    if kind is ev.ActionKind.DISCARD and tile is not None:
        return ev.Discard(tile)
    if kind is ev.ActionKind.CHOW and tile is not None:
        return ev.ClaimChow(choice.meld_tiles[1], tile)
    if kind is ev.ActionKind.PUNG and tile is not None:
        return ev.ClaimPung(tile)
    if kind is ev.ActionKind.KONG:
        return ev.ClaimKong()
    if kind is ev.ActionKind.WIN:
        return ev.DeclareWin()
    return ev.Pass()


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
        deadline = Deadline(clock=time.perf_counter, until=time.perf_counter() + 5.0)
        if claim is None:
            choice = choose_discard(hand, unseen, melds_needed, rules, deadline)
        else:
            choice = choose_claim(hand, unseen, melds_needed, rules, claim,
                                  can_chow=args.from_left, can_win=False, deadline=deadline)
    except (TileError, PolicyError, ValueError) as exc:
        print(f"mjbot advise: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(_choice_json(choice)))
        return 0
    print(f"advice: {advice_action(choice).notation(claim)}  [{choice.describe_method()}"
          f"{'' if choice.finished else ', cut by deadline'}]")
    for c in choice.candidates:
        numbers = ", ".join(f"{name} {value}" for name, value in c.numbers())
        # a chow's or pung's note repeats its meld and discard, which the label names
        said = c.action in (ev.ActionKind.CHOW, ev.ActionKind.PUNG) and bool(c.meld)
        note = f" ({c.note})" if c.note and not said else ""
        print(f"  {c.label}: {numbers}{note}")
    return 0
