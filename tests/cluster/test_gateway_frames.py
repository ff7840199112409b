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
