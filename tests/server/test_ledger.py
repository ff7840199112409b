"""The ledger's own checks can fail: ``transfer`` refuses what it must, and ``check_invariants`` (and the table's
``check_conservation``) notice each kind of corrupted row. Every money test relies on them, so each is shown
failing here, on a database of its own."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import update
from sqlalchemy.orm import Session

from studpoker.engine import Rules, Variant
from studpoker.server.auth import create_account
from studpoker.server.db import Account, Database, LedgerEntry, SeatRow, TableRow
from studpoker.server.ledger import (
    HOUSE,
    InsufficientFundsError,
    check_invariants,
    table_account,
    transfer,
    user_account,
)
from studpoker.table import Table

from .conftest import POSTGRES, database_url


@pytest.fixture
def db(tmp_path: Path) -> Iterator[Database]:
    """A migrated database with two accounts (1,000 and 50 chips) and one table holding a seat of 200 of ann's."""
    database = Database(database_url(tmp_path))
    database.migrate()

    def setup(session: Session) -> None:
        ann = create_account(session, "ann", "x", 1000)
        create_account(session, "bob", "x", 50)
        session.add(
            TableRow(id=1, name="T", variant="STUD7", preset="casino", ante=1, bring_in=3, small_bet=10, big_bet=20)
        )
        session.flush()
        transfer(session, user_account(ann.id), table_account(1), 200, "buy_in", table_id=1)
        session.add(SeatRow(table_id=1, seat=1, account_id=ann.id, name="ann", stack=200))

    database.transaction(setup)
    yield database
    database.close()


def test_transfer_refuses_bad_amounts_and_overdrafts(db: Database) -> None:
    for amount in (-1, 2.5, "10", True):
        with pytest.raises(ValueError, match="a ledger amount must be a whole number"):
            db.transaction(lambda s, a=amount: transfer(s, HOUSE, user_account(1), a, "grant"))  # type: ignore[misc]
    with pytest.raises(InsufficientFundsError, match=r"more than your balance of 50$"):  # bob's own balance
        db.transaction(lambda s: transfer(s, user_account(2), table_account(1), 60, "buy_in"))
    with pytest.raises(InsufficientFundsError, match=r"more than your balance of 800$"):  # ann's
        db.transaction(lambda s: transfer(s, user_account(1), table_account(1), 801, "buy_in"))
    books = db.transaction(check_invariants)  # nothing was written by any of these
    assert (books.granted, books.balances, books.at_tables) == (1050, 850, 200)


@pytest.mark.parametrize(
    ("corruption", "message"),
    [
        (update(Account).where(Account.id == 1).values(balance=801), "account 1: balance 801 but ledger says 800"),
        (update(SeatRow).values(stack=199), "table 1: ledger says 200 chips, seats hold 199"),
        (update(SeatRow).values(queued=5), "table 1: ledger says 200 chips, seats hold 205"),
        (update(LedgerEntry).where(LedgerEntry.kind == "buy_in").values(amount=150), "balance 800 but ledger says 850"),
        (update(LedgerEntry).where(LedgerEntry.kind == "buy_in").values(target="table:2"), "table"),
    ],
)
def test_check_invariants_notices_a_corrupted_row(db: Database, corruption: object, message: str) -> None:
    db.transaction(check_invariants)
    db.transaction(lambda s: s.execute(corruption))  # type: ignore[call-overload]
    with pytest.raises(AssertionError, match=message):
        db.transaction(check_invariants)


def test_check_invariants_notices_chips_no_grant_explains(db: Database) -> None:
    # the books must sum to zero: chips that appear on a balance and in the ledger, but never left the house
    def forge(session: Session) -> None:
        session.execute(update(Account).where(Account.id == 2).values(balance=Account.balance + 10))
        session.add(LedgerEntry(source=user_account(1), target=user_account(2), amount=10, kind="gift", memo=""))

    db.transaction(forge)
    with pytest.raises(AssertionError, match="account 1"):
        db.transaction(check_invariants)


def test_the_table_notices_chips_that_do_not_add_up() -> None:
    table = Table(Rules(Variant.STUD7, ante=1, bring_in=3, small_bet=10, big_bet=20), seed=3)
    table.sit("Ann", 200)
    table.sit("Bob", 300)
    table.check_conservation()
    table.money_in += 1
    with pytest.raises(AssertionError, match="money in 501 != on table 500"):
        table.check_conservation()


@pytest.mark.skipif(
    not POSTGRES,
    reason="only PostgreSQL runs transactions side by side: on SQLite the room has one database thread",
)
def test_check_invariants_reads_one_snapshot_while_money_moves(db: Database) -> None:
    """On PostgreSQL the room runs several transactions at once (its database threads, or several processes): the
    check must not see half of the money moved by transactions that commit while it reads (it would report a
    balance that differs from the ledger). One thread moves chips between ann's balance and her seat over and
    over; every check meanwhile must pass."""
    import threading

    from sqlalchemy import select

    stop = threading.Event()
    moves = [0]

    def move(session: Session, amount: int, to_table: bool) -> None:
        ann = session.scalar(select(Account.id).where(Account.username == "ann"))
        assert ann is not None
        source, target = (user_account(ann), table_account(1)) if to_table else (table_account(1), user_account(ann))
        transfer(session, source, target, amount, "top_up" if to_table else "cash_out", table_id=1)
        session.execute(
            update(SeatRow)
            .where(SeatRow.table_id == 1, SeatRow.seat == 1)
            .values(stack=SeatRow.stack + (amount if to_table else -amount))
        )

    def churn() -> None:
        while not stop.is_set():
            db.transaction(lambda s: move(s, 7, True))
            db.transaction(lambda s: move(s, 7, False))
            moves[0] += 2

    mover = threading.Thread(target=churn)
    mover.start()
    try:
        for _ in range(150):
            found = db.transaction(check_invariants)
            assert found.balances + found.at_tables == found.granted
    finally:
        stop.set()
        mover.join()
    assert moves[0] > 10
