"""Table leases (studpoker.server.lease) on PostgreSQL: claiming, renewing, giving back, and the fence.

The distributed room keeps its leases in PostgreSQL only (``FOR UPDATE ... SKIP LOCKED``), so these tests run
where the card-room tests run on PostgreSQL (``make test-postgres``, ``make test-cluster``; CI runs both).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

import pytest
from sqlalchemy import func, select, text
from sqlalchemy.orm import Session

from studpoker.server.db import Database, LeaseRow, TableRow
from studpoker.server.driversql import DriverStatement
from studpoker.server.lease import FencedDatabase, LeaseLostError, claim, lease_of, release, renew

from .conftest import POSTGRES, table_rows

pytestmark = pytest.mark.skipif(not POSTGRES, reason="leases need PostgreSQL: set STUDPOKER_TEST_POSTGRES")

_NAME = DriverStatement("SELECT name FROM tables")
_RENAMED = DriverStatement("UPDATE tables SET name = 'stale'")


def test_a_table_has_one_owner_and_a_new_generation_at_each_change(db: Database) -> None:
    tables = table_rows(db, 3)
    table_rows(db, 1, status="closed")
    first = db.transaction(lambda s: claim(s, "w1", 30.0, 10))
    assert first == [(t, 1) for t in tables]  # closed tables are never claimed; every lease row was made
    assert db.transaction(lambda s: claim(s, "w2", 30.0, 10)) == []  # live leases are not taken
    assert db.transaction(lambda s: renew(s, "w1", 30.0)) == {t: 1 for t in tables}
    assert db.transaction(lambda s: lease_of(s, tables)) == {t: ("w1", 1) for t in tables}
    assert db.transaction(lambda s: release(s, "w1", [tables[0]])) == 1
    # given back: another worker takes it at once, one generation on
    assert db.transaction(lambda s: claim(s, "w2", 30.0, 10)) == [(tables[0], 2)]
    assert db.transaction(lambda s: renew(s, "w1", 30.0)) == {t: 1 for t in tables[1:]}
    assert db.transaction(lambda s: renew(s, "w2", 30.0)) == {tables[0]: 2}


def test_an_expired_lease_is_taken_and_the_old_owner_cannot_renew_it(db: Database) -> None:
    (table,) = table_rows(db, 1)
    assert db.transaction(lambda s: claim(s, "w1", 0.3, 5)) == [(table, 1)]
    assert db.transaction(lambda s: claim(s, "w2", 30.0, 5)) == []
    time.sleep(0.4)
    assert db.transaction(lambda s: lease_of(s, [table])) == {}  # expired: nobody's
    assert db.transaction(lambda s: claim(s, "w2", 30.0, 5)) == [(table, 2)]
    assert db.transaction(lambda s: renew(s, "w1", 30.0)) == {}


def test_a_claim_takes_at_most_its_share_and_skips_rows_being_taken(db: Database) -> None:
    tables = table_rows(db, 4)
    assert db.transaction(lambda s: claim(s, "w1", 30.0, 0)) == []
    assert db.transaction(lambda s: claim(s, "w1", 30.0, 2)) == [(tables[0], 1), (tables[1], 1)]
    # w2 claims inside a transaction that is still open: w3's claim skips the rows w2 has locked
    with db.sessions.begin() as held:
        assert claim(held, "w2", 30.0, 1) == [(tables[2], 1)]
        assert db.transaction(lambda s: claim(s, "w3", 30.0, 5)) == [(tables[3], 1)]
    assert db.transaction(lambda s: lease_of(s, tables)) == {
        tables[0]: ("w1", 1),
        tables[1]: ("w1", 1),
        tables[2]: ("w2", 1),
        tables[3]: ("w3", 1),
    }


def test_the_fence_refuses_every_write_once_the_lease_has_passed(db: Database) -> None:
    (table,) = table_rows(db, 1)
    assert db.transaction(lambda s: claim(s, "w1", 0.2, 1)) == [(table, 1)]
    lost: list[int] = []
    fenced = FencedDatabase(db, table, 1, lambda: lost.append(1))

    def rename(name: str) -> Callable[[Session], str]:
        def work(session: Session) -> str:
            session.execute(text("UPDATE tables SET name = :n WHERE id = :t"), {"n": name, "t": table})
            return name

        return work

    async def scenario() -> None:
        assert await fenced.run(rename("mine")) == "mine"  # the owner writes
        assert await fenced.run_driver(_NAME.first) == ("mine",)  # on the driver's own transaction too
        time.sleep(0.3)
        # expired but not taken: nobody else can have written, so the owner still may
        assert await fenced.run(rename("still mine")) == "still mine"
        assert db.transaction(lambda s: claim(s, "w2", 30.0, 1)) == [(table, 2)]
        with pytest.raises(LeaseLostError, match="generation 1 has passed"):
            await fenced.run(rename("stale"))
        await db.run(lambda s: None)

    asyncio.run(scenario())
    assert lost == [1]
    assert db.transaction(lambda s: s.scalar(select(TableRow.name).where(TableRow.id == table))) == "still mine"
    assert db.transaction(lambda s: s.scalar(select(func.count()).select_from(LeaseRow))) == 1


def test_the_fence_refuses_a_driver_transaction_too(db: Database) -> None:
    """A hand's writes on the driver's own transaction (``run_driver``) are fenced alike: refused, and the loss
    told, once another worker holds the lease."""
    (table,) = table_rows(db, 1)
    assert db.transaction(lambda s: claim(s, "w1", 0.2, 1)) == [(table, 1)]
    lost: list[int] = []
    fenced = FencedDatabase(db, table, 1, lambda: lost.append(1))

    async def scenario() -> None:
        assert await fenced.run_driver(_NAME.first) == ("Topen0",)
        time.sleep(0.3)
        assert db.transaction(lambda s: claim(s, "w2", 30.0, 1)) == [(table, 2)]
        with pytest.raises(LeaseLostError, match="generation 1 has passed"):
            await fenced.run_driver(_RENAMED.run)

    asyncio.run(scenario())
    assert lost == [1]
    assert db.transaction(lambda s: s.scalar(select(TableRow.name).where(TableRow.id == table))) == "Topen0"
