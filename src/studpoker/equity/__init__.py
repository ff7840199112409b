"""Stud equity: how often each hand wins from here, with the folded cards out of the deck.

* :func:`equity`: the answer, exact (every outcome counted) when that is quick, Monte Carlo otherwise.
* :class:`Spot`: the question (the game, each player's known cards, the dead cards); :class:`EquityError`.
* :class:`EquityResult`, :class:`PlayerEquity`: win, tie and equity, or for stud hi/lo scoop, high and low shares.
* :class:`Range`, :class:`RangeError`: what an opponent may hold face down (:mod:`~studpoker.equity.ranges`);
  any hand given to :func:`equity` may be one (:mod:`~studpoker.equity.ranged`).
* :func:`final_categories` (:mod:`~studpoker.equity.categories`): how often each hand ends as each category
  (flush, full house, ...; the low in hi/lo and razz), :class:`CategoryResult`, :class:`PlayerCategories`.
* :mod:`~studpoker.equity.exact`, :mod:`~studpoker.equity.sweep`, :mod:`~studpoker.equity.montecarlo`: the methods.
"""

from typing import TYPE_CHECKING, Any

from .api import DEFAULT_TRIALS, equity
from .result import EquityResult, PlayerEquity
from .spot import EquityError, Spot

if TYPE_CHECKING:
    from .categories import CategoryResult, PlayerCategories, final_categories
    from .ranges import Range, RangeError

__all__ = [
    "DEFAULT_TRIALS",
    "CategoryResult",
    "EquityError",
    "EquityResult",
    "PlayerCategories",
    "PlayerEquity",
    "Range",
    "RangeError",
    "Spot",
    "equity",
    "final_categories",
]


def __getattr__(name: str) -> Any:
    """``Range`` and ``RangeError``, and the final hand categories, on first use: the range compiler is not needed
    by every equity question, and the categories module loads NumPy."""
    if name in ("Range", "RangeError"):
        from . import ranges

        return getattr(ranges, name)
    if name in ("CategoryResult", "PlayerCategories", "final_categories"):
        from . import categories

        return getattr(categories, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
