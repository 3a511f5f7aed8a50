#!/usr/bin/env python3
"""A minimal Olympiad-protocol program for ``mjbot wrap``: JSON lines in, ``act`` lines out.

It reads every referee message on stdin and answers each ``ask``: win when
offered, otherwise pass when allowed, otherwise discard the tile it drew
last (or the first tile offered).  Standard library only.
"""

import json
import sys


def main() -> None:
    seat, drawn = None, None
    for line in sys.stdin:
        msg = json.loads(line)
        kind = msg.get("type")
        if kind == "welcome":
            seat = msg["seat"]
        elif kind == "draw" and msg.get("seat") == seat:
            drawn = msg.get("tile")
        elif kind == "ask":
            options = {o["kind"]: o for o in msg["options"]}
            if "win" in options:
                act = {"kind": "win"}
            elif "pass" in options:
                act = {"kind": "pass"}
            else:
                tiles = options["discard"]["tiles"]
                act = {"kind": "discard", "tile": drawn if drawn in tiles else tiles[0]}
            act.update(type="act", v=1, id=msg["id"])
            print(json.dumps(act), flush=True)
        elif kind == "end" and not msg.get("more"):
            return


if __name__ == "__main__":
    main()
