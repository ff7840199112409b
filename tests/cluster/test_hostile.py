"""A hostile client against the distributed room, through a gateway: what it sends must never leave state behind
on a worker, leak the internals of a failure, or cost PostgreSQL a query per request for tables that do not exist;
and one that reaches Redis itself, without the room's password: it must not be able to act on the bus, and the
room must not use a Redis that would let it (issue 26, item 11).
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace
from typing import Any

import pytest

from .conftest import Books, Cluster, Process, RedisServer, free_port, skip_reason, wait_for
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

    def abandon(self) -> None:
        self.connections.clear()


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
    from studpoker.server.messages import encode
    from studpoker.server.worker import WorkerRoom

    async def check() -> None:
        room = WorkerRoom(_settings(books))
        answers: list[dict[str, Any]] = []
        # the answers as the gateway gets them, on the wire
        room._answer = lambda _gateway, message: answers.append(json.loads(encode(message)))  # type: ignore[method-assign]
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
                args = {"account_id": 1, "username": "ann", "buy_in": 400, "seat": None}
                call = {"op": "call", "gw": "g", "id": ident, "name": "sit", "args": args}
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


def test_a_call_that_meets_a_handover_is_asked_again_and_a_closed_table_is_not_found(books: Books) -> None:
    """A call queued on a table whose actor stops because the table leaves the worker (handed over to another at
    the end of a hand, or its lease lost) is refused by the stopped actor; nothing was done, so the gateway hears
    503, which a new table's bots (``seat_bots``) ask again on. A table the cashier closed stays 404."""
    from studpoker.server.errors import ApiError
    from studpoker.server.messages import encode
    from studpoker.server.worker import WorkerRoom

    async def check() -> None:
        room = WorkerRoom(_settings(books))
        answers: list[dict[str, Any]] = []
        room._answer = lambda _gateway, message: answers.append(json.loads(encode(message)))  # type: ignore[method-assign]

        class Stopped(_Actor):
            stopped = True

            def __init__(self, status: str) -> None:
                super().__init__()
                self.status = status

            async def add_bots(self, *_args: Any) -> dict[str, Any]:
                raise ApiError(404, "not_found", "table 7 is closed")  # what a stopped actor answers

        try:
            for status in ("open", "closed"):
                room.actors[7] = Stopped(status)  # type: ignore[assignment]
                call = {"op": "call", "gw": "g", "id": status, "name": "add_bots", "args": {"count": 5}}
                room._on_message("studpoker:table:7", json.dumps(call))
                await asyncio.gather(*room._spawned)
            moving, closed = (a["error"] for a in answers)
            assert (moving["status"], moving["code"]) == (503, "unavailable") and "changing hands" in moving["message"]
            assert (closed["status"], closed["code"]) == (404, "not_found")
        finally:
            room.db.close()

    asyncio.run(check())


def test_a_call_heard_for_a_table_the_worker_has_no_actor_for_is_asked_again(books: Books) -> None:
    """A worker listens to a table's channel before it has loaded the table (so that attachments are heard), and
    until Redis has heard it stop listening to a table that left: a call heard then is answered 503 at once, not
    left unanswered for the gateway's 504 ten seconds later. An attachment waits for the table's announcement."""
    from studpoker.server.messages import encode
    from studpoker.server.worker import WorkerRoom

    async def check() -> None:
        room = WorkerRoom(_settings(books))
        answers: list[dict[str, Any]] = []
        room._answer = lambda _gateway, message: answers.append(json.loads(encode(message)))  # type: ignore[method-assign]
        room.actors[8] = _Actor()  # type: ignore[assignment]
        try:
            room.keeper._taking.add(7)  # being loaded
            room.keeper.lose(8, "it is handed over")  # left: the unsubscription is on its way
            for table in (7, 8):
                call = {"op": "call", "gw": "g", "id": f"t{table}", "name": "add_bots", "args": {"count": 5}}
                room._on_message(f"studpoker:table:{table}", json.dumps(call))
                attach = {"op": "attach", "account_id": 1, "username": "ann", "gw": "g", "s": table, "a": 1}
                room._on_message(f"studpoker:table:{table}", json.dumps(attach))
            await asyncio.gather(*room._spawned)
            assert [a["id"] for a in answers] == ["t7", "t8"] and room.remote == {}
            for answer in answers:
                assert (answer["error"]["status"], answer["error"]["code"]) == (503, "unavailable")
                assert "changing hands" in answer["error"]["message"]
        finally:
            room.db.close()

    asyncio.run(check())


def _hostile(table_id: int) -> list[str]:
    """Messages a hostile publisher (or a broken gateway) could put on a table's channel: none is a message."""
    sit = {"account_id": 1, "username": "ann", "buy_in": 9_000, "seat": 2}
    call = {"op": "call", "gw": "g", "id": "forged", "name": "sit", "args": sit}
    at = {"gw": "g", "s": 1, "a": 1}
    return [
        json.dumps({**call, "args": {**sit, "account_id": True}}),  # a bool for an account
        json.dumps({**call, "args": {**sit, "buy_in": -9_000}}),
        json.dumps({**call, "args": {**sit, "username": "x" * 41}}),
        json.dumps({**call, "name": "abandon", "args": {}}),  # an actor's method, but no operation
        json.dumps({**call, "name": "__class__", "args": {}}),
        json.dumps({**call, "args": [1, 2]}),
        json.dumps({**call, "id": "i" * 65}),
        json.dumps({"op": "attach", **at, "account_id": "1"}),
        json.dumps({"op": "attach", **at, "a": True}),
        json.dumps({"op": "act", **at, "hand": "1", "seq": 1, "action": "fold"}),
        json.dumps({"op": "chat", **at, "text": "x" * 401}),
        json.dumps({"op": "answer", "id": "forged", "ok": {}}),  # a gateway's message, on a table's channel
        json.dumps({"op": "owner", "table": table_id, "generation": 99}),  # the room's
        '{"op":"act","gw":"g","s":1',
        "[" * 5000,
        '{"op":"chat","text":"' + "x" * 100_000 + '"}',
        "\x00\xff not JSON",
        "",
    ]


def test_a_worker_drops_hostile_messages_and_answers_none(books: Books, caplog: pytest.LogCaptureFixture) -> None:
    """Messages that do not decode, on a table's channel or the room's: each is dropped with a log line, none
    reaches the actor or leaves a connection behind, none is answered (not even "gone"), and nothing raises out of
    the handler, which is the bus reader's."""
    import logging

    from pydantic import BaseModel

    from studpoker.server.worker import WorkerRoom

    caplog.set_level(logging.DEBUG, logger="studpoker.server")

    async def check() -> None:
        room = WorkerRoom(_settings(books))
        sent: list[tuple[str, str]] = []
        room.bus.send = lambda channel, text: sent.append((channel, text))  # type: ignore[method-assign]
        done: list[str] = []

        class Nothing(BaseModel):
            """What the watched actor's operation returns: nothing, to see the answer as it is."""

        class Watched(_Actor):
            async def sit(self, *args: Any) -> Nothing:
                done.append("sit")
                return Nothing()

            def abandon(self) -> None:
                done.append("abandon")

            async def act(self, *args: Any) -> None:
                done.append("act")

            def chat(self, *args: Any) -> None:
                done.append("chat")

        room.actors[7] = Watched()  # type: ignore[assignment]
        try:
            hostile = _hostile(7)
            for text in hostile:
                room._on_message("studpoker:table:7", text)
            for text in ('{"op":"claim","x":1}', '{"op":"gone","table":7,"s":[1]}', "null"):
                room._on_message("studpoker:room", text)
            await asyncio.gather(*room._spawned)
            assert done == [] and sent == [] and room.remote == {} and not room._claim_now.is_set()
            dropped = [r for r in caplog.records if "dropped" in r.getMessage()]
            assert len(dropped) == len(hostile) + 3
            # the same channel still takes a real call, and answers it
            room._on_message("studpoker:table:7", hostile[0].replace("true", "1"))
            await asyncio.gather(*room._spawned)
            assert (
                done == ["sit"]
                and len(sent) == 1
                and json.loads(sent[0][1])
                == {
                    "op": "answer",
                    "id": "forged",
                    "ok": {},
                }
            )
        finally:
            room.db.close()

    asyncio.run(check())


def test_a_gateway_drops_hostile_messages(books: Books) -> None:
    """On a gateway's channel: an answer that is not one (both ok and error, a bool for a status) leaves the
    pending call waiting rather than failing it wrongly; junk frames and messages raise nothing."""
    from studpoker.server.gateway import GatewayRoom

    async def check() -> None:
        room = GatewayRoom(_settings(books))
        try:
            pending: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
            room.calls["c1"] = pending
            error = {"status": 500, "code": "internal", "message": "no"}
            for data in [
                json.dumps({"op": "answer", "id": "c1", "ok": {"seat": 1}, "error": error}),
                json.dumps({"op": "answer", "id": "c1", "error": {**error, "status": True}}),
                json.dumps({"op": "answer", "id": "c1"}),
                json.dumps({"op": "gone", "table": 7, "s": ["1"]}),
                json.dumps({"op": "act", "gw": "g", "s": 1, "a": 1, "hand": 1, "seq": 1, "action": "fold"}),
                '{"t":7,"g":1,"m":[[1,1,1,9]]}',
                '{"t":"seven"}',
                "[" * 5000,
            ]:
                room._on_message("studpoker:gateway:" + room.gateway_id, data)
            room._on_message("studpoker:room", json.dumps({"op": "session_ended", "session": 1, "reason": "x"}))
            assert not pending.done()
            room._on_message("studpoker:gateway:" + room.gateway_id, json.dumps({"op": "answer", "id": "c1", "ok": {}}))
            assert pending.done()
        finally:
            room.db.close()

    asyncio.run(check())


def test_made_up_tables_cost_the_database_no_query(books: Books) -> None:
    """``GET /api/tables/{id}`` and ``/ws/table/{id}`` need no login: a client walking through table numbers that
    are not open must not make the gateway query PostgreSQL each time (the lobby, at most once a second, knows
    which tables are open); a table between owners is shown from what the lobby read."""
    from studpoker.server.errors import ApiError
    from studpoker.server.gateway import GatewayRoom
    from studpoker.server.messages import TableEntry

    async def check() -> None:
        room = GatewayRoom(_settings(books))
        built: list[int] = []
        queries: list[list[int] | None] = []
        entry = TableEntry.model_construct(
            info={"id": 3, "name": "Three", "created_by": None}, seats=[]
        )  # what is read

        async def cached(_table_id: int) -> None:
            return None  # no worker holds any table now

        async def from_database(tables: list[int] | None) -> list[TableEntry]:
            queries.append(tables)
            return [entry] if tables and 3 in tables else []

        async def ids(_work: Any) -> list[int]:
            built.append(1)
            return [3]

        room.directory._cached = cached  # type: ignore[method-assign]
        room.directory._from_database = from_database  # type: ignore[method-assign]
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


# -- Redis without the password (issue 26, item 11) ------------------------------------------------------------


def _forged_sit(account: Any, table_id: int, buy_in: int, seat: int) -> str:
    """The review's attack: a gateway's ``sit`` call, made up, that seats ``account`` with ``buy_in`` of his chips."""
    args = {"account_id": account.id, "username": account.name, "buy_in": buy_in, "seat": seat}
    return json.dumps({"op": "call", "gw": "attacker", "id": "forged", "name": "sit", "args": args})


def _seat_of(books: Books, table_id: int, account: Any) -> list[tuple[Any, ...]]:
    return books.rows("SELECT seat, stack FROM seats WHERE table_id = :t AND account_id = :a", t=table_id, a=account.id)


def test_issue26_11_a_publish_without_the_password_seats_nobody(cluster: Cluster, books: Books) -> None:
    """The review published one made-up ``sit`` on a table's channel and seated a victim with 9,000 of his chips.
    The tests' Redis asks for a password (as the documented recipes do): the same publish without it is refused
    by Redis, as is listening on a gateway's channel (every card); nobody is seated, nothing is paid, the books
    balance. The same message from a client with the room's password does seat him: Redis's password, not the
    message, is what stops the attack (hence the room's refusal of a Redis without one, tested below)."""
    import redis

    from studpoker.server.bus import table_channel

    cluster.worker()
    gateway = cluster.gateway()
    ann, bob = books.account("ann"), books.account("bob")
    table_id = open_table(gateway, ann, "Forged")  # answered once a worker listens on the table's channel
    sit(gateway, ann, table_id, 1)
    attacker = redis.Redis.from_url(cluster.redis.open_url, socket_connect_timeout=5)
    try:
        with pytest.raises(redis.AuthenticationError):
            attacker.publish(table_channel(table_id), _forged_sit(bob, table_id, 9_000, 2))
        with pytest.raises(redis.AuthenticationError):
            attacker.pubsub().subscribe("studpoker:gateway:anything")
        with pytest.raises(redis.AuthenticationError):
            attacker.get(f"studpoker:info:{table_id}")
    finally:
        attacker.close()
    with gateway.http(ann) as http:  # the table still answers its players
        assert http.post(f"/api/tables/{table_id}/top-up", json={"amount": 10}).status_code == 200
    assert _seat_of(books, table_id, bob) == []
    assert books.one("SELECT balance FROM accounts WHERE id = :a", a=bob.id) == 10_000
    books.invariants()
    insider = redis.Redis.from_url(cluster.redis.url)
    try:
        assert insider.publish(table_channel(table_id), _forged_sit(bob, table_id, 9_000, 2)) == 1
    finally:
        insider.close()
    wait_for(lambda: _seat_of(books, table_id, bob) == [(2, 9_000)], 15, "the insider's forged sit seats bob")
    books.invariants()


def test_issue26_11_the_room_refuses_a_redis_open_to_anyone(cluster: Cluster, redis_server: RedisServer) -> None:
    """A Redis that lets in clients without a password: the recipes' before the review (a gateway given its URL
    without one), or one where the room's own user has a password but the default user has none (a worker and
    ``--role all`` given the room's URL). Each stops before it starts, with one line that says what to do;
    ``--redis-allow-unauthenticated`` runs anyway, with a warning."""
    redis_server.stop()
    redis_server.start(open_to_all=True)
    bare: dict[str, str | None] = {"STUDPOKER_REDIS_URL": redis_server.open_url}
    processes = [
        cluster._start("gateway", ["--no-default-table"], port=free_port(), env=bare),
        cluster._start("worker", []),
        cluster._start("all", ["--workers", "2", "--no-default-table"], port=free_port()),
    ]
    for process, url in zip(processes, [redis_server.open_url, redis_server.url, redis_server.url], strict=True):
        assert process.popen.wait(60) == 2, process.log()
        lines = process.log().splitlines()
        assert len(lines) == 1, lines
        shown = url.replace(redis_server.password, "***")
        assert lines[0] == (
            f"stud serve: error: Redis at {shown} lets in clients without a password (it answered PONG), so anyone"
            " who reaches it could act for any player: give it a password (requirepass or an ACL user,"
            " docs/server.md) and the URL with it in $STUDPOKER_REDIS_URL or --redis-file, or run with"
            " --redis-allow-unauthenticated"
        )
    allowed = cluster._start("worker", ["--redis-allow-unauthenticated"], env=bare)
    cluster.wait_worker(allowed)
    assert "warning: Redis at" in allowed.log() and "lets in clients without a password" in allowed.log()


def test_issue26_11_a_redis_that_comes_back_open_to_anyone_is_not_used(
    cluster: Cluster, books: Books, redis_server: RedisServer
) -> None:
    """Redis restarted open to anyone while the room runs (the room's user still there, but the default user
    let in without a password): the worker and the gateway reconnect, see that anyone may come in, and do not use
    it (they log why): nobody listens on the table's channel, so the attacker's forged ``sit`` reaches nobody, no
    heartbeat is written, and a player's call is refused (503) with nothing changed. When Redis asks for a
    password again, the room carries on where it was."""
    import redis

    from studpoker.server.bus import table_channel

    worker = cluster.worker()
    gateway = cluster.gateway()
    ann, bob = books.account("ann"), books.account("bob")
    table_id = open_table(gateway, ann, "Reopened")
    sit(gateway, ann, table_id, 1)
    lease = books.live_lease(table_id)
    redis_server.stop()
    redis_server.start(open_to_all=True)
    for process in (worker, gateway):
        wait_for(
            lambda process=process: "lets in clients without a password" in process.log(),
            30,
            f"the {process.role} refuses the open Redis",
        )
    attacker = redis.Redis.from_url(redis_server.open_url)
    try:
        assert attacker.publish(table_channel(table_id), _forged_sit(bob, table_id, 9_000, 2)) == 0
        assert attacker.pubsub_numsub(table_channel(table_id)) == [(table_channel(table_id).encode(), 0)]
        assert attacker.zcard("studpoker:workers") == 0  # no heartbeat written either
    finally:
        attacker.close()
    with gateway.http(ann) as http:
        refused = http.post(f"/api/tables/{table_id}/top-up", json={"amount": 10})
        assert refused.status_code == 503, refused.text
    assert books.live_lease(table_id) == lease  # the worker keeps its table (the lease is PostgreSQL's)
    redis_server.stop()
    redis_server.start()
    for process in (worker, gateway):
        wait_for(lambda process=process: "connected to Redis again" in process.log(), 30, f"the {process.role} is back")

    def topped_up() -> bool:
        with gateway.http(ann) as http:
            return http.post(f"/api/tables/{table_id}/top-up", json={"amount": 10}).status_code == 200

    wait_for(topped_up, 30, "a call to the table works again", every=0.5)
    assert _seat_of(books, table_id, bob) == []
    assert books.one("SELECT balance FROM accounts WHERE id = :a", a=bob.id) == 10_000
    assert books.live_lease(table_id) == lease
    books.invariants()
    for process in (worker, gateway):
        assert "Traceback" not in process.log(), process.log()[-3000:]
