"""Errors raised by the rules engine; all are ``ValueError`` subclasses with a message that says why."""

from __future__ import annotations

__all__ = ["ActionError", "CardSupplyError", "EngineError", "IllegalActionError", "RulesError", "RulesWarning"]


class EngineError(ValueError):
    """Base class of the engine's errors."""


class RulesError(EngineError):
    """A table sign (``Rules``) or a hand's set-up that the rules do not allow."""


class RulesWarning(UserWarning):
    """A table sign the rules allow but the sources call unusual (SPEC section 2's validation warnings)."""


class ActionError(EngineError):
    """An :class:`~studpoker.engine.Action` that is not one: an unknown kind, a negative amount, unreadable text."""


class IllegalActionError(EngineError):
    """An action the player to act may not take now; the state is left exactly as it was."""


class CardSupplyError(EngineError):
    """A card given to the dealer that cannot be dealt (a duplicate, an unknown up card, no card wanted)."""
