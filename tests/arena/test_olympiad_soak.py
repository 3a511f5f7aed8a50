"""The soak (``mjbot bench soak``), small: three WebSocket tables and one MQTT table through
a mosquitto with ACL, under seeded disconnects, late duplicates, repeated and old acts,
bot restarts, a broker restart and a hostile client; then each scenario of a tournament's
troubles on its own, at its quick size.  The full one (20 tables, every scenario at its
full size) is the benchmark script.  Every check is a count or a comparison within the
run, never a machine's seconds."""

from __future__ import annotations

import dataclasses
import json

import pytest

from arena.platforms.olympiad.match import mosquitto_binary
from arena.platforms.olympiad.soak.run import QUICK, render, run_scenarios, run_soak, to_json
from arena.platforms.olympiad.soak.scenarios import TIMING_P
from arena.platforms.olympiad.soak.tables import Scenario

SEED = 2024
"""The soak's own default seed (at some seeds nearly every discard is of one kind, too few
of the other for the timing attack's control to show anything)."""
FAST = dataclasses.replace(QUICK, rejoin_via=("ws",))
"""The re-join flood over WebSocket only: over the embedded broker, where a game takes ten
seconds, ``tests/arena/test_olympiad_stalls.py`` plays it."""


@pytest.mark.skipif(mosquitto_binary() is None, reason="mosquitto is not installed")
def test_troubled_tables_play_exactly_the_undisturbed_games_and_every_attack_is_refused(
) -> None:
    result = run_soak(seed=5, ws_tables=3, mqtt_tables=1, which=())
    print(render(result))
    assert result.games_identical == 4 and result.mismatched == []
    assert result.violations == 0 and result.unfinished == []
    trouble = result.trouble
    assert trouble.disconnects > 0 and trouble.late_duplicates_down > 0
    assert trouble.restarts > 0 and trouble.broker_restarts == 1
    assert trouble.duplicate_acts_up + trouble.old_acts_resent_up > 0
    tried, refused = result.attacks.tried, result.attacks.refused
    assert sum(tried.values()) > 10 and refused == tried and result.attacks.failures == []
    assert {k.split(" ")[0] for k in tried} == {"ws", "mqtt"}
    assert result.ok
    rows = {row.what: row for row in result.rows()}
    assert all(row.ok for row in rows.values()) and len(rows) == 4
    assert json.loads(json.dumps(to_json(result)))["troubles"][0]["ok"] is True


def _rows(which: str) -> list[Scenario]:
    rows = run_scenarios(SEED, FAST, [which])
    for row in rows:
        print(f"{row.what}: {'pass' if row.ok else 'FAIL'}: {row.result}")
    return rows


def test_no_seat_finds_the_secret_seed_and_the_revealed_one_opens_the_commitment() -> None:
    [row] = _rows("walls")
    f = row.figures
    assert f["found_secret"] is None and f["found_given"] == SEED % FAST.seeds_searched
    assert f["commitment_opens"] and f["clients_opened"]
    assert f["mid_match_mode"] == 0o600 and f["mid_match_seed_absent"]
    assert f["records_readable_after"] and f["verify_problems"] == []
    assert f["verified_games"] == {"t1": 2} and f["revealed_seed_replays_same_games"]
    assert row.ok


def test_a_rejoin_flood_costs_the_rejoiner_and_not_another_table() -> None:
    [row] = _rows("rejoin")
    f = row.figures
    assert f["joins"] > 10 and f["refused_too_many_joins"] > 0
    assert f["other_tables_identical"] and f["innocent_violations"] == []
    assert row.ok


def test_many_client_ids_of_one_seat_get_one_seats_allowance() -> None:
    """Seat 0's user floods the embedded broker from 20 client ids: the referee reads no
    more than one seat's allowance.  Whether the other table keeps its rhythm meanwhile is
    the soak's row (the broker still reads every packet of the flood on the referee's
    event loop), not asserted here."""
    [row] = _rows("client_ids")
    f = row.figures
    assert 0 < f["read_by_referee"] <= f["seat_allowance"] < f["sent"]


def test_the_gap_after_a_discard_is_read_without_the_floor_and_not_with_it() -> None:
    [row] = _rows("timing")
    f = row.figures
    assert f["rarer_scored"] >= 8
    assert f["control"]["p"] < TIMING_P < f["floored"]["p"]
    assert f["same_games"] and row.ok


def test_honest_fast_bots_play_without_a_drop() -> None:
    [row] = _rows("honest")
    f = row.figures
    assert f["drops"] == 0 and f["fatal"] == [] and f["violations"] == []
    assert f["transports_same_games"] and len(f["runs"]) == 3
    assert row.ok


def test_an_unknown_scenario_is_named() -> None:
    with pytest.raises(ValueError, match="scenarios \\['wals'\\]"):
        run_scenarios(SEED, FAST, ["wals"])
