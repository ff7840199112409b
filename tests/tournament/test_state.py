"""The tournament state: registration, late registration and re-entry, the seat draw, hands recorded with their
chips conserved, eliminations, places, prizes, rebalancing, and refusals that change nothing."""

from __future__ import annotations

import random
from typing import Any

import pytest

from studpoker.tournament import Break, Level, PayoutTable, Stage, Structure, Tournament, TournamentError


def snapshot(t: Tournament) -> tuple[Any, ...]:
    return (t.stage, t.entries, t.players, t.stacks, t.chart, t.finishes(), t.prize_pool)


def sit_and_go(players: int = 6, **options: Any) -> Tournament:
    t = Tournament(Structure.turbo(), buy_in=100, rng=random.Random(1), max_entries=players, **options)
    for i in range(players):
        t.register(f"p{i}")
    t.start()
    return t


def test_registration_before_the_start() -> None:
    t = Tournament(Structure.turbo(), buy_in=50, rng=random.Random(1), max_entries=3)
    assert t.register(" Ann ").player == "Ann" and t.stage is Stage.REGISTERING
    with pytest.raises(TournamentError, match="'Ann' has already entered"):
        t.register("Ann")
    with pytest.raises(TournamentError, match="two entries or more to start, has 1"):
        t.start()
    t.register("Bob")
    t.unregister("Ann")
    assert t.players == ("Bob",) and t.entries == 1 and t.prize_pool == 50
    t.register("Cid"), t.register("Dan")
    assert t.is_full
    with pytest.raises(TournamentError, match="full"):
        t.register("Eve")
    with pytest.raises(TournamentError, match="a player needs a name"):
        t.register("  ")
    chart = t.start()
    assert len(chart) == 1 and sorted(chart[1].values()) == ["Bob", "Cid", "Dan"]
    assert t.stacks == {"Bob": 2_000, "Cid": 2_000, "Dan": 2_000} and t.total_chips == 6_000
    with pytest.raises(TournamentError, match="only before the start"):
        t.unregister("Bob")
    with pytest.raises(TournamentError, match="already started"):
        t.start()


def test_a_multi_table_start_draws_balanced_tables() -> None:
    t = Tournament(Structure.turbo(), buy_in=10, rng=random.Random(3))
    for i in range(24):
        t.register(f"p{i}")
    chart = t.start()
    assert sorted(chart) == [1, 2, 3] and all(len(seats) == 8 for seats in chart.values())
    table, seat = t.seat_of("p5")
    assert chart[table][seat] == "p5"
    with pytest.raises(TournamentError, match="'nobody' is not seated"):
        t.seat_of("nobody")


def test_a_sit_and_go_to_the_end_with_places_and_prizes() -> None:
    t = sit_and_go(6)  # 6 entries: 65/35 of 600
    chart = t.chart[1]
    p = sorted(chart.values())
    t.record_hand(1, {p[0]: 0, p[1]: 4_000, p[2]: 2_000, p[3]: 2_000, p[4]: 2_000, p[5]: 2_000})
    busts = t.record_hand(1, {p[1]: 0, p[2]: 0, p[3]: 6_000, p[4]: 4_000, p[5]: 2_000})  # 4,000 beats 2,000
    assert [b.player for b in busts] == [p[1], p[2]]
    t.record_hand(1, {p[3]: 6_000, p[4]: 6_000, p[5]: 0})
    assert not t.is_over and t.finishes()[0].place == 3
    with pytest.raises(TournamentError, match="when the tournament is over"):
        t.prizes()
    t.record_hand(1, {p[3]: 12_000, p[4]: 0})
    assert t.is_over and t.winner == p[3] and t.stage is Stage.FINISHED
    assert [(f.player, f.place) for f in t.finishes()] == [
        (p[3], 1),
        (p[4], 2),
        (p[5], 3),
        (p[1], 4),
        (p[2], 5),
        (p[0], 6),
    ]
    assert t.prizes() == {p[3]: 390, p[4]: 210} and sum(t.prizes().values()) == t.prize_pool
    with pytest.raises(TournamentError, match="it is finished"):
        t.record_hand(1, {p[3]: 12_000})


def test_players_out_in_the_same_hand_with_equal_stacks_share_the_prizes() -> None:
    t = sit_and_go(3, payout_table=PayoutTable.fixed(55, 45))  # 300 in the pool: 165 and 135
    a, b, c = sorted(t.chart[1].values())
    t.record_hand(1, {a: 6_000, b: 0, c: 0})  # b and c tie for 2nd and 3rd: (135 + 0) / 2 each, odd chip to p1
    assert [(f.player, f.place, f.tied) for f in t.finishes()] == [(a, 1, 1), (b, 2, 2), (c, 2, 2)]
    assert t.prizes() == {a: 165, b: 68, c: 67}


def test_a_refused_hand_changes_nothing() -> None:
    t = sit_and_go(3)
    a, b, c = sorted(t.chart[1].values())
    before = snapshot(t)
    cases = [
        (2, {a: 2_000, b: 2_000, c: 2_000}, "there is no table 2"),
        (1, {a: 3_000, b: 3_000}, r"missing \['p2'\]"),
        (1, {a: 2_000, b: 2_000, c: 2_000, "zed": 0}, r"not there \['zed'\]"),
        (1, {a: 3_000, b: 3_000, c: 1}, "6000 chips before the hand and 6001 after"),
        (1, {a: 7_000, b: 0, c: -1_000}, "a stack is a whole number of at least 0"),
        (1, {a: 6_000.0, b: 0, c: 0}, "a stack is a whole number"),
    ]
    for table, stacks, message in cases:
        with pytest.raises(TournamentError, match=message):
            t.record_hand(table, stacks)  # type: ignore[arg-type]
        assert snapshot(t) == before
    with pytest.raises(TournamentError, match="no hand to record"):
        t.record_hands({})
    t.check_conservation()


def test_hand_for_hand_across_tables_and_rebalancing() -> None:
    t = Tournament(Structure.turbo(), buy_in=10, rng=random.Random(7), seats_per_table=6)
    for i in range(12):
        t.register(f"p{i}")
    chart = t.start()  # two tables of 6
    one, two = sorted(chart[1].values()), sorted(chart[2].values())
    results = {
        1: {**dict.fromkeys(one, 2_000), one[0]: 0, one[1]: 4_000},
        2: {**dict.fromkeys(two, 2_000), two[0]: 0, two[1]: 4_000},
    }
    busts = t.record_hands(results)  # one hand for places: both started with 2,000 and tie for 11th and 12th
    assert {b.player for b in busts} == {one[0], two[0]}
    assert {(f.place, f.tied) for f in t.finishes()} == {(11, 2)}
    assert t.rebalance() == ()  # 5 and 5
    t.record_hand(1, {**dict.fromkeys(one[1:], 0), one[1]: 12_000 - 2_000 * 3 - 2_000, one[2]: 2_000 * 3 + 2_000})
    # table 1 went from 5 to 2 players (3 out), table 2 has 5: one moves
    moves = t.rebalance()
    assert len(moves) == 1 and moves[0].from_table == 2 and moves[0].to_table == 1
    assert sorted(len(s) for s in t.chart.values()) == [3, 4]
    t.check_conservation()


def test_late_registration_and_re_entry() -> None:
    periods = (Level(1, 5, 10, 40, 80, 20), Break(10), Level(2, 10, 20, 60, 120, 20), Level(3, 10, 25, 80, 160, 20))
    structure = Structure(1_000, periods, late_registration_level=2, reentries=1)
    t = Tournament(structure, buy_in=100, rng=random.Random(2), seats_per_table=2)
    with pytest.raises(TournamentError, match="has not entered"):
        t.reenter("Ann", 0)
    t.register("Ann"), t.register("Bob")
    with pytest.raises(TournamentError, match="'Ann' is still in the tournament"):
        t.reenter("Ann", 0)
    t.start()
    late = t.register("Cid", elapsed_seconds=1_500)  # during the break after level 1: open
    assert late.number == 1 and t.seat_of("Cid")[0] == 2  # the only table was full: a new one
    assert t.total_chips == 3_000 and t.prize_pool == 300
    with pytest.raises(TournamentError, match="still in the tournament"):
        t.reenter("Ann", 1_600)
    t.record_hand(1, {t.chart[1][s]: c for s, c in zip(sorted(t.chart[1]), (2_000, 0), strict=True)})
    out = next(p for p in ("Ann", "Bob") if p not in t.players)
    again = t.reenter(out, 2_000)
    assert again.number == 2 and t.entries == 4 and t.total_chips == 4_000
    table = t.seat_of(out)[0]
    players = list(t.chart[table].values())
    assert len(players) == 2  # the re-entry sits at the shortest table
    total = sum(t.stacks[p] for p in players)
    t.record_hand(table, {p: (0 if p == out else total) for p in players})
    with pytest.raises(TournamentError, match="used the 1 re-entries"):
        t.reenter(out, 2_100)
    with pytest.raises(TournamentError, match="registration closed at the end of level 2"):
        t.register("Dan", elapsed_seconds=3_000)
    t.check_conservation()


def test_the_tournament_checks_what_it_is_given() -> None:
    with pytest.raises(TournamentError, match="a seven-card stud table has 2 to 8 seats, got 9"):
        Tournament(Structure.turbo(), buy_in=1, rng=random.Random(1), seats_per_table=9)
    assert Tournament(Structure.turbo(), buy_in=1, rng=random.Random(1), seats_per_table=10, variant="5stud")
    with pytest.raises(TournamentError, match="unknown game"):
        Tournament(Structure.turbo(), buy_in=1, rng=random.Random(1), variant="holdem")
    with pytest.raises(TournamentError, match=r"rng must be a random\.Random"):
        Tournament(Structure.turbo(), buy_in=1, rng=1)  # type: ignore[arg-type]
    with pytest.raises(TournamentError, match="buy-in must be a whole number"):
        Tournament(Structure.turbo(), buy_in=-1, rng=random.Random(1))
    t = sit_and_go(2)
    assert t.rules(1).raise_cap == 4 and t.rules(2).small_bet == 60
