"""A river as the solver sees it: two lists of hands with their weights, which pairs can be dealt together, how a
showdown between them splits the pot, the pot, and the betting tree.

Which hands can meet and how they split the pot is a :class:`Showdown`: dense matrices (:class:`DenseShowdown`) for
small games and the toy games of :mod:`~studpoker.solve.toys`, or the hands' cards and values
(:class:`~studpoker.solve.sweep.CardShowdown`) for large stud ranges, where the matrices would not fit.
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np
import numpy.typing as npt

from .tree import BettingTree, SolveError

__all__ = ["MAX_ENTRIES", "MAX_HANDS", "MAX_PAIRS", "Deal", "DenseShowdown", "Game", "Showdown", "sum_by"]

Floats = npt.NDArray[np.float64]

#: The most hands a side may have (a 7th-street range of three unseen down cards has at most C(44, 3) = 13,244).
MAX_HANDS = 20_000
#: The most pairs of hands (one a player) dense matrices may have: the solver keeps a few of that size (about 150 MB
#: at this bound); larger stud ranges are valued from their cards (:class:`~studpoker.solve.sweep.CardShowdown`).
MAX_PAIRS = 4_000_000
#: The most numbers a strategy may hold (every decision's hands by actions): the solver keeps three such tables
#: (regrets, the strategy summed, the current one), about 240 MB at this bound.
MAX_ENTRIES = 10_000_000
#: The largest weight of a hand and the largest pot (beyond them sums overflow or rounding swamps the bets).
MAX_WEIGHT = 1e6
MAX_POT = 1e12


class Showdown(Protocol):
    """Which hands of the two players can be dealt together, and how a showdown between them splits the pot."""

    @property
    def sizes(self) -> tuple[int, int]:
        """The number of hands of each player."""
        ...

    def sums(self, player: int, reach: npt.NDArray[np.floating]) -> tuple[Floats, Floats]:
        """For ``reach``, the other player's weights by columns (his hands by K), ``(share, compatible)``: for each
        of ``player``'s hands and column, the sum of the other's weights times ``player``'s share of the pot, and
        the sum of the other's weights, over the other's hands that can be dealt with it (both hands by K)."""
        ...

    def dense(self) -> tuple[Floats, Floats]:
        """``(compatible, share)`` as player 0's hands by player 1's (share: player 0's part of the pot)."""
        ...


@dataclass(frozen=True, eq=False)
class DenseShowdown:
    """A showdown given by its matrices: ``compatible[i, j]`` is 1 when player 0's hand i and player 1's hand j can
    be dealt together (else 0), ``share[i, j]`` player 0's part of the showdown pot (1 wins, 0.5 splits, 0.25 a
    quarter in hi/lo)."""

    compatible: Floats
    share: Floats
    _left: tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if self.compatible.ndim != 2 or self.share.shape != self.compatible.shape:
            raise SolveError(
                f"compatible and share must be matrices of one shape (hands of player 0 by hands of player 1), got"
                f" {self.compatible.shape} and {self.share.shape}"
            )
        if self.compatible.size > MAX_PAIRS:
            raise SolveError(
                f"{self.compatible.shape[0]:,} x {self.compatible.shape[1]:,} hands is more than the {MAX_PAIRS:,}"
                " pairs dense matrices may hold"
            )
        for name, matrix in (("compatible", self.compatible), ("share", self.share)):
            if matrix.size and (not np.all(np.isfinite(matrix)) or matrix.min() < 0 or matrix.max() > 1):
                raise SolveError(f"{name} must hold numbers from 0 to 1")
        c = self.compatible
        # Single precision for the products: half the memory and time, errors far below what is measured.
        win0 = np.vstack([self.share * c, c]).astype(np.float32)
        win1 = np.vstack([((1.0 - self.share) * c).T, c.T]).astype(np.float32)
        object.__setattr__(self, "_left", (win0, win1))

    @property
    def sizes(self) -> tuple[int, int]:
        """The number of hands of each player."""
        return self.compatible.shape[0], self.compatible.shape[1]

    def sums(self, player: int, reach: npt.NDArray[np.floating]) -> tuple[Floats, Floats]:
        """See :meth:`Showdown.sums`: one product of the stacked share and card-removal matrices."""
        both = (self._left[player] @ reach.astype(np.float32)).astype(np.float64)
        n = self.sizes[player]
        return both[:n], both[n:]

    def dense(self) -> tuple[Floats, Floats]:
        """The matrices themselves."""
        return self.compatible, self.share


def sum_by(parents: npt.NDArray[np.intp], values: Floats, n: int) -> Floats:
    """For each of ``n`` hands, the sum of ``values`` over the next street's hands whose parent it is."""
    total: Floats = np.bincount(parents, weights=values, minlength=n).astype(np.float64)
    return total


@dataclass(frozen=True, eq=False)
class Deal:
    """The card each player is dealt between two streets (sixth street and the river): each hand of the next street
    is a hand of this one and a card (``parents[p]``: for each of player p's next-street hands, the index of his
    hand on this street); ``showdown`` is the next street's; ``outcomes`` how many ways the two cards can come to a
    pair of hands that can meet (the same for every pair: the deck less the cards seen and the two hands), so that
    a fold before the cards weighs as much as the deals after it."""

    parents: tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]
    showdown: Showdown
    hands: tuple[tuple[str, ...], tuple[str, ...]]
    outcomes: int


@dataclass(frozen=True, eq=False)
class Game:
    """Two players' hands at the start of the last betting round.

    ``weights[p]`` is how likely each of player p's hands is before card removal; ``showdown`` which hands can be
    dealt together and how they split the pot; ``pot`` is what is in the pot already; ``tree`` the betting;
    ``hands[p]`` names the hands. With ``deal`` the betting is on two streets (``tree.streets`` 2): the hands,
    weights and showdown are the first street's, and ``deal`` says how the next street's hands come from them.
    ``deals`` is the total weight of the deals (of the next street's, with a ``deal``).
    """

    weights: tuple[Floats, Floats]
    showdown: Showdown
    pot: float
    tree: BettingTree
    hands: tuple[tuple[str, ...], tuple[str, ...]]
    deal: Deal | None = None
    deals: float = field(init=False)

    def __post_init__(self) -> None:
        if not isinstance(self.tree, BettingTree):
            raise SolveError(f"the tree must be a BettingTree (BettingTree.build), got {type(self.tree).__name__}")
        if not all(isinstance(w, np.ndarray) and w.ndim == 1 for w in self.weights) or len(self.weights) != 2:
            raise SolveError("weights must be two flat arrays, one a player")
        n0, n1 = len(self.weights[0]), len(self.weights[1])
        if not 0 < n0 <= MAX_HANDS or not 0 < n1 <= MAX_HANDS:
            raise SolveError(f"each player needs 1 to {MAX_HANDS:,} hands, got {n0:,} and {n1:,}")
        if self.showdown.sizes != (n0, n1):
            raise SolveError(f"the showdown is for {self.showdown.sizes} hands, the weights for {(n0, n1)}")
        for p, w in enumerate(self.weights):
            if not np.all(np.isfinite(w)) or w.min() < 0 or w.max() <= 0 or w.max() > MAX_WEIGHT:
                raise SolveError(f"player {p}'s weights must be from 0 to {MAX_WEIGHT:g}, some above 0")
            if len(self.hands[p]) != len(w):
                raise SolveError(f"player {p} has {len(w)} weights but {len(self.hands[p])} hand names")
        if not (np.isfinite(self.pot) and 0 < self.pot <= MAX_POT):
            raise SolveError(f"the pot must be above 0 and at most {MAX_POT:g}, got {self.pot!r}")
        if self.pot > 1_000 * self.tree.bet:
            raise SolveError(
                f"a pot of {self.pot:g} is more than 1,000 bets of {self.tree.bet}: what the betting could win or lose"
                " would be lost in the solver's rounding"
            )
        if (self.deal is None) != (self.tree.streets == 1):
            raise SolveError("a betting tree of two streets needs the deal between them, and one street none")
        if self.deal is not None and tuple(len(p) for p in self.deal.parents) != self.deal.showdown.sizes:
            raise SolveError("the deal's parents and its showdown are for different hands")
        entries = sum(
            self.size(node.player, node.street) * len(node.actions)
            for node in self.tree.nodes
            if node.player is not None
        )
        if entries > MAX_ENTRIES:
            decisions = sum(1 for node in self.tree.nodes if node.kind == "decision")
            raise SolveError(
                f"{decisions:,} decisions for so many hands make {entries:,} numbers a strategy, more than the "
                f"{MAX_ENTRIES:,} the solver takes: cap the raises, shorten the stacks or narrow the ranges"
            )
        deals = float(self.weights[0] @ self.against(0)[1])
        if deals <= 0:
            raise SolveError("no hand of player 0 can be dealt with a hand of player 1: the ranges share every card")
        object.__setattr__(self, "deals", deals)

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
        """A game from plain lists and matrices (hands named ``0``, ``1``, ... unless ``hands`` names them)."""
        if not isinstance(pot, numbers.Real) or isinstance(pot, bool):
            raise SolveError(f"the pot must be a number, got {type(pot).__name__}")
        if not isinstance(weights, tuple | list) or len(weights) != 2:
            raise SolveError("weights must be two lists, one a player")
        try:
            w = (np.asarray(weights[0], dtype=np.float64), np.asarray(weights[1], dtype=np.float64))
            c, s = np.asarray(compatible, dtype=np.float64), np.asarray(share, dtype=np.float64)
        except (TypeError, ValueError) as error:
            raise SolveError(f"the weights and matrices must be numbers: {error}") from None
        if w[0].ndim != 1 or w[1].ndim != 1:
            raise SolveError("each player's weights must be a flat list, one number a hand")
        names = hands or (tuple(map(str, range(len(w[0])))), tuple(map(str, range(len(w[1])))))
        return cls(w, DenseShowdown(c, s), float(pot), tree, (tuple(names[0]), tuple(names[1])))

    @property
    def compatible(self) -> Floats:
        """Which hands can be dealt together, as a dense matrix (small games only: see :data:`MAX_PAIRS`)."""
        return self.showdown.dense()[0]

    @property
    def share(self) -> Floats:
        """Player 0's share of each showdown, as a dense matrix (small games only)."""
        return self.showdown.dense()[1]

    def size(self, player: int, street: int) -> int:
        """How many hands ``player`` has on ``street`` (0, or 1 after the deal)."""
        if street == 0:
            return len(self.weights[player])
        assert self.deal is not None
        return len(self.deal.parents[player])

    def against(self, player: int) -> tuple[Floats, Floats]:
        """For each of ``player``'s hands, ``(share, compatible)`` against the other's whole range (his weights),
        over the deals to come when there is a deal: his share of the pot at the showdown were no more bets made."""
        if self.deal is None:
            share, compatible = self.showdown.sums(player, self.weights[1 - player][:, None])
            return share[:, 0], compatible[:, 0]
        parents = self.deal.parents
        share, compatible = self.deal.showdown.sums(player, self.weights[1 - player][parents[1 - player]][:, None])
        n = len(self.weights[player])
        return sum_by(parents[player], share[:, 0], n), sum_by(parents[player], compatible[:, 0], n)

    def equities(self) -> tuple[Floats, Floats]:
        """Each hand's share of the pot were the hands shown down now, against the other's range (card removal
        counted); ``nan`` for a hand no hand of the other can be dealt with."""
        out = []
        for player in (0, 1):
            share, compatible = self.against(player)
            with np.errstate(invalid="ignore", divide="ignore"):
                out.append(share / compatible)
        return out[0], out[1]

    def range_equity(self) -> tuple[float, float]:
        """Each range's share of the pot were every hand shown down now."""
        e0 = float(self.weights[0] @ self.against(0)[0]) / self.deals
        return e0, 1.0 - e0
