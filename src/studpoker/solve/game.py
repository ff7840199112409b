"""A river as the solver sees it: two lists of hands with their weights, which pairs can be dealt together, how a
showdown between them splits the pot, the pot, and the betting tree.

Any game of this shape can be solved, not only stud: Kuhn poker and the toy games of the literature are built
the same way (:mod:`~studpoker.solve.toys`), which is how the solver is checked against known answers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from .tree import BettingTree, SolveError

__all__ = ["Game"]

Floats = npt.NDArray[np.float64]

#: The most hands a side may have (a 7th-street range of three unseen down cards has at most C(44, 3) = 13,244).
MAX_HANDS = 20_000
#: The most pairs of hands (one a player) a game may have: the solver keeps a few dense matrices of that size
#: (about 200 MB at this bound), so two full ranges of three down cards (10,660 a side) must be narrowed first.
MAX_PAIRS = 4_000_000


@dataclass(frozen=True, eq=False)
class Game:
    """Two players' hands at the start of the last betting round.

    ``weights[p]`` is how likely each of player p's hands is before card removal; ``compatible[i, j]`` is 1 when
    player 0's hand i and player 1's hand j can be dealt together (no card in common), else 0; ``share[i, j]``
    is what part of the showdown pot player 0 takes when they show down (1 wins, 0.5 splits, 0.25 a quarter in
    hi/lo). ``pot`` is what is in the pot already; ``tree`` the betting; ``hands[p]`` names the hands.
    """

    weights: tuple[Floats, Floats]
    compatible: Floats
    share: Floats
    pot: float
    tree: BettingTree
    hands: tuple[tuple[str, ...], tuple[str, ...]]

    def __post_init__(self) -> None:
        n0, n1 = len(self.weights[0]), len(self.weights[1])
        if not 0 < n0 <= MAX_HANDS or not 0 < n1 <= MAX_HANDS:
            raise SolveError(f"each player needs 1 to {MAX_HANDS:,} hands, got {n0:,} and {n1:,}")
        if n0 * n1 > MAX_PAIRS:
            raise SolveError(
                f"{n0:,} x {n1:,} hands is more than the {MAX_PAIRS:,} pairs the solver takes: narrow the ranges "
                "(about 2,000 hands a side at most)"
            )
        for name, matrix in (("compatible", self.compatible), ("share", self.share)):
            if matrix.shape != (n0, n1):
                raise SolveError(
                    f"{name} must be {n0} x {n1} (hands of player 0 by hands of player 1), got {matrix.shape}"
                )
            if not np.all(np.isfinite(matrix)) or matrix.min() < 0 or matrix.max() > 1:
                raise SolveError(f"{name} must hold numbers from 0 to 1")
        for p, w in enumerate(self.weights):
            if not np.all(np.isfinite(w)) or w.min() < 0 or w.max() <= 0:
                raise SolveError(f"player {p}'s weights must be 0 or more, some above 0")
            if len(self.hands[p]) != len(w):
                raise SolveError(f"player {p} has {len(w)} weights but {len(self.hands[p])} hand names")
        if not (np.isfinite(self.pot) and self.pot > 0):
            raise SolveError(f"the pot must be above 0, got {self.pot!r}")
        if float(self.weights[0] @ self.compatible @ self.weights[1]) <= 0:
            raise SolveError("no hand of player 0 can be dealt with a hand of player 1: the ranges share every card")

    @classmethod
    def of(
        cls,
        weights: tuple[npt.ArrayLike, npt.ArrayLike],
        compatible: npt.ArrayLike,
        share: npt.ArrayLike,
        pot: float,
        tree: BettingTree,
        hands: tuple[Sequence[str], Sequence[str]] | None = None,
    ) -> Game:
        """A game from plain lists (hands named ``0``, ``1``, ... unless ``hands`` names them)."""
        w = (np.asarray(weights[0], dtype=np.float64), np.asarray(weights[1], dtype=np.float64))
        names = hands or (tuple(map(str, range(len(w[0])))), tuple(map(str, range(len(w[1])))))
        return cls(
            w,
            np.asarray(compatible, dtype=np.float64),
            np.asarray(share, dtype=np.float64),
            float(pot),
            tree,
            (tuple(names[0]), tuple(names[1])),
        )

    @property
    def deals(self) -> float:
        """The total weight of every deal of a hand to each player (the normaliser of every expectation)."""
        return float(self.weights[0] @ self.compatible @ self.weights[1])

    def equities(self) -> tuple[Floats, Floats]:
        """Each hand's share of the pot were the hands shown down now, against the other's range (card removal
        counted); ``nan`` for a hand no hand of the other can be dealt with."""
        c, s = self.compatible, self.share
        against1 = c @ self.weights[1]
        against0 = c.T @ self.weights[0]
        with np.errstate(invalid="ignore", divide="ignore"):
            e0 = (s * c) @ self.weights[1] / against1
            e1 = ((1.0 - s) * c).T @ self.weights[0] / against0
        return e0, e1

    def range_equity(self) -> tuple[float, float]:
        """Each range's share of the pot were every hand shown down now."""
        e0 = float(self.weights[0] @ (self.share * self.compatible) @ self.weights[1]) / self.deals
        return e0, 1.0 - e0
