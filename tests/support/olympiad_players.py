"""Quick players for the Olympiad referee's tests: they answer at once (or after a set
think time on asks with a real choice) and keep every message they got."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any

from protocols.olympiad import Act, AskMsg, Draw, Welcome


@dataclass
class QuickPlayer:
    """Pass when it may, else discard the tile it drew (else the first offered); never win,
    so every game runs to the wall's end.  ``think``: seconds it sleeps before answering an
    ask with more than ``pass`` on offer.  ``seen``: (arrival on time.monotonic, message)."""

    think: float = 0.0
    seen: list[tuple[float, Any]] = field(default_factory=list)
    seat: int = 0
    drawn: str | None = None

    async def on_message(self, msg: Any, text: str) -> Act | None:
        self.seen.append((time.monotonic(), msg))
        if isinstance(msg, Welcome):
            self.seat = msg.seat
        if isinstance(msg, Draw) and msg.seat == self.seat:
            self.drawn = msg.tile
        if not isinstance(msg, AskMsg):
            return None
        kinds = {o.kind: o for o in msg.options}
        if self.think and set(kinds) - {"pass"} and "discard" not in kinds:
            await asyncio.sleep(self.think)
        if "pass" in kinds:
            return Act(id=msg.id, kind="pass")
        tiles = [t for t in kinds["discard"].tiles or [] if isinstance(t, str)]
        tile = self.drawn if self.drawn in tiles else tiles[0]
        return Act(id=msg.id, kind="discard", tile=tile)

    async def close(self) -> None:
        return None

    def messages(self, kind: type) -> list[Any]:
        return [m for _, m in self.seen if isinstance(m, kind)]
