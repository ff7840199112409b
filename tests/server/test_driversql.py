"""Statements on the driver's cursor (studpoker.server.driversql): written by the driver, read back by SQLAlchemy
alike, in the session's transaction, on SQLite and (``make test-postgres``) on PostgreSQL."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import datetime

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from studpoker.server.db import Database, HandRow, SeatRow
from studpoker.server.driversql import DriverStatement, DriverTransaction, json_text, styled

from .conftest import table_rows

_HAND = DriverStatement(
    "INSERT INTO hands (table_id, number, status, started_at, players, pot, winners) "
    "VALUES (:table, :number, 'playing', :started, :players, 0, '[]')"
)
_SEAT = DriverStatement(
    "UPDATE seats SET stack = :stack, sitting_out = :out, time_bank = :bank WHERE table_id = :table AND seat = :seat"
)
_SEAT_STACK = DriverStatement("SELECT stack FROM seats WHERE table_id = :table AND seat = 1")


def _table(db: Database, seats: int) -> int:
    (table,) = table_rows(db, 1)
    db.transaction(
        lambda s: s.add_all(SeatRow(table_id=table, seat=n, name=f"p{n}", stack=100) for n in range(1, seats + 1))
    )
    return table


def test_the_parameters_take_the_drivers_style() -> None:
    assert styled("SELECT 1 WHERE a = :a AND b LIKE 'x%'", "postgresql") == "SELECT 1 WHERE a = %(a)s AND b LIKE 'x%%'"
    assert styled("SELECT :a::int", "postgresql") == "SELECT %(a)s::int"
    assert styled("SELECT :a", "sqlite") == "SELECT :a"
    with pytest.raises(ValueError, match="'mysql' dialect"):
        styled("SELECT 1", "mysql")


def test_what_the_driver_writes_sqlalchemy_reads_back_alike(db: Database) -> None:
    table = _table(db, 2)
    started = datetime(2026, 12, 6, 16, 30, 5, 123456)
    players = [{"seat": 1, "name": "Åsa", "start": 100, "end": None, "account_id": 7}]

    def write(session: Session) -> int:
        _HAND.run(session, {"table": table, "number": 1, "started": started, "players": json_text(players)})
        rows = [{"table": table, "seat": n, "stack": 90 + n, "out": n == 2, "bank": 12.5 * n} for n in (1, 2)]
        _SEAT.run_many(session, rows)
        return _SEAT.run(session, {"table": table, "seat": 9, "stack": 1, "out": False, "bank": None})

    assert db.transaction(write) == 0  # no seat 9: nothing changed, and the driver says so
    hand = db.transaction(lambda s: s.scalars(select(HandRow).where(HandRow.table_id == table)).one())
    assert (hand.number, hand.status, hand.players, hand.winners, hand.pot) == (1, "playing", players, [], 0)
    assert hand.started_at == started
    seats = db.transaction(lambda s: list(s.scalars(select(SeatRow).order_by(SeatRow.seat)).all()))
    assert [(s.stack, s.sitting_out, s.time_bank) for s in seats] == [(91, False, 12.5), (92, True, 25.0)]
    first = DriverStatement("SELECT number, status FROM hands WHERE table_id = :table AND number = :number")
    assert db.transaction(lambda s: first.first(s, {"table": table, "number": 1})) == (1, "playing")
    assert db.transaction(lambda s: first.first(s, {"table": table, "number": 2})) is None


def test_a_driver_write_is_undone_with_the_transaction_it_ran_in(db: Database) -> None:
    table = _table(db, 1)

    def write_then_fail(session: Session) -> None:
        _SEAT.run(session, {"table": table, "seat": 1, "stack": 5, "out": True, "bank": None})
        raise RuntimeError("the rest of the transaction failed")

    with pytest.raises(RuntimeError, match="rest of the transaction"):
        db.transaction(write_then_fail)
    seat = db.transaction(lambda s: s.scalars(select(SeatRow)).one())
    assert (seat.stack, seat.sitting_out) == (100, False)


def test_a_driver_transaction_commits_or_rolls_back_without_a_session(db: Database) -> None:
    """``run_driver``: the work's statements on a pooled connection's own transaction, committed when it returns,
    rolled back when it raises; the connection goes back to the pool usable either way."""
    table = _table(db, 1)

    def write(stack: int, fail: bool) -> Callable[[DriverTransaction], int]:
        def work(where: DriverTransaction) -> int:
            changed = _SEAT.run(where, {"table": table, "seat": 1, "stack": stack, "out": False, "bank": 3.0})
            if fail:
                raise RuntimeError("the rest of the work failed")
            return changed

        return work

    async def scenario() -> None:
        assert await db.run_driver(write(70, fail=False)) == 1
        with pytest.raises(RuntimeError, match="rest of the work"):
            await db.run_driver(write(5, fail=True))
        for _ in range(20):  # more than the pool holds: every connection went back
            assert await db.run_driver(lambda where: _SEAT_STACK.first(where, {"table": table})) == (70,)

    asyncio.run(scenario())
    seat = db.transaction(lambda s: s.scalars(select(SeatRow)).one())
    assert (seat.stack, seat.time_bank) == (70, 3.0)


def test_a_failed_statement_leaves_the_connection_usable(db: Database) -> None:
    """A statement the database refuses rolls the transaction back; the next one on the pool works."""
    table = _table(db, 1)
    broken = DriverStatement("UPDATE no_such_table SET x = 1")
    with pytest.raises(Exception, match="no_such_table"):
        db.driver_transaction(broken.run)
    assert db.driver_transaction(lambda where: _SEAT_STACK.first(where, {"table": table})) == (100,)
