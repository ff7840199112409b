"""The tournament's refusals: one ``ValueError`` subclass per kind of mistake, each saying what is wrong.

A refused request changes nothing: the structure, payout table or tournament state is exactly as it was.
"""

from __future__ import annotations

__all__ = ["BalancingError", "PayoutError", "StructureError", "TournamentError"]


class TournamentError(ValueError):
    """A request a tournament cannot take (registration closed, chips not conserved, an unknown player...)."""


class StructureError(TournamentError):
    """A structure that cannot be played: levels not rising, stakes the engine refuses, a level without time."""


class PayoutError(TournamentError):
    """A payout table or prize request that does not add up (percentages not summing to 100, too few entries)."""


class BalancingError(TournamentError):
    """Tables that cannot be balanced as given (a seat outside the table, a player seated twice, no free seat)."""
