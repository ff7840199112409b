"""Awarding pots at showdown: high, low, hi/lo split with qualifier and scoops, odd chips (SPEC R10, R11).

``award`` takes the pots, each contender's cards and the rules, and returns who gets
what from which pot; the hand state applies it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

from ..cards import Card, Rank
from ..evaluation import evaluate_high, evaluate_low8, evaluate_razz, high_value, low8_value, razz_value
from ..evaluation.high import HighHand
from ..evaluation.low import LowHand
from .pots import Pot, split
from .rules import OddChipRule, Rules, Variant

__all__ = ["Award", "Contender", "award"]


class Contender(NamedTuple):
    """A hand at showdown: the player, his own cards, and the community card if one was dealt."""

    player: int
    own: tuple[Card, ...]
    community: Card | None


class Award(NamedTuple):
    """Chips from one pot to one player; ``share`` is ``"pot"``, ``"high"``, ``"low"`` or ``"split"``
    (identical winners both ways, R11.5.3)."""

    player: int
    amount: int
    pot: int
    share: str


def _low_rank(card: Card) -> int:
    return 0 if card.rank == Rank.ACE else card.rank + 1


class _Hands:
    """Each contender's evaluated hands, computed once."""

    def __init__(self, rules: Rules, contenders: Sequence[Contender]) -> None:
        self.rules = rules
        self.by_player = {c.player: c for c in contenders}
        self.cards = {c.player: c.own + ((c.community,) if c.community is not None else ()) for c in contenders}
        # Values (ints, cheap) decide the winners; the hand objects are built only for odd-chip ties.
        self.high_value: dict[int, int] = {}
        self.low_value: dict[int, int] = {}
        variant = rules.variant
        for player, cards in self.cards.items():
            if variant is Variant.RAZZ:
                self.low_value[player] = razz_value(cards)
            else:
                self.high_value[player] = high_value(cards)
                if variant is Variant.STUD7_HL8:
                    self.low_value[player] = low8_value(cards)

    def high_hand(self, player: int) -> HighHand:
        return evaluate_high(self.cards[player])

    def low_hand(self, player: int) -> LowHand | None:
        if self.rules.variant is Variant.RAZZ:
            return evaluate_razz(self.cards[player])
        return evaluate_low8(self.cards[player])

    # -- odd-chip priority (R11.6): larger key first --------------------------------------------

    def _high_key(self, player: int) -> tuple[object, ...]:
        rule = self.rules.odd_chip_rule
        contender = self.by_player[player]
        if rule is OddChipRule.POSITION:
            return (-player,)
        if rule is OddChipRule.ALL_CARDS_RRoP:
            return (max((c.rank, c.suit) for c in contender.own),)
        hand = self.high_hand(player)
        wheel = hand.ranks[0] == Rank.FIVE and hand.ranks[-1] == Rank.ACE  # A plays low in 5-4-3-2-A
        played = [
            (-1 if wheel and c.rank == Rank.ACE else int(c.rank), int(c.suit))
            for c in hand.cards
            if c != contender.community
        ]
        return tuple(sorted(played, reverse=True))

    def _low_key(self, player: int) -> tuple[object, ...]:
        rule = self.rules.odd_chip_rule
        contender = self.by_player[player]
        if rule is OddChipRule.POSITION:
            return (-player,)
        if rule is OddChipRule.ALL_CARDS_RRoP:  # the lowest card by suit, ace lowest, gets the chip
            rank, suit = min((_low_rank(c), int(c.suit)) for c in contender.own)
            return (-rank, -suit)
        hand = self.low_hand(player)
        assert hand is not None
        played = [(_low_rank(c), int(c.suit)) for c in hand.cards if c != contender.community]
        return tuple(sorted(played, reverse=True))

    def ordered(self, players: list[int], key: Callable[[int], tuple[object, ...]]) -> list[int]:
        return sorted(players, key=key, reverse=True) if len(players) > 1 else players

    # -- winners -----------------------------------------------------------------------------------

    def best_high(self, eligible: Sequence[int]) -> list[int]:
        values = self.high_value
        top = max(values[p] for p in eligible)
        return [p for p in eligible if values[p] == top]

    def best_low(self, eligible: Sequence[int]) -> list[int]:
        """The best low among ``eligible``; none if nobody qualifies (eight-or-better value 0)."""
        values = self.low_value
        top = max(values[p] for p in eligible)
        return [p for p in eligible if values[p] == top] if top else []


def award(rules: Rules, pots: Sequence[Pot], contenders: Sequence[Contender]) -> list[Award]:
    """Split every pot among its eligible contenders (players who folded or mucked are not contenders).

    A pot with a single eligible contender goes to him without evaluation.
    """
    hands = _Hands(rules, contenders)
    present = {c.player for c in contenders}
    unit = rules.chip_unit
    out: list[Award] = []
    for index, pot in enumerate(pots):
        eligible = [p for p in pot.eligible if p in present]
        if not eligible:
            continue
        if len(eligible) == 1:
            out.append(Award(eligible[0], pot.amount, index, "pot"))
            continue
        variant = rules.variant
        if variant is Variant.RAZZ:
            winners = hands.ordered(hands.best_low(eligible), hands._low_key)
            out += [Award(p, a, index, "pot") for p, a in split(pot.amount, winners, unit)]
            continue
        high = hands.ordered(hands.best_high(eligible), hands._high_key)
        low = hands.best_low(eligible) if variant is Variant.STUD7_HL8 else []
        if not low:  # high only, or no qualifying low: the high hand scoops (R10.3, R11.5.1)
            out += [Award(p, a, index, "pot") for p, a in split(pot.amount, high, unit)]
            continue
        if set(low) == set(high):  # the same players win both ways: one even split (R11.5.3)
            out += [Award(p, a, index, "split") for p, a in split(pot.amount, high, unit)]
            continue
        units = pot.amount // unit
        high_half = (units - units // 2) * unit + pot.amount % unit  # the odd chip goes high (R11.5.2)
        low_half = pot.amount - high_half
        out += [Award(p, a, index, "high") for p, a in split(high_half, high, unit)]
        out += [Award(p, a, index, "low") for p, a in split(low_half, hands.ordered(low, hands._low_key), unit)]
    return out
