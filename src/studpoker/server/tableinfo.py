"""A table's object in the API (``TableInfo``), made by its actor, or on a gateway from the table's row."""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import TYPE_CHECKING, Protocol

from ..engine import Rules
from . import wire
from .limits import MAX_SHOWDOWN_SECONDS
from .protocol import TableSummary

if TYPE_CHECKING:
    from .config import Settings

__all__ = ["Sign", "showdown_pause", "table_info"]


class Sign(Protocol):
    """What a table's info is made of besides its rules: an actor's fields, or a table row's."""

    @property
    def id(self) -> int: ...
    @property
    def name(self) -> str: ...
    @property
    def preset(self) -> str: ...
    @property
    def status(self) -> str: ...
    @property
    def created_by(self) -> int | None: ...
    @property
    def showdown_seconds(self) -> float | None: ...
    @property
    def training(self) -> bool: ...


def showdown_pause(stored: float | None, settings: Settings) -> float:
    """A table's pause after a showdown: its stored one, bounded again, or the room's."""
    if stored is not None and math.isfinite(stored):
        return min(max(float(stored), 0.0), MAX_SHOWDOWN_SECONDS)
    return settings.showdown_seconds


def table_info(
    sign: Sign,
    rules: Rules,
    settings: Settings,
    *,
    seats_taken: int,
    hands_played: int,
    pots: Iterable[int],
    playing: bool,
    waiting: int = 0,
) -> TableSummary:
    """The table object of the API (``TableInfo``), for an actor or, on a gateway, from a table's row."""
    pots = list(pots)
    return {
        "id": sign.id,
        "name": sign.name,
        "variant": rules.variant.value,
        "variant_name": rules.variant.title,
        "preset": sign.preset,
        "stakes": {
            "ante": rules.ante,
            "bring_in": rules.bring_in,
            "small_bet": rules.small_bet,
            "big_bet": rules.big_bet,
        },
        "stakes_text": wire.stakes_text(rules),
        "min_buy_in": rules.min_buy_in,
        "max_buy_in": rules.max_buy_in,
        "max_seats": rules.max_seats or 0,  # never None: the rules fill it in from the game
        "seats_taken": seats_taken,
        "hands_played": hands_played,
        "average_pot": round(sum(pots) / len(pots)) if pots else 0,
        "playing": playing,
        "status": sign.status,
        "created_by": sign.created_by,
        "clock": {"action": settings.action_seconds, "bank": settings.time_bank},
        "showdown_seconds": showdown_pause(sign.showdown_seconds, settings),
        "training": bool(sign.training),
        "waiting": waiting,
    }
