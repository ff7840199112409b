"""Errors raised by the rules engine; all are ``ValueError`` subclasses with a message that says why."""

from __future__ import annotations

__all__ = ["CardSupplyError", "EngineError", "IllegalActionError", "RulesError"]


class EngineError(ValueError):
    """Base class of the engine's errors."""


class RulesError(EngineError):
    """A table sign (``Rules``) or a hand's set-up that the rules do not allow."""


class IllegalActionError(EngineError):
    """An action the player to act may not take now; the state is left exactly as it was."""


class CardSupplyError(EngineError):
    """A card given to the dealer that cannot be dealt (a duplicate, an unknown up card, no card wanted)."""
