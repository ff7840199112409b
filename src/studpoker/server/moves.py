"""A player moved with his chips from one table to another (a floor's table change; a tournament's balancing), as
each of the two tables does its half: :class:`Moves`.

The move is three steps, driven by :class:`~studpoker.server.director.Director`, each a job on one table's actor:

1. :meth:`Moves.hold` on the table he goes to: a free seat is held for him (no one else may sit there).
2. :meth:`Moves.move_out` on the table he leaves, between his hands: **one database transaction** moves his chips
   from that table's ledger account to the other's, deletes his seat row and writes his seat row at the other table
   (stack, sitting out, time bank). Then he leaves the table in memory.
3. :meth:`Moves.move_in` on the table he goes to: it reads the seat row step 2 wrote and seats him.

The database is the truth: if step 2 fails, nothing moved and the hold lapses; if step 3 never comes (a worker
died, an answer was lost), the table he goes to seats him from his row when the hold lapses, and a worker that
takes either table over loads the seat rows as they are. At no moment are his chips at both tables or at none.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from ..bots import make_bot
from ..table import TableError
from .context import SeatMeta, TableContext
from .db import SeatRow, TableRow
from .errors import ApiError
from .ledger import table_account, transfer
from .protocol import MovedTo
from .schemas import Arrived, MovedOut, SeatHeld
from .viewers import Viewers

__all__ = ["HOLD_SECONDS", "Moves"]

#: How long a seat stays held for a player moving in before the table looks for his seat row itself.
HOLD_SECONDS = 30.0


class Moves:
    """The table of ``context``'s half of a move; ``later(delay, job)`` runs a job on its actor after ``delay``
    seconds, ``deal_soon(delay)`` asks it for a deal."""

    def __init__(
        self,
        context: TableContext,
        viewers: Viewers,
        later: Callable[[float, Callable[[], Awaitable[Any]]], None],
        deal_soon: Callable[[float], None],
    ) -> None:
        self.context = context
        self.viewers = viewers
        self.later = later
        self.deal_soon = deal_soon

    # -- the table he goes to

    async def hold(self, account_id: int, username: str, seat: int | None) -> SeatHeld:
        """Hold ``seat`` (``None``: the first free one) for ``account_id`` moving here: :class:`ApiError` if the
        table is not open, he sits here already, or the seat is not free."""
        context = self.context
        if context.status != "open":
            raise ApiError(409, "conflict", f"{context.name} is closing: no one may be moved there")
        if context.seat_of(account_id) is not None or account_id in context.arriving.values():
            raise ApiError(409, "conflict", f"{username} already sits at {context.name}")
        if seat is not None and seat in context.arriving:
            raise ApiError(409, "conflict", f"seat {seat} at {context.name} is held for another player moving there")
        if seat is None:
            free = context.free_seats
            if not free:
                raise ApiError(409, "conflict", f"{context.name} has no free seat")
            seat = free[0]
        try:
            context.table.check_seat_moved(username, context.table.rules.chip_unit, seat)
        except TableError as error:
            raise ApiError(409, "conflict", f"{context.name}: {error}") from None
        context.arriving[seat] = account_id
        self.later(HOLD_SECONDS, lambda: self._lapse(seat, account_id))
        return SeatHeld(seat=seat)

    async def move_in(self, account_id: int, seat: int) -> Arrived:
        """Seat ``account_id`` on ``seat`` from the seat row the table he left wrote (step 3); ``{"seat": None}``
        if there is none (the move did not happen: the hold is let go)."""
        return await self._arrive(seat, account_id)

    async def _lapse(self, seat: int, account_id: int) -> None:
        """The hold ran out: seat him if his row is there (the third step was lost), else let the seat go."""
        if self.context.arriving.get(seat) == account_id:
            await self._arrive(seat, account_id)

    async def _arrive(self, seat: int, account_id: int) -> Arrived:
        context = self.context
        table_id = context.id

        def read(session: Session) -> SeatRow | None:
            return session.scalar(select(SeatRow).where(SeatRow.table_id == table_id, SeatRow.seat == seat))

        row = await context.db.run(read)
        if context.arriving.get(seat) == account_id:
            del context.arriving[seat]
        if row is None or row.account_id != account_id:
            return Arrived(seat=None, stack=0)
        if context.seat_of(account_id) == seat:  # seated already (the hold lapsed first)
            return Arrived(seat=seat, stack=context.table.seat(seat).stack)
        context.table.seat_moved(row.name, row.stack, seat)
        if row.sitting_out:
            context.table.sit_out(seat)
        bank = context.settings.time_bank if row.time_bank is None else min(row.time_bank, context.settings.time_bank)
        bot = None if row.bot_tag is None else make_bot(row.bot_tag, None)
        context.seats[seat] = SeatMeta(account_id, row.bot_tag, bot, bank)
        self.viewers.broadcast(
            {"type": "seated", "seat": seat, "name": row.name, "stack": row.stack, "bot": bot is not None}
        )
        self.viewers.resnapshot(account_id)
        self.deal_soon(context.settings.between_hands)
        return Arrived(seat=seat, stack=row.stack)

    # -- the table he leaves

    async def move_out(self, account_id: int, to_table: int, to_name: str, to_seat: int) -> MovedOut:
        """Move ``account_id``'s seat and chips to seat ``to_seat`` of table ``to_table`` (named ``to_name``) in one
        transaction (step 2): :class:`ApiError` if he does not sit here, is in the hand in play, or the other
        table is closed, of the other kind of chips, or its seat is taken; then nothing has moved."""
        context = self.context
        number = context.seat_of(account_id)
        if number is None:
            raise ApiError(409, "conflict", f"that player does not sit at {context.name}")
        table = context.table
        if table.hand is not None and number in table.players:
            raise ApiError(409, "conflict", f"that player is in the hand in play at {context.name}: move him after it")
        seat, meta = table.seat(number), context.seats[number]
        amount = seat.stack + seat.queued
        table_id, training = context.id, context.training

        def work(session: Session) -> None:
            target = session.get(TableRow, to_table)
            if target is None or target.status != "open":
                raise ApiError(409, "conflict", f"table {to_table} is not open")
            if bool(target.training) != training:
                raise ApiError(409, "conflict", "practice chips and real chips do not mix: both tables must be alike")
            if target.tournament_id != context.tournament:
                raise ApiError(
                    409, "conflict", "a tournament's chips stay in it: both tables must be of one tournament"
                )
            transfer(
                session,
                table_account(table_id),
                table_account(to_table),
                amount,
                "move",
                table_id=table_id,
                memo=f"moved from {context.name} seat {number} to {to_name} seat {to_seat}",
            )
            session.execute(delete(SeatRow).where(SeatRow.table_id == table_id, SeatRow.seat == number))
            session.add(
                SeatRow(
                    table_id=to_table,
                    seat=to_seat,
                    account_id=account_id,
                    bot_tag=meta.bot_tag,  # a tournament's bot moves as a player does
                    name=seat.name,
                    stack=amount,
                    sitting_out=seat.sitting_out,
                    time_bank=round(meta.time_bank, 3),
                )
            )
            session.flush()

        try:
            await context.db.run(work)
        except IntegrityError:
            raise ApiError(409, "conflict", f"seat {to_seat} at {to_name} was just taken") from None
        table.leave(number)
        del context.seats[number]
        moved: MovedTo = {"table": to_table, "name": to_name, "seat": to_seat}
        self.viewers.broadcast({"type": "left", "seat": number, "name": seat.name, "cashed_out": 0, "moved_to": moved})
        self.viewers.resnapshot(account_id)
        return MovedOut(seat=number, stack=amount)
