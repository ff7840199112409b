"""Running the room's tournaments: :class:`TournamentRunner`, a task that looks at each tournament every
:data:`TICK` seconds and does what is due, reading the database each time (its truth, so a runner that stops and
starts again goes on where it was):

* **The start**: a sit-and-go when it is full; a scheduled tournament at its time (cancelled, every buy-in back, with
  fewer than two entries). Seats are drawn at random (:func:`~studpoker.tournament.draw_seats`), each table is
  written with its seat rows and the tournament's chips (issued from its chip account: no chip is minted), and the
  tables start dealing (the level's stakes: :mod:`~studpoker.server.tournamenttable`).
* **Places**: the tables take out the players with no chips after each hand, writing the hand with them; the
  runner gives them their places, from the bottom, in the order the hands ended. Players out in the same hand, or
  in the same hand-for-hand round at any of its tables, are placed by the chips they started that hand with, the
  bigger stack higher, equal stacks sharing.
* **Hand-for-hand** on the bubble (one player more than the places paid, on two tables or more): every table deals
  its hand of a round, and the next round begins when all are written as over (the database says, whichever
  process deals them).
* **Balancing and breaking** (:func:`~studpoker.tournament.plan_moves`: the stud high-card draw chooses who moves):
  the tables players move from deal no new hand (``paused``) until they have moved, between hands, with their chips
  (:class:`~studpoker.server.director.Director`); a table left empty closes.
* **The end**: one player left wins; the prizes (:func:`~studpoker.tournament.payouts`) go from the escrow to the
  winners' balances (a bot's to the house), the last table closes and its chips go back to the chip account.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from datetime import datetime
from functools import partial
from typing import Any, TypeAlias

from sqlalchemy import select, text, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from ..tournament import Structure, draw_seats, plan_moves, seat_new_player, shared_prize
from .config import Settings
from .db import Database, EntryRow, HandRow, SeatRow, TableRow, TournamentRow, utcnow
from .director import Director
from .directory import Directory
from .errors import ApiError
from .ledger import chips_account, escrow_account, purse, table_account, transfer
from .tournaments import clock_seconds, paid_places, prizes

__all__ = ["CLAIM", "TICK", "TournamentRunner"]

log = logging.getLogger("studpoker.server")

#: Seconds between two looks at the tournaments, and how long a process's claim to run a tournament lasts.
TICK, CLAIM = 0.2, 5.0

#: A tournament's table and its seat rows by seat.
Seated: TypeAlias = tuple[TableRow, dict[int, SeatRow]]


class TournamentRunner:
    """Runs every tournament of the room's database (see the module's docstring)."""

    def __init__(self, settings: Settings, db: Database, directory: Directory, name: str = "room") -> None:
        self.settings = settings
        self.name = name  # this process, as its claims name it (a gateway's id)
        self.db = db
        self.directory = directory
        self.director = Director(directory)
        self.task: asyncio.Task[None] | None = None
        self.round_marks: dict[int, dict[int, int]] = {}  # per tournament: each table's hand number at its round
        self.looks = 0  # how many looks the runner has had (tests wait on it)

    async def start(self) -> None:
        self.task = asyncio.create_task(self._loop(), name="tournaments")

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
            self.task = None

    async def _loop(self) -> None:
        while True:
            try:
                await self.look()
            except Exception:  # a look that failed is tried again at the next tick; the database is the truth
                log.exception("the tournaments' look failed; trying again")
            await asyncio.sleep(TICK)

    async def look(self) -> None:
        """One look at every tournament registering or running."""

        def read(session: Session) -> list[TournamentRow]:
            query = select(TournamentRow).where(TournamentRow.status.in_(("registering", "running")))
            return list(session.scalars(query.order_by(TournamentRow.id)).all())

        for row in await self.db.run(read):
            if not await self.db.run(partial(_claim, tournament_id=row.id, name=self.name)):
                continue  # another gateway runs it
            if row.status == "registering":
                await self._maybe_start(row)
            else:
                await self._run(row)
        self.looks += 1

    # -- the start ---------------------------------------------------------------------------------------------

    async def _maybe_start(self, row: TournamentRow) -> None:
        tournament_id = row.id

        def entries(session: Session) -> int:
            return len(session.scalars(select(EntryRow.id).where(EntryRow.tournament_id == tournament_id)).all())

        count = await self.db.run(entries)
        if row.kind == "sit_and_go":
            if count >= row.max_entries:
                await self._start(row)
        elif row.starts_at is not None and row.starts_at <= utcnow():
            if count >= 2:
                await self._start(row)
            else:
                await self.db.run(lambda s: _cancel(s, tournament_id))
                log.info("tournament %s: cancelled at its start with %s entries", tournament_id, count)

    async def _start(self, row: TournamentRow) -> None:
        tournament_id = row.id
        structure = Structure.from_json(row.structure)
        rng = random.Random(row.seed)

        def work(session: Session) -> list[TableRow]:
            current = session.get(TournamentRow, tournament_id, with_for_update=True)  # no entry taken meanwhile
            if current is None or current.status != "registering":
                return []
            entries = list(session.scalars(select(EntryRow).where(EntryRow.tournament_id == tournament_id)).all())
            if len(entries) < (row.max_entries if row.kind == "sit_and_go" else 2):
                return []  # someone left meanwhile
            by_name = {e.name: e for e in entries}
            chart = draw_seats(sorted(by_name), row.seats, rng)
            tables = []
            for number, seats in sorted(chart.items()):
                players = {seat: by_name[player] for seat, player in seats.items()}
                tables.append(self._new_table(session, row, number, players, structure))
            current.status, current.started_at = "running", utcnow()
            session.flush()
            return tables

        try:
            tables = await self.db.run(work)
        except IntegrityError:  # a table's name looks like a cash table's: the names carry the id, so rarely
            log.exception("tournament %s: its tables could not be written; trying again", tournament_id)
            return
        for table in tables:
            await self.directory.opened(table)
        if tables:
            log.info("tournament %s: started on %s tables", tournament_id, len(tables))

    def _new_table(
        self, session: Session, row: TournamentRow, number: int, players: dict[int, EntryRow], structure: Structure
    ) -> TableRow:
        """Write table ``number`` of the tournament with ``players`` (seat -> entry) seated with the starting
        chips, issued from the tournament's chip account (in the caller's transaction)."""
        tournament_id = row.id
        level = structure.levels[0]
        name = f"{row.name[:30]} T{tournament_id}/{number}"
        table = TableRow(
            name=name,
            name_key=None,  # outside the cash tables' names: no table's name can keep a tournament from its tables
            name_look=None,
            variant=row.variant,
            preset="tournament",
            ante=level.ante,
            bring_in=level.bring_in,
            small_bet=level.small_bet,
            big_bet=level.big_bet,
            created_by=None,
            status="open",
            tournament_id=tournament_id,
            tournament_table=number,
            showdown_seconds=self.settings.showdown_seconds,
        )
        session.add(table)
        session.flush()
        for seat, entry in players.items():
            stack = structure.starting_chips
            session.add(
                SeatRow(
                    table_id=table.id,
                    seat=seat,
                    account_id=entry.account_id,
                    bot_tag=entry.bot_tag,
                    name=entry.name,
                    stack=stack,
                )
            )
            entry.status = "playing"
        chips = structure.starting_chips * len(players)
        transfer(session, chips_account(tournament_id), table_account(table.id), chips, "tournament_chips")
        return table

    # -- running -----------------------------------------------------------------------------------------------

    async def _run(self, row: TournamentRow) -> None:
        tournament_id = row.id
        structure = Structure.from_json(row.structure)
        assert row.started_at is not None
        elapsed = clock_seconds(row.started_at, self.settings.tournament_time_scale)
        closed = not structure.registration_open(structure.at(elapsed))
        tables = await self.db.run(lambda s: _tables(s, tournament_id))
        if await self._seat_late_entries(row, tables, structure):
            tables = await self.db.run(lambda s: _tables(s, tournament_id))
        playing_round = row.hand_round
        left, entries = await self.db.run(lambda s: _place_the_busted(s, tournament_id, closed, playing_round))
        if left <= 1:
            await self._finish(row, tables)
            return
        await self._hand_for_hand(row, tables, left, entries)
        await self._balance(row, tables)

    async def _seat_late_entries(self, row: TournamentRow, tables: list[Seated], structure: Structure) -> bool:
        """Seat the entries taken since the start (late registration, re-entry), one at a time, each at a seat drawn
        at the table with the fewest players (:func:`~studpoker.tournament.seat_new_player`; a new table when all
        are full), with the starting chips: the seat is held, the row and the chips written, then the table seats
        him from his row, as a move does. Whether anyone was seated."""
        tournament_id = row.id

        def late(session: Session) -> list[EntryRow]:
            query = select(EntryRow).where(EntryRow.tournament_id == tournament_id, EntryRow.status == "registered")
            return list(session.scalars(query.order_by(EntryRow.id)).all())

        waiting = await self.db.run(late)
        if not waiting:
            return False
        rng = random.Random(row.seed * 7 + len(waiting) + sum(t.hand_number for t, _ in tables))
        for entry in waiting:
            chart = {t.tournament_table or 0: {n: s.name for n, s in seats.items()} for t, seats in tables}
            number, seat = seat_new_player(chart, row.seats, rng)
            existing = next((t for t, _ in tables if t.tournament_table == number), None)
            entry_id, account = entry.id, entry.account_id
            assert account is not None
            if existing is None:

                def open_one(
                    session: Session, number: int = number, seat: int = seat, entry_id: int = entry_id
                ) -> TableRow:
                    fresh = session.get(EntryRow, entry_id)
                    assert fresh is not None
                    return self._new_table(session, row, number, {seat: fresh}, structure)

                await self.directory.opened(await self.db.run(open_one))
            else:
                handle = await self.directory.find_table(existing.id)
                held = await handle.hold_seat(account, entry.name, seat)

                def write(
                    session: Session, seat: int = held.seat, entry_id: int = entry_id, table_id: int = existing.id
                ) -> None:
                    fresh = session.get(EntryRow, entry_id)
                    assert fresh is not None and fresh.account_id is not None
                    stack = structure.starting_chips
                    account = fresh.account_id
                    session.add(SeatRow(table_id=table_id, seat=seat, account_id=account, name=fresh.name, stack=stack))
                    transfer(session, chips_account(tournament_id), table_account(table_id), stack, "tournament_chips")
                    fresh.status = "playing"
                    session.flush()

                await self.db.run(write)
                await handle.move_in(account, held.seat)
            tables = await self.db.run(lambda s: _tables(s, tournament_id))
        return True

    async def _hand_for_hand(self, row: TournamentRow, tables: list[Seated], left: int, entries: int) -> None:
        tournament_id = row.id
        live = [t for t, seats in tables if len(seats) >= 2]
        on = len(live) >= 2 and left == paid_places(row, entries) + 1
        if not on:
            if row.hand_round is not None:
                await self.db.run(lambda s: _set(s, tournament_id, hand_round=None))
                self.round_marks.pop(tournament_id, None)
            return
        marks = self.round_marks.get(tournament_id)
        numbers = {t.id: t.hand_number for t in live}
        foreign = marks is None and row.hand_round is not None  # another runner's round: over with the hands in play
        if foreign and not await self.db.run(lambda s: _hands_over(s, numbers)):
            return
        if row.hand_round is None or marks is None:
            self.round_marks[tournament_id] = numbers
            await self.db.run(lambda s: _set(s, tournament_id, hand_round=(row.hand_round or 0) + 1))
            return
        dealt = all(numbers[t] > marks.get(t, -1) for t in numbers)
        if dealt and await self.db.run(lambda s: _hands_over(s, numbers)):
            self.round_marks[tournament_id] = numbers
            await self.db.run(lambda s: _set(s, tournament_id, hand_round=(row.hand_round or 0) + 1))

    async def _balance(self, row: TournamentRow, tables: list[Seated]) -> None:
        tournament_id = row.id
        chart = {t.tournament_table or 0: {n: s.name for n, s in seats.items()} for t, seats in tables if seats}
        by_number = {t.tournament_table or 0: t for t, _ in tables}
        rng = random.Random(row.seed * 1_000_003 + sum(t.hand_number for t, _ in tables))
        moves = plan_moves(chart, row.seats, rng)
        sources = sorted({by_number[m.from_table].id for m in moves})
        if sources != sorted(row.paused or []):
            await self.db.run(lambda s: _set(s, tournament_id, paused=sources or None))
            return  # the tables players move from deal no new hand from now on
        if moves:
            handles = {t: await self.directory.find_table(t) for t in sources}
            if any(h.info()["playing"] for h in handles.values()):
                return  # the hand in play ends first
            seats = {s.name: s for _, table_seats in tables for s in table_seats.values()}
            for move in moves:
                seat = seats[move.player]
                assert seat.account_id is not None  # a tournament's bots have accounts of their own
                source, target = by_number[move.from_table], by_number[move.to_table]
                try:
                    await self.director.move(seat.account_id, move.player, source.id, target.id, move.to_seat)
                except ApiError as error:  # looked at again at the next tick, from the seat rows as they are then
                    log.info("tournament %s: %s not moved yet: %s", tournament_id, move.player, error.message)
                    return
                log.info(
                    "tournament %s: %s moved (%s) to table %s", tournament_id, move.player, move.reason, move.to_table
                )
            await self.db.run(lambda s: _set(s, tournament_id, paused=None))
        for table, table_seats in tables:
            if not table_seats and table.status == "open":  # broken: every player has moved
                with contextlib.suppress(ApiError):
                    await (await self.directory.find_table(table.id)).close()

    # -- the end -----------------------------------------------------------------------------------------------

    async def _finish(self, row: TournamentRow, tables: list[Seated]) -> None:
        tournament_id = row.id

        def pay(session: Session) -> bool:
            current = session.get(TournamentRow, tournament_id, with_for_update=True)  # no entry taken meanwhile
            if current is None or current.status != "running":
                return False
            _place_the_busted(session, tournament_id, closed=True, playing_round=None)
            entries = list(session.scalars(select(EntryRow).where(EntryRow.tournament_id == tournament_id)).all())
            for entry in entries:
                if entry.status == "playing":
                    entry.status, entry.place = "out", 1
            paid = prizes(row.buy_in * len(entries), len(entries), row.payouts)
            by_place: dict[int, list[EntryRow]] = {}
            for entry in sorted(entries, key=lambda e: e.id):
                assert entry.place is not None
                by_place.setdefault(entry.place, []).append(entry)
            for place, tied in sorted(by_place.items()):
                for entry, amount in zip(tied, shared_prize(paid, place, len(tied)), strict=True):
                    entry.prize = amount
                    if amount:
                        to = _purse(entry)
                        transfer(
                            session,
                            escrow_account(tournament_id),
                            to,
                            amount,
                            "tournament_prize",
                            memo=f"{current.name}: place {place}",
                        )
            current.status, current.finished_at, current.hand_round, current.paused = "finished", utcnow(), None, None
            session.flush()
            return True

        if await self.db.run(pay):
            log.info("tournament %s: over", tournament_id)
        for table, _ in tables:
            if table.status == "open":
                with contextlib.suppress(ApiError):
                    await (await self.directory.find_table(table.id)).close()


def _tables(session: Session, tournament_id: int) -> list[Seated]:
    """The tournament's tables not closed, each with its seat rows by seat."""
    rows = session.scalars(
        select(TableRow).where(TableRow.tournament_id == tournament_id, TableRow.status != "closed")
    ).all()
    out = []
    for table in sorted(rows, key=lambda t: t.tournament_table or 0):
        seats = session.scalars(select(SeatRow).where(SeatRow.table_id == table.id)).all()
        out.append((table, {s.seat: s for s in seats}))
    return out


def _place_the_busted(session: Session, tournament_id: int, closed: bool, playing_round: int | None) -> tuple[int, int]:
    """Number the entries the tables took out since the last look in the order they went out (``out_seq``), and,
    once registration has ``closed`` (the field's size is known), give every one out their places from the bottom.
    Returns the entries still in (seated or waiting) and all the entries.

    Players out in one hand, or in one hand-for-hand round (at any of its tables), go out together: the smaller
    starting stack first, equal stacks sharing the places. Hands and rounds go in the order they ended. The players
    out in ``playing_round``, the hand-for-hand round not over yet, wait for the rest of it."""
    entries = list(session.scalars(select(EntryRow).where(EntryRow.tournament_id == tournament_id)).all())
    new = [e for e in entries if e.status == "out" and e.out_seq is None]
    if playing_round is not None:
        new = [e for e in new if e.out_round is None or e.out_round < playing_round]
    seq = max((e.out_seq or 0 for e in entries), default=0) + 1
    for together in _out_together(new):
        for stack in sorted({e.busted_from or 0 for e in together}):
            for entry in together:
                if (entry.busted_from or 0) == stack:
                    entry.out_seq = seq
            seq += 1
    if closed:
        worst = len(entries) - sum(1 for e in entries if e.place is not None)  # the place the next one out takes
        unplaced = [e for e in entries if e.status == "out" and e.place is None and e.out_seq is not None]
        for out_seq in sorted({e.out_seq or 0 for e in unplaced}):
            tied = [e for e in unplaced if (e.out_seq or 0) == out_seq]
            for entry in tied:
                entry.place = worst - len(tied) + 1  # out together: they share the best of their places
            worst -= len(tied)
    session.flush()
    return sum(1 for e in entries if e.status != "out"), len(entries)


def _out_together(entries: list[EntryRow]) -> list[list[EntryRow]]:
    """``entries`` (out, not numbered yet) in groups that went out together (one hand, or one hand-for-hand
    round), in the order the groups' last hands were written. Entries out before the hand was recorded (revision
    0013) form one group, first."""
    groups: dict[tuple[int, ...], list[EntryRow]] = {}
    for entry in sorted(entries, key=lambda e: e.id):
        if entry.out_round is not None:
            key: tuple[int, ...] = (1, entry.out_round)
        elif entry.out_table is not None and entry.out_hand is not None:
            key = (2, entry.out_table, entry.out_hand)
        else:
            key = (0,)
        groups.setdefault(key, []).append(entry)
    oldest = datetime.min

    def ended(key: tuple[int, ...]) -> tuple[bool, datetime, tuple[int, ...]]:
        return (key != (0,), max(e.out_at or oldest for e in groups[key]), key)

    return [groups[key] for key in sorted(groups, key=ended)]


def _hands_over(session: Session, numbers: dict[int, int]) -> bool:
    """Whether hand ``numbers[table]`` of every table is written as over (finished or voided): its players out,
    if any, are in the database with it."""
    for table_id, number in numbers.items():
        status = session.scalar(select(HandRow.status).where(HandRow.table_id == table_id, HandRow.number == number))
        if status is None or status == "playing":
            return False
    return True


def _purse(entry: EntryRow) -> str:
    """Where an entry's prize or refund goes: the account's balance, or the house for a bot."""
    return purse(entry.account_id, bot=entry.bot_tag is not None, training=False)


def _claim(session: Session, tournament_id: int, name: str) -> bool:
    """Whether this process (``name``) runs the tournament for the next :data:`CLAIM` seconds: it did, or nobody
    has for that long (a gateway that died). By the database's clock, so no two hosts need agree on the time."""
    now = "extract(epoch from clock_timestamp())" if session.get_bind().dialect.name == "postgresql" else None
    now = now or "((julianday('now') - 2440587.5) * 86400.0)"
    done = session.execute(
        text(
            f"UPDATE tournaments SET runner = :name, runner_until = {now} + :seconds WHERE id = :id "
            f"AND (runner IS NULL OR runner = :name OR runner_until < {now})"
        ),
        {"name": name, "seconds": CLAIM, "id": tournament_id},
    )
    return bool(done.rowcount)  # type: ignore[attr-defined]


def _set(session: Session, tournament_id: int, **values: Any) -> None:
    session.execute(update(TournamentRow).where(TournamentRow.id == tournament_id).values(**values))


def _cancel(session: Session, tournament_id: int) -> None:
    """A scheduled tournament that cannot start: every buy-in back (a bot's to the house)."""
    row = session.get(TournamentRow, tournament_id, with_for_update=True)  # no entry taken meanwhile
    if row is None or row.status != "registering":
        return
    for entry in session.scalars(select(EntryRow).where(EntryRow.tournament_id == tournament_id)).all():
        to = _purse(entry)
        transfer(
            session, escrow_account(tournament_id), to, row.buy_in, "tournament_refund", memo=f"{row.name} cancelled"
        )
    row.status, row.finished_at = "cancelled", utcnow()
