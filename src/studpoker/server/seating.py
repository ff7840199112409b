"""The cashier's side of a table actor: sitting down, leaving, topping up, sitting out, bots, closing the table.

Each operation is a job on the actor (see :mod:`studpoker.server.actor`): it checks everything first, then moves the
money and writes the seat rows in one database transaction, and only then changes the table in memory and tells the
sockets, so a refusal or a failure at any step leaves the table and the books as they were.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import delete, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from ..bots import Bot, make_bot
from ..table import Table, TableError
from .connection import Connection
from .db import Account, Runner, SeatRow, TableRow, utcnow
from .errors import ApiError
from .ledger import HOUSE, InsufficientFundsError, cash_out_kind, purse, table_account, transfer
from .waitlist import WaitingList

if TYPE_CHECKING:
    from .config import Settings
    from .room import Room

__all__ = ["SeatMeta", "Seating"]

Job = Callable[[], Awaitable[Any]]


@dataclass
class SeatMeta:
    """What the server knows of a seat beyond the table's :class:`~studpoker.table.Seat`."""

    account_id: int | None
    bot_tag: str | None
    bot: Bot | None
    time_bank: float
    timeouts: int = 0


class Seating:
    """The seat and money operations of :class:`~studpoker.server.actor.TableActor` (which provides the state and
    the plumbing declared here)."""

    id: int
    name: str
    status: str
    training: bool
    room: Room
    db: Runner
    settings: Settings
    table: Table
    seats: dict[int, SeatMeta]
    connections: set[Connection]
    inbox: asyncio.Queue[Any]
    start_timer: asyncio.TimerHandle | None
    turn_timer: asyncio.TimerHandle | None
    bot_timer: asyncio.TimerHandle | None
    waiting: WaitingList

    if TYPE_CHECKING:

        async def call(self, job: Job) -> Any: ...

        def seat_of(self, account_id: int | None) -> int | None: ...

        def seat_info(self, number: int, *, bank: bool = False) -> dict[str, Any]: ...

        def _broadcast(self, message: dict[str, Any]) -> None: ...

        def _resnapshot(self, account_id: int | None) -> None: ...

        def _schedule_start(self, delay: float) -> None: ...

        def _cancel_timers(self) -> None: ...

    def _check_open(self) -> None:
        if self.status != "open":
            raise ApiError(409, "conflict", f"{self.name} is closing: no one may sit down or add chips")

    def _open_to(self, account_id: int | None) -> list[int]:
        """The free seats ``account_id`` may take (``None``: a bot): not those held for someone else on the
        waiting list."""
        return [s for s in self.table.free_seats if self.waiting.held_for(s) in (None, account_id)]

    async def sit(self, account_id: int, username: str, buy_in: int, seat: int | None) -> dict[str, Any]:
        """Seat the account with ``buy_in`` chips from its balance. Everything is checked, then the money moves
        and the seat row is written in one transaction, and only then is the table changed: a refusal or a
        failure at any point leaves the table and the books as they were."""

        async def job() -> dict[str, Any]:
            table = self.table
            self._check_open()
            if self.seat_of(account_id) is not None:
                raise ApiError(409, "conflict", f"you already sit at {self.name}")
            if seat is not None and not 1 <= seat <= table.max_seats:
                raise ApiError(400, "invalid", f"there is no seat {seat}: seats are 1 to {table.max_seats}")
            if seat is not None and seat not in table.free_seats:
                raise ApiError(409, "conflict", f"seat {seat} is taken")
            open_seats = self._open_to(account_id)
            offer = self.waiting.offer_of(account_id)
            if seat is not None and seat not in open_seats:
                raise ApiError(409, "conflict", f"seat {seat} is held for the next player on the waiting list")
            if not open_seats:
                held = " (its free seats are held for the waiting list)" if table.free_seats else ""
                raise ApiError(409, "conflict", f"{self.name} is full{held}: put your name on the waiting list")
            chosen = seat if seat is not None else offer.seat if offer is not None else open_seats[0]
            try:
                number = table.check_sit(username, buy_in, chosen)
            except TableError as error:
                raise ApiError(400, "invalid", str(error)) from None

            def work(session: Session) -> int:
                transfer(
                    session,
                    purse(account_id, bot=False, training=self.training),
                    table_account(self.id),
                    buy_in,
                    "training_buy_in" if self.training else "buy_in",
                    table_id=self.id,
                    memo=f"buy-in at {self.name} seat {number}",
                )
                session.add(SeatRow(table_id=self.id, seat=number, account_id=account_id, name=username, stack=buy_in))
                session.flush()
                return _balance(session, account_id)

            try:
                balance = await self.db.run(work)
            except InsufficientFundsError as error:
                raise ApiError(402, "insufficient_funds", f"a buy-in of {error}") from None
            except IntegrityError:
                raise ApiError(409, "conflict", "that seat was just taken") from None
            table.sit(username, buy_in, number)
            self.seats[number] = SeatMeta(account_id, None, None, self.settings.time_bank)
            if self.waiting.place(account_id) is not None:
                self.waiting.seated(account_id)
                for waiter in self.waiting.accounts:  # each moved up a place
                    self._resnapshot(waiter)
            self._broadcast({"type": "seated", "seat": number, "name": username, "stack": buy_in, "bot": False})
            self._resnapshot(account_id)
            self._schedule_start(self.settings.between_hands)
            return {"seat": number, "stack": buy_in, "balance": balance}

        result: dict[str, Any] = await self.call(job)
        return result

    def _my_seat(self, account_id: int) -> int:
        seat = self.seat_of(account_id)
        if seat is None:
            raise ApiError(409, "conflict", f"you do not sit at {self.name}")
        return seat

    async def leave(self, account_id: int) -> dict[str, Any]:
        async def job() -> dict[str, Any]:
            number = self._my_seat(account_id)
            current = self.table.seat(number)
            if self.table.hand is not None and number in self.table.players:

                def mark(session: Session) -> int:
                    session.execute(
                        update(SeatRow).where(SeatRow.table_id == self.id, SeatRow.seat == number).values(leaving=True)
                    )
                    return _balance(session, account_id)

                balance = await self.db.run(mark)
                self.table.leave(number)
                self._broadcast({"type": "seat", **self.seat_info(number, bank=True)})
                return {"left": False, "cashed_out": 0, "balance": balance}
            amount = current.stack + current.queued

            def work(session: Session) -> int:
                transfer(
                    session,
                    table_account(self.id),
                    purse(account_id, bot=False, training=self.training),
                    amount,
                    cash_out_kind(bot=False, training=self.training),
                    table_id=self.id,
                    memo=f"left {self.name} seat {number}",
                )
                session.execute(delete(SeatRow).where(SeatRow.table_id == self.id, SeatRow.seat == number))
                session.flush()
                return _balance(session, account_id)

            balance = await self.db.run(work)
            self.table.leave(number)
            del self.seats[number]
            self._broadcast({"type": "left", "seat": number, "name": current.name, "cashed_out": amount})
            self._resnapshot(account_id)
            return {"left": True, "cashed_out": amount, "balance": balance}

        result: dict[str, Any] = await self.call(job)
        return result

    async def top_up(self, account_id: int, amount: int) -> dict[str, Any]:
        """Add ``amount`` chips from the balance to the account's seat (queued during its hand); checked first."""

        async def job() -> dict[str, Any]:
            number = self._my_seat(account_id)
            table = self.table
            self._check_open()
            try:
                at_once = table.check_top_up(number, amount)
            except TableError as error:
                raise ApiError(400, "invalid", str(error)) from None
            current = table.seat(number)

            def work(session: Session) -> int:
                transfer(
                    session,
                    purse(account_id, bot=False, training=self.training),
                    table_account(self.id),
                    amount,
                    "training_top_up" if self.training else "top_up",
                    table_id=self.id,
                    memo=f"top-up at {self.name} seat {number}",
                )
                values = {"stack": current.stack + amount} if at_once else {"queued": current.queued + amount}
                session.execute(
                    update(SeatRow).where(SeatRow.table_id == self.id, SeatRow.seat == number).values(**values)
                )
                session.flush()
                return _balance(session, account_id)

            try:
                balance = await self.db.run(work)
            except InsufficientFundsError as error:
                raise ApiError(402, "insufficient_funds", f"a top-up of {error}") from None
            added_now = table.top_up(number, amount)
            after = table.seat(number)
            self._broadcast({"type": "seat", **self.seat_info(number, bank=True)})
            return {"queued": not added_now, "stack": after.stack, "queued_chips": after.queued, "balance": balance}

        result: dict[str, Any] = await self.call(job)
        return result

    async def set_sitting_out(self, account_id: int, out: bool) -> dict[str, Any]:
        async def job() -> dict[str, Any]:
            number = self._my_seat(account_id)

            def work(session: Session) -> None:
                session.execute(
                    update(SeatRow).where(SeatRow.table_id == self.id, SeatRow.seat == number).values(sitting_out=out)
                )

            await self.db.run(work)
            if out:
                self.table.sit_out(number)
            else:
                self.table.sit_in(number)
                self.seats[number].timeouts = 0
                self._schedule_start(self.settings.between_hands)
            self._broadcast({"type": "seat", **self.seat_info(number, bank=True)})
            return {"sitting_out": out}

        result: dict[str, Any] = await self.call(job)
        return result

    async def join_waiting_list(self, account_id: int, username: str) -> dict[str, Any]:
        """Put the account's name on the table's waiting list (the table must be full to it); its place."""

        async def job() -> dict[str, Any]:
            self._check_open()
            if self.seat_of(account_id) is not None:
                raise ApiError(409, "conflict", f"you already sit at {self.name}")
            if self._open_to(account_id):
                raise ApiError(409, "conflict", f"{self.name} has a free seat: sit down")
            try:
                place = self.waiting.join(account_id, username)
            except ValueError as error:
                raise ApiError(409, "limit", str(error)) from None
            self._resnapshot(account_id)
            return {"place": place, "waiting": len(self.waiting)}

        result: dict[str, Any] = await self.call(job)
        return result

    async def leave_waiting_list(self, account_id: int) -> dict[str, Any]:
        """Take the account's name off the waiting list (a seat held for it goes to the next name)."""

        async def job() -> dict[str, Any]:
            was = self.waiting.leave(account_id)
            for account in (account_id, *self.waiting.accounts):  # the others moved up a place
                self._resnapshot(account)
            return {"left": was, "waiting": len(self.waiting)}

        result: dict[str, Any] = await self.call(job)
        return result

    async def add_bots(self, count: int | None, tag: str | None) -> dict[str, Any]:
        """Seat up to ``count`` bots (every free seat if ``None``) with the minimum buy-in, from the house."""
        tag = "tight-aggressive" if tag is None else tag
        if tag not in self.settings.bot_tags:
            raise ApiError(400, "invalid", f"unknown bot {tag[:40]!r}: choose from {', '.join(self.settings.bot_tags)}")

        async def job() -> dict[str, Any]:
            table = self.table
            self._check_open()
            buy_in = table.rules.min_buy_in or 10 * table.rules.big_bet
            if table.rules.max_buy_in is not None:
                buy_in = min(buy_in, table.rules.max_buy_in)
            free = self._open_to(None)  # not the seats held for the waiting list
            placed = list(free if count is None else free[:count])
            for number in placed:
                try:
                    table.check_sit(f"Bot {number}", buy_in, number)
                except TableError as error:
                    raise ApiError(400, "invalid", str(error)) from None

            def work(session: Session) -> None:
                for number in placed:
                    transfer(
                        session,
                        HOUSE,
                        table_account(self.id),
                        buy_in,
                        "bot_buy_in",
                        table_id=self.id,
                        memo=f"bot at {self.name} seat {number}",
                    )
                    session.add(SeatRow(table_id=self.id, seat=number, bot_tag=tag, name=f"Bot {number}", stack=buy_in))

            await self.db.run(work)
            for number in placed:
                table.sit(f"Bot {number}", buy_in, number)
                seed = None if self.settings.seed is None else self.settings.seed + 1000 * self.id + number
                self.seats[number] = SeatMeta(None, tag, make_bot(tag, seed), self.settings.time_bank)
                self._broadcast(
                    {"type": "seated", "seat": number, "name": f"Bot {number}", "stack": buy_in, "bot": True}
                )
            self._schedule_start(self.settings.between_hands)
            return {"seats": placed}

        result: dict[str, Any] = await self.call(job)
        return result

    async def remove_bots(self) -> dict[str, Any]:
        async def job() -> dict[str, Any]:
            removed: list[int] = []
            for number, meta in list(self.seats.items()):
                if meta.bot is None:
                    continue
                removed.append(number)
                await self._bot_leaves(number, meta)
            return {"removed": removed}

        result: dict[str, Any] = await self.call(job)
        return result

    async def _bot_leaves(self, number: int, meta: SeatMeta) -> None:
        """A bot leaves: at once between hands (its chips go back to the house), else when the hand is over."""
        current = self.table.seat(number)
        where = (SeatRow.table_id == self.id, SeatRow.seat == number)
        if self.table.hand is not None and number in self.table.players:

            def mark(session: Session) -> None:
                session.execute(update(SeatRow).where(*where).values(leaving=True))

            await self.db.run(mark)
            self.table.leave(number)
            self._broadcast({"type": "seat", **self.seat_info(number, bank=True)})
            return
        amount = current.stack + current.queued

        def work(session: Session) -> None:
            memo = f"bot left {self.name} seat {number}"
            transfer(session, table_account(self.id), HOUSE, amount, "bot_cash_out", table_id=self.id, memo=memo)
            session.execute(delete(SeatRow).where(*where))

        await self.db.run(work)
        self.table.leave(number)
        del self.seats[number]
        if meta.bot is not None:
            meta.bot.close()
        self._broadcast({"type": "left", "seat": number, "name": current.name, "cashed_out": amount})

    async def close(self) -> dict[str, Any]:
        """Close the table (its creator or an admin asked): no new hand is dealt; at once between hands, or as
        soon as the hand in play is over, every seat is cashed out through the ledger (players to their
        balances, bots to the house), the table is marked closed, and its sockets get ``closed``."""

        async def job() -> dict[str, Any]:
            if self.status == "open":

                def mark(session: Session) -> None:
                    session.execute(update(TableRow).where(TableRow.id == self.id).values(status="closing"))

                await self.db.run(mark)
                self.status = "closing"
                if self.start_timer is not None:
                    self.start_timer.cancel()
                    self.start_timer = None
                self._broadcast({"type": "closing", "table_id": self.id})
            if self.table.hand is not None:
                return {"closed": False, "cashed_out": []}
            return await self._close_now()

        result: dict[str, Any] = await self.call(job)
        return result

    async def _close_now(self) -> dict[str, Any]:
        """Cash everyone out and close, between hands (on the actor)."""
        assert self.table.hand is None
        seats = [(s, self.seats[s.number]) for s in self.table.occupied]
        cashed: list[dict[str, Any]] = [
            {"seat": s.number, "name": s.name, "amount": s.stack + s.queued} for s, _ in seats
        ]

        def work(session: Session) -> None:
            for seat, meta in seats:
                bot = meta.bot_tag is not None
                transfer(
                    session,
                    table_account(self.id),
                    purse(meta.account_id, bot=bot, training=self.training),
                    seat.stack + seat.queued,
                    cash_out_kind(bot=bot, training=self.training),
                    table_id=self.id,
                    memo=f"{self.name} closed: seat {seat.number}",
                )
            session.execute(delete(SeatRow).where(SeatRow.table_id == self.id))
            session.execute(update(TableRow).where(TableRow.id == self.id).values(status="closed", closed_at=utcnow()))

        await self.db.run(work)
        self.status = "closed"
        for seat, meta in seats:
            self.table.leave(seat.number)
            if meta.bot is not None:
                meta.bot.close()
        self.seats.clear()
        self._cancel_timers()
        self._broadcast({"type": "closed", "table_id": self.id, "cashed_out": cashed})
        for connection in list(self.connections):
            connection.close(4410)
        self.room.forget(self.id)
        self.inbox.put_nowait(None)  # the actor stops after this job
        return {"closed": True, "cashed_out": cashed}


def _balance(session: Session, account_id: int) -> int:
    return int(session.scalar(select(Account.balance).where(Account.id == account_id)) or 0)
