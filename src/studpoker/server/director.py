"""The floor's moves: a player taken with his chips from one table to another, wherever each table runs (this
process, or two table workers): :class:`Director`.

A move is a seat held at the table he goes to, one transaction at the table he leaves, and the seat taken
(:mod:`studpoker.server.moves`). The director asks each table through its
:class:`~studpoker.server.handle.TableHandle`, so it is the same code for the one-process room and for a gateway
(where each step is a call to the table's worker). Tournaments balance and break their tables with it.
"""

from __future__ import annotations

from typing import Protocol

from .errors import ApiError
from .handle import TableHandle
from .schemas import PlayerMoved

__all__ = ["Director", "TableFinder"]


class TableFinder(Protocol):
    """Where the director finds a table: the room (:class:`~studpoker.server.front.CardRoom`)."""

    async def find_table(self, table_id: int) -> TableHandle: ...


class Director:
    """Moves players between the tables ``tables`` finds."""

    def __init__(self, tables: TableFinder) -> None:
        self.tables = tables

    async def move(
        self, account_id: int, username: str, from_table: int, to_table: int, seat: int | None = None
    ) -> PlayerMoved:
        """Move ``account_id`` (``username``) and his chips from ``from_table`` to seat ``seat`` (``None``: the
        first free one) of ``to_table``, between his hands. :class:`ApiError` if the tables are the same or of
        different games, the seat is not free, he does not sit at ``from_table`` or is in its hand: then
        nothing has moved."""
        if from_table == to_table:
            raise ApiError(400, "invalid", "a player is moved to another table, not to the one he sits at")
        source = await self.tables.find_table(from_table)
        target = await self.tables.find_table(to_table)
        game, other = source.info(), target.info()
        if game["variant"] != other["variant"]:
            raise ApiError(409, "conflict", f"{source.name} and {target.name} do not play the same game")
        held = await target.hold_seat(account_id, username, seat)
        to_seat = held.seat
        try:
            left = await source.move_out(account_id, target.id, target.name, to_seat)
        except ApiError:
            # refused: nothing moved, so the seat is let go now (any other failure may have moved him after all:
            # the hold then runs out and the table looks for his seat row itself)
            await target.move_in(account_id, to_seat)
            raise
        arrived = await target.move_in(account_id, to_seat)
        return PlayerMoved(
            account_id=account_id,
            from_table=from_table,
            from_seat=left.seat,
            to_table=to_table,
            seat=to_seat,
            stack=left.stack,
            seated=arrived.seat == to_seat,
        )
