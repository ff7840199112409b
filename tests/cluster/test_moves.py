"""The floor moves a player with his chips from a table on one worker to a table on another (studpoker.server.director
through a gateway): one ledger transaction, both workers' tables right in memory and in the books."""

from __future__ import annotations

from collections import Counter

import pytest

from studpoker.server.ledger import check_invariants

from .conftest import Books, Cluster, skip_reason, wait_for

if skip_reason() is not None:
    pytest.skip(skip_reason() or "", allow_module_level=True)

#: The bound on the two tables being spread over the two workers (see test_balance.SPREAD_BOUND).
SPREAD_BOUND = 120.0


def test_the_floor_moves_a_player_across_workers(cluster: Cluster, books: Books) -> None:
    first = cluster.worker()
    gateway = cluster.gateway()
    ann, bob, dora = books.account("ann"), books.account("bob"), books.account("dora")
    books.db.transaction(lambda s: s.execute(books_admin(dora.id)))
    tables = []
    for owner, name in ((ann, "Stud East"), (bob, "Stud West")):
        with gateway.http(owner) as http:
            made = http.post("/api/tables", json={"name": name, "variant": "STUD7", "small_bet": 10})
            assert made.status_code == 201, made.text
            tables.append(int(made.json()["id"]))
            sat = http.post(f"/api/tables/{tables[-1]}/sit", json={"buy_in": 350 if owner is ann else 400})
            assert sat.status_code == 200, sat.text
    east, west = tables
    cluster.worker()  # a second worker takes one of the two tables (each player alone: no hand is in play)

    def spread() -> bool:
        owners = [books.live_lease(t) for t in tables]
        return None not in owners and len(Counter(o[0] for o in owners if o)) == 2

    wait_for(spread, SPREAD_BOUND, "each worker holds one of the two tables", every=0.1)
    assert cluster.owner(east, books) is not cluster.owner(west, books)
    before = books.invariants()
    with gateway.http(dora) as http:
        moved = http.post("/api/admin/move", json={"account_id": ann.id, "from_table": east, "to_table": west})
        assert moved.status_code == 200, moved.text
        assert moved.json() == {
            "account_id": ann.id,
            "from_table": east,
            "from_seat": 1,
            "to_table": west,
            "seat": 2,
            "stack": 350,
            "seated": True,
        }
        # the other worker's table has her in memory: a hand is dealt to ann and bob there
        wait_for(lambda: any(s in {"finished", "playing"} for _, s in books.hands(west)), 60, "a hand at West")
        refused = http.post("/api/admin/move", json={"account_id": ann.id, "from_table": east, "to_table": west})
        assert refused.status_code == 409  # she sits at East no more
    assert books.rows("SELECT source, target, amount FROM ledger WHERE kind = 'move'") == [
        (f"table:{east}", f"table:{west}", 350)
    ]
    assert books.rows("SELECT table_id, seat, account_id FROM seats ORDER BY table_id, seat") == [
        (west, 1, bob.id),
        (west, 2, ann.id),
    ]
    after = books.invariants()
    assert (after.granted, after.balances) == (before.granted, before.balances)
    assert first.alive()
    books.db.transaction(check_invariants)


def books_admin(account_id: int) -> object:
    from sqlalchemy import update

    from studpoker.server.db import Account

    return update(Account).where(Account.id == account_id).values(is_admin=True)
