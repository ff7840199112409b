"""A table's books on their own (studpoker.server.books): a hand's row from its deal to its end, and every kept
seat's row after it, written by plain statements."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

pytest.importorskip("sqlalchemy")

from sqlalchemy import select
from sqlalchemy.orm import Session

from studpoker.engine import Rules, Variant
from studpoker.server.books import Books
from studpoker.server.config import Settings
from studpoker.server.context import SeatMeta, TableContext
from studpoker.server.db import Database, HandRow, SeatRow, TableRow
from studpoker.table import Table


def _books(tmp_path: Path) -> tuple[Database, TableContext, Books]:
    db = Database(f"sqlite:///{tmp_path / 'books.db'}")
    db.migrate()
    table = Table(Rules(Variant.STUD7, ante=1, bring_in=3, small_bet=10, big_bet=20), seed=3)
    seats = {}
    for number, name in ((1, "Bot 1"), (2, "Bot 2"), (3, "Bot 3")):
        table.sit(name, 300, number)
        seats[number] = SeatMeta(None, "tight-aggressive", None, 12.5)

    def setup(session: Session) -> None:
        row = TableRow(name="Books", variant="STUD7", preset="casino", ante=1, bring_in=3, small_bet=10, big_bet=20)
        session.add(row)
        session.flush()
        for number in seats:
            session.add(
                SeatRow(table_id=row.id, seat=number, name=f"Bot {number}", bot_tag="tight-aggressive", stack=300)
            )

    db.transaction(setup)
    context = TableContext(1, "Books", False, Settings(db_url=db.url), db, table, seats)
    return db, context, Books(context)


def _play(context: TableContext, books: Books, *, opened: bool) -> None:
    table = context.table

    async def hand() -> None:
        if opened:
            context.hand_players = await books.open_hand(table.hand_number + 1, table.eligible())
        state = table.start_hand()
        while not state.is_over:
            legal = table.legal_actions()
            table.act(min(legal, key=lambda a: (a.kind.value != "call", a.amount)))
        played = table.hands[-1]
        finished = books.summarize(state, played)
        context.seats[1].time_bank = 7.25
        await books.close_hand(finished, [], [], {s.number: s for s in table.occupied})

    asyncio.run(hand())


def test_a_hand_is_opened_then_finished_and_every_seat_written(tmp_path: Path) -> None:
    db, context, books = _books(tmp_path)
    try:
        _play(context, books, opened=True)
        hands = db.transaction(lambda s: s.scalars(select(HandRow)).all())
        assert [(h.number, h.status) for h in hands] == [(1, "finished")]
        assert hands[0].phh and hands[0].finished_at is not None and hands[0].started_at is not None
        assert [p["end"] for p in hands[0].players] == [context.table.seat(n).stack for n in (1, 2, 3)]
        assert sum(p["end"] for p in hands[0].players) == 900
        rows = db.transaction(lambda s: s.scalars(select(SeatRow).order_by(SeatRow.seat)).all())
        assert [r.stack for r in rows] == [context.table.seat(n).stack for n in (1, 2, 3)]
        assert [r.time_bank for r in rows] == [7.25, 12.5, 12.5]
        number = db.transaction(lambda s: s.scalar(select(TableRow.hand_number)))
        assert number == 1
    finally:
        db.close()


def test_a_hand_whose_row_is_missing_is_written_whole_at_its_end(tmp_path: Path) -> None:
    db, context, books = _books(tmp_path)
    try:
        _play(context, books, opened=False)  # as if its row had never been written
        hands = db.transaction(lambda s: s.scalars(select(HandRow)).all())
        assert [(h.number, h.status, h.pot > 0) for h in hands] == [(1, "finished", True)]
        assert hands[0].started_at is not None and hands[0].winners
    finally:
        db.close()


def test_the_chat_and_the_waiting_list_are_carried_with_a_hand_and_read_back(tmp_path: Path) -> None:
    """What a table carries to its next worker, written on the driver's cursor as JSON text, reads back through
    SQLAlchemy as the lists it was: with a finished hand when it changed, and whole when the table is handed
    over (``keep``)."""
    db, context, _ = _books(tmp_path)
    chat = [{"type": "chat", "id": 1, "account_id": 7, "name": "Åsa", "seat": 1, "text": "gl", "at": "2026-12-06"}]
    waiting = [[7, "Åsa"]]
    books = Books(context, chat=[], waiting=lambda: waiting)
    books.chat = chat  # a line said after the books were made
    try:
        _play(context, books, opened=True)
        row = db.transaction(lambda s: s.scalars(select(TableRow)).one())
        assert (row.chat, row.waiting) == (chat, waiting)
        context.seats[2].time_bank = 3.5
        waiting.append([8, "Bo"])
        asyncio.run(books.keep())
        row = db.transaction(lambda s: s.scalars(select(TableRow)).one())
        assert (row.chat, row.waiting) == (chat, [[7, "Åsa"], [8, "Bo"]])
        banks = db.transaction(lambda s: [r.time_bank for r in s.scalars(select(SeatRow).order_by(SeatRow.seat))])
        assert banks == [7.25, 3.5, 12.5]
    finally:
        db.close()
