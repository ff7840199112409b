"""Comparison by value, shared by the hand objects."""

from __future__ import annotations

from functools import total_ordering
from typing import Any


@total_ordering
class Ranked:
    """Mixin: hands compare by ``value`` (larger is better); equal values are equal hands.

    Only hands of the same kind (see :meth:`_kind`) compare; anything else gives
    ``NotImplemented``, so ``<`` raises ``TypeError`` and ``==`` is ``False``.
    """

    __slots__ = ()
    value: int

    def _kind(self) -> tuple[Any, ...]:
        """What two hands must share to be comparable."""
        return (type(self),)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Ranked) or other._kind() != self._kind():
            return NotImplemented
        return self.value == other.value

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Ranked) or other._kind() != self._kind():
            return NotImplemented
        return self.value < other.value

    def __hash__(self) -> int:
        return hash((*self._kind(), self.value))
