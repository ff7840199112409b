"""Player actions: what ``HandState.legal_actions()`` lists and ``HandState.apply()`` takes.

Amounts are *totals for the betting round* ("raise to"), as in SPEC section 15:
``Action.raise_to(40)`` puts the player's contribution for the round at 40.

>>> Action.call(10), Action.complete(10), Action.fold()
(Action('call', 10), Action('complete', 10), Action('fold'))
>>> str(Action.raise_to(30)), Action.parse("raise to 30")
('raise to 30', Action('raise', 30))

The repr pastes back: ``Action('call', 10)`` is ``Action.call(10)`` (a kind given as text is read as its
:class:`ActionKind`); anything else is refused at once:

>>> Action('call', 10) == Action.call(10)
True
>>> Action('raise', -5)
Traceback (most recent call last):
    ...
studpoker.engine.errors.ActionError: an action's amount is a whole number of chips >= 0, got -5
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import Enum

from ..cards import Card
from .errors import ActionError

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

    def __post_init__(self) -> None:
        # cheap checks first: actions are made on every decision
        if self.kind.__class__ is not ActionKind:
            object.__setattr__(self, "kind", _kind(self.kind))
        if self.amount.__class__ is not int or self.amount < 0:
            raise ActionError(f"an action's amount is a whole number of chips >= 0, got {self.amount!r}")
        if self.cards:
            if self.cards.__class__ is not tuple:
                object.__setattr__(self, "cards", tuple(self.cards))
            if not all(isinstance(c, Card) for c in self.cards):
                raise ActionError(f"an action's cards are Card objects, got {self.cards!r}")

    @staticmethod
    def parse(text: str) -> Action:
        """The action ``str()`` writes: ``fold``, ``check``, ``call 10``, ``bring in 3``, ``complete to 10``,
        ``bet 10``, ``raise to 30``, ``show``, ``muck`` (also ``raise 30``, ``bring-in 3``, ``complete 10``,
        any case). Raises :class:`~studpoker.engine.errors.ActionError` for anything else."""
        if not isinstance(text, str):
            raise ActionError(f"an action is text such as 'raise to 30', got {text!r}")
        said = words(text)
        if said is None:
            raise ActionError(
                f"not an action: {text[:40]!r}; say fold, check, call 10, bring in 3, complete to 10, bet 10,"
                " raise to 30, show or muck"
            )
        kind, amount = said
        wagers = (ActionKind.CALL, ActionKind.BRING_IN, ActionKind.COMPLETE, ActionKind.BET, ActionKind.RAISE)
        if (amount is None) == (kind in wagers):
            need = "needs an amount" if amount is None else "takes no amount"
            raise ActionError(f"not an action: {text[:40]!r}: {kind.value} {need}")
        return Action(kind, amount or 0)

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
        if self.cards:
            return f"Action({self.kind.value!r}, {self.amount}, {self.cards!r})"
        if self.kind in (ActionKind.FOLD, ActionKind.CHECK, ActionKind.MUCK) or (
            self.kind is ActionKind.SHOW and not self.amount
        ):
            return f"Action({self.kind.value!r})"
        return f"Action({self.kind.value!r}, {self.amount})"


def words(text: str) -> tuple[ActionKind, int | None] | None:
    """The kind and the amount (``None`` where none is written) that an action's words name (``raise to 30``,
    ``bring-in``, ``call``, any case), or ``None`` for text that names no action: the one grammar of
    :meth:`Action.parse` and :meth:`~studpoker.engine.HandState.parse_action`."""
    match = _PARSE.fullmatch(text.strip().lower())
    if match is None:
        return None
    amount = match[2]
    return _PARSE_WORDS[match[1].replace("-", " ").replace("_", " ")], None if amount is None else int(amount)


def _kind(value: object) -> ActionKind:
    """An :class:`ActionKind` from itself or its text (``"call"``, ``"bring-in"``, ``"bring_in"``)."""
    if isinstance(value, str):
        found = _BY_NAME.get(value.strip().lower().replace("_", "-"))
        if found is not None:
            return found
    names = ", ".join(k.value for k in ActionKind)
    raise ActionError(f"an action's kind is an ActionKind or one of {names}; got {value!r}")


_BY_NAME = {k.value: k for k in ActionKind}
_PARSE = re.compile(r"(fold|check|call|bring[ _-]in|complete(?: to)?|bet|raise(?: to)?|show|muck)(?:\s+(\d+))?")
_PARSE_WORDS = {
    "fold": ActionKind.FOLD,
    "check": ActionKind.CHECK,
    "call": ActionKind.CALL,
    "bring in": ActionKind.BRING_IN,
    "complete": ActionKind.COMPLETE,
    "complete to": ActionKind.COMPLETE,
    "bet": ActionKind.BET,
    "raise": ActionKind.RAISE,
    "raise to": ActionKind.RAISE,
    "show": ActionKind.SHOW,
    "muck": ActionKind.MUCK,
}

_FOLD = Action(ActionKind.FOLD)
_CHECK = Action(ActionKind.CHECK)
_MUCK = Action(ActionKind.MUCK)
