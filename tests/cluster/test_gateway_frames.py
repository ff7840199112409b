"""A gateway passes on the frames of a table's current owner only: those of a worker that lost the table (a lease
generation older than one it has seen) are dropped, even when their attachment and numbers fit."""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace

import pytest

from .conftest import Books, skip_reason

if skip_reason() is not None:
    pytest.skip(skip_reason() or "", allow_module_level=True)


def test_frames_of_an_older_generation_are_dropped(books: Books) -> None:
    from studpoker.server.bus import pack_frames
    from studpoker.server.config import Settings
    from studpoker.server.connection import Connection
    from studpoker.server.gateway import Attached, GatewayRoom

    settings = replace(Settings(db_url=books.url), redis_url="redis://127.0.0.1:1/0")

    async def check() -> None:
        room = GatewayRoom(settings)  # never opened: only its handling of bus messages is used (no Redis here)
        try:
            await frames(room)
        finally:
            for task in list(room._tasks):  # the attachments it published, to no Redis
                task.cancel()
            await asyncio.gather(*room._tasks, return_exceptions=True)
            room.db.close()

    async def frames(room: GatewayRoom) -> None:
        connection = Connection(1, "ann")
        attached = Attached(connection, table_id=7, number=1, attachment=3)
        room.attached[1] = attached
        room.by_table[7] = {1}
        new, old = json.dumps({"type": "snapshot", "new": True}), json.dumps({"type": "snapshot", "new": False})
        room._on_message("studpoker:room", json.dumps({"op": "owner", "table": 7, "generation": 2}))
        a = attached.attachment  # a new owner: the socket was attached again
        assert a == 4
        # the old owner answers the attachment meant for the new one first, with the number the gateway expects
        room._on_message("gw", pack_frames(7, 1, [(1, a, 1, old)]))
        assert list(connection.frames) == [] and attached.expected == 1
        room._on_message("gw", pack_frames(7, 2, [(1, a, 1, new)]))
        assert list(connection.frames) == [new] and attached.generation == 2
        # a newer generation than any announced is taken (its announcement may have been lost), an older one not
        room._on_message("gw", pack_frames(7, 3, [(1, a, 2, new)]))
        room._on_message("gw", pack_frames(7, 2, [(1, a, 3, old)]))
        assert list(connection.frames) == [new, new] and room.owners[7] == 3

    asyncio.run(check())


def test_a_gap_starts_a_new_attachment_and_only_its_snapshot_is_taken(books: Books) -> None:
    from studpoker.server.bus import pack_frames
    from studpoker.server.config import Settings
    from studpoker.server.connection import Connection
    from studpoker.server.gateway import Attached, GatewayRoom

    settings = replace(Settings(db_url=books.url), redis_url="redis://127.0.0.1:1/0")

    async def check() -> None:
        room = GatewayRoom(settings)
        published: list[tuple[str, dict[str, object]]] = []

        def send(channel: str, message: str) -> None:
            published.append((channel, json.loads(message)))

        room.bus.send = send  # type: ignore[method-assign]
        try:
            connection = Connection(1, "ann")
            attached = Attached(connection, table_id=7, number=5, attachment=1)
            room.attached[5] = attached
            room.by_table[7] = {5}
            one, two, four = (json.dumps({"type": "m", "n": n}) for n in (1, 2, 4))
            room._on_message("gw", pack_frames(7, 1, [(5, 1, 1, one), (5, 1, 2, two)]))
            room._on_message("gw", pack_frames(7, 1, [(5, 1, 4, four)]))  # number 3 was lost
            await asyncio.sleep(0)
            assert list(connection.frames) == [one, two]
            assert attached.attachment == 2 and attached.expected == 1
            # the new attachment resumes after frame 2 of attachment 1 (issue 29: from the worker's history)
            assert published == [
                ("studpoker:table:7", {"op": "resync", "gw": room.gateway_id, "s": 5, "a": 2, "from": [1, 3]})
            ]
            # what was still on its way in attachment 1 is dropped; attachment 2 starts with its snapshot
            snapshot = json.dumps({"type": "snapshot"})
            room._on_message("gw", pack_frames(7, 1, [(5, 1, 5, four), (5, 2, 1, snapshot)]))
            assert list(connection.frames) == [one, two, snapshot] and attached.expected == 2
        finally:
            await asyncio.gather(*room._tasks, return_exceptions=True)
            room.db.close()

    asyncio.run(check())


def test_the_lobby_is_built_once_a_second_however_many_ask(books: Books) -> None:
    from studpoker.server import gateway
    from studpoker.server.config import Settings
    from studpoker.server.gateway import GatewayRoom

    settings = replace(Settings(db_url=books.url), redis_url="redis://127.0.0.1:1/0")

    async def check() -> None:
        room = GatewayRoom(settings)
        built: list[int] = []

        async def build() -> list[dict[str, object]]:
            built.append(1)
            await asyncio.sleep(0.05)  # a slow database: the others wait for this one
            return [{"id": len(built)}]

        room.directory._build_lobby = build  # type: ignore[method-assign]
        try:
            answers = await asyncio.gather(*(room.table_infos() for _ in range(20)))
            assert built == [1] and all(a == [{"id": 1}] for a in answers)
            room.directory._lobby = (
                room.directory._lobby[0] - gateway.LOBBY_SECONDS,
                room.directory._lobby[1],
            )  # a second later
            assert await room.table_infos() == [{"id": 2}]
        finally:
            room.db.close()

    asyncio.run(check())
