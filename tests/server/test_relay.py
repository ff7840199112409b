"""A table worker's stand-in for a gateway's socket keeps its last frames: a gateway that missed some gets them
again, renumbered in a new attachment, and a snapshot only when the gap is longer than the history (issue 29)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from studpoker.server.frames import unpack_frames
from studpoker.server.messages import Resync, encode
from studpoker.server.relay import HISTORY, RemoteConnection


class Sink:
    """A worker that only records the frames queued: (attachment, number, frame)."""

    def __init__(self) -> None:
        self.sent: list[tuple[int, int, str | int]] = []

    def queue_frame(self, connection: RemoteConnection, frame: str | int) -> None:
        self.sent.append((connection.attachment, connection.number, frame))


def socket_with(frames: int) -> tuple[RemoteConnection, Sink]:
    sink = Sink()
    socket = RemoteConnection(1, "ann", attachment=1, worker=sink)
    for n in range(1, frames + 1):
        socket.push(f"frame {n}")
    sink.sent.clear()
    return socket, sink


def test_the_frames_missed_are_sent_again_in_the_new_attachment_numbered_from_one() -> None:
    socket, sink = socket_with(10)
    assert socket.resume(2, previous=1, since=8)
    assert sink.sent == [(2, 1, "frame 8"), (2, 2, "frame 9"), (2, 3, "frame 10")]
    socket.push("frame 11")  # and the numbering goes on in the new attachment
    assert sink.sent[-1] == (2, 4, "frame 11") and socket.attachment == 2


def test_nothing_missed_starts_the_new_attachment_empty() -> None:
    socket, sink = socket_with(4)
    assert socket.resume(2, previous=1, since=5)
    assert sink.sent == [] and socket.number == 0
    socket.push("next")
    assert sink.sent == [(2, 1, "next")]


def test_a_gap_longer_than_the_history_is_not_resumed() -> None:
    socket, sink = socket_with(HISTORY + 5)
    assert socket.resume(2, previous=1, since=6)  # exactly the frames kept
    socket, sink = socket_with(HISTORY + 5)
    assert not socket.resume(2, previous=1, since=5)  # one more than kept: a snapshot is needed
    assert sink.sent == [] and socket.attachment == 1 and socket.number == HISTORY + 5, "nothing changed"


def test_a_resume_of_another_attachment_or_beyond_the_last_frame_is_refused() -> None:
    socket, sink = socket_with(3)
    assert not socket.resume(5, previous=0, since=2)  # the worker numbers attachment 1, not 0
    assert not socket.resume(5, previous=1, since=5)  # frame 4 was never sent
    assert sink.sent == [] and socket.attachment == 1


def test_a_close_is_sent_again_too() -> None:
    socket, sink = socket_with(2)
    socket.close(1000)
    sink.sent.clear()
    assert socket.resume(2, previous=1, since=2)
    assert sink.sent == [(2, 1, "frame 2"), (2, 2, 1000)]


def test_a_new_attachment_from_a_snapshot_keeps_nothing_of_the_old_one() -> None:
    socket, sink = socket_with(3)
    socket.renumber(2)
    assert socket.number == 0 and not socket.history
    assert not socket.resume(3, previous=2, since=1) or sink.sent == []


class Actor:
    """What the worker asks of a table's actor for a resync."""

    id = 7

    def __init__(self) -> None:
        self.jobs: list[Callable[[], Awaitable[None]]] = []
        self.snapshots: list[RemoteConnection] = []

    def run_soon(self, job: Callable[[], Awaitable[None]]) -> None:
        self.jobs.append(job)

    def resend_now(self, connection: RemoteConnection) -> None:
        self.snapshots.append(connection)
        connection.push('{"type":"snapshot"}')


def test_the_worker_resumes_from_the_history_or_starts_from_a_snapshot(tmp_path: Path) -> None:
    from studpoker.server.config import Settings
    from studpoker.server.worker import WorkerRoom

    settings = replace(Settings(db_url=f"sqlite:///{tmp_path / 'room.db'}"), redis_url="redis://127.0.0.1:1/0")

    async def check() -> None:
        room = WorkerRoom(settings)  # never opened: only its handling of bus messages is used (no Redis here)
        published: list[tuple[int, list[tuple[int, int, int, str | int]]]] = []
        room.bus.send = lambda channel, text: published.append(  # type: ignore[method-assign]
            (unpack_frames(text)[0], unpack_frames(text)[2])
        )
        actor = Actor()
        room.actors[7] = actor  # type: ignore[assignment]
        try:
            socket = RemoteConnection(1, "ann", gateway="gw-1", socket=5, table_id=7, attachment=1, worker=room)
            room.remote[("gw-1", 5)] = socket
            for n in range(1, 6):
                socket.push(json.dumps({"type": "m", "n": n}))
            await asyncio.sleep(0)  # the worker sends its batch
            published.clear()
            # the gateway lost frames 4 and 5: attachment 2 starts with them, no snapshot
            resync = Resync(gateway="gw-1", socket=5, attachment=2, resume=(1, 4))
            room._on_message("studpoker:table:7", encode(resync))
            await asyncio.sleep(0)
            assert [(a, n, json.loads(str(f))["n"]) for _, entries in published for _, a, n, f in entries] == [
                (2, 1, 4),
                (2, 2, 5),
            ]
            assert actor.jobs == [] and actor.snapshots == []
            # a gap the history does not cover: attachment 3 starts from a snapshot, built on the actor
            for n in range(6, 6 + HISTORY):
                socket.push(json.dumps({"type": "m", "n": n}))
            await asyncio.sleep(0)
            published.clear()
            resync = Resync(gateway="gw-1", socket=5, attachment=3, resume=(2, 1))
            room._on_message("studpoker:table:7", encode(resync))
            assert len(actor.jobs) == 1
            await actor.jobs[0]()
            await asyncio.sleep(0)
            assert actor.snapshots == [socket]
            assert [(a, n, f) for _, entries in published for _, a, n, f in entries] == [(3, 1, '{"type":"snapshot"}')]
            # and a resync without ``from`` (an older gateway) too
            room._on_message("studpoker:table:7", encode(Resync(gateway="gw-1", socket=5, attachment=4)))
            assert len(actor.jobs) == 2
        finally:
            room.db.close()

    asyncio.run(check())


def test_a_resume_out_of_bounds_does_not_decode() -> None:
    from studpoker.server.messages import TO_WORKER, BadMessage, decode

    good: dict[str, Any] = {"op": "resync", "gw": "g", "s": 1, "a": 2, "from": [1, 3]}
    assert decode(json.dumps(good), TO_WORKER) == Resync(gateway="g", socket=1, attachment=2, resume=(1, 3))
    for bad in ([1, 0], [1], [1, 2, 3], [-1, 2], [1, True], "1,3", [1, 2**63]):
        try:
            decode(json.dumps({**good, "from": bad}), TO_WORKER)
        except BadMessage:
            continue
        raise AssertionError(f"from {bad!r} decoded")
