"""Seats, turn order and the claim priority that both tables and the sampler settle a
discard with."""

import pytest

from game.turn_order import (
    SEATS,
    Claim,
    check_seat,
    claim_order,
    first_claim,
    next_seat,
    seats_after,
)


def test_turn_order_runs_0_1_2_3_and_round() -> None:
    assert [next_seat(s) for s in range(SEATS)] == [1, 2, 3, 0]
    assert seats_after(2) == (3, 0, 1)


def test_a_seat_outside_0_to_3_is_named() -> None:
    check_seat(3)
    with pytest.raises(ValueError, match=r"^seat 4 is outside 0-3$"):
        check_seat(4)
    with pytest.raises(ValueError, match=r"^chow provider: seat -1 is outside 0-3$"):
        check_seat(-1, "chow provider")


def test_claims_rank_win_then_pung_or_kong_then_the_next_seat_s_chow() -> None:
    assert claim_order(3) == (
        (0, Claim.WIN), (1, Claim.WIN), (2, Claim.WIN),
        (0, Claim.PUNG_OR_KONG), (1, Claim.PUNG_OR_KONG), (2, Claim.PUNG_OR_KONG),
        (0, Claim.CHOW),
    )


def test_a_later_win_beats_an_earlier_pung_and_a_pung_beats_the_chow() -> None:
    claims = {(2, Claim.PUNG_OR_KONG), (3, Claim.WIN), (1, Claim.CHOW)}
    assert first_claim(0, lambda s, c: (s, c) in claims) == (3, Claim.WIN)
    claims.discard((3, Claim.WIN))
    assert first_claim(0, lambda s, c: (s, c) in claims) == (2, Claim.PUNG_OR_KONG)
    claims.discard((2, Claim.PUNG_OR_KONG))
    assert first_claim(0, lambda s, c: (s, c) in claims) == (1, Claim.CHOW)
    claims.discard((1, Claim.CHOW))
    assert first_claim(0, lambda s, c: (s, c) in claims) is None


def test_only_the_next_seat_is_asked_for_a_chow_and_nobody_after_the_claim_found() -> None:
    asked: list[tuple[int, Claim]] = []

    def chow_by_anyone(seat: int, claim: Claim) -> bool:
        asked.append((seat, claim))
        return claim is Claim.CHOW

    assert first_claim(1, chow_by_anyone) == (2, Claim.CHOW)
    assert asked == list(claim_order(1))
    asked.clear()

    def seat_3_wins(seat: int, claim: Claim) -> bool:
        asked.append((seat, claim))
        return seat == 3

    assert first_claim(1, seat_3_wins) == (3, Claim.WIN)
    assert asked == [(2, Claim.WIN), (3, Claim.WIN)]
