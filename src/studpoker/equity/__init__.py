"""Stud equity: how often each hand wins from here, with the folded cards out of the deck.

* :func:`equity`: the answer, exact (every outcome counted) when that is quick, Monte Carlo otherwise.
* :class:`Spot`: the question (the game, each player's known cards, the dead cards); :class:`EquityError`.
* :class:`EquityResult`, :class:`PlayerEquity`: win, tie and equity, or for stud hi/lo scoop, high and low shares.
* :mod:`~studpoker.equity.exact`, :mod:`~studpoker.equity.montecarlo`: the two methods.
"""

from .api import DEFAULT_TRIALS, equity
from .result import EquityResult, PlayerEquity
from .spot import VARIANT_NAMES, EquityError, Spot

__all__ = ["DEFAULT_TRIALS", "VARIANT_NAMES", "EquityError", "EquityResult", "PlayerEquity", "Spot", "equity"]
