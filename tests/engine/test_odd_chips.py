"""Odd chips (R11.6) with hands where each ``OddChipRule`` gives the chip to a different player, in high, razz low
and the low half of stud hi/lo, so a convention swapped for another (or a key turned upside down) is caught.
SPEC's TC32/TC34 hands cannot tell the conventions apart; these can."""

from __future__ import annotations

import pytest

from studpoker.cards import parse_cards
from studpoker.engine import OddChipRule, Rules, Variant
from studpoker.engine.pots import Pot
from studpoker.engine.settle import Award, Contender, award


def contenders(*hands: str, community: str | None = None) -> list[Contender]:
    shared = parse_cards(community)[0] if community else None
    return [Contender(p, tuple(parse_cards(h)), shared) for p, h in enumerate(hands)]


def odd_chip_to(variant: Variant, rule: OddChipRule, hands: list[Contender], amount: int = 100) -> int:
    """Who gets the odd chip of ``amount`` split three ways (33 each and one more)."""
    rules = Rules(variant, ante=1, bring_in=3, small_bet=10, big_bet=20, odd_chip_rule=rule)
    awards = award(rules, [Pot(amount, tuple(c.player for c in hands))], hands)
    amounts = {a.player: a.amount for a in awards}
    assert sum(amounts.values()) == amount and sorted(amounts.values()) == [33, 33, 34], awards
    return max(amounts, key=lambda p: amounts[p])


# Three straights to the nine, all tied high. Played high cards: 9d, 9s, 9c (suits c < d < h < s); the highest
# card held, played or not: 9d, 9s, Ks; the lowest held: 3h, 3c, 2s.
HIGH = contenders("9d 8c 7c 6c 5c 4h 3h", "9s 8d 7d 6d 5d 4c 3c", "9c 8h 7h 6h 5h Ks 2s")
# Three wheels, tied low. The lows' top cards: 5d, 5s, 5c; the lowest card held (ace lowest): Ad, Ah, Ac.
LOW = contenders("Ad 2h 3h 4h 5d Kd Qd", "Ah 2s 3s 4s 5s Kh Qh", "Ac 2c 3c 4c 5c Ks Qs")


@pytest.mark.parametrize(
    ("rule", "winner"),
    [
        (OddChipRule.HIGH_CARD_IN_HAND, 1),  # the 9s is the best card of the hands as played
        (OddChipRule.ALL_CARDS_RRoP, 2),  # the Ks is the highest card anyone holds (not the lowest: 2s)
        (OddChipRule.POSITION, 0),  # the first from the dealer's left
    ],
)
def test_the_odd_chip_of_a_high_split(rule: OddChipRule, winner: int) -> None:
    assert odd_chip_to(Variant.STUD7, rule, HIGH) == winner


@pytest.mark.parametrize(
    ("rule", "winner"),
    [
        (OddChipRule.HIGH_CARD_IN_HAND, 1),  # the 5s, the highest card of the tied lows by suit
        (OddChipRule.ALL_CARDS_RRoP, 2),  # the Ac, the lowest card anyone holds
        (OddChipRule.POSITION, 0),
    ],
)
def test_the_odd_chip_of_a_razz_split(rule: OddChipRule, winner: int) -> None:
    assert odd_chip_to(Variant.RAZZ, rule, LOW) == winner


@pytest.mark.parametrize(
    ("rule", "winner"),
    [(OddChipRule.HIGH_CARD_IN_HAND, 1), (OddChipRule.ALL_CARDS_RRoP, 2), (OddChipRule.POSITION, 0)],
)
def test_the_odd_chip_of_a_low_half_in_hi_lo(rule: OddChipRule, winner: int) -> None:
    """Stud hi/lo: a pot of 99 is 50 high (the pot's odd chip goes high, R11.5.2) to player 3's flush alone, and
    49 low, split by the three tied wheels: 16 each, and the odd chip as the rule says."""
    hands = [*LOW, Contender(3, tuple(parse_cards("Tc Jc Qc 9c 8c 7d 6d")), None)]
    rules = Rules(Variant.STUD7_HL8, ante=1, bring_in=3, small_bet=10, big_bet=20, odd_chip_rule=rule)
    awards = award(rules, [Pot(99, (0, 1, 2, 3))], hands)
    assert [a for a in awards if a.share == "high"] == [Award(3, 50, 0, "high")]
    low = {a.player: a.amount for a in awards if a.share == "low"}
    assert low == {p: 17 if p == winner else 16 for p in (0, 1, 2)}


def test_an_ace_kicker_is_high_in_the_high_odd_chip_key() -> None:
    """Kings and queens with an ace kicker, tied: the ace plays high (only a wheel plays it low), so the As decides,
    not the kings' suits."""
    hands = contenders("Kc Kd Qc Qd As 2c 3d", "Kh Ks Qh Qs Ac 2h 3h")
    rules = Rules(Variant.STUD7, ante=1, bring_in=3, small_bet=10, big_bet=20)
    awards = {a.player: a.amount for a in award(rules, [Pot(101, (0, 1))], hands)}
    assert awards == {0: 51, 1: 50}


def test_an_ace_is_lower_than_a_deuce_in_the_rrop_low_key() -> None:
    """Razz with the community card (an ace, R8.3) making two wheels: the lowest card held by a player decides,
    and an ace is lower than any deuce (the Ad, not the 2c)."""
    hands = contenders("Ad 2d 3d 4d 5d Kh", "2c 3c 4c 5c Ks Qs", community="Ac")
    rules = Rules(Variant.RAZZ, ante=1, bring_in=3, small_bet=10, big_bet=20, odd_chip_rule=OddChipRule.ALL_CARDS_RRoP)
    awards = {a.player: a.amount for a in award(rules, [Pot(101, (0, 1))], hands)}
    assert awards == {0: 51, 1: 50}
