"""A hostile client against the distributed room, through a gateway: what it sends must never leave state behind
on a worker, leak the internals of a failure, or cost PostgreSQL a query per request for tables that do not exist.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace
from typing import Any

import pytest

from .conftest import Books, Cluster, Process, skip_reason, wait_for
from .test_cluster import open_table, sit

if skip_reason() is not None:
    pytest.skip(skip_reason() or "", allow_module_level=True)


def _settings(books: Books) -> Any:
    from studpoker.server.config import Settings

    return replace(Settings(db_url=books.url), redis_url="redis://127.0.0.1:1/0")  # never connected to


def _seat(gateway: Process, table_id: int, seat: int) -> dict[str, Any] | None:
    with gateway.http() as http:
        seats = http.get(f"/api/tables/{table_id}").json()["seats"]
    return next((s for s in seats if s["seat"] == seat), None)


class _Actor:
    """A table actor's connect/disconnect as the real one orders them: each posted to its inbox in turn."""

    id = 7

    def __init__(self) -> None:
        self.connections: set[Any] = set()

    async def connect(self, connection: Any) -> None:
        self.connections.add(connection)  # the real actor posts the job here, before its first await

    def disconnect(self, connection: Any) -> None:
        self.connections.discard(connection)


def test_an_attach_and_detach_handled_together_leave_no_connection(books: Books) -> None:
    """A socket opened and closed at once: its attach and detach reach the worker in one read of the bus, and
    the detach is handled before the task that connects the attachment has run. The connection must not be left
    on the table (it would count as the player's, connected for ever, and be sent every frame)."""
    from studpoker.server.worker import WorkerRoom

    async def check() -> None:
        room = WorkerRoom(_settings(books))
        actor = _Actor()
        room.actors[7] = actor  # type: ignore[assignment]
        try:
            channel = "studpoker:table:7"
            for number in range(1, 6):
                attach = {"op": "attach", "account_id": 1, "username": "ann", "gw": "g", "s": number, "a": 1}
                room._on_message(channel, json.dumps(attach))
                if number % 2:  # attached again (a new attachment) before the first was connected, then closed
                    room._on_message(channel, json.dumps({**attach, "a": 2}))
                room._on_message(channel, json.dumps({"op": "detach", "gw": "g", "s": number, "a": 1}))
            await asyncio.gather(*room._spawned)
            assert actor.connections == set() and room.remote == {}
        finally:
            room.db.close()

    asyncio.run(check())


def test_a_call_that_fails_tells_the_client_nothing_of_the_internals(books: Books) -> None:
    """An operation that fails on the worker (the database, a lease taken meanwhile) is answered like the
    embedded room's failures: no SQL, host or lease generation in the message; a lost lease is 503 (nothing was
    written: try again)."""
    from studpoker.server.lease import LeaseLostError
    from studpoker.server.worker import WorkerRoom

    async def check() -> None:
        room = WorkerRoom(_settings(books))
        answers: list[dict[str, Any]] = []
        room._answer = lambda _gateway, message: answers.append(message)  # type: ignore[method-assign]
        failures = iter(
            [
                RuntimeError('connection to server at "10.0.0.5", port 5432 failed: password for user "secret"'),
                LeaseLostError("table 7: lease generation 3 has passed (now 4): not written"),
            ]
        )

        class Failing(_Actor):
            async def sit(self, *_args: Any) -> dict[str, Any]:
                raise next(failures)

        room.actors[7] = Failing()  # type: ignore[assignment]
        try:
            for ident in ("one", "two"):
                call = {"op": "call", "gw": "g", "id": ident, "name": "sit", "args": {"account_id": 1}}
                room._on_message("studpoker:table:7", json.dumps(call))
                await asyncio.gather(*room._spawned)
            internal, lost = (a["error"] for a in answers)
            assert internal["status"] == 500 and internal["code"] == "internal"
            assert lost["status"] == 503 and lost["code"] == "unavailable"
            for error in (internal, lost):
                assert not any(word in error["message"] for word in ("10.0.0.5", "secret", "generation", "5432"))
        finally:
            room.db.close()

    asyncio.run(check())


def test_made_up_tables_cost_the_database_no_query(books: Books) -> None:
    """``GET /api/tables/{id}`` and ``/ws/table/{id}`` need no login: a client walking through table numbers that
    are not open must not make the gateway query PostgreSQL each time (the lobby, at most once a second, knows
    which tables are open); a table between owners is shown from what the lobby read."""
    from studpoker.server.errors import ApiError
    from studpoker.server.gateway import GatewayRoom

    async def check() -> None:
        room = GatewayRoom(_settings(books))
        built: list[int] = []
        queries: list[list[int] | None] = []
        entry = {"info": {"id": 3, "name": "Three"}, "seats": []}

        async def cached(_table_id: int) -> None:
            return None  # no worker holds any table now

        async def from_database(tables: list[int] | None) -> list[dict[str, Any]]:
            queries.append(tables)
            return [entry] if tables and 3 in tables else []

        async def ids(_work: Any) -> list[int]:
            built.append(1)
            return [3]

        room._cached = cached  # type: ignore[method-assign]
        room._from_database = from_database  # type: ignore[method-assign]
        room.db.run = ids  # type: ignore[method-assign]
        room.bus.redis.mget = None  # calling it fails: as if Redis were away
        try:
            for table_id in range(100, 150):
                with pytest.raises(ApiError) as refused:
                    await room.find_table(table_id)
                assert refused.value.status == 404
            table = await room.find_table(3)
            assert table.name == "Three"
            assert built == [1] and queries == [[3]]  # the lobby's one build, and nothing more
        finally:
            room.db.close()

    asyncio.run(check())


def test_a_connect_close_storm_leaves_the_player_not_connected(cluster: Cluster, books: Books) -> None:
    """Through real processes: a seated player's sockets opened and closed as fast as a client can; once the last
    is closed the table shows the seat not connected (no connection of the storm left on the worker), the worker
    and the gateway logged no traceback, and the table still answers."""
    from websockets.sync.client import connect

    worker = cluster.worker()
    gateway = cluster.gateway()
    ann = books.account("ann")
    table_id = open_table(gateway, ann, "Storm")
    sit(gateway, ann, table_id, 1)
    headers = {"Origin": gateway.base, "Cookie": f"studpoker_session={ann.token}"}
    url = f"ws://127.0.0.1:{gateway.port}/ws/table/{table_id}"
    for _ in range(40):
        with connect(url, additional_headers=headers, open_timeout=10, close_timeout=1):
            pass
    with connect(url, additional_headers=headers, open_timeout=10, close_timeout=1) as ws:
        assert json.loads(ws.recv(timeout=10))["type"] == "snapshot"
        wait_for(lambda: (_seat(gateway, table_id, 1) or {}).get("connected") is True, 10, "ann connected")
    wait_for(lambda: (_seat(gateway, table_id, 1) or {}).get("connected") is False, 10, "ann not connected")
    with gateway.http() as http:
        assert http.get("/api/tables/987654").status_code == 404
    for process in (worker, gateway):
        assert "Traceback" not in process.log(), process.log()[-3000:]
