"""The cashier's desk of a table: sitting down, leaving, topping up, sitting out, the waiting list, bots, closing
the table.

Each operation runs as a job on the table's actor (:mod:`studpoker.server.actor`): it checks everything first,
then moves the money and writes the seat rows in one database transaction, and only then changes the table in
memory and tells the sockets, so a refusal or a failure at any step leaves the table and the books as they were.
"""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy import delete, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from ..bots import make_bot
from ..engine import HandState
from ..table import Seat, TableError
from .books import Leaver
from .clock import Clock
from .context import SeatMeta, TableContext
from .db import Account, SeatRow, TableRow, TournamentRow, utcnow
from .errors import ApiError
from .ledger import HOUSE, InsufficientFundsError, cash_out_kind, purse, table_account, transfer
from .protocol import CashOut
from .schemas import (
    BotsAdded,
    BotsRemoved,
    CashedOut,
    CloseResult,
    LeaveResult,
    SitResult,
    SittingOut,
    TopUpResult,
    WaitingLeft,
    WaitingPlace,
)
from .tournamenttable import not_at_a_tournament
from .viewers import Viewers
from .waitlist import WaitingList

__all__ = ["Cashier"]


class Cashier:
    """The seat and money operations of the table of ``context``, each run on its actor; ``deal_soon(delay)`` asks
    the actor for a deal in ``delay`` seconds, ``on_closed()`` tells it the table is closed (it stops after the job)."""

    def __init__(
        self,
        context: TableContext,
        waiting: WaitingList,
        viewers: Viewers,
        clock: Clock,
        deal_soon: Callable[[float], None],
        on_closed: Callable[[], None],
    ) -> None:
        self.context = context
        self.id, self.name, self.training = context.id, context.name, context.training
        self.settings, self.db, self.table, self.seats = context.settings, context.db, context.table, context.seats
        self.waiting = waiting
        self.viewers = viewers
        self.clock = clock
        self.deal_soon = deal_soon
        self.on_closed = on_closed

    def _not_at_a_tournament(self, what: str) -> None:
        if self.context.tournament is not None:
            raise not_at_a_tournament(what)

    def _check_open(self) -> None:
        if self.context.status != "open":
            raise ApiError(409, "conflict", f"{self.name} is closing: no one may sit down or add chips")

    def _open_to(self, account_id: int | None) -> list[int]:
        """The free seats ``account_id`` may take (``None``: a bot): not those held for someone else on the
        waiting list."""
        return [s for s in self.context.free_seats if self.waiting.held_for(s) in (None, account_id)]

    async def sit(self, account_id: int, username: str, buy_in: int, seat: int | None) -> SitResult:
        """Seat the account with ``buy_in`` chips from its balance. Everything is checked, then the money moves
        and the seat row is written in one transaction, and only then is the table changed: a refusal or a
        failure at any point leaves the table and the books as they were."""
        table = self.table
        self._not_at_a_tournament("no one buys in")
        self._check_open()
        if self.context.seat_of(account_id) is not None or account_id in self.context.arriving.values():
            raise ApiError(409, "conflict", f"you already sit at {self.name}")
        if seat is not None and not 1 <= seat <= table.max_seats:
            raise ApiError(400, "invalid", f"there is no seat {seat}: seats are 1 to {table.max_seats}")
        if seat is not None and seat not in table.free_seats:
            raise ApiError(409, "conflict", f"seat {seat} is taken")
        if seat is not None and seat in self.context.arriving:
            raise ApiError(409, "conflict", f"seat {seat} is held for a player moving here from another table")
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
                self.viewers.resnapshot(waiter)
        self.viewers.broadcast({"type": "seated", "seat": number, "name": username, "stack": buy_in, "bot": False})
        self.viewers.resnapshot(account_id)
        self.deal_soon(self.settings.between_hands)
        return SitResult(seat=number, stack=buy_in, balance=balance)

    def _my_seat(self, account_id: int) -> int:
        seat = self.context.seat_of(account_id)
        if seat is None:
            raise ApiError(409, "conflict", f"you do not sit at {self.name}")
        return seat

    async def leave(self, account_id: int) -> LeaveResult:
        self._not_at_a_tournament("no one leaves with chips")
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
            self.viewers.seat_changed(number)
            return LeaveResult(left=False, cashed_out=0, balance=balance)
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
        self.viewers.broadcast({"type": "left", "seat": number, "name": current.name, "cashed_out": amount})
        self.viewers.resnapshot(account_id)
        return LeaveResult(left=True, cashed_out=amount, balance=balance)

    async def top_up(self, account_id: int, amount: int) -> TopUpResult:
        """Add ``amount`` chips from the balance to the account's seat (queued during its hand); checked first."""
        self._not_at_a_tournament("no one adds chips")
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
            session.execute(update(SeatRow).where(SeatRow.table_id == self.id, SeatRow.seat == number).values(**values))
            session.flush()
            return _balance(session, account_id)

        try:
            balance = await self.db.run(work)
        except InsufficientFundsError as error:
            raise ApiError(402, "insufficient_funds", f"a top-up of {error}") from None
        added_now = table.top_up(number, amount)
        after = table.seat(number)
        self.viewers.seat_changed(number)
        return TopUpResult(queued=not added_now, stack=after.stack, queued_chips=after.queued, balance=balance)

    async def set_sitting_out(self, account_id: int, out: bool) -> SittingOut:
        self._not_at_a_tournament("everyone is dealt in (a player away is folded when his turn comes)")
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
            self.deal_soon(self.settings.between_hands)
        self.viewers.seat_changed(number)
        return SittingOut(sitting_out=out)

    async def join_waiting_list(self, account_id: int, username: str) -> WaitingPlace:
        """Put the account's name on the table's waiting list (the table must be full to it); its place."""
        self._not_at_a_tournament("no one waits for a seat")
        self._check_open()
        if self.context.seat_of(account_id) is not None or account_id in self.context.arriving.values():
            raise ApiError(409, "conflict", f"you already sit at {self.name}")
        if self._open_to(account_id):
            raise ApiError(409, "conflict", f"{self.name} has a free seat: sit down")
        try:
            place = self.waiting.join(account_id, username)
        except ValueError as error:
            raise ApiError(409, "limit", str(error)) from None
        self.viewers.resnapshot(account_id)
        return WaitingPlace(place=place, waiting=len(self.waiting))

    async def leave_waiting_list(self, account_id: int) -> WaitingLeft:
        """Take the account's name off the waiting list (a seat held for it goes to the next name)."""
        was = self.waiting.leave(account_id)
        for account in (account_id, *self.waiting.accounts):  # the others moved up a place
            self.viewers.resnapshot(account)
        return WaitingLeft(left=was, waiting=len(self.waiting))

    def bot_tag(self, tag: str | None) -> str:
        """The bot asked for (``None``: the default), or :class:`ApiError` 400 if the room has none of that name."""
        tag = "tight-aggressive" if tag is None else tag
        if tag not in self.settings.bot_tags:
            raise ApiError(400, "invalid", f"unknown bot {tag[:40]!r}: choose from {', '.join(self.settings.bot_tags)}")
        return tag

    async def add_bots(self, count: int | None, tag: str) -> BotsAdded:
        """Seat up to ``count`` bots (every free seat if ``None``) with the minimum buy-in, from the house (``tag``
        checked by :meth:`bot_tag`)."""
        table = self.table
        self._not_at_a_tournament("no bot sits down")
        self._check_open()
        buy_in = table.min_buy_in or 10 * table.rules.big_bet  # a mixed table's: its biggest game's
        if table.max_buy_in is not None:
            buy_in = min(buy_in, table.max_buy_in)
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
            self.viewers.broadcast(
                {"type": "seated", "seat": number, "name": f"Bot {number}", "stack": buy_in, "bot": True}
            )
        self.deal_soon(self.settings.between_hands)
        return BotsAdded(seats=placed)

    async def remove_bots(self) -> BotsRemoved:
        self._not_at_a_tournament("a bot that entered plays to the end")
        removed: list[int] = []
        for number, meta in list(self.seats.items()):
            if meta.bot is None:
                continue
            removed.append(number)
            await self._bot_leaves(number, meta)
        return BotsRemoved(removed=removed)

    async def _bot_leaves(self, number: int, meta: SeatMeta) -> None:
        """A bot leaves: at once between hands (its chips go back to the house), else when the hand is over."""
        current = self.table.seat(number)
        where = (SeatRow.table_id == self.id, SeatRow.seat == number)
        if self.table.hand is not None and number in self.table.players:

            def mark(session: Session) -> None:
                session.execute(update(SeatRow).where(*where).values(leaving=True))

            await self.db.run(mark)
            self.table.leave(number)
            self.viewers.seat_changed(number)
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
        self.viewers.broadcast({"type": "left", "seat": number, "name": current.name, "cashed_out": amount})

    async def close(self) -> CloseResult:
        """Close the table (its creator or an admin asked): no new hand is dealt; at once between hands, or as
        soon as the hand in play is over, every seat is cashed out through the ledger (players to their
        balances, bots to the house), the table is marked closed, and its sockets get ``closed``. A tournament's
        table with players closes only once the tournament is over (its runner closes it)."""
        if self.context.tournament is not None and self.table.occupied and not await self._tournament_over():
            raise not_at_a_tournament("no one closes a table with players")
        if self.context.status == "open":

            def mark(session: Session) -> None:
                session.execute(update(TableRow).where(TableRow.id == self.id).values(status="closing"))

            await self.db.run(mark)
            self.context.status = "closing"
            self.clock.cancel_start()
            self.viewers.broadcast({"type": "closing", "table_id": self.id})
        if self.table.hand is not None:
            return CloseResult(closed=False, cashed_out=[])
        return await self.close_now()

    async def _tournament_over(self) -> bool:
        tournament = self.context.tournament

        def read(session: Session) -> str | None:
            return session.scalar(select(TournamentRow.status).where(TournamentRow.id == tournament))

        return await self.db.run(read) in ("finished", "cancelled")

    async def close_now(self) -> CloseResult:
        """Cash everyone out and close, between hands (on the actor)."""
        assert self.table.hand is None
        seats = [(s, self.seats[s.number]) for s in self.table.occupied]
        cashed: list[CashOut] = [{"seat": s.number, "name": s.name, "amount": s.stack + s.queued} for s, _ in seats]

        def work(session: Session) -> None:
            for seat, meta in seats:
                bot = meta.bot_tag is not None
                transfer(
                    session,
                    table_account(self.id),
                    purse(meta.account_id, bot=bot, training=self.training, tournament=self.context.tournament),
                    seat.stack + seat.queued,
                    cash_out_kind(bot=bot, training=self.training, tournament=self.context.tournament),
                    table_id=self.id,
                    memo=f"{self.name} closed: seat {seat.number}",
                )
            session.execute(delete(SeatRow).where(SeatRow.table_id == self.id))
            session.execute(update(TableRow).where(TableRow.id == self.id).values(status="closed", closed_at=utcnow()))

        await self.db.run(work)
        self.context.status = "closed"
        for seat, meta in seats:
            self.table.leave(seat.number)
            if meta.bot is not None:
                meta.bot.close()
        self.seats.clear()
        self.clock.cancel_all()
        self.viewers.broadcast({"type": "closed", "table_id": self.id, "cashed_out": cashed})
        for connection in list(self.viewers.connections):
            connection.close(4410)
        self.on_closed()  # the actor stops after this job
        return CloseResult(closed=True, cashed_out=[CashedOut(**c) for c in cashed])

    # -- after a hand ----------------------------------------------------------------------------------------

    def leavers(self, state: HandState, before: dict[int, Seat], players: tuple[int, ...]) -> list[Leaver]:
        """The seats that left during the hand (``before``: the seats when it began; ``players``: each player's
        seat), with what each takes: his stack at the end and his queued chips, or his stack if he sat out."""
        occupied = {o.number for o in self.table.occupied}
        out = []
        for n, seat in before.items():
            if n not in occupied:
                cashed = state.stacks[players.index(n)] + seat.queued if n in players else seat.stack
                out.append(Leaver(n, seat.name, self.seats[n], cashed))
        return out

    def rebuy_bots(self) -> list[tuple[int, int]]:
        """Bots that went broke buy again, from the house (written with the hand): ``(seat, amount)`` each."""
        rebuys: list[tuple[int, int]] = []
        table = self.table
        unit = table.rules.chip_unit
        for s in table.occupied:
            meta = self.seats[s.number]
            if meta.bot is not None and s.stack < unit and not s.leaving:
                amount = table.min_buy_in or 10 * table.rules.big_bet
                table.top_up(s.number, amount)
                rebuys.append((s.number, amount))
        return rebuys

    def review_waiting(self, now: float) -> list[float]:
        """After every job: seats held for the waiting list that were let go, seats that are no longer free, and
        free seats to offer to the next names (whose sockets get a snapshot saying so). Returns when (the event
        loop's time) the holds just offered end: the list is reviewed again then."""
        if self.context.status != "open":
            return []
        free = self.context.free_seats
        gone = self.waiting.expire(now)
        touched = [o.account_id for o in (*gone, *self.waiting.withdraw_lost_seats(free))]
        offers = self.waiting.offer(free, now)
        touched += [o.account_id for o in offers]
        if gone:  # the names behind them moved up
            touched += self.waiting.accounts
        for account in dict.fromkeys(touched):
            self.viewers.resnapshot(account)
        return [offer.until for offer in offers]


def _balance(session: Session, account_id: int) -> int:
    return int(session.scalar(select(Account.balance).where(Account.id == account_id)) or 0)
