"""Payouts: the standard table by field size, house tables, whole chips summing to the pool with the odd chips to
the highest places, and shared places."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from studpoker.tournament import PayoutError, PayoutTable, payouts, places_paid, shared_prize, standard_shares


@pytest.mark.parametrize(
    ("entries", "places"), [(2, 1), (4, 1), (5, 2), (6, 2), (7, 3), (10, 3), (11, 3), (24, 3), (27, 4), (100, 15)]
)
def test_places_paid_by_field_size(entries: int, places: int) -> None:
    assert places_paid(entries) == places == len(standard_shares(entries))


def test_the_standard_shares_sum_to_one_and_never_rise() -> None:
    for entries in range(2, 1_001):
        shares = standard_shares(entries)
        assert sum(shares) == 1
        assert all(a >= b for a, b in itertools.pairwise(shares))
    assert standard_shares(6) == (Fraction(65, 100), Fraction(35, 100))
    assert standard_shares(24) == (Fraction(6, 13), Fraction(4, 13), Fraction(3, 13))


def test_prizes_are_whole_chips_summing_to_the_pool() -> None:
    for entries in (2, 5, 7, 11, 24, 99, 333):
        for pool in (0, 1, 7, 1_000, 12_345, 10**9 + 7):
            prizes = payouts(pool, entries)
            assert sum(prizes) == pool and all(type(p) is int for p in prizes)
            assert list(prizes) == sorted(prizes, reverse=True)


def test_the_odd_chips_go_to_the_highest_places() -> None:
    assert payouts(101, 8) == (51, 30, 20)  # 50.5, 30.3, 20.2: one chip left over, to 1st
    assert payouts(1_000, 24) == (462, 308, 230)  # 461.5, 307.7, 230.8: 461/307/230 and two odd chips
    assert payouts(3, 3, PayoutTable.fixed(40, 30, 30)) == (2, 1, 0)


def test_a_house_table() -> None:
    table = PayoutTable.by_entries({2: (100,), 5: ("62.5", "37.5"), 9: (50, 30, 20)})
    assert payouts(800, 4, table) == (800,)
    assert payouts(800, 8, table) == (500, 300)
    assert payouts(1_000, 9, table) == (500, 300, 200)
    with pytest.raises(PayoutError, match="pays 3 places, but there are only 2 entries"):
        payouts(100, 2, PayoutTable.fixed(50, 30, 20))


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        ({}, "at least one row"),
        ({3: (100,)}, "first row of a payout table starts at 2 entries"),
        ({2: (40, 60)}, "never rise"),
        ({2: (100, 0)}, "positive"),
        ({2: (50, 40)}, "must sum to 100, got 90"),
        ({2: ()}, "pays no place"),
        ({2: ("x",)}, "percentages are numbers"),
    ],
)
def test_a_house_table_that_does_not_add_up_is_refused(rows: dict[int, tuple[object, ...]], message: str) -> None:
    with pytest.raises(PayoutError, match=message):
        PayoutTable.by_entries(rows)  # type: ignore[arg-type]


def test_shared_places_split_their_prizes_odd_chips_to_the_first() -> None:
    prizes = payouts(1_001, 8)  # 501, 300, 200
    assert shared_prize(prizes, 2, 2) == (250, 250)
    assert shared_prize(prizes, 1, 2) == (401, 400)
    assert shared_prize(prizes, 3, 2) == (100, 100)  # 3rd is paid, 4th is not
    assert shared_prize(prizes, 1, 3) == (334, 334, 333)
    assert shared_prize(prizes, 5, 2) == (0, 0)


def test_bad_requests() -> None:
    with pytest.raises(PayoutError, match="at least 2 entries, got 1"):
        payouts(100, 1)
    with pytest.raises(PayoutError, match="prize pool must be a whole number"):
        payouts(-1, 5)
    with pytest.raises(PayoutError, match="first place and a number of players"):
        shared_prize((10,), 0, 1)
