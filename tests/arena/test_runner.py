"""A game is a pure function of its spec: the same results in this process, on a
local Ray, and on a real two-node Ray cluster on this machine."""

from __future__ import annotations

import pytest

from arena.stats.seating import SeatingFormat
from arena.tables.games import Rules
from arena.tables.match import MatchConfig, MatchProgress, run_match
from arena.tables.runner import LOOPBACK, Runner
from game.stable_wall import WallMode

ray = pytest.importorskip("ray")


def _config() -> MatchConfig:
    # taiwan-16 on the stable draw wall: our agent, SIMCAT-eps and random all play,
    # so a seeded generator per seat is part of what must travel with the spec
    return MatchConfig(("mjbot:budget=200", "mjbot-eps:0.5,budget=200", "random", "greedy"),
                       Rules.TAIWAN_16, WallMode.SDW, SeatingFormat.ROTATE, games=16, seed=7)


def _fingerprint(progress: MatchProgress) -> list[tuple[object, ...]]:
    return [(g.spec, g.outcome, g.steals, g.draws, g.consistency, g.reshuffles)
            for g in progress.played]


@pytest.fixture(scope="module")
def in_process() -> list[tuple[object, ...]]:
    with Runner(workers=0) as runner:
        progress = run_match(_config(), runner)
    assert len(progress.played) == 16
    return _fingerprint(progress)


@pytest.mark.slow
def test_local_ray_plays_the_same_games(in_process: list[tuple[object, ...]]) -> None:
    with Runner(workers=2) as runner:
        progress = run_match(_config(), runner)
        assert runner.where() == "local Ray (2 CPUs)"
    assert _fingerprint(progress) == in_process


@pytest.mark.slow
def test_two_node_cluster_plays_the_same_games(in_process: list[tuple[object, ...]]) -> None:
    from ray.cluster_utils import Cluster

    # both nodes on loopback: the test's traffic never leaves 127.0.0.1
    cluster = Cluster(initialize_head=True,
                      head_node_args={"num_cpus": 1, "node_ip_address": LOOPBACK,
                                      "include_dashboard": False})
    try:
        cluster.add_node(num_cpus=1, node_ip_address=LOOPBACK)
        cluster.wait_for_nodes()
        with Runner(address=cluster.address) as runner:
            progress = run_match(_config(), runner)
            nodes = {n["NodeID"] for n in ray.nodes() if n["Alive"]}
            assert runner.cpus == 2 and len(nodes) == 2
            assert runner.nodes_used == nodes  # both nodes played walls
            assert runner.where().startswith("Ray cluster")
        assert not ray.is_initialized()  # disconnected; the cluster is shut down below
    finally:
        cluster.shutdown()
    assert _fingerprint(progress) == in_process
