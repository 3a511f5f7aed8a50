"""The soak (``mjbot bench soak``), small: three WebSocket tables and one MQTT table through
a mosquitto with ACL, under seeded disconnects, late duplicates, repeated and old acts,
bot restarts, a broker restart and a hostile client.  The full one (20 tables) is the
benchmark script; its figures are in the closing note of issue 14."""

from __future__ import annotations

import pytest

from arena.bench.olympiad_soak import render, run_soak
from arena.platforms.olympiad.match import mosquitto_binary


@pytest.mark.skipif(mosquitto_binary() is None, reason="mosquitto is not installed")
def test_troubled_tables_play_exactly_the_undisturbed_games_and_every_attack_is_refused(
) -> None:
    result = run_soak(seed=5, ws_tables=3, mqtt_tables=1)
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
