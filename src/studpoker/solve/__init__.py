"""The stud river solver: equilibrium strategies for the last betting round between two ranges.

* :func:`solve`: the answer for a :class:`RiverSpot` (or any :class:`Game`), by discounted CFR or CFR+, with its
  exploitability measured by a best response; a :class:`Solution`.
* :class:`RiverSpot`: the question (the game, each player's range under his up cards, dead cards, pot, bet,
  cap, stacks, who acts first); :class:`Game`, :class:`BettingTree`: what the solver works on.
* :mod:`~studpoker.solve.toys`: Kuhn poker and the toy games of the literature, with their known answers;
  :mod:`~studpoker.solve.lp`: the exact answer of a small game by linear programming (with scipy), to check.

>>> ranges = ["(32A),(54A),(65A),(KKX) 8s 7d Qc 4h", "(A2X),(A3X),(34X),(QQX) 6c 5h 9d 2s"]
>>> spot = RiverSpot.parse("razz", ranges, pot=50, bet=10)
>>> answer = solve(spot)
>>> answer.exploitability_pot < 0.001
True
"""

from __future__ import annotations

import math
import numbers
import time
from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from .cfr import METHODS, Method, train
from .game import Game
from .result import Solution
from .river import RiverSpot
from .sixth import SixthSpot
from .tree import BettingTree, Node, SolveError

__all__ = ["METHODS", "BettingTree", "Game", "Node", "RiverSpot", "SixthSpot", "Solution", "SolveError", "solve"]

Floats = npt.NDArray[np.float64]

#: The most iterations one call runs (a bound on what a caller asks).
MAX_ITERATIONS = 1_000_000


def solve(
    spot: RiverSpot | SixthSpot | Game,
    *,
    target: float = 0.001,
    method: Method = "dcfr",
    iterations: int = 10_000,
    seconds: float | None = None,
    check_every: int = 10,
    progress: Callable[[int, float, float], None] | None = None,
) -> Solution:
    """Solve ``spot`` until the exploitability is at most ``target`` times the pot (0.001: 0.1 %), or after
    ``iterations`` iterations or ``seconds`` seconds, whichever comes first; the exploitability is measured
    every ``check_every`` iterations and at the end, and reported in the answer; ``progress``, if given, is called
    with ``(iteration, seconds, exploitability in chips)`` at each measure."""
    if not isinstance(target, numbers.Real) or isinstance(target, bool) or not 0 <= target < 1:
        raise SolveError(f"target must be a fraction of the pot from 0 to under 1 (0.001: 0.1 %), got {target!r}")
    if type(iterations) is not int or not 1 <= iterations <= MAX_ITERATIONS:
        raise SolveError(f"iterations must be a whole number from 1 to {MAX_ITERATIONS:,}, got {iterations!r}")
    if type(check_every) is not int or check_every < 1:
        raise SolveError(f"check_every must be a whole number above 0, got {check_every!r}")
    if seconds is not None and (
        not isinstance(seconds, numbers.Real) or isinstance(seconds, bool) or not 0 < seconds < math.inf
    ):
        raise SolveError(f"seconds must be a number above 0, got {seconds!r}")
    start = time.perf_counter()
    river_classes = None
    if isinstance(spot, RiverSpot | SixthSpot):
        game = spot.game()
        classes = (tuple(spot.classes(0)), tuple(spot.classes(1)))
        title = spot.describe()
        if isinstance(spot, SixthSpot):
            river_classes = (tuple(spot.river_classes(0)), tuple(spot.river_classes(1)))
    elif isinstance(spot, Game):
        game = spot
        classes = game.hands
        title = ""
    else:
        raise SolveError(f"solve takes a RiverSpot, a SixthSpot or a Game, got {type(spot).__name__}")
    trainer, curve = train(
        game,
        method=method,
        target=float(target),
        iterations=iterations,
        seconds=seconds,
        check_every=check_every,
        progress=progress,
    )
    gap, best0, best1 = trainer.exploitability()
    return Solution(
        game,
        trainer.average(),
        trainer.values(),
        game.equities(),
        gap,
        (best0, best1),
        method,
        trainer.iterations,
        time.perf_counter() - start,
        tuple(curve),
        classes,
        title,
        river_classes,
        _river_equities(game) if game.deal is not None else None,
    )


def _river_equities(game: Game) -> tuple[Floats, Floats]:
    """Each river hand's share of the pot at the showdown, against the other's river hands (his range's weights)."""
    assert game.deal is not None
    out = []
    for player in (0, 1):
        other = game.weights[1 - player][game.deal.parents[1 - player]]
        share, compatible = game.deal.showdown.sums(player, other[:, None])
        with np.errstate(invalid="ignore", divide="ignore"):
            out.append(share[:, 0] / compatible[:, 0])
    return out[0], out[1]
