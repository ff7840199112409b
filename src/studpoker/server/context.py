"""What the parts of a table's actor share: :class:`TableContext`, the table itself and the hand in play.

The actor (:mod:`studpoker.server.actor`) builds one context and hands it to each of its parts (the viewers, the
clock, the books, the cashier); none of them knows the room. Everything in it is changed on the actor only, between
two of its jobs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..bots import Bot
from ..table import Table
from .db import Runner

if TYPE_CHECKING:
    from .config import Settings

__all__ = ["SeatMeta", "TableContext"]


@dataclass
class SeatMeta:
    """What the server knows of a seat beyond the table's :class:`~studpoker.table.Seat`."""

    account_id: int | None
    bot_tag: str | None
    bot: Bot | None
    time_bank: float
    timeouts: int = 0


@dataclass(eq=False)
class TableContext:
    """One table's shared state: who it is, where it writes, its :class:`~studpoker.table.Table` and seats, and the
    turn bookkeeping of the hand in play."""

    id: int
    name: str
    training: bool  # practice chips from the house; cards public after the hand
    settings: Settings
    db: Runner  # a table worker's is fenced by its lease (studpoker.server.lease)
    table: Table
    seats: dict[int, SeatMeta]
    status: str = "open"  # open, closing (no new hand; closes when the one in play ends) or closed
    tournament: int | None = None  # a tournament's table: its chips are the tournament's (never money)
    arriving: dict[int, int] = field(default_factory=dict)  # seats held for players moving here: seat -> account
    # the hand in play
    seq: int = 0  # the current turn number (0 between hands)
    hand_players: list[dict[str, Any]] = field(default_factory=list)  # the hand row's players when it was dealt
    hand_seats: tuple[int, ...] = ()
    auto: set[int] = field(default_factory=set)  # the turns the server played for a player
    auto_seats: set[int] = field(default_factory=set)  # the seats it played them for
    hand_round: int | None = None  # a tournament's: the hand-for-hand round the hand was dealt in

    @property
    def free_seats(self) -> tuple[int, ...]:
        """The free seats not held for a player moving here from another table."""
        return tuple(s for s in self.table.free_seats if s not in self.arriving)

    def seat_of(self, account_id: int | None) -> int | None:
        """The seat ``account_id`` holds (``None``: none, or no account)."""
        if account_id is not None:
            for number, meta in self.seats.items():  # as seats_by_account has it, without building the dict
                if meta.account_id == account_id:
                    return number
        return None

    def seats_by_account(self) -> dict[int, int]:
        """Each seated account's seat (its first, in seat order, should it hold two): :meth:`seat_of` for every
        account at once, for a step that looks up every socket's."""
        seats: dict[int, int] = {}
        for number, meta in self.seats.items():
            if meta.account_id is not None:
                seats.setdefault(meta.account_id, number)
        return seats
