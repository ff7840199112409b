"""Seat draws, breaking and balancing tables by hand-made cases, and the high-card draw that chooses who moves."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

import pytest

from studpoker.cards import Card
from studpoker.tournament import (
    BalancingError,
    Move,
    apply_moves,
    check_chart,
    draw_seats,
    final_table,
    high_card_draw,
    plan_moves,
    seat_new_player,
    tables_to_break,
)


class Dealt(random.Random):
    """A ``random.Random`` that deals the given cards to a high-card draw (seats and shuffles stay seeded)."""

    def __init__(self, *cards: str) -> None:
        super().__init__(0)
        self.cards = [Card(text).index for text in cards]

    def sample(self, population: Sequence[Any], k: int, *, counts: Any = None) -> list[Any]:
        assert len(population) == 52 and k == len(self.cards)
        return list(self.cards)


def full_room() -> dict[int, dict[int, str]]:
    """24 players on 3 tables of 8: table t seat s holds ``t.s``."""
    return {t: {s: f"{t}.{s}" for s in range(1, 9)} for t in range(1, 4)}


def bust(chart: dict[int, dict[int, str]], table: int, *seats: int) -> dict[int, dict[int, str]]:
    chart = {t: dict(s) for t, s in chart.items()}
    for seat in seats:
        del chart[table][seat]
    return chart


def counts(chart: dict[int, dict[int, str]]) -> dict[int, int]:
    return {t: len(s) for t, s in sorted(chart.items())}


def test_the_high_card_moves_by_rank_then_suit() -> None:
    assert high_card_draw(["a", "b", "c"], Dealt("Kd", "As", "2c")).high == "b"
    assert high_card_draw(["a", "b", "c", "d"], Dealt("Kh", "Kc", "Ks", "Kd")).high == "c"  # spades highest
    assert high_card_draw(["a", "b"], Dealt("Td", "Tc")).high == "a"  # diamonds above clubs
    draw = high_card_draw(["a", "b"], Dealt("9h", "9d"))
    assert draw.cards == (("a", Card("9h")), ("b", Card("9d")))


def test_the_draw_deals_different_cards_from_a_shuffled_deck() -> None:
    players = [f"p{i}" for i in range(10)]
    highs = set()
    for seed in range(200):
        draw = high_card_draw(players, random.Random(seed))
        cards = [card for _, card in draw.cards]
        assert len(set(cards)) == 10
        assert dict(draw.cards)[draw.high] == max(cards, key=lambda c: (c.rank, c.suit))
        highs.add(draw.high)
    assert highs == set(players)  # anyone can be drawn
    with pytest.raises(BalancingError, match="1 to 52 different players"):
        high_card_draw(["a", "a"], random.Random(1))


def test_two_short_at_one_table_moves_the_high_card_from_the_fullest() -> None:
    chart = bust(full_room(), 1, 3, 7)  # 6, 8, 8: table 2 (the lowest-numbered fullest) gives one to table 1
    rng = Dealt("2c", "3c", "4c", "Qh", "5c", "6c", "7c", "Qs")  # seat 8 of table 2 holds the queen of spades
    moves = plan_moves(chart, 8, rng)
    assert len(moves) == 1
    move = moves[0]
    assert (move.player, move.from_table, move.from_seat, move.to_table, move.reason) == ("2.8", 2, 8, 1, "balance")
    assert move.to_seat in (3, 7)
    assert counts(apply_moves(chart, moves)) == {1: 7, 2: 7, 3: 8}


def test_one_short_is_balanced_enough() -> None:
    assert plan_moves(bust(full_room(), 2, 1), 8, random.Random(1)) == ()
    assert plan_moves(bust(bust(full_room(), 2, 1), 3, 4), 8, random.Random(1)) == ()


def test_the_highest_numbered_table_breaks_when_sixteen_are_left() -> None:
    chart = bust(bust(bust(full_room(), 1, 1, 2), 2, 1, 2, 3), 3, 1, 2, 3)  # 6, 5, 5: 16 players
    assert tables_to_break(chart, 8) == (3,)
    moves = plan_moves(chart, 8, random.Random(5))
    assert {m.player for m in moves} == set(chart[3].values()) and {m.reason for m in moves} == {"break"}
    after = apply_moves(chart, moves)
    assert counts(after) == {1: 8, 2: 8}
    assert sorted(p for seats in after.values() for p in seats.values()) == sorted(
        p for seats in chart.values() for p in seats.values()
    )


def test_the_final_table_forms_at_eight() -> None:
    chart = {1: {1: "a", 4: "b", 6: "c", 8: "d"}, 2: {2: "e", 3: "f", 5: "g", 7: "h"}}
    assert final_table(chart) is None and tables_to_break(chart, 8) == (2,)
    after = apply_moves(chart, plan_moves(chart, 8, random.Random(2)))
    assert final_table(after) == 1 and sorted(after[1].values()) == list("abcdefgh")
    assert {1: "a", 4: "b", 6: "c", 8: "d"}.items() <= after[1].items()  # the final table's players keep their seats


def test_several_tables_break_at_once_then_the_rest_balance() -> None:
    chart = {1: {1: "a", 2: "b", 3: "c", 4: "d", 5: "e", 6: "f"}, 2: {1: "g"}, 3: {1: "h"}, 4: {1: "i"}}
    assert tables_to_break(chart, 8) == (4, 3)
    after = apply_moves(chart, plan_moves(chart, 8, random.Random(3)))
    assert sorted(counts(after).values()) == [4, 5] and set(after) == {1, 2}


def test_a_tournament_of_24_busting_one_by_one_stays_balanced() -> None:
    rng = random.Random(11)
    chart: dict[int, dict[int, str]] = full_room()
    broken_at = []
    while sum(map(len, chart.values())) > 1:
        table = rng.choice(sorted(chart))
        seat = rng.choice(sorted(chart[table]))
        chart = bust(chart, table, seat)
        chart = {t: s for t, s in chart.items() if s}
        players = sum(map(len, chart.values()))
        before = len(chart)
        chart = apply_moves(chart, plan_moves(chart, 8, rng))
        if len(chart) < before:
            broken_at.append(players)
        sizes = counts(chart).values()
        assert max(sizes) - min(sizes) <= 1 and len(chart) == max(1, math.ceil(players / 8))
        check_chart(chart, 8)
    assert broken_at == [16, 8]


def test_the_starting_draw_balances_the_tables() -> None:
    players = [f"p{i}" for i in range(20)]
    chart = draw_seats(players, 8, random.Random(4))
    assert counts(chart) == {1: 7, 2: 7, 3: 6}
    assert sorted(p for seats in chart.values() for p in seats.values()) == sorted(players)
    assert draw_seats(players, 8, random.Random(4)) == chart  # the same rng, the same draw
    assert counts(draw_seats(players[:8], 8, random.Random(4))) == {1: 8}
    with pytest.raises(BalancingError, match="twice"):
        draw_seats(["a", "a"], 8, random.Random(1))


def test_a_late_entry_sits_at_the_shortest_table_or_a_new_one() -> None:
    chart = bust(full_room(), 2, 4)
    assert seat_new_player(chart, 8, random.Random(1)) == (2, 4)
    table, seat = seat_new_player(full_room(), 8, random.Random(1))
    assert table == 4 and 1 <= seat <= 8


def test_bad_charts_and_moves_are_refused() -> None:
    with pytest.raises(BalancingError, match="seated twice"):
        check_chart({1: {1: "a"}, 2: {1: "a"}}, 8)
    with pytest.raises(BalancingError, match="table 1 has no seat 9"):
        check_chart({1: {9: "a"}}, 8)
    with pytest.raises(BalancingError, match="2 to 10 seats"):
        tables_to_break({}, 11)
    chart = {1: {1: "a", 2: "b"}}
    with pytest.raises(BalancingError, match="'a' is not in seat 2 of table 1"):
        apply_moves(chart, [Move("a", 1, 2, 2, 1, "balance")])
    with pytest.raises(BalancingError, match="seat 2 of table 1 is taken by 'b'"):
        apply_moves({1: {1: "a", 2: "b"}, 2: {1: "c"}}, [Move("c", 2, 1, 1, 2, "balance")])
    assert chart == {1: {1: "a", 2: "b"}}  # unchanged
