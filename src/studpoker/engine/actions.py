"""Player actions: what ``HandState.legal_actions()`` lists and ``HandState.apply()`` takes.

Amounts are *totals for the betting round* ("raise to"), as in SPEC section 15:
``Action.raise_to(40)`` puts the player's contribution for the round at 40.

>>> Action.call(10), Action.complete(10), Action.fold()
(Action('call', 10), Action('complete', 10), Action('fold'))
>>> str(Action.raise_to(30))
'raise to 30'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from ..cards import Card

__all__ = ["Action", "ActionKind"]


class ActionKind(Enum):
    """The kinds of player decision in stud (R5, R6, R9)."""

    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    BRING_IN = "bring-in"
    COMPLETE = "complete"
    BET = "bet"
    RAISE = "raise"
    SHOW = "show"
    MUCK = "muck"

    # Members are singletons compared by identity: hash them the same (fast, C-level) way.
    __hash__ = object.__hash__

    @property
    def aggressive(self) -> bool:
        """A wager that other players must answer: complete, bet or raise."""
        return self in (ActionKind.COMPLETE, ActionKind.BET, ActionKind.RAISE)


_WORDS = {
    ActionKind.FOLD: "fold",
    ActionKind.CHECK: "check",
    ActionKind.CALL: "call {}",
    ActionKind.BRING_IN: "bring in {}",
    ActionKind.COMPLETE: "complete to {}",
    ActionKind.BET: "bet {}",
    ActionKind.RAISE: "raise to {}",
    ActionKind.SHOW: "show",
    ActionKind.MUCK: "muck",
}


@dataclass(frozen=True, slots=True)
class Action:
    """One decision: a kind and, for wagers, the player's total for the round.

    ``amount`` is 0 for fold, check, show and muck. A SHOW may carry the cards
    shown (for hands dealt as unknown, e.g. from a hand history).
    """

    kind: ActionKind
    amount: int = 0
    cards: tuple[Card, ...] = field(default=(), compare=False)

    @staticmethod
    def fold() -> Action:
        return _FOLD

    @staticmethod
    def check() -> Action:
        return _CHECK

    @staticmethod
    def call(amount: int) -> Action:
        return Action(ActionKind.CALL, amount)

    @staticmethod
    def bring_in(amount: int) -> Action:
        return Action(ActionKind.BRING_IN, amount)

    @staticmethod
    def complete(to: int) -> Action:
        return Action(ActionKind.COMPLETE, to)

    @staticmethod
    def bet(amount: int) -> Action:
        return Action(ActionKind.BET, amount)

    @staticmethod
    def raise_to(to: int) -> Action:
        return Action(ActionKind.RAISE, to)

    @staticmethod
    def show(cards: tuple[Card, ...] = ()) -> Action:
        return Action(ActionKind.SHOW, 0, tuple(cards))

    @staticmethod
    def muck() -> Action:
        return _MUCK

    def __str__(self) -> str:
        return _WORDS[self.kind].format(self.amount)

    def __repr__(self) -> str:
        if self.kind in (ActionKind.FOLD, ActionKind.CHECK, ActionKind.MUCK) or (
            self.kind is ActionKind.SHOW and not self.amount
        ):
            return f"Action({self.kind.value!r})"
        return f"Action({self.kind.value!r}, {self.amount})"


_FOLD = Action(ActionKind.FOLD)
_CHECK = Action(ActionKind.CHECK)
_MUCK = Action(ActionKind.MUCK)
