"""The soak's scenarios, one per weakness a tournament must not have: predictable walls,
re-join floods, one seat with many client ids, the timing channel, and honest fast bots."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import stat
import sys
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import aiomqtt

from arena.platforms.olympiad.broker_guards import (
    SEAT_PUBLISH_BURST,
    SEAT_PUBLISHES_PER_SECOND,
)
from arena.platforms.olympiad.config import RefereeConfig
from arena.platforms.olympiad.program import ProgramPlayer
from arena.platforms.olympiad.referee import Referee
from arena.platforms.olympiad.soak.corpus import (
    DECISION_MS,
)
from arena.platforms.olympiad.soak.tables import (
    Scenario,
    TableRun,
    WatchingPlayer,
    claim_samples,
    fresh,
    play_tables,
    threshold_attack,
)
from arena.platforms.olympiad.walls import (
    RECORD_MODE_PLAYING,
    RECORD_MODE_REVEALED,
    WallSeed,
    table_wall,
    verify_records,
)
from game.events import Dealt
from game.taiwan import TaiwanTable
from game.tiles import is_flower
from protocols.olympiad import (
    Act,
    Deal,
    End,
    Welcome,
    tile_index,
    tile_str,
)
from protocols.olympiad_session import SeatPlayer
from protocols.olympiad_transport import (
    ClientTransport,
    host_port,
    seat_topic,
    seat_user,
)


# ------------------------------------------------ 1. walls no seat can predict
def dealt_hand(seed: int) -> list[str]:
    """Seat 0's first hand at table t1's first game, had the walls come from ``seed``."""
    table = TaiwanTable(table_wall(seed, 0, 0))
    dealt = next(e for e in table.history if isinstance(e, Dealt) and e.seat == 0)
    return sorted(tile_str(t) for t in dealt.tiles)


SEAT0_DEAL = [i for k in range(4) for i in range(16 * k, 16 * k + 4)]
"""Where seat 0's first sixteen tiles lie in the first game's wall (dealer 0, four at a
time in turn); its flowers are replaced from the back."""


def seed_from_deal(hand: Sequence[str], seeds: range) -> int | None:
    """The attack that found seed 1 in 0.02 s: deal every candidate seed's first wall and
    compare seat 0's hand (a seed whose front tiles seat 0 does not hold is passed over
    without dealing the table)."""
    wanted = sorted(hand)
    held = Counter(tile_index(t) for t in hand)
    for seed in seeds:
        wall = table_wall(seed, 0, 0)
        front = Counter(wall[i] for i in SEAT0_DEAL if not is_flower(wall[i]))
        if front <= held and dealt_hand(seed) == wanted:
            return seed
    return None


async def walls_scenario(workdir: Path, given: int, search: int) -> Scenario:
    """One table, two games, a secret seed: seat 0 looks for it from its own deal among
    ``search`` seeds (the same search finds the given seed ``given % search``), checks the
    first record while the second game is dealt (mode 0600, no seed in it), and after the
    last ``end`` checks the revealed seed against the commitment every ``welcome`` and the
    header carried, as ``mjbot referee verify`` does; the revealed seed then plays the very
    same games again."""
    records = fresh(workdir, "walls")
    first = records / "t1-game0000.jsonl"
    peeked: dict[str, Any] = {}

    class Peeking(WatchingPlayer):
        async def on_message(self, msg: Any, text: str) -> Act | None:
            if isinstance(msg, Deal) and msg.game == 1 and not peeked:
                peeked["mode"] = stat.S_IMODE(first.stat().st_mode)
                peeked["text"] = first.read_text()
            return await super().on_message(msg, text)

    config = RefereeConfig(tables=1, games=2, seed=None, decision_ms=DECISION_MS, records=records)
    run = await play_tables(config, "ws", players=lambda table, seat: Peeking() if seat == 0
                            else WatchingPlayer())
    seen = {s: run.watching("t1", s) for s in range(4)}
    commitments = {p.messages(Welcome)[0].commitment for p in seen.values()}
    header = json.loads(peeked.get("text", "{}\n").splitlines()[0])
    ends = seen[0].messages(End)
    reveal = ends[-1].walls if ends else None
    commitment = next(iter(commitments)) if len(commitments) == 1 else None
    opened = (reveal is not None and commitment is not None and reveal.opens(commitment)
              and header.get("commitment") == commitment)
    kept_secret = (peeked.get("mode") == RECORD_MODE_PLAYING and header.get("seed") is None
                   and reveal is not None and reveal.seed not in peeked.get("text", ""))
    paths = sorted(records.glob("*.jsonl"))
    verified = verify_records(paths)
    readable = all(stat.S_IMODE(p.stat().st_mode) == RECORD_MODE_REVEALED for p in paths)
    clients = all(r.walls_opened is True for r in run.reports.values())
    hand = seen[0].messages(Deal)[0].hand
    started = time.perf_counter()
    found = seed_from_deal(hand, range(search))
    control = seed_from_deal(dealt_hand(given % search), range(search))
    per_second = 2 * search / (time.perf_counter() - started)
    same = False
    if reveal is not None:
        again = await play_tables(
            dataclasses.replace(config, records=fresh(workdir, "walls-again")), "ws",
            walls=WallSeed(int(reveal.seed), reveal.salt))
        same = again.records == run.records
    ok = (found is None and control == given % search and opened and kept_secret
          and verified.ok and verified.games == {"t1": 2} and readable and clients and same
          and not run.violations())
    result = (f"secret seed: {'none' if found is None else found} of {search:,} seeds deals "
              f"seat 0's hand (a given seed {given % search}: "
              f"{'found' if control == given % search else 'NOT found'}, {per_second:,.0f} "
              f"seeds/s); commitment {'opens' if opened else 'does NOT open'}; mid-match "
              f"record {oct(peeked.get('mode', 0))}, seed {'absent' if kept_secret else 'SEEN'}; "
              f"verify: {sum(verified.games.values())} games as committed; revealed seed "
              f"replays {'the same' if same else 'OTHER'} games")
    return Scenario("1 walls: seed from a seat's deal, commitment, records", result, ok, {
        "seeds_searched": search, "found_secret": found, "found_given": control,
        "commitment_opens": opened, "mid_match_mode": peeked.get("mode"),
        "mid_match_seed_absent": kept_secret, "verify_problems": verified.problems,
        "verified_games": verified.games, "records_readable_after": readable,
        "clients_opened": clients, "revealed_seed_replays_same_games": same})


# ------------------------------------------------ 3. re-join floods
class RejoinFlood:
    """A client transport that, after every ``every`` acts of its seat, sends its own join
    ``burst`` times again on the same connection: without ``resume_from``, with 1 and with
    the last seq it got, in turn (each once asked the referee to replay the seat's log)."""

    def __init__(self, inner: ClientTransport, every: int, burst: int) -> None:
        self.inner, self.every, self.burst = inner, every, burst
        self.join: dict[str, Any] = {}
        self.acts = self.sent = self.received = self.last_seq = 0

    async def connect(self) -> None:
        await self.inner.connect()

    async def send(self, text: str) -> None:
        await self.inner.send(text)
        if '"type":"join"' in text:
            self.join = json.loads(text)
        if '"type":"act"' not in text or not self.join:
            return
        self.acts += 1
        if self.acts % self.every:
            return
        for _ in range(self.burst):
            join = {k: v for k, v in self.join.items() if k != "resume_from"}
            resume = (None, 1, self.last_seq)[self.sent % 3]
            if resume is not None:
                join["resume_from"] = resume
            await self.inner.send(json.dumps(join))
            self.sent += 1

    async def recv(self) -> str:
        text: str = await self.inner.recv()
        self.received += 1
        with contextlib.suppress(ValueError, AttributeError):
            self.last_seq = max(self.last_seq, int(json.loads(text).get("seq", 0)))
        return text

    async def close(self) -> None:
        await self.inner.close()

    def describe(self) -> str:
        return f"rejoining {self.inner.describe()}"


FLOOD_DECISION_MS = 2000
"""The scenarios with an attacker at the table: short enough that a stalled table times out."""


def flood_config(records: Path, seed: int, games: int) -> RefereeConfig:
    """Two tables under ``--policy forfeit``: an innocent seat that timed out would forfeit."""
    return RefereeConfig(tables=2, games=games, seed=seed, decision_ms=FLOOD_DECISION_MS,
                         policy="forfeit", records=records)


def _innocence(calm: TableRun, troubled: TableRun, attacker: tuple[str, int]
               ) -> tuple[bool, list[str], list[str]]:
    """(Whether every other table played its calm games, their names that did not, the
    violations of seats other than the attacker's)."""
    other = [name for name, lines in calm.records.items() if not name.startswith(attacker[0])
             and troubled.records.get(name) != lines]
    return not other, other, troubled.violations(but=attacker)


async def rejoin_scenario(workdir: Path, via: str, seed: int, games: int, calm: TableRun
                          ) -> Scenario:
    """t1's seat 0 re-joins in bursts all through the match (with and without
    ``resume_from``); t2 must play its calm games, no innocent seat may time out."""
    floods: list[RejoinFlood] = []

    def wrap(table: str, seat: int, inner: ClientTransport) -> ClientTransport:
        if (table, seat) != ("t1", 0):
            return inner
        floods.append(RejoinFlood(inner, every=5, burst=6))
        return floods[-1]

    run = await play_tables(flood_config(fresh(workdir, f"rejoin-{via}"), seed, games), via,
                            wrap=wrap)
    same, other, innocent = _innocence(calm, run, ("t1", 0))
    joins = sum(f.sent for f in floods)
    refused = run.referee.error_counts["too_many_joins"]
    got = sum(f.received for f in floods)
    calm_got = len(calm.watching("t1", 0).seen)
    own_same = all(run.records.get(n) == lines for n, lines in calm.records.items()
                   if n.startswith("t1"))
    ok = same and not innocent and joins > 0 and refused > 0
    result = (f"{joins} joins ({refused} refused too_many_joins); seat 0 got {got} messages "
              f"(calm {calm_got}); t2 {'plays its calm games' if same else 'CHANGED'}, "
              f"longest gap {run.gap('t2') * 1000:.0f} ms (calm {calm.gap('t2') * 1000:.0f}); "
              f"innocent timeouts {len(innocent)}; t1 "
              f"{'unchanged' if own_same else 'changed (its own cost)'}")
    return Scenario(f"3 re-join flood over {'WebSocket' if via == 'ws' else 'embedded MQTT'}",
                    result, ok, {
                        "joins": joins, "refused_too_many_joins": refused,
                        "messages_to_rejoiner": got, "messages_to_seat_calm": calm_got,
                        "other_tables_identical": same, "changed": other,
                        "innocent_violations": innocent, "rejoiners_table_identical": own_same,
                        "t2_longest_gap_ms": round(run.gap("t2") * 1000),
                        "t2_longest_gap_calm_ms": round(calm.gap("t2") * 1000)})


# ------------------------------------------------ 4. many client ids for one seat
FLOOD_MARK = '{"v":1,"type":"flood"'


async def client_id_flood(url: str, user: str, password: str, topic: str, ids: int,
                          seconds: float) -> Counter[str]:
    """``ids`` connections as ``user``, each with its own client id, publishing on
    ``topic`` (QoS 0, a burst of 100 at a time) for ``seconds``, reconnecting when dropped
    (the broker keeps one connection per seat: each new one ends the one before).  Counts
    ``sent`` and ``dropped`` (connections lost)."""
    host, port = host_port(url, 1883)
    until = time.monotonic() + seconds
    sent: Counter[str] = Counter()

    async def one(k: int) -> None:
        while time.monotonic() < until:
            try:
                async with aiomqtt.Client(host, port, username=user, password=password,
                                          identifier=f"{user}-flood-{k}", timeout=2,
                                          max_queued_outgoing_messages=1000) as client:
                    while time.monotonic() < until:
                        for _ in range(100):
                            await client.publish(topic, f'{FLOOD_MARK},"n":{sent["sent"]}}}')
                            sent["sent"] += 1
                        await asyncio.sleep(0.01)
            except aiomqtt.MqttError:
                sent["dropped"] += 1
                await asyncio.sleep(0.05)

    await asyncio.gather(*(one(k) for k in range(ids)))
    return sent


def flood_process_main() -> None:
    """The flooder's own process (what a seat's machine would do): reads a JSON line of
    :func:`client_id_flood`'s arguments on stdin, prints its counts as JSON."""
    args = json.loads(sys.stdin.readline())
    print(json.dumps(asyncio.run(client_id_flood(**args))))


async def client_id_flood_process(**args: Any) -> Counter[str]:
    """:func:`client_id_flood` in a process of its own, so that its own work does not
    share the referee's event loop (the password goes on stdin, not the command line)."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-c", f"import {__name__} as m; m.flood_process_main()",
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL)
    out, _ = await proc.communicate(json.dumps(args).encode() + b"\n")
    return Counter(json.loads(out or b"{}"))


async def client_id_scenario(workdir: Path, seed: int, games: int, calm: TableRun,
                             ids: int = 20, seconds: float = 2.0) -> Scenario:
    """Over the embedded broker, t1's seat 0 user connects with ``ids`` client ids and
    floods its own topic while its bot plays: the broker passes on one seat's rate (its
    burst, and its rate from the flood's start to the last flood message the referee
    read), t2 plays its calm games and no innocent seat times out."""
    sent: Counter[str] = Counter()
    read = [0]
    flooded = [0.0]
    window = [0.0, 0.0]
    """The flood's start, the last flood message the referee read (time.monotonic)."""

    async def during(referee: Referee, url: str, over: asyncio.Event) -> None:
        original = referee.on_text

        async def counting(link: Any, text: str | bytes) -> None:
            if (text.decode(errors="replace") if isinstance(text, bytes) else text
                    ).startswith(FLOOD_MARK):
                read[0] += 1
                window[1] = time.monotonic()
            await original(link, text)

        referee.on_text = counting  # type: ignore[method-assign]
        await referee.tables["t1"].all_joined.wait()
        started = window[0] = time.monotonic()
        sent.update(await client_id_flood_process(
            url=url, user=seat_user("t1", 0), password=referee.secrets.secret("t1", 0),
            topic=seat_topic("t1", 0, "up"), ids=ids, seconds=seconds))
        flooded[0] = time.monotonic() - started

    run = await play_tables(flood_config(fresh(workdir, "client-ids"), seed, games),
                            "embedded", during=during)
    same, other, innocent = _innocence(calm, run, ("t1", 0))
    allowed = SEAT_PUBLISH_BURST + SEAT_PUBLISHES_PER_SECOND * max(0.0, window[1] - window[0])
    limited = 0 < read[0] <= allowed < sent["sent"]
    ok = same and not innocent and limited
    result = (f"{ids} client ids sent {sent['sent']} in {flooded[0]:.1f} s, the referee read "
              f"{read[0]} (a seat's allowance {allowed:.0f}); t2 "
              f"{'plays its calm games' if same else 'CHANGED'}, longest gap "
              f"{run.gap('t2') * 1000:.0f} ms (calm {calm.gap('t2') * 1000:.0f}); innocent "
              f"timeouts {len(innocent)}")
    return Scenario("4 one seat, many client ids (embedded broker)", result, ok, {
        "client_ids": ids, "sent": sent["sent"], "connections_dropped": sent["dropped"],
        "read_by_referee": read[0], "seat_allowance": round(allowed),
        "flood_seconds": round(flooded[0], 2),
        "read_window_seconds": round(max(0.0, window[1] - window[0]), 2),
        "other_tables_identical": same,
        "changed": other, "innocent_violations": innocent,
        "t2_longest_gap_ms": round(run.gap("t2") * 1000),
        "t2_longest_gap_calm_ms": round(calm.gap("t2") * 1000)})


# ------------------------------------------------ 6. the timing channel
TIMING_THINK = 0.020
"""The opponents' thought over a claim they could make: what the gap once showed."""
TIMING_P = 1e-3
"""The classifier reads the gap when always guessing the commoner answer would do as well
with at most this probability (one-sided binomial)."""
TIMING_RARER = 8
"""Scored discards of the rarer kind (claimable or not) the control needs to show the attack
(at some seeds nearly every discard is of one kind)."""


async def timing_scenario(workdir: Path, seed: int, games: int, floor_ms: int) -> Scenario:
    """Seat 0 (instant) times every discard while seats 1-3 think 20 ms over a claim they
    could make: without a floor the classifier reads who could claim (the control: the
    attack works here), with ``floor_ms`` it does no better than chance, and the floored
    table plays the same games.  The shortest gap under the floor is reported, not judged
    (it is measured at the seat, the floor at the referee)."""
    def players(table: str, seat: int) -> SeatPlayer:
        return WatchingPlayer(think=0.0 if seat == 0 else TIMING_THINK)

    runs = {}
    for floor in (0, floor_ms):
        config = RefereeConfig(tables=1, games=games, seed=seed, decision_ms=DECISION_MS,
                               round_floor_ms=floor, records=fresh(workdir, f"timing-{floor}"))
        runs[floor] = await play_tables(config, "ws", players=players)
    attacks = {floor: threshold_attack(claim_samples(run.seen("t1")))
               for floor, run in runs.items()}
    hits0, n0, base0, p0 = attacks[0]
    hits, n, base, p = attacks[floor_ms]
    samples = claim_samples(runs[floor_ms].seen("t1"))
    shortest = min((g for g, _ in samples), default=0.0)
    same = runs[0].records == runs[floor_ms].records
    control = claim_samples(runs[0].seen("t1"))
    scored = control[len(control) // 2:]
    rarer = min(sum(label for _, label in scored), sum(not label for _, label in scored))
    ok = p0 < TIMING_P and p > TIMING_P and same and rarer >= TIMING_RARER
    result = (f"no floor: {hits0}/{n0} read (chance {base0:.0%}, p={p0:.1g}); floor "
              f"{floor_ms} ms: {hits}/{n} (chance {base:.0%}, p={p:.2g}), shortest gap "
              f"{shortest * 1000:.0f} ms; {'the same' if same else 'OTHER'} games")
    if rarer < TIMING_RARER:
        result += (f"; too few discards of the rarer kind to judge ({rarer}): play more games "
                   "or another seed")
    return Scenario("6 timing: gap after a discard vs who could claim", result, ok, {
        "floor_ms": floor_ms, "control": dict(zip(("right", "scored", "chance", "p"), attacks[0],
                                                  strict=True)),
        "floored": dict(zip(("right", "scored", "chance", "p"), attacks[floor_ms], strict=True)),
        "shortest_gap_ms": round(shortest * 1000, 1), "same_games": same,
        "rarer_scored": rarer})


# ------------------------------------------------ 7. honest fast bots
EXAMPLE_BOT = "examples/olympiad_simple_bot.py"


def example_bot() -> Path | None:
    """The project's example Olympiad program (a checkout's), or None when not found."""
    for parent in Path(__file__).resolve().parents:
        if (parent / EXAMPLE_BOT).is_file():
            return parent / EXAMPLE_BOT
    return None


async def honest_scenario(workdir: Path, seed: int, games: Mapping[str, int],
                          wrapped_games: int) -> Scenario:
    """Four instant seats over WebSocket and over the embedded broker (``games`` by
    transport), under the referee's own limits, and four copies of the example program
    through ``mjbot wrap``'s player: no seat is dropped, reconnects or times out, and the
    games both transports played are the same."""
    rows = []
    runs = {}
    for via, count in games.items():
        config = RefereeConfig(tables=1, games=count, seed=seed, decision_ms=DECISION_MS,
                               records=fresh(workdir, f"honest-{via}"))
        runs[via] = await play_tables(config, via)
        asks = sum(s.asks for s in runs[via].summaries)
        rows.append(f"{via} {count} games {asks / 4 / runs[via].seconds:.0f} asks/s a seat")
    both = set.intersection(*(set(run.records) for run in runs.values()))
    same = bool(both) and all(len({str(run.records[name]) for run in runs.values()}) == 1
                              for name in both)
    checked = list(runs.values())
    program = example_bot()
    if program is not None and wrapped_games:
        config = RefereeConfig(tables=1, games=wrapped_games, seed=seed, decision_ms=DECISION_MS,
                               records=fresh(workdir, "honest-wrap"))
        made = [ProgramPlayer([sys.executable, str(program)]) for _ in range(4)]
        try:
            for player in made:
                await player.start()
            checked.append(await play_tables(config, "ws", players=lambda t, s: made[s]))
        finally:
            for player in made:
                await player.close()
        rows.append(f"example via wrap {wrapped_games} games")
    drops = sum(r.drops() for r in checked)
    fatal = [r.fatal for run in checked for r in run.reports.values() if r.fatal]
    violations = [v for run in checked for v in run.violations()]
    finished = all(len(run.summaries) == run.referee.config.games for run in checked)
    ok = drops == 0 and not fatal and not violations and finished and same
    result = (f"{'; '.join(rows)}: {drops} drops/reconnects, {len(violations)} timeouts, "
              f"{len(fatal)} refused; WebSocket and MQTT {'the same' if same else 'OTHER'} games")
    return Scenario("7 honest fast bots (instant seats, example via wrap)", result, ok, {
        "runs": rows, "drops": drops, "fatal": fatal, "violations": violations,
        "transports_same_games": same, "example_bot": str(program) if program else None})
