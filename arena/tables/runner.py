"""Where games run: in this process, or on Ray (a local Ray by default, or a cluster).

A game is a pure function of its :class:`arena.tables.games.GameSpec`, so where it
ran changes nothing: :func:`run` yields the games in the order of their specs
whatever the order they finished in, and a match stopped by a sequential test
stops at the same wall everywhere.

- ``Runner(workers=0)``: every game in this process, one after another;
- ``Runner(workers=N)``: a local Ray started here with ``num_cpus=N`` (nothing
  to set up), shut down by :meth:`Runner.close`;
- ``Runner(address="HOST:PORT")`` (or ``"auto"``): join an existing Ray
  cluster; its workers must import this code (start them with the same
  ``PYTHONPATH``, or install mjbot there).

Ray is the ``cluster`` extra (``pip install -e '.[cluster]'``); without it a runner
that needs Ray raises :class:`RayMissing`.  :func:`choose_workers` is the commands'
default: a small match in this process (Ray's start, 20 s or more on a busy machine,
costs more than it saves), a large one on a local Ray when Ray is installed.

Games go to Ray in batches (one wall's seatings by default, so a task is big
enough that Ray's overhead per task stays small), with a bounded number of
batches in flight.
"""

from __future__ import annotations

import contextlib
import importlib.util
import logging
import os
import sys
import threading
import time
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any, TextIO

from arena.tables.games import GameSpec, PlayedGame
from arena.tables.play import play

LOOPBACK = "127.0.0.1"
"""Where a local Ray and the test cluster listen."""


def play_batch(specs: Sequence[GameSpec]) -> list[PlayedGame]:
    """Play ``specs`` one after another (a Ray task's body)."""
    return [play(s) for s in specs]


def play_batch_on_node(specs: Sequence[GameSpec]) -> tuple[str, list[PlayedGame]]:
    """A Ray task: the games and the id of the node that played them."""
    import ray

    return ray.get_runtime_context().get_node_id(), play_batch(specs)


def default_workers() -> int:
    return max(1, min(2, os.cpu_count() or 1))


SMALL_MATCH = 64
"""Games up to which :func:`choose_workers` plays in this process unless told otherwise."""
CLUSTER_INSTALL = "pip install -e '.[cluster]' in the mjbot clone"


class RayMissing(RuntimeError):
    """Ray is needed (``--workers N``, ``--address``) but not installed."""

    @staticmethod
    def message(address: str | None, workers: int | None) -> str:
        """What a command asked to play on Ray (a cluster at ``address``, else a local Ray
        of ``workers`` CPUs) says when Ray is not installed."""
        asked = f"--address {address}" if address is not None else f"--workers {workers}"
        return (f"{asked} plays on Ray, which is not installed: {CLUSTER_INSTALL} "
                "(or --workers 0: in this process)")


def ray_installed() -> bool:
    try:
        return importlib.util.find_spec("ray") is not None
    except (ImportError, ValueError):
        return False


def choose_workers(workers: int | None, address: str | None, games: int) -> tuple[int, str]:
    """Where a run of ``games`` games plays when ``--workers`` is ``workers`` (None: not
    given) and ``--address`` is ``address``: (the workers for :class:`Runner`, 0 in this
    process, and why, for the user).  Asked for, a cluster or a local Ray of ``workers``
    CPUs; else a small run (at most :data:`SMALL_MATCH` games) in this process, a larger
    one on a local Ray of :func:`default_workers` CPUs when Ray is installed."""
    if address is not None:
        return (workers or 0), f"on the Ray cluster at {address} (--address)"
    if workers is not None:
        if workers == 0:
            return 0, "in this process (--workers 0)"
        return workers, f"on a local Ray of {workers} CPUs (--workers {workers})"
    if games <= SMALL_MATCH:
        return 0, (f"in this process (up to {SMALL_MATCH} games: Ray's start would cost more "
                   "than it saves; --workers N for a local Ray)")
    if not ray_installed():
        return 0, (f"in this process (Ray is not installed: {CLUSTER_INSTALL} plays "
                   f"{games} games on a local Ray)")
    cpus = default_workers()
    return cpus, (f"on a local Ray of {cpus} CPUs ({games} games; --workers 0 plays in this "
                  "process)")


@contextlib.contextmanager
def ticking(label: str, seconds: float, stream: TextIO | None = None) -> Iterator[None]:
    """Say ``label`` on stderr, then every ``seconds`` how long it has taken so far, and once
    it is done (Ray's start-up: a minute on a loaded machine, silent otherwise)."""
    out = sys.stderr if stream is None else stream
    started = time.perf_counter()
    done = threading.Event()
    print(f"{label} ...", file=out, flush=True)

    def tick() -> None:
        while not done.wait(seconds):
            print(f"{label}: {time.perf_counter() - started:.0f} s so far", file=out, flush=True)

    ticker = threading.Thread(target=tick, name="ticking", daemon=True)
    ticker.start()
    try:
        yield
    finally:
        done.set()
        ticker.join()
        print(f"{label}: done in {time.perf_counter() - started:.1f} s", file=out, flush=True)


class Runner:
    """Plays batches of games in this process or on Ray; see the module docstring."""

    def __init__(self, workers: int | None = None, address: str | None = None,
                 in_flight_per_cpu: int = 2) -> None:
        self.workers = default_workers() if workers is None and address is None else workers
        self.address = address
        self.in_flight_per_cpu = in_flight_per_cpu
        self._ray: Any = None
        self._remote: Any = None
        self._started_ray = False
        self.cpus = 0
        self.nodes_used: set[str] = set()
        """Ray nodes that played at least one batch."""

    @property
    def local(self) -> bool:
        return self.address is None and not self.workers

    def where(self) -> str:
        if self.local:
            return "in-process"
        if self.address is not None:
            return f"Ray cluster {self.address} ({self.cpus} CPUs)"
        return f"local Ray ({self.cpus} CPUs)"

    def start(self) -> None:
        if self.local or self._ray is not None:
            return
        where = f"joining the Ray cluster {self.address}" if self.address is not None else \
            f"starting a local Ray with {self.workers} CPUs"
        with ticking(f"arena: {where}", seconds=10.0):
            self._start_ray()

    def _start_ray(self) -> None:
        if not ray_installed():
            raise RayMissing(RayMissing.message(self.address, self.workers))
        import ray

        if self.address is not None:
            ray.init(address=self.address, runtime_env={"env_vars": ray_env()},
                     logging_level=logging.ERROR, log_to_driver=False)
        else:
            assert self.workers is not None  # set whenever no address is
            start_local_ray(self.workers)
            self._started_ray = True
        self._ray = ray
        self._remote = ray.remote(num_cpus=1)(play_batch_on_node)
        self.cpus = int(ray.cluster_resources().get("CPU", 1))

    def close(self) -> None:
        """Stop the local Ray this runner started, or disconnect from the cluster it
        joined (the cluster keeps running)."""
        if self._ray is not None:
            self._ray.shutdown()
        self._ray = self._remote = None

    def __enter__(self) -> Runner:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def run(self, batches: Iterable[Sequence[GameSpec]]) -> Iterator[list[PlayedGame]]:
        """Each batch's games, in the batches' order; stop iterating to stop submitting."""
        if self.local:
            for batch in batches:
                yield play_batch(batch)
            return
        self.start()
        ray = self._ray
        limit = max(1, self.cpus * self.in_flight_per_cpu)
        pending: deque[Any] = deque()
        source = iter(batches)
        exhausted = False
        try:
            while True:
                while not exhausted and len(pending) < limit:
                    try:
                        batch = next(source)
                    except StopIteration:
                        exhausted = True
                        break
                    pending.append(self._remote.remote(list(batch)))
                if not pending:
                    return
                node, games = ray.get(pending.popleft())
                self.nodes_used.add(node)
                yield games
        finally:
            for ref in pending:
                ray.cancel(ref)


def _code_root() -> str:
    """The directory holding the ``arena`` package (for Ray's workers' import path)."""
    return str(Path(__file__).resolve().parents[2])


def ray_env() -> dict[str, str]:
    """The environment Ray's workers need: this code on their import path."""
    return {"PYTHONPATH": os.pathsep.join(p for p in (_code_root(),
                                                      os.environ.get("PYTHONPATH")) if p)}


def start_local_ray(workers: int) -> None:
    """A new local Ray of ``workers`` CPUs, even when another one runs on this machine
    (``ray.init()`` alone would join it, and refuse ``num_cpus``), listening on loopback
    only (its default is the machine's address)."""
    import ray

    ray.init(address="local", num_cpus=workers, include_dashboard=False,
             runtime_env={"env_vars": ray_env()}, logging_level=logging.ERROR,
             log_to_driver=False, _node_ip_address=LOOPBACK)


__all__ = ["SMALL_MATCH", "RayMissing", "Runner", "choose_workers", "default_workers",
           "play_batch", "play_batch_on_node", "ray_env", "ray_installed", "start_local_ray"]
