"""Counterfactual regret minimisation over a river (or sixth street and the river), every hand of a range at once.

Each iteration walks the betting tree once per player: it carries the other player's chance of reaching each
node (a vector over his hands) down the tree, values every end for all of the player's hands with two sums of the
street's showdown (what his hands win against the other's reach, and how much of it they can meet: matrix products
or the sorted sweep), and carries the values back up, updating each hand's regrets. At a deal between two streets
a river hand takes its sixth-street hand's reach, and a sixth-street hand's value is the sum of its river hands'.
Discounted CFR (Brown and Sandholm, 2019: alpha 1.5, beta 0, gamma 2) is the default; CFR+ (Tammelin, 2014) is
the other choice. Both converge in their *average* strategy, which is what is returned, and
whose distance from an equilibrium is measured honestly by a best response (:func:`exploitability`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Literal

import numpy as np
import numpy.typing as npt

from .game import Game, Showdown, sum_by
from .tree import Node, SolveError

__all__ = ["METHODS", "Strategy", "Trainer", "best_response", "exploitability", "hand_values", "reaches", "train"]

Floats = npt.NDArray[np.float64]
Method = Literal["dcfr", "cfr+"]
METHODS: tuple[Method, ...] = ("dcfr", "cfr+")

#: Hands times columns one showdown call may take (memory: about 8 x 8 bytes x 3 of it at the sweep's peak).
COLUMN_BUDGET = 1_000_000

#: One strategy: for each decision node (by index), an array of the acting player's hands by actions.
Strategy = dict[int, Floats]


class _Ends:
    """The ends of the tree valued for all of a player's hands at once: the value of an end is
    ``a * share + b * compatible``, the two sums of its street's :class:`~studpoker.solve.game.Showdown` over the
    other player's reach of that end (see :meth:`values`). On two streets a fold before the deal counts every way
    the cards could have come (``Deal.outcomes``), as the ends after it do."""

    def __init__(self, game: Game) -> None:
        ends = [node for node in game.tree.nodes if node.kind in ("fold", "showdown")]
        self.streets: list[tuple[Showdown, list[int], Floats, Floats]] = []
        pot = game.pot
        for street in range(game.tree.streets):
            mine = [node for node in ends if node.street == street]
            if not mine:
                continue
            scale = game.deal.outcomes if game.deal is not None and street == 0 else 1
            showdown = game.showdown if street == 0 or game.deal is None else game.deal.showdown
            a = np.zeros((2, len(mine)))
            b = np.zeros((2, len(mine)))
            for k, node in enumerate(mine):
                for p in (0, 1):
                    if node.kind == "showdown":
                        put = node.put[p]
                        a[p, k], b[p, k] = pot + 2 * put, -put
                    elif node.folder == p:
                        b[p, k] = -node.put[p]
                    else:
                        assert node.folder is not None
                        b[p, k] = pot + node.put[node.folder]
            self.streets.append((showdown, [node.index for node in mine], a * scale, b * scale))

    def values(self, player: int, reach: dict[int, Floats]) -> dict[int, Floats]:
        """Player ``player``'s counterfactual value of every end, a vector over his hands, given the other
        player's reach of each end (with his hands' weights)."""
        out: dict[int, Floats] = {}
        for showdown, index, a, b in self.streets:
            # A few columns at a time: the sweep holds several arrays of the other's hands (times eight keys) by
            # the columns, which on sixth street (a hundred ends and more) would not all fit at once.
            step = max(1, COLUMN_BUDGET // max(1, showdown.sizes[1 - player]))
            for start in range(0, len(index), step):
                part = index[start : start + step]
                opponent = np.stack([reach[i] for i in part], axis=1)
                share, compatible = showdown.sums(player, opponent)
                cut = slice(start, start + len(part))
                value = share * a[player, cut] + compatible * b[player, cut]
                out.update((i, value[:, k]) for k, i in enumerate(part))
        return out


def reaches(game: Game, player: int, strategy: Strategy) -> dict[int, Floats]:
    """Each node's reach for ``player``'s hands: his weights times his chance of taking the actions leading to it
    (after a deal, each next-street hand has its parent's reach)."""
    reach = {0: game.weights[player]}
    for node in game.tree.nodes:
        if node.kind == "deal":
            assert game.deal is not None
            reach[node.children[0]] = reach[node.index][game.deal.parents[player]]
        if node.kind != "decision":
            continue
        here = reach[node.index]
        if node.player == player:
            sigma = strategy[node.index]
            for a, child in enumerate(node.children):
                reach[child] = here * sigma[:, a]
        else:
            for child in node.children:
                reach[child] = here
    return reach


def _regret_matching(regrets: Floats) -> Floats:
    positive = np.maximum(regrets, 0.0)
    total = positive.sum(axis=1, keepdims=True)
    uniform = np.full_like(regrets, 1.0 / regrets.shape[1])
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(total > 0, positive / total, uniform)


def _average(sums: Strategy, fallback: Strategy) -> Strategy:
    """The average strategy from the summed strategies; a hand that never reached a node plays the fallback."""
    out: Strategy = {}
    for index, s in sums.items():
        total = s.sum(axis=1, keepdims=True)
        with np.errstate(invalid="ignore", divide="ignore"):
            out[index] = np.where(total > 0, s / total, fallback[index])
    return out


def _back_up(
    game: Game,
    player: int,
    ends: dict[int, Floats],
    choose: Callable[[Node, Floats], Floats],
) -> dict[int, Floats]:
    """Every node's value for ``player``'s hands, from the ends up: at his decisions ``choose`` turns the children's
    values (hands by actions) into the node's, at the other's they add up."""
    values = dict(ends)
    for node in reversed(game.tree.nodes):
        if node.kind == "deal":  # a hand's value before the cards: the sum over the cards it may be dealt
            assert game.deal is not None
            child = values[node.children[0]]
            values[node.index] = sum_by(game.deal.parents[player], child, game.size(player, 0))
        if node.kind != "decision":
            continue
        children = np.stack([values[c] for c in node.children], axis=1)
        values[node.index] = choose(node, children) if node.player == player else children.sum(axis=1)
    return values


def best_response(game: Game, player: int, strategy: Strategy, ends: _Ends | None = None) -> Floats:
    """The most each of ``player``'s hands can win against the other's ``strategy`` (a counterfactual value: the
    sum over the other's hands of their weight times what this hand wins against them)."""
    ends = ends or _Ends(game)
    reach = reaches(game, 1 - player, strategy)
    values = _back_up(game, player, ends.values(player, reach), lambda node, children: children.max(axis=1))
    return values[0]


def hand_values(game: Game, strategy: Strategy, ends: _Ends | None = None) -> tuple[Floats, Floats]:
    """What each hand of each player wins on average (chips out of the pot, the pot counted as won back) when both
    play ``strategy``; ``nan`` for a hand no hand of the other can be dealt with."""
    ends = ends or _Ends(game)
    out = []
    for player in (0, 1):
        reach = reaches(game, 1 - player, strategy)

        def play(node: Node, children: Floats) -> Floats:
            value: Floats = (children * strategy[node.index]).sum(axis=1)
            return value

        root = _back_up(game, player, ends.values(player, reach), play)[0]
        dealt = game.against(player)[1]
        with np.errstate(invalid="ignore", divide="ignore"):
            out.append(root / dealt)
    return out[0], out[1]


def exploitability(game: Game, strategy: Strategy, ends: _Ends | None = None) -> tuple[float, float, float]:
    """How far ``strategy`` is from an equilibrium: ``(exploitability, best0, best1)`` where ``best`` is what a
    best response of each player wins against the other's strategy (chips, averaged over the deals) and the
    exploitability their mean gain over the pot, ``(best0 + best1 - pot) / 2``: 0 at an equilibrium."""
    ends = ends or _Ends(game)
    deals = game.deals
    best = [float(game.weights[p] @ best_response(game, p, strategy, ends)) / deals for p in (0, 1)]
    return max(0.0, (best[0] + best[1] - game.pot) / 2), best[0], best[1]


@dataclass
class Trainer:
    """Runs CFR on ``game``: :meth:`step` does one iteration (both players), :meth:`average` is the answer so far."""

    game: Game
    method: Method = "dcfr"
    iterations: int = 0
    _ends: _Ends = field(init=False, repr=False)
    _regrets: Strategy = field(init=False, repr=False)
    _sums: Strategy = field(init=False, repr=False)
    _current: Strategy = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if self.method not in METHODS:
            raise SolveError(f"method must be one of {', '.join(METHODS)}, got {self.method!r}")
        self._ends = _Ends(self.game)
        self._regrets = {}
        self._sums = {}
        self._current = {}
        for node in self.game.tree.nodes:
            if node.kind == "decision":
                assert node.player is not None
                shape = (self.game.size(node.player, node.street), len(node.actions))
                self._regrets[node.index] = np.zeros(shape)
                self._sums[node.index] = np.zeros(shape)
                self._current[node.index] = np.full(shape, 1.0 / len(node.actions))

    def step(self) -> None:
        """One iteration: player 0's regrets and average updated, then player 1's against player 0's new strategy."""
        self.iterations += 1
        game = self.game
        for player in (0, 1):
            reach = reaches(game, 1 - player, self._current)
            own = reaches(game, player, self._current)
            _back_up(game, player, self._ends.values(player, reach), partial(self._update, own))
            for node in game.tree.decisions(player):
                self._current[node.index] = _regret_matching(self._regrets[node.index])

    def _update(self, own: dict[int, Floats], node: Node, children: Floats) -> Floats:
        """At one of the player's decisions: the node's value, his regrets and his strategy sum updated."""
        t = self.iterations
        sigma = self._current[node.index]
        value: Floats = (children * sigma).sum(axis=1)
        r = self._regrets[node.index]
        r += children - value[:, None]
        s = self._sums[node.index]
        if self.method == "dcfr":
            r *= np.where(r > 0, t**1.5 / (t**1.5 + 1), 0.5)  # alpha 1.5, beta 0
            s *= (t / (t + 1)) ** 2  # gamma 2: what the sum so far keeps
            s += own[node.index][:, None] * sigma
        else:
            np.maximum(r, 0.0, out=r)
            s += t * own[node.index][:, None] * sigma
        return value

    def average(self) -> Strategy:
        """The average strategy so far (what CFR converges in)."""
        return _average(self._sums, self._current)

    def exploitability(self) -> tuple[float, float, float]:
        """:func:`exploitability` of the average strategy."""
        return exploitability(self.game, self.average(), self._ends)

    def values(self) -> tuple[Floats, Floats]:
        """:func:`hand_values` of the average strategy."""
        return hand_values(self.game, self.average(), self._ends)


def train(
    game: Game,
    *,
    method: Method = "dcfr",
    target: float = 0.001,
    iterations: int = 10_000,
    seconds: float | None = None,
    check_every: int = 10,
    progress: Callable[[int, float, float], None] | None = None,
) -> tuple[Trainer, list[tuple[int, float, float]]]:
    """Iterate until the exploitability is at most ``target`` times the pot, or ``iterations`` are done, or
    ``seconds`` have passed (checked every ``check_every`` iterations); returns the trainer and the convergence
    curve, ``(iteration, seconds, exploitability)`` at each check, each also given to ``progress``."""
    trainer = Trainer(game, method)
    curve: list[tuple[int, float, float]] = []
    start = time.perf_counter()
    while True:
        trainer.step()
        n = trainer.iterations
        if n % check_every == 0 or n >= iterations:
            gap = trainer.exploitability()[0]
            elapsed = time.perf_counter() - start
            curve.append((n, elapsed, gap))
            if progress is not None:
                progress(n, elapsed, gap)
            if gap <= target * game.pot or n >= iterations or (seconds is not None and elapsed >= seconds):
                return trainer, curve
