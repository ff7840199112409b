"""An exact solve of a small river, or sixth street and the river, by the sequence-form linear program (Koller,
Megiddo and von Stengel, 1996).

It is the check of CFR: no iterations, no tolerance to choose, the equilibrium value to the solver's precision.
Each player's strategy is a realization plan over his sequences, one per hand, node and action (a hand's chance
of taking each action on its way to a node), with one empty sequence for the player's start. The payoff of a
pair of sequences ending the betting sums player 0's winnings over the deals, each weighted by its chance; player
0's plan maximises what player 1's best reply leaves him, player 1's minimises what player 0's best reply takes
(two programs, solved by HiGHS through :func:`scipy.optimize.linprog`). The game is constant-sum (the players
share the pot), so player 0's winnings alone make it a zero-sum game with the same equilibria.

On two streets (sixth street and the river, :class:`~studpoker.solve.game.Deal`) the sequences after the deal are
the river hands' (hand, node, action), each continuing the sequence of the sixth-street hand it came from; a fold
on sixth street counts every way the cards could have come after it (``Deal.outcomes``).

The value is player 0's, counted as :func:`~studpoker.solve.cfr.exploitability` counts it: chips out of the pot,
the pot counted as won back, averaged over the deals. In Kuhn poker each player antes 1, so player 0's net
loss of 1/18 shows as the value less his ante:

>>> from studpoker.solve import toys
>>> game = toys.kuhn()
>>> solution = solve_lp(game)
>>> round(solution.value - game.pot / 2, 6)
-0.055556
>>> solution.strategy[game.tree.node("x").index].round(6).tolist()  # player 1 after a check: J, Q, K by x, b
[[0.666667, 0.333333], [1.0, 0.0], [0.0, 1.0]]
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from .._extras import install_hint
from .cfr import Strategy
from .game import Game
from .tree import SolveError

__all__ = ["MAX_NONZEROS", "LpSolution", "solve_lp"]

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]
#: For every node (by index), a player's last (node index, action) on the way to it; ``None`` before he acts.
Last = dict[int, tuple[int, int] | None]

#: The most entries the payoff matrix may get (one per end of the tree and pair of hands that can be dealt
#: together): about 15 seconds and 1 GB with HiGHS (600 hands a side, two raises); beyond, too slow for a check.
MAX_NONZEROS = 5_000_000

#: Below this a hand's chance of reaching a node counts as never: it plays the node uniformly.
_NEVER = 1e-12


@dataclass(frozen=True)
class LpSolution:
    """An equilibrium: ``value`` is player 0's expected winnings per deal (chips out of the pot, the pot counted as
    won back, as :func:`~studpoker.solve.cfr.exploitability` counts them); ``strategy`` both players' behaviour
    at every decision node (hands by actions, each row summing to 1; uniform for a hand that never gets there)."""

    value: float
    strategy: Strategy


class _Sequences:
    """One player's sequences: 0 is the empty one, then each of his decision nodes holds a block of hands by
    actions (the hands of the node's street: on two streets, the next street's hands after the deal).
    ``constraints`` is the realization plan's ``E x = e``: the empty sequence is 1, and at each node each hand's
    actions add up to the sequence that brought the hand there (after the deal, the one of the hand it came from:
    perfect recall)."""

    def __init__(self, game: Game, player: int, last: Last) -> None:
        self.hands = tuple(game.size(player, street) for street in range(game.tree.streets))
        self.parents = None if game.deal is None else game.deal.parents[player].astype(np.int64)
        self.street = {node.index: node.street for node in game.tree.nodes}
        self.nodes = game.tree.decisions(player)
        self.offset: dict[int, int] = {}
        self.width: dict[int, int] = {}
        size = 1
        for node in self.nodes:
            self.offset[node.index] = size
            self.width[node.index] = len(node.actions)
            size += self.hands[node.street] * len(node.actions)
        self.size = size
        self.last = last

    def of(self, before: tuple[int, int] | None, street: int) -> Ints:
        """Each of ``street``'s hands' sequence for ``before``: the player's last (node, action) on a path,
        ``None`` if he has not acted on it (the empty sequence, the same for every hand). A next-street hand whose
        last action was before the deal has the sequence of the hand it came from."""
        if before is None:
            return np.zeros(self.hands[street], dtype=np.int64)
        index, action = before
        mine = self.street[index]
        sequences = self.offset[index] + np.arange(self.hands[mine], dtype=np.int64) * self.width[index] + action
        if mine == street:
            return sequences
        assert self.parents is not None and (mine, street) == (0, 1)
        return sequences[self.parents]

    def constraints(self) -> tuple[Ints, Ints, Floats, int]:
        """``E`` as coordinates (rows, columns, values) and its number of rows."""
        rows: list[Ints] = [np.zeros(1, dtype=np.int64)]
        cols: list[Ints] = [np.zeros(1, dtype=np.int64)]
        vals: list[Floats] = [np.ones(1)]
        row = 1
        for node in self.nodes:
            width = len(node.actions)
            hands = self.hands[node.street]
            mine = row + np.arange(hands, dtype=np.int64)
            rows.append(mine)
            cols.append(self.of(self.last[node.index], node.street))
            vals.append(np.full(hands, -1.0))
            rows.append(np.repeat(mine, width))
            cols.append(self.offset[node.index] + np.arange(hands * width, dtype=np.int64))
            vals.append(np.ones(hands * width))
            row += hands
        return np.concatenate(rows), np.concatenate(cols), np.concatenate(vals), row

    def behaviour(self, plan: Floats, dealt: list[npt.NDArray[np.bool_]]) -> Strategy:
        """The behaviour strategy of a realization plan: each action's share of the hand's plan at the node;
        uniform where the plan never gets the hand, and everywhere for a hand never ``dealt`` (one array a street:
        its plan is arbitrary, it wins and loses nothing)."""
        out: Strategy = {}
        for node in self.nodes:
            width = len(node.actions)
            hands = self.hands[node.street]
            start = self.offset[node.index]
            block = np.maximum(plan[start : start + hands * width].reshape(hands, width), 0.0)
            total = block.sum(axis=1, keepdims=True)
            reached = (total > _NEVER) & dealt[node.street][:, None]
            with np.errstate(invalid="ignore", divide="ignore"):
                out[node.index] = np.where(reached, block / total, 1.0 / width)
        return out


def _streets(game: Game) -> list[tuple[Floats, Floats, Floats, Floats, float]]:
    """For each street, ``(w0, w1, compatible, share, scale)``: the weights of its hands (on the next street, the
    weights of the hands they came from: the cards' own chance is the same for every pair), its showdown's
    matrices, and how many deals each pair of its hands stands for (the first street's folds stand for every way
    the cards could have come after them)."""
    w0, w1 = game.weights
    if game.deal is None:
        compatible, share = game.showdown.dense()
        return [(w0, w1, compatible, share, 1.0)]
    first, second = game.showdown.dense(), game.deal.showdown.dense()
    parents = game.deal.parents
    return [
        (w0, w1, first[0], first[1], float(game.deal.outcomes)),
        (w0[parents[0]], w1[parents[1]], second[0], second[1], 1.0),
    ]


def _last_actions(game: Game) -> tuple[Last, Last]:
    """For every node, each player's last (node, action) on the way to it (``None``: he has not acted yet)."""
    last: tuple[Last, Last] = ({0: None}, {0: None})
    for node in game.tree.nodes:  # parents come before children
        for a, child in enumerate(node.children):
            for p in (0, 1):
                last[p][child] = (node.index, a) if node.player == p else last[p][node.index]
    return last


def _payoffs(game: Game, seqs: tuple[_Sequences, _Sequences], last: tuple[Last, Last]) -> tuple[Ints, Ints, Floats]:
    """Player 0's payoff matrix as coordinates (rows, columns, values; repeats add up), his sequences by player
    1's: at each end, for each pair of its street's hands that can be dealt together, his winnings times the
    deal's chance (over the total of every deal)."""
    streets = _streets(game)
    ends = [
        [node for node in game.tree.nodes if node.kind in ("fold", "showdown") and node.street == s] for s in (0, 1)
    ]
    counts = []
    for (w0, w1, compatible, _, _), mine in zip(streets, ends, strict=False):
        pairs = int(np.count_nonzero(compatible[np.ix_(w0 > 0, w1 > 0)]))  # counted before any n0 x n1 product
        counts.append((len(mine), pairs))
    if sum(n * pairs for n, pairs in counts) > MAX_NONZEROS:
        sizes = " and ".join(f"{n} ends of the tree by {pairs:,} pairs of hands" for n, pairs in counts)
        raise SolveError(
            f"the exact check is for small games: {sizes} that can be dealt together make "
            f"{sum(n * pairs for n, pairs in counts):,} payoffs, over {MAX_NONZEROS:,}; use fewer hands or fewer "
            "raises"
        )
    rows: list[Ints] = []
    cols: list[Ints] = []
    vals: list[Floats] = []
    for street, ((w0, w1, compatible, share, scale), mine) in enumerate(zip(streets, ends, strict=False)):
        chance = w0[:, None] * compatible * w1[None, :] * (scale / game.deals)
        i, j = np.nonzero(chance)
        weight = chance[i, j]
        shares = share[i, j]
        for node in mine:
            if node.kind == "showdown":
                won = shares * (game.pot + node.put[0] + node.put[1]) - node.put[0]
            elif node.folder == 0:
                won = np.full(len(i), -float(node.put[0]))
            else:
                assert node.folder is not None
                won = np.full(len(i), game.pot + node.put[node.folder])
            rows.append(seqs[0].of(last[0][node.index], street)[i])
            cols.append(seqs[1].of(last[1][node.index], street)[j])
            vals.append(weight * won)
    return np.concatenate(rows), np.concatenate(cols), np.concatenate(vals)


def solve_lp(game: Game) -> LpSolution:
    """Both players' equilibrium strategies and player 0's value, exactly (to HiGHS's tolerances), for a small
    game; :class:`~studpoker.solve.tree.SolveError` if the game is too big or scipy is missing."""
    try:
        from scipy import sparse  # type: ignore[import-untyped]
        from scipy.optimize import linprog  # type: ignore[import-untyped]
    except ImportError as error:
        raise SolveError(f"the exact check needs scipy: {install_hint('solve')}") from error

    last = _last_actions(game)
    seqs = (_Sequences(game, 0, last[0]), _Sequences(game, 1, last[1]))
    r, c, v = _payoffs(game, seqs, last)
    payoff = sparse.csr_matrix((v, (r, c)), shape=(seqs[0].size, seqs[1].size))  # repeats summed
    constraint = []
    for s in seqs:
        r, c, v, m = s.constraints()
        constraint.append(sparse.csr_matrix((v, (r, c)), shape=(m, s.size)))
    e, f = constraint
    n0, n1 = seqs[0].size, seqs[1].size
    m0, m1 = e.shape[0], f.shape[0]
    options = {"primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10}

    # Player 0: max q_0 over x, q with F' q <= A' x, E x = e, x >= 0 (q prices player 1's best reply to x).
    first = linprog(
        np.concatenate([np.zeros(n0), -_unit(m1)]),
        A_ub=sparse.hstack([-payoff.T, f.T], format="csr"),
        b_ub=np.zeros(n1),
        A_eq=sparse.hstack([e, sparse.csr_matrix((m0, m1))], format="csr"),
        b_eq=_unit(m0),
        bounds=[(0, None)] * n0 + [(None, None)] * m1,
        method="highs",
        options=options,
    )
    # Player 1: min p_0 over y, p with A y <= E' p, F y = f, y >= 0 (p prices player 0's best reply to y).
    second = linprog(
        np.concatenate([np.zeros(n1), _unit(m0)]),
        A_ub=sparse.hstack([payoff, -e.T], format="csr"),
        b_ub=np.zeros(n0),
        A_eq=sparse.hstack([f, sparse.csr_matrix((m1, m0))], format="csr"),
        b_eq=_unit(m1),
        bounds=[(0, None)] * n1 + [(None, None)] * m0,
        method="highs",
        options=options,
    )
    for p, result in enumerate((first, second)):
        if result.status != 0:
            raise SolveError(f"the linear program of player {p} failed: {result.message}")
    # The two values are one (the minimax theorem) to HiGHS's tolerances; player 0's is what his plan guarantees.
    if abs(first.fun + second.fun) > 1e-6 * game.pot:
        raise SolveError(f"the two programs disagree on the value: {-first.fun} and {second.fun}")
    x = np.asarray(first.x[:n0], dtype=np.float64)
    y = np.asarray(second.x[:n1], dtype=np.float64)
    dealt: tuple[list[npt.NDArray[np.bool_]], list[npt.NDArray[np.bool_]]] = ([], [])
    for w0, w1, compatible, _, _ in _streets(game):
        dealt[0].append((w0 > 0) & (compatible @ (w1 > 0) > 0))
        dealt[1].append((w1 > 0) & (compatible.T @ (w0 > 0) > 0))
    strategy = {**seqs[0].behaviour(x, dealt[0]), **seqs[1].behaviour(y, dealt[1])}
    return LpSolution(value=float(-first.fun), strategy=dict(sorted(strategy.items())))


def _unit(size: int) -> Floats:
    """The vector with 1 first, 0 elsewhere: the empty sequence's row."""
    out = np.zeros(size)
    out[0] = 1.0
    return out
