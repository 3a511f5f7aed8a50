"""Compare two directories of arena game records (``mjbot arena ... --records DIR``).

    python scripts/compare_records.py REF NEW

For each game record in REF: byte-identical, or else compared line by line as JSON:

- events, results and headers must be equal exactly (the ``version`` field of a header
  is ignored);
- decisions must name the same seat, player and action; with ``--reasons`` their other
  fields (method, note, candidates) must be equal too, otherwise those are only counted
  when they differ (a change of the record's format for reasons then shows as reasons
  differing, not as decisions differing).

Exit status 0 when every game's events, results and actions are the same.  Used to check
that a speed change leaves the planner's decisions unchanged (``docs/arena.md``)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def _kind(line: dict[str, Any]) -> str:
    return str(line.get("record", "?"))


def _decision_key(line: dict[str, Any]) -> tuple[Any, ...]:
    return (line.get("seat"), line.get("player"), line.get("action"))


def compare(ref: Path, new: Path, reasons: bool = False) -> dict[str, Any]:
    games = sorted(p.name for p in ref.glob("*.jsonl"))
    report: dict[str, Any] = {"games": len(games), "identical_bytes": 0, "missing": [],
                              "events_differ": [], "decisions_differ": [],
                              "reasons_differ": 0, "decisions": 0}
    for name in games:
        b = new / name
        if not b.exists():
            report["missing"].append(name)
            continue
        a_text, b_text = (ref / name).read_bytes(), b.read_bytes()
        if a_text == b_text:
            report["identical_bytes"] += 1
            report["decisions"] += sum(_kind(x) == "decision" for x in _lines(ref / name))
            continue
        la, lb = _lines(ref / name), _lines(b)
        other_a = [x for x in la if _kind(x) != "decision"]
        other_b = [x for x in lb if _kind(x) != "decision"]
        for x in (*other_a, *other_b):
            x.pop("version", None)
        if other_a != other_b:
            report["events_differ"].append(name)
        da = [x for x in la if _kind(x) == "decision"]
        db = [x for x in lb if _kind(x) == "decision"]
        report["decisions"] += len(da)
        if [_decision_key(x) for x in da] != [_decision_key(x) for x in db]:
            report["decisions_differ"].append(name)
            continue
        differ = sum(x != y for x, y in zip(da, db, strict=True))
        report["reasons_differ"] += differ
        if reasons and differ:
            report["decisions_differ"].append(name)
    return report


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("ref", type=Path)
    p.add_argument("new", type=Path)
    p.add_argument("--reasons", action="store_true",
                   help="decisions' reasons (method, note, candidates) must be equal too")
    args = p.parse_args(argv)
    r = compare(args.ref, args.new, args.reasons)
    print(f"{r['games']} games: {r['identical_bytes']} byte-identical; "
          f"{r['decisions']} decisions; missing {len(r['missing'])}, events or results "
          f"differ in {len(r['events_differ'])}, actions differ in "
          f"{len(r['decisions_differ'])}, decisions whose reasons differ: "
          f"{r['reasons_differ']}")
    for what in ("missing", "events_differ", "decisions_differ"):
        for name in r[what][:10]:
            print(f"  {what}: {name}")
    ok = not (r["missing"] or r["events_differ"] or r["decisions_differ"])
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
