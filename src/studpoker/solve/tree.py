"""The betting tree of one fixed-limit street between two players: every line of bets, raises, calls and folds.

A node is a decision (who acts, the actions open to him, the node each leads to) or an end: a fold or a
showdown. Each node knows what each player has put in on the street. The bets are one size (the big bet on the
river); a raise is one more bet; ``raises`` caps the raises after the opening bet (``None``: no cap, as heads-up
under the default rules, SPEC R6.6), and the stacks cap everything: a player short of a full bet or call puts in
what he has, is all-in, and the other may then only call or fold.

>>> tree = BettingTree.build(bet=20, raises=1)
>>> [node.line for node in tree.nodes if node.kind == "showdown"]
['x x', 'x b c', 'x b r c', 'b c', 'b r c']
>>> tree.nodes[0].player, tree.nodes[0].actions
(0, ('check', 'bet'))
>>> short = BettingTree.build(bet=20, stacks=(30, 100))
>>> [(node.line, node.put) for node in short.nodes if node.kind == "showdown"][-1]
('b r c', (30, 30))
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = ["MAX_BETS", "MAX_DECISIONS", "BettingTree", "Node", "NodeKind", "SolveError"]

#: The most bets one street may see (a bet and its raises): an uncapped river between deep stacks is bounded by it.
MAX_BETS = 64
#: The most decisions a tree may hold (sixth street with no cap multiplies the river's by its own lines).
MAX_DECISIONS = 1_000

NodeKind = Literal["decision", "fold", "showdown", "deal"]

#: One letter per action in a node's ``line``.
LETTERS = {"check": "x", "bet": "b", "call": "c", "raise": "r", "fold": "f"}


class SolveError(ValueError):
    """A question the solver cannot take as asked: a bad range, pot, bet, cap or stack. The message says which."""


@dataclass(frozen=True, slots=True)
class Node:
    """One point of the betting. ``player`` acts at a decision (0 or 1; ``None`` elsewhere), choosing among
    ``actions``, each leading to the node of the same position in ``children``. A ``deal`` node ends a street that
    another follows (each player's next card is dealt; its one child starts the next street). ``put`` is what each
    player has put in on the streets solved; ``folder`` who folded (a fold only); ``line`` the actions so far, a
    letter each (x check, b bet, c call, r raise, f fold), ``/`` where a card is dealt; ``street`` 0 for the first
    street solved, 1 for the next."""

    index: int
    kind: NodeKind
    player: int | None
    actions: tuple[str, ...]
    children: tuple[int, ...]
    put: tuple[int, int]
    folder: int | None
    line: str
    street: int = 0


@dataclass(frozen=True, slots=True)
class BettingTree:
    """Every node of the betting, parents before children (the root, index 0, first). Build one with
    :meth:`build`."""

    nodes: tuple[Node, ...]
    bet: int
    raises: int | None
    stacks: tuple[int | None, int | None]
    first: int
    half_street: bool
    streets: int = 1

    @classmethod
    def build(
        cls,
        bet: int,
        *,
        raises: int | None = None,
        stacks: tuple[int | None, int | None] = (None, None),
        first: int = 0,
        half_street: bool = False,
        streets: int = 1,
    ) -> BettingTree:
        """The tree of a street where ``first`` (0 or 1) acts first, the bets are ``bet`` chips, at most
        ``raises`` raises follow the opening bet (``None``: no cap) and each player has ``stacks[i]`` chips
        behind (``None``: more than the street can take). ``half_street``: only ``first`` may bet (the other
        checks behind, or calls or folds), as in the toy games of the literature. ``streets`` 2: a card is dealt to
        each after the first street's betting, and a second street follows (sixth street and the river), with the
        same bets and cap, and the same player first (a down card does not change the boards)."""
        if type(bet) is not int or bet <= 0:
            raise SolveError(f"the bet must be a whole number of chips above 0, got {bet!r}")
        if raises is not None and (type(raises) is not int or raises < 0):
            raise SolveError(f"raises must be a whole number 0 or more, or None for no cap, got {raises!r}")
        if first not in (0, 1) or type(first) is not int:
            raise SolveError(f"first must be 0 or 1 (the player who acts first), got {first!r}")
        if streets not in (1, 2) or type(streets) is not int:
            raise SolveError(f"streets must be 1 (the river) or 2 (sixth street and the river), got {streets!r}")
        if not isinstance(stacks, tuple | list) or len(stacks) != 2:
            raise SolveError(f"stacks must be two numbers (or None), one a player, got {_short(stacks)}")
        for stack in stacks:
            if stack is not None and (type(stack) is not int or stack < 0):
                raise SolveError(f"a stack must be a whole number of chips, 0 or more, or None, got {stack!r}")
        deep = [s is None or s >= MAX_BETS * bet for s in stacks]
        if raises is None and all(deep):
            raise SolveError(
                "with no cap on the raises (heads-up, SPEC R6.6) the stacks bound the betting: give the stacks "
                f"(one of them under {MAX_BETS} bets) or a cap on the raises"
            )
        if raises is not None and raises >= MAX_BETS:
            raise SolveError(f"raises must be under {MAX_BETS}, got {raises}")
        builder = _Builder(bet, raises, stacks, half_street, streets)
        builder.decision(first, (0, 0), 0, "", checked=False, all_in=False)
        decisions = sum(1 for node in builder.nodes if node.kind == "decision")
        if decisions > MAX_DECISIONS:
            raise SolveError(
                f"the betting has {decisions:,} decisions, more than the {MAX_DECISIONS:,} the solver takes: cap the "
                "raises or shorten the stacks"
            )
        return cls(tuple(builder.nodes), bet, raises, (stacks[0], stacks[1]), first, half_street, streets)

    def decisions(self, player: int) -> list[Node]:
        """The decision nodes where ``player`` acts, in tree order."""
        return [node for node in self.nodes if node.player == player]

    def node(self, line: str) -> Node:
        """The node reached by ``line`` (``"x b r"``: check, bet, raise); :class:`SolveError` if none is."""
        if not isinstance(line, str):
            raise SolveError(f"a line is text such as 'x b r', got {_short(line)}")
        wanted = " ".join(line.split())
        for node in self.nodes:
            if node.line == wanted:
                return node
        raise SolveError(f"no node has the line {_short(line)}; lines are letters x b c r f and / , e.g. 'x b r'")


class _Builder:
    """Grows the tree depth first, each node numbered as it is created so that parents come before children."""

    def __init__(
        self, bet: int, raises: int | None, stacks: tuple[int | None, int | None], half: bool, streets: int
    ) -> None:
        self.bet = bet
        self.streets = streets
        self.street = 0
        self.raises = raises
        self.stacks = stacks
        self.half = half
        self.first: int | None = None
        self.nodes: list[Node] = []

    def left(self, player: int, put: tuple[int, int]) -> int | None:
        stack = self.stacks[player]
        return None if stack is None else stack - put[player]

    def end(self, kind: NodeKind, put: tuple[int, int], folder: int | None, line: str) -> int:
        if kind == "showdown":  # an uncalled part of a bet goes back before the showdown (or the next card)
            put = (min(put), min(put))
            if self.street + 1 < self.streets:
                return self.deal(put, line)
        index = len(self.nodes)
        self.nodes.append(Node(index, kind, None, (), (), put, folder, line.strip(), self.street))
        return index

    def deal(self, put: tuple[int, int], line: str) -> int:
        """The next street: a deal node, then its betting from the first player, no bet yet."""
        index = len(self.nodes)
        self.nodes.append(Node(index, "deal", None, (), (), put, None, line.strip(), self.street))
        self.street += 1
        assert self.first is not None
        child = self.decision(self.first, put, 0, line + " /", checked=False, all_in=False)
        self.street -= 1
        self.nodes[index] = Node(index, "deal", None, ("deal",), (child,), put, None, line.strip(), self.street)
        return index

    def decision(self, player: int, put: tuple[int, int], bets: int, line: str, *, checked: bool, all_in: bool) -> int:
        if self.first is None:
            self.first = player
        if bets == 0 and (self.left(0, put) == 0 or self.left(1, put) == 0):
            return self.end("showdown", put, None, line)  # someone is all-in already: nothing to bet
        index = len(self.nodes)
        self.nodes.append(Node(index, "decision", player, (), (), put, None, line.strip(), self.street))
        other = 1 - player
        actions: list[str] = []
        children: list[int] = []
        facing = put[other] - put[player]
        mine = self.left(player, put)
        if facing == 0:
            actions.append("check")
            if checked:
                children.append(self.end("showdown", put, None, line + " x"))
            else:
                children.append(self.decision(other, put, 0, line + " x", checked=True, all_in=False))
            if not (self.half and player != self.first) and (mine is None or mine > 0):
                amount = _least(self.bet, mine, self.left(other, put))  # no more than the other can call
                after = _add(put, player, amount)
                actions.append("bet")
                children.append(
                    self.decision(
                        other, after, 1, line + " b", checked=False, all_in=mine is not None and mine <= amount
                    )
                )
        else:
            actions.append("fold")
            children.append(self.end("fold", put, player, line + " f"))
            call = facing if mine is None else min(facing, mine)
            actions.append("call")
            children.append(self.end("showdown", _add(put, player, call), None, line + " c"))
            capped = self.raises is not None and bets > self.raises
            room = mine is None or mine > facing
            theirs = self.left(other, put)
            if not capped and not all_in and room and (theirs is None or theirs > 0) and bets < MAX_BETS:
                amount = _least(facing + self.bet, mine, None if theirs is None else facing + theirs)
                after = _add(put, player, amount)
                actions.append("raise")
                children.append(
                    self.decision(
                        other, after, bets + 1, line + " r", checked=False, all_in=mine is not None and mine <= amount
                    )
                )
        self.nodes[index] = Node(
            index, "decision", player, tuple(actions), tuple(children), put, None, line.strip(), self.street
        )
        return index


def _short(value: object) -> str:
    """``repr(value)``, cut to a length an error message can show."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _least(amount: int, *caps: int | None) -> int:
    return min([amount, *(cap for cap in caps if cap is not None)])


def _add(put: tuple[int, int], player: int, amount: int) -> tuple[int, int]:
    return (put[0] + amount, put[1]) if player == 0 else (put[0], put[1] + amount)
