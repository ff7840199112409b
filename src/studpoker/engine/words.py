"""A shown hand in words, as the game at hand reads it: what the terminal game and the card room say at showdown.

>>> from studpoker.cards import parse_cards
>>> describe_hand(parse_cards("As Ad 7c 7h 2s Kd 9c"), Variant.STUD7)
'Two pair, aces and sevens'
>>> describe_hand(parse_cards("Ah 2c 3d 6s 7h Qd Qh"), Variant.STUD7_HL8)
'Pair of queens; low: 7-6-3-2-A low'
>>> describe_hand(parse_cards("Ks Kd 9c 7h 2s"), Variant.RAZZ)
'Pair of kings, K-K-9-7-2'
"""

from __future__ import annotations

from collections.abc import Sequence

from ..cards import Card
from ..evaluation import evaluate_high, evaluate_low8, evaluate_razz
from .rules import Variant

__all__ = ["describe_hand"]


def describe_hand(cards: Sequence[Card | None], variant: Variant) -> str:
    """The hand in words (both halves in stud hi/lo, ``low: none`` without a qualifying low); ``""`` unless
    five to seven cards are known. A community card, when one was turned, belongs in ``cards``."""
    known = [c for c in cards if c is not None]
    if not 5 <= len(known) <= 7:
        return ""
    if variant is Variant.RAZZ:
        return evaluate_razz(known).description
    high = evaluate_high(known).description
    if variant is Variant.STUD7_HL8:
        low = evaluate_low8(known)
        return f"{high}; low: {low.description if low is not None else 'none'}"
    return high
