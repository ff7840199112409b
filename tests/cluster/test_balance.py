"""Tables move to a worker that joins a running room (studpoker.server.balance): the first worker hands the tables
beyond its fair share over at the end of their hands, nothing is voided, the books balance, every table moved deals
on at its new worker, and a socket on a moved table goes on getting frames, its chat history with it."""

from __future__ import annotations

import time
from collections import Counter
from typing import Any

import pytest

from .conftest import Account, Books, Cluster, Player, Process, skip_reason, wait_for
from .test_cluster import assert_books

if skip_reason() is not None:
    pytest.skip(skip_reason() or "", allow_module_level=True)

#: Tables with bots playing, opened on the first worker (two accounts: each may have three open).
TABLES = 4
#: The bound on the spread once the second worker is up: a pass or two of the first worker's lease loop, the end
#: of a hand at each table given up, a claim; the rest is margin for a loaded 2-core machine.
SPREAD_BOUND = 120.0


def open_bots_table(gateway: Process, account: Account, name: str) -> int:
    with gateway.http(account) as http:
        response = http.post("/api/tables", json={"name": name, "variant": "STUD7", "small_bet": 10, "bots": 3})
    assert response.status_code == 201, response.text
    return int(response.json()["id"])


def finished(books: Books, table_id: int) -> int:
    """The last hand of the table that is finished (0: none yet)."""
    return max((n for n, s in books.hands(table_id) if s == "finished"), default=0)


def owners(books: Books, tables: list[int]) -> dict[int, str | None]:
    return {t: (lease[0] if (lease := books.live_lease(t)) is not None else None) for t in tables}


def test_a_joining_worker_gets_half_the_tables_with_nothing_voided(cluster: Cluster, books: Books) -> None:
    first = cluster.worker()
    gateway = cluster.gateway()
    ann, bob = books.account("ann"), books.account("bob")
    tables = [open_bots_table(gateway, (ann, bob)[i % 2], f"Spread {i + 1}") for i in range(TABLES)]
    # a spectator's socket on every table, each with a chat line of its own
    watchers = {t: Player((ann, bob)[i % 2], gateway, t).connect() for i, t in enumerate(tables)}

    def poll() -> None:
        for watcher in watchers.values():
            watcher.poll(0.01)

    for table_id, watcher in watchers.items():
        watcher.until(lambda m: m["type"] == "snapshot", what="the first snapshot")
        watcher.send({"type": "chat", "text": f"hello table {table_id}"})
        watcher.until(lambda m: m["type"] == "chat", what="the chat line back")
    wait_for(lambda: poll() or all(finished(books, t) >= 1 for t in tables), 60, "a hand finished at every table")
    before = owners(books, tables)
    worker_one = before[tables[0]]
    assert worker_one is not None and set(before.values()) == {worker_one}

    second = cluster.worker()
    started = time.monotonic()

    def spread() -> dict[int, str | None] | None:
        poll()
        now = owners(books, tables)
        counts = Counter(now.values())
        return now if None not in counts and len(counts) == 2 and sorted(counts.values()) == [2, 2] else None

    after = wait_for(spread, SPREAD_BOUND, "the second worker holds half the tables", every=0.1)
    print(f"tables spread over two workers {time.monotonic() - started:.1f} s after the second started")
    moved = [t for t in tables if after[t] != worker_one]
    assert len(moved) == TABLES // 2
    assert all(cluster.owner(t, books) is second for t in moved)
    assert all(cluster.owner(t, books) is first for t in tables if t not in moved)
    assert first.log().count("handed table") == len(moved)
    # every table moved deals on at its new worker; a hand is never voided, the books balance
    marks = {t: finished(books, t) for t in moved}
    wait_for(lambda: poll() or all(finished(books, t) >= marks[t] + 2 for t in moved), 60, "hands on after the move")
    assert books.one("SELECT count(*) FROM hands WHERE status = 'voided'") == 0
    assert owners(books, tables) == after  # nothing moved back and forth
    for table_id in tables:
        assert_books(books, table_id)
    # the socket on a moved table got the new owner's snapshot, with the chat line said at the old owner, and
    # frames of the hands dealt there
    for table_id in moved:
        watcher = watchers[table_id]
        last = max(i for i, m in enumerate(watcher.log) if m["type"] == "snapshot")
        snapshot: dict[str, Any] = watcher.log[last]
        assert [line["text"] for line in snapshot["chat"]] == [f"hello table {table_id}"]
        assert not snapshot["voided"]
        dealt = [m["hand"] for m in watcher.log[last:] if m["type"] == "hand_started"]
        assert dealt and dealt[-1] > marks[table_id], (table_id, dealt, marks[table_id])
        assert not watcher.closed
    # and the chat goes on at the new owner, its lines numbered after the old ones
    watcher = watchers[moved[0]]
    watcher.send({"type": "chat", "text": "still here"})
    line = watcher.until(lambda m: m["type"] == "chat" and m["text"] == "still here", what="a chat line after")
    assert line["id"] == 2
    for player in watchers.values():
        player.close()
