"""studpoker: seven-card stud, stud hi/lo eight-or-better, five-card stud and razz.

>>> from studpoker import Card, evaluate_high
>>> evaluate_high("Kh Kd Ks 7c 7d 2s 9c").description
'Full house, kings full of sevens'

Importing the package is cheap: NumPy and the lookup tables load on the
first evaluation that needs them.
"""

from .cards import Card, CardError, Deck, Rank, Suit, format_cards, parse_card, parse_cards
from .evaluation import (
    HandCategory,
    HighHand,
    LowHand,
    evaluate_high,
    evaluate_low8,
    evaluate_razz,
    high_value,
    low8_value,
    razz_value,
)

__version__ = "0.1.0"

__all__ = [
    "Card",
    "CardError",
    "Deck",
    "HandCategory",
    "HighHand",
    "LowHand",
    "Rank",
    "Suit",
    "__version__",
    "evaluate_high",
    "evaluate_low8",
    "evaluate_razz",
    "format_cards",
    "high_value",
    "low8_value",
    "parse_card",
    "parse_cards",
    "razz_value",
]
