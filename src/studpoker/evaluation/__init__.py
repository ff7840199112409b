"""Hand evaluation: high hands, eight-or-better and razz lows, boards, and NumPy batches.

Scalar functions take cards as text (``"As Kd 7c 7h 2s"``), :class:`~studpoker.cards.Card`
objects or 0..51 indices. Every value is an ``int`` where larger is better;
the batch functions return the same numbers for many hands at once.

>>> evaluate_high("As Ad 7c 7h 2s Kd 9c").description
'Two pair, aces and sevens'
>>> high_value("Kh Kd Ks 7c 7d") > high_value("Qh Qd Qs Ac Ad")
True

The batch functions (:func:`high_batch`, :func:`low8_batch`, :func:`razz_batch`,
:func:`board_batch`, :func:`high_categories`) live in :mod:`studpoker.evaluation.batch` and import
NumPy on first use, so importing this package stays cheap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ._tables import HandCategory, LowCategory
from .board import board_tiebreak, first_to_act, high_board_value, low_board_value
from .high import HighHand, evaluate_high, high_category, high_value
from .low import LowHand, evaluate_low8, evaluate_razz, low8_value, razz_value

if TYPE_CHECKING:
    from .batch import board_batch, high_batch, high_categories, low8_batch, razz_batch

__all__ = [
    "HandCategory",
    "HighHand",
    "LowCategory",
    "LowHand",
    "board_batch",
    "board_tiebreak",
    "evaluate_high",
    "evaluate_low8",
    "evaluate_razz",
    "first_to_act",
    "high_batch",
    "high_board_value",
    "high_categories",
    "high_category",
    "high_value",
    "low8_batch",
    "low8_value",
    "low_board_value",
    "razz_batch",
    "razz_value",
]

_BATCH = {"board_batch", "high_batch", "high_categories", "low8_batch", "razz_batch"}


def __getattr__(name: str) -> Any:
    """Import the NumPy batch functions only when first asked for."""
    if name in _BATCH:
        from . import batch

        return getattr(batch, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
