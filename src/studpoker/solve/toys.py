"""Toy games with known solutions, built as rivers so that the solver can be checked against the literature.

* :func:`kuhn`: Kuhn poker (Kuhn, 1950). Three cards, one each; an ante of 1 each, one bet of 1, no raise.
  Player 0's value is -1/18; player 1's equilibrium is unique: bet the king always and the jack a third of
  the time after a check, call a bet with the king always and the queen a third of the time.
* :func:`clairvoyance`: the clairvoyance game (Ferguson and Ferguson; Chen and Ankenman, *The Mathematics of
  Poker*, ch. 11). Player 0 holds the nuts or air, player 1 a hand that beats only air; only player 0 may bet.
  With a pot P and a bet B, player 1 calls ``P / (P + B)`` of the time and player 0 bets every nut hand and
  bluffs ``B / (P + B)`` as many air hands as nut hands (while he has that many).
* :func:`half_street`: the half-street [0, 1] game with folding (``n`` hands a side, equally likely and
  independent). Player 0 checks in the dark, player 1 bets or checks, player 0 calls or folds; with a pot of 1
  and a bet of ``s`` the equilibrium has player 1 bet the hands better than ``y1`` and bluff those worse than
  ``y0``, player 0 call with those better than ``x1``, where ``x1 = 2 y1``, ``y0 = (1 + s) x1`` and
  ``(1 + s)(1 - y0) = s y1`` (:func:`half_street_thresholds`; derived in ``docs/solve.md``).
"""

from __future__ import annotations

import numpy as np

from .game import Game
from .tree import BettingTree

__all__ = ["clairvoyance", "half_street", "half_street_thresholds", "kuhn"]


def kuhn() -> Game:
    """Kuhn poker as a river: hands J, Q, K each; the pot is the two antes; one bet, no raise."""
    cards = ("J", "Q", "K")
    compatible = 1.0 - np.eye(3)
    share = np.array([[1.0 if i > j else 0.0 for j in range(3)] for i in range(3)])
    tree = BettingTree.build(bet=1, raises=0)
    return Game.of((np.ones(3), np.ones(3)), compatible, share, 2, tree, (cards, cards))


def clairvoyance(pot: int = 1, bet: int = 1, nuts: float = 0.5) -> Game:
    """The clairvoyance game: player 0 holds the nuts (weight ``nuts``) or air, player 1 a bluff catcher; only
    player 0 may bet, player 1 calls or folds."""
    compatible = np.ones((2, 1))
    share = np.array([[1.0], [0.0]])
    tree = BettingTree.build(bet=bet, raises=0, half_street=True)
    return Game.of(([nuts, 1.0 - nuts], [1.0]), compatible, share, pot, tree, (("nuts", "air"), ("catcher",)))


def half_street(n: int = 100, bet: int = 1, pot: int = 1) -> Game:
    """The half-street [0, 1] game with ``n`` hands a side, hand 0 the best: player 1 (who acts second) alone
    may bet; player 0 checks, and calls or folds."""
    strength = np.arange(n)
    share = np.where(
        strength[:, None] < strength[None, :], 1.0, np.where(strength[:, None] == strength[None, :], 0.5, 0.0)
    )
    tree = BettingTree.build(bet=bet, raises=0, first=1, half_street=True)
    # Player 0 "checks in the dark": the tree lets player 1 act first and bet alone, the same game.
    names = tuple(f"{(k + 0.5) / n:.3f}" for k in range(n))
    return Game.of((np.ones(n), np.ones(n)), np.ones((n, n)), share, pot, tree, (names, names))


def half_street_thresholds(s: float) -> tuple[float, float, float]:
    """``(y1, x1, y0)`` of the half-street [0, 1] game with a pot of 1 and a bet of ``s``: player 1 value-bets
    below ``y1`` and bluffs above ``y0``, player 0 calls below ``x1`` (0 is the best hand)."""
    # x1 = 2 y1 and y0 = (1 + s) x1 = 2 (1 + s) y1; (1 + s)(1 - y0) = s y1.
    y1 = (1 + s) / (s + 2 * (1 + s) ** 2)
    return y1, 2 * y1, 2 * (1 + s) * y1
