"""Pot division at showdown: SPEC TC-28 to TC-36 (R10, R11) through ``settle.award``."""

from __future__ import annotations

import random

import pytest

from studpoker.cards import parse_card, parse_cards
from studpoker.engine import HandState, OddChipRule, Rules, Variant
from studpoker.engine.pots import Pot, build_pots, pots_in_play, split, uncalled
from studpoker.engine.settle import Contender, award

from .helpers import rules

S1, S2, S3 = range(3)


def payout(
    variant: Variant,
    pot: int,
    hands: list[str],
    odd: OddChipRule = OddChipRule.HIGH_CARD_IN_HAND,
    community: str | None = None,
    unit: int = 1,
) -> dict[int, int]:
    r = (
        rules(variant, odd_chip_rule=odd, chip_unit=unit)
        if unit == 1
        else rules(
            variant, odd_chip_rule=odd, chip_unit=unit, ante=unit, bring_in=unit, small_bet=2 * unit, big_bet=4 * unit
        )
    )
    shared = parse_card(community) if community else None
    contenders = [Contender(p, parse_cards(h), shared) for p, h in enumerate(hands)]
    out: dict[int, int] = {}
    for a in award(r, [Pot(pot, tuple(range(len(hands))))], contenders):
        out[a.player] = out.get(a.player, 0) + a.amount
    assert sum(out.values()) == pot
    return out


TC28 = ["Ks Kd 9c 9h 4s 2d Jc", "Ah 2c 3d 6s 7h Qd Qh", "8d 5c 4h 3s Jd Jh Td"]


def test_tc28_normal_split() -> None:
    assert payout(Variant.STUD7_HL8, 100, TC28) == {S1: 50, S2: 50}
    assert payout(Variant.STUD7_HL8, 101, TC28) == {S1: 51, S2: 50}  # the odd chip goes high


TC29 = ["6s 5d 4c 3h 2s Kd Qc", "6h 5c 4d 3c 2d Kc Qh"]


def test_tc29_same_winners_both_ways() -> None:
    assert payout(Variant.STUD7_HL8, 102, TC29) == {S1: 51, S2: 51}  # not 52/50
    assert payout(Variant.STUD7_HL8, 103, TC29) == {S1: 52, S2: 51}  # 6♠ > 6♥


def test_tc30_scoop_with_a_wheel() -> None:
    assert payout(Variant.STUD7_HL8, 90, ["As 2d 3c 4h 5s Kd Kc", "Qh Qd Qs 9c 8d 2h 3s"]) == {S1: 90}


def test_tc31_no_qualifying_low() -> None:
    assert payout(Variant.STUD7_HL8, 60, ["Kc Kh 7d 7s 2c Jd 9h", "9c 6d 5h 3c 2s Qs Js"]) == {S1: 60}


TC32 = ["Ts Td Tc 3h 3d 8s 6c", "7h 5c 4d 2c Ac Ks Qd", "7s 5d 4c 2h Ad 9c Jh"]


@pytest.mark.parametrize(
    ("rule", "expected"),
    [
        (OddChipRule.HIGH_CARD_IN_HAND, {S1: 62, S2: 30, S3: 31}),  # 7♠ > 7♥
        (OddChipRule.ALL_CARDS_RRoP, {S1: 62, S2: 31, S3: 30}),  # lowest card: A♣ < A♦
        (OddChipRule.POSITION, {S1: 62, S2: 31, S3: 30}),
    ],
)
def test_tc32_tied_low_odd_chip_conventions(rule: OddChipRule, expected: dict[int, int]) -> None:
    assert payout(Variant.STUD7_HL8, 123, TC32, rule) == expected


TC34 = ["9s 8d 7c 6h 5d Kd 2c", "Qs Qh 4c 4d Jc 3s 2h", "9h 8c 7d 6s 5c As 2d"]


@pytest.mark.parametrize(
    ("rule", "expected"),
    [
        (OddChipRule.HIGH_CARD_IN_HAND, {S1: 23, S3: 22}),  # 9♠ > 9♥
        (OddChipRule.ALL_CARDS_RRoP, {S1: 22, S3: 23}),  # A♠ is the highest card held
        (OddChipRule.POSITION, {S1: 23, S3: 22}),
    ],
)
def test_tc34_two_way_tie_odd_chip_conventions(rule: OddChipRule, expected: dict[int, int]) -> None:
    assert payout(Variant.STUD7, 45, TC34, rule) == expected


def test_tc36_suits_never_break_a_hand_tie() -> None:
    assert payout(Variant.STUD7, 80, ["As Ks Qd Jc 9h 3c 2d", "Ah Kh Qc Jd 9s 4c 2h"]) == {S1: 40, S2: 40}


def test_wheel_ace_plays_low_for_the_odd_chip() -> None:
    # Both play 5-4-3-2-A; the ace counts as the lowest card, so the 5♠ decides, not the A♥.
    hands = ["5s 4d 3c 2h Ah Kc Qd", "5h 4c 3d 2s As Kd Qc"]
    assert payout(Variant.STUD7, 45, hands) == {S1: 23, S2: 22}


def test_razz_odd_chip_and_winner() -> None:
    hands = ["7s 5d 4c 2h Ad Kc Kd", "7h 5c 4d 2c Ac Qd Qc", "8s 5h 4s 2d As Jd Jc"]
    assert payout(Variant.RAZZ, 45, hands) == {S1: 23, S2: 22}  # 7♠ > 7♥ among the tied 7-5-4-2-A


def test_odd_chips_in_chip_units() -> None:
    # chip_unit 5: a pot of 115 = 23 units; three-way tie -> 8, 8, 7 units.
    hands = ["As Ks Qd Jc 9h 3c 2d", "Ah Kh Qc Jd 9s 4c 2h", "Ac Kc Qh Js 9d 4d 2s"]
    assert sorted(payout(Variant.STUD7, 115, hands, unit=5).values()) == [35, 40, 40]


def test_community_card_is_part_of_every_hand_and_skipped_for_odd_chips() -> None:
    # Both make a 9-high straight with the shared 5d; the odd chip is decided by 9♠ vs 9♥.
    hands = ["9s 8d 7c 6h Kd 2c", "9h 8c 7d 6s Ks 2d"]
    assert payout(Variant.STUD7, 45, hands, community="5d") == {S1: 23, S2: 22}


def test_pots_uncalled_and_split_helpers() -> None:
    assert uncalled([121, 113]) == (0, 8)
    assert uncalled([50, 50]) == (-1, 0)
    assert build_pots([10, 40, 40, 25], [True, True, True, False]) == [
        Pot(40, (0, 1, 2)),
        Pot(75, (1, 2)),
    ]
    assert split(101, [2, 0], unit=1) == [(2, 51), (0, 50)]
    assert split(100, [1], unit=5) == [(1, 100)]


def test_pots_in_play_have_a_side_pot_only_behind_an_all_in_player() -> None:
    assert pots_in_play([7, 17, 7], [True, True, True], [False, False, False]) == [Pot(31, (0, 1, 2))]
    assert pots_in_play([5, 20, 12], [True, True, False], [True, False, False]) == [
        Pot(15, (0, 1)),
        Pot(22, (1,)),
    ]
    rules = Rules(Variant.STUD7, ante=1, bring_in=3, small_bet=10, big_bet=20)
    rnd = random.Random(4)
    for seed in range(200):
        state = HandState(rules, [rnd.choice([2, 15, 40, 200]) for _ in range(rnd.randrange(2, 9))], seed=seed)
        while not state.is_over:
            pots = state.pots
            all_in = {p for p in state.live_players() if state.stacks[p] == 0}
            caps = {state.totals[p] for p in all_in}
            assert sum(p.amount for p in pots) == state.pot
            assert len(pots) <= len(caps) + 1
            for pot in pots:  # a live player with chips behind can win every pot
                assert set(state.live_players()) - all_in <= set(pot.eligible)
            state.apply(rnd.choice(state.legal_actions()))
