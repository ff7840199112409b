"""What the solver answers: each hand's strategy at every decision, its expected value and equity, the ranges'
values, and how far from an equilibrium the answer is; as JSON and as a readable table."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np
import numpy.typing as npt

from .cfr import Strategy, reaches
from .game import Game
from .tree import Node, SolveError

__all__ = ["Solution"]

Floats = npt.NDArray[np.float64]


@dataclass(frozen=True, eq=False)
class Solution:
    """An answer. ``strategy`` maps each decision node's index to the acting player's hands by actions (the
    frequencies, rows summing to 1); ``values[p]`` is what each of player p's hands wins on average (chips out of
    the pot and the bets, the pot counted: the two players' values add up to the pot); ``equities[p]`` each hand's
    share of the pot were it shown down now; ``exploitability`` the mean of what a best response to each side
    gains (chips), ``best`` the two best responses' values; ``curve`` the exploitability as the solver went,
    ``(iteration, seconds, chips)``. ``classes[p]`` names each hand's class (its made hand). On two streets these
    are the first street's hands; ``river_classes[p]`` and ``river_equities[p]`` are the river's (each hand of
    the first street with each card it may be dealt)."""

    game: Game
    strategy: Strategy
    values: tuple[Floats, Floats]
    equities: tuple[Floats, Floats]
    exploitability: float
    best: tuple[float, float]
    method: str
    iterations: int
    seconds: float
    curve: tuple[tuple[int, float, float], ...]
    classes: tuple[tuple[str, ...], tuple[str, ...]]
    title: str = ""
    river_classes: tuple[tuple[str, ...], tuple[str, ...]] | None = None
    river_equities: tuple[Floats, Floats] | None = None

    @property
    def pot(self) -> float:
        """The pot before the round."""
        return self.game.pot

    @property
    def exploitability_pot(self) -> float:
        """The exploitability as a fraction of the pot (0.001 is 0.1 %)."""
        return self.exploitability / self.game.pot

    def dealt(self, player: int) -> Floats:
        """How likely each of ``player``'s hands is, card removal counted (sums to 1)."""
        _check_player(player)
        weight: Floats = self.game.weights[player] * self.game.against(player)[1]
        dealt: Floats = weight / weight.sum()
        return dealt

    def ev(self, player: int) -> float:
        """What ``player``'s range wins on average (chips; the two add up to the pot)."""
        return float(np.nansum(self.dealt(player) * self.values[player]))

    def range_equity(self, player: int) -> float:
        """``player``'s range's share of the pot were every hand shown down now (on two streets: after the cards to
        come, with no more bets)."""
        _check_player(player)
        return self.game.range_equity()[player]

    def reach(self, player: int) -> dict[int, Floats]:
        """How likely each of ``player``'s hands is to be dealt and to reach each node, by the node's index (in
        proportion: at a node the hands' numbers compare, not the nodes')."""
        _check_player(player)
        game = self.game
        meets = [game.against(player)[1]]  # how much of the other's range each hand can meet
        if game.deal is not None:
            parents = game.deal.parents[1 - player]
            meets.append(game.deal.showdown.sums(player, game.weights[1 - player][parents][:, None])[1][:, 0])
        return {k: v * meets[game.tree.nodes[k].street] for k, v in reaches(game, player, self.strategy).items()}

    def node(self, line: str) -> Node:
        """The node reached by ``line`` (``"x b"``: check, bet)."""
        return self.game.tree.node(line)

    @cached_property
    def reached(self) -> dict[int, float]:
        """How often each decision is reached when both play the strategy (a share of the deals), by node index.
        CFR's average strategy at a decision seldom reached is seldom tested, so means little there."""
        game = self.game
        mine, theirs = reaches(game, 0, self.strategy), reaches(game, 1, self.strategy)
        out: dict[int, float] = {}
        for street in range(game.tree.streets):
            nodes = [n.index for n in game.tree.nodes if n.kind == "decision" and n.street == street]
            if not nodes:
                continue
            if street == 0:
                showdown = game.showdown
                scale = game.deal.outcomes if game.deal is not None else 1
            else:
                assert game.deal is not None
                showdown, scale = game.deal.showdown, 1
            meets = showdown.sums(0, np.stack([theirs[k] for k in nodes], axis=1))[1]
            for column, k in enumerate(nodes):
                out[k] = float(mine[k] @ meets[:, column]) * scale / game.deals
        return out

    def frequencies(self, line: str = "") -> list[tuple[str, float, dict[str, float]]]:
        """At the decision reached by ``line``, each class of the acting player's hands that gets there: its name,
        how likely it is to be here (a share of the hands here) and how often it takes each action."""
        node = self.node(line)
        if node.player is None:
            raise SolveError(f"the line {line!r} ends the round: nobody acts there")
        player = node.player
        reach = self.reach(player)[node.index]
        total = reach.sum()
        sigma = self.strategy[node.index]
        out = []
        for name, members in self._groups(player, node.street):
            r = reach[members]
            here = float(r.sum())
            if here <= 0 or total <= 0:
                continue
            freqs = (r[:, None] * sigma[members]).sum(axis=0) / here
            out.append((name, here / float(total), dict(zip(node.actions, map(float, freqs), strict=True))))
        return out

    def _groups(self, player: int, street: int = 0) -> list[tuple[str, npt.NDArray[np.intp]]]:
        """The hand classes of ``player`` on ``street``, strongest first (by their hands' mean equity), with their
        hands."""
        names, equities = self.classes[player], self.equities[player]
        if street == 1:
            assert self.river_classes is not None and self.river_equities is not None
            names, equities = self.river_classes[player], self.river_equities[player]
        members: dict[str, list[int]] = {}
        for i, name in enumerate(names):
            members.setdefault(name, []).append(i)
        equity = np.nan_to_num(equities)
        groups = [(name, np.array(idx, dtype=np.intp)) for name, idx in members.items()]
        groups.sort(key=lambda g: -float(equity[g[1]].mean()))
        return groups

    def to_dict(self, *, hands: bool = True) -> dict[str, Any]:
        """The answer as plain data (what ``to_json`` writes): the game, the measures, the curve, every decision
        with its classes' frequencies, and with ``hands`` every hand's frequencies, value and equity (on two
        streets, the first street's hands: the river's are classes only)."""
        tree = self.game.tree
        players = []
        for p in (0, 1):
            entry: dict[str, Any] = {
                "player": p + 1,
                "hands": len(self.game.weights[p]),
                "ev": _round(self.ev(p)),
                "equity": _round(self.range_equity(p)),
            }
            if hands:
                entry["hand"] = [
                    {
                        "cards": self.game.hands[p][i],
                        "class": self.classes[p][i],
                        "weight": _round(float(self.game.weights[p][i])),
                        "equity": _round(float(self.equities[p][i])),
                        "ev": _round(float(self.values[p][i])),
                    }
                    for i in range(len(self.game.weights[p]))
                ]
            players.append(entry)
        nodes = []
        for node in tree.nodes:
            if node.kind != "decision":
                continue
            assert node.player is not None
            item: dict[str, Any] = {
                "line": node.line,
                "street": "river" if node.street == 1 or tree.streets == 1 else "sixth",
                "player": node.player + 1,
                "reached": _round(self.reached[node.index]),
                "put": list(node.put),
                "actions": list(node.actions),
                "classes": [
                    {"class": name, "share": _round(share), "frequencies": {a: _round(f) for a, f in freqs.items()}}
                    for name, share, freqs in self.frequencies(node.line)
                ],
            }
            if hands and node.street == 0:  # the river's hands of a sixth-street game: too many to list (classes only)
                item["hands"] = np.round(self.strategy[node.index], 4).tolist()
            nodes.append(item)
        return {
            "title": self.title,
            "pot": self.game.pot,
            "bet": tree.bet,
            "raises": tree.raises,
            "stacks": list(tree.stacks),
            "first": tree.first + 1,
            "method": self.method,
            "iterations": self.iterations,
            "seconds": round(self.seconds, 3),
            "exploitability": {"chips": _round(self.exploitability), "pot": _round(self.exploitability_pot)},
            "best_response": [_round(b) for b in self.best],
            "players": players,
            "nodes": nodes,
            "curve": [{"iteration": n, "seconds": round(s, 3), "exploitability": _round(e)} for n, s, e in self.curve],
        }

    def to_json(self, *, hands: bool = True, indent: int | None = None) -> str:
        """:meth:`to_dict` as JSON (``indent``: None for one line, or 0 to 8 spaces)."""
        if indent is not None and (type(indent) is not int or not 0 <= indent <= 8):
            raise SolveError(f"indent must be None or a whole number from 0 to 8, got {indent!r}")
        return json.dumps(self.to_dict(hands=hands), indent=indent, allow_nan=False)

    def table(self, *, limit: int = 40, min_reach: float = 0.001) -> str:
        """The answer for a reader: the measures, then at each decision reached at least ``min_reach`` of the
        time (a share of the deals: 0.001 is 0.1 %) the acting player's classes (at most ``limit`` of them,
        strongest first) with how often each takes each action."""
        if type(limit) is not int or not 1 <= limit <= 100_000:
            raise SolveError(f"limit must be a whole number from 1 to 100,000 (classes a decision), got {limit!r}")
        if not isinstance(min_reach, int | float) or isinstance(min_reach, bool) or not 0 <= min_reach <= 1:
            raise SolveError(f"min_reach must be a share of the deals from 0 to 1, got {min_reach!r}")
        lines = [self.title] if self.title else []
        lines.append(
            f"Solved by {self.method.upper()} in {self.iterations:,} iteration{'s' if self.iterations != 1 else ''}"
            f" ({self.seconds:.2f} s); exploitability "
            f"{self.exploitability:.4g} chips, {100 * self.exploitability_pot:.3f}% of the pot"
        )
        for p in (0, 1):
            lines.append(
                f"Player {p + 1}: {len(self.game.weights[p]):,} hands, equity {100 * self.range_equity(p):.1f}%, "
                f"EV {self.ev(p):.2f} of the pot of {self.game.pot:g}"
            )
        rare = 0
        for node in self.game.tree.nodes:
            if node.kind != "decision":
                continue
            assert node.player is not None
            if self.reached[node.index] < min_reach:
                rare += 1
                continue
            rows = self.frequencies(node.line)
            if not rows:
                continue
            where = _spoken(node.line)
            lines.append("")
            lines.append(f"Player {node.player + 1} {where} (reached {_percent(self.reached[node.index])}):")
            width = max(24, *(len(name) for name, _, _ in rows[:limit]))
            lines.append(f"  {'class':<{width}}  {'here':>6}" + "".join(f"  {a:>6}" for a in node.actions))
            for name, share, freqs in rows[:limit]:
                cells = "".join(f"  {100 * freqs[a]:>5.1f}%" for a in node.actions)
                lines.append(f"  {name:<{width}}  {100 * share:>5.1f}%{cells}")
            if len(rows) > limit:
                lines.append(f"  ... {len(rows) - limit} weaker classes (the JSON has them all)")
        if rare:
            lines.append("")
            lines.append(
                f"{rare} decision{'s' if rare != 1 else ''} reached less than {_percent(min_reach)} of the time left"
                " out (CFR's strategy means little where play seldom goes; the JSON has every decision)"
            )
        return "\n".join(lines)


_SPOKEN = {"x": "check", "b": "bet", "c": "call", "r": "raise", "f": "fold", "/": "the river card"}


def _spoken(line: str) -> str:
    if not line:
        return "first to act"
    if line == "/":
        return "first to act on the river"
    return "after " + ", ".join(_SPOKEN[letter] for letter in line.split())


def _check_player(player: object) -> None:
    if player not in (0, 1) or type(player) is not int:
        raise SolveError(f"player must be 0 or 1, got {player!r}")


def _percent(share: float) -> str:
    """A share as a percentage a reader takes in: 12.3%, 0.05%, under 0.01%."""
    if share >= 0.001:
        return f"{100 * share:.1f}%"
    if share >= 0.0001:
        return f"{100 * share:.2f}%"
    return "under 0.01%"


def _round(value: float) -> float | None:
    """Six significant decimals; ``None`` for a value that is not a number (a hand no hand can meet)."""
    if not np.isfinite(value):
        return None
    return round(float(value), 6)
