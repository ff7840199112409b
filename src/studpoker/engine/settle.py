"""Awarding pots at showdown: high, low, hi/lo split with qualifier and scoops, odd chips (SPEC R10, R11).

``award`` takes the pots, each contender's cards and the rules, and returns who gets
what from which pot; the hand state applies it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

from ..cards import Card, Rank
from ..evaluation import evaluate_high, evaluate_low8, evaluate_razz
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
        self.high: dict[int, HighHand] = {}
        self.low: dict[int, LowHand | None] = {}
        variant = rules.variant
        for c in contenders:
            cards = c.own + ((c.community,) if c.community is not None else ())
            if variant is Variant.RAZZ:
                self.low[c.player] = evaluate_razz(cards)
            else:
                self.high[c.player] = evaluate_high(cards)
                if variant is Variant.STUD7_HL8:
                    self.low[c.player] = evaluate_low8(cards)

    # -- odd-chip priority (R11.6): larger key first --------------------------------------------

    def _high_key(self, player: int) -> tuple[object, ...]:
        rule = self.rules.odd_chip_rule
        contender = self.by_player[player]
        if rule is OddChipRule.POSITION:
            return (-player,)
        if rule is OddChipRule.ALL_CARDS_RRoP:
            return (max((c.rank, c.suit) for c in contender.own),)
        hand = self.high[player]
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
        hand = self.low[player]
        assert hand is not None
        played = [(_low_rank(c), int(c.suit)) for c in hand.cards if c != contender.community]
        return tuple(sorted(played, reverse=True))

    def ordered(self, players: Sequence[int], key: Callable[[int], tuple[object, ...]]) -> list[int]:
        return sorted(players, key=key, reverse=True)

    # -- winners -----------------------------------------------------------------------------------

    def best_high(self, eligible: Sequence[int]) -> list[int]:
        top = max(self.high[p].value for p in eligible)
        return [p for p in eligible if self.high[p].value == top]

    def best_low(self, eligible: Sequence[int]) -> list[int]:
        values = {p: hand.value for p in eligible if (hand := self.low[p]) is not None}
        if not values:
            return []
        top = max(values.values())
        return [p for p, v in values.items() if v == top]


def award(rules: Rules, pots: Sequence[Pot], contenders: Sequence[Contender]) -> list[Award]:
    """Split every pot among its eligible contenders (players who folded or mucked are not contenders).

    A pot with a single eligible contender goes to him without evaluation.
    """
    hands = _Hands(rules, [c for c in contenders if any(len(p.eligible) > 1 for p in pots)])
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
