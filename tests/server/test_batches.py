"""Batches (``/ws/table/{id}?batch=1``): the messages a client would get one per frame, in the same order, as JSON
arrays, a step of a hand to a frame."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from .conftest import recv, recv_frame, until
from .test_table_protocol import play_hand, sit_both, two_players


def frames_until(ws: Any, kind: str) -> list[list[dict[str, Any]]]:
    """The frames of a batching socket up to the one that holds a message of type ``kind``."""
    out: list[list[dict[str, Any]]] = []
    while not any(m["type"] == kind for m in (out[-1] if out else [])):
        batch = recv_frame(ws)
        assert isinstance(batch, list) and batch and all(isinstance(m, dict) for m in batch), batch
        out.append(batch)
    return out


def test_a_batching_socket_gets_the_same_messages_in_fewer_frames(client: TestClient) -> None:
    ann, bob, table_id = two_players(client)
    batched = ann.client.websocket_connect(f"/ws/table/{table_id}?batch=1", headers=ann.headers)
    with ann.socket(table_id) as a, bob.socket(table_id) as b, batched as batching:
        until(a, "snapshot")
        until(b, "snapshot")
        first = recv_frame(batching)
        assert isinstance(first, list) and first[0]["type"] == "snapshot"
        sit_both(ann, bob, table_id)
        logs = play_hand([a, b])
        frames = frames_until(batching, "hand_over")
    # ann's two sockets see the same hand: one message per frame on the first, in batches on the second
    one_by_one = logs[0]
    flat = [m for batch in frames for m in batch]
    cut = next(i for i, m in enumerate(flat) if m["type"] == "hand_over") + 1
    assert flat[:cut] == one_by_one
    # a step is its event messages, the dealer's lines, the pot and the turn: together, in one frame
    assert len(frames) * 2 < len(one_by_one)
    turns = [batch for batch in frames if any(m["type"] == "turn" for m in batch)]
    assert all({"action", "pot", "turn"} <= {m["type"] for m in batch} for batch in turns[1:])


def test_a_refusal_to_a_batching_socket_is_a_batch_too(client: TestClient) -> None:
    with client.websocket_connect("/ws/table/999999?batch=1") as ws:
        refused = recv_frame(ws)
        assert [m["type"] for m in refused] == ["error"] and refused[0]["code"] == "not_found"
        try:
            recv_frame(ws)
        except WebSocketDisconnect as closed:
            assert closed.code == 4404
        else:
            raise AssertionError("the socket stayed open")


def test_without_asking_every_frame_is_one_message(client: TestClient) -> None:
    ann, _, table_id = two_players(client)
    for query in ("", "?batch=0", "?batch=yes"):
        with ann.client.websocket_connect(f"/ws/table/{table_id}{query}", headers=ann.headers) as ws:
            assert recv(ws)["type"] == "snapshot"


@pytest.mark.allow_server_errors(r"a socket's frames could not be sent")
def test_one_turn_of_the_loop_ends_every_sockets_step_each_on_its_own() -> None:
    """The messages pushed to batching sockets in one turn of the event loop reach each socket as one frame; a
    socket whose sending fails does not keep the others' steps back."""
    import asyncio

    from studpoker.server.connection import Connection

    def failing(_text: str) -> bool:
        raise OSError("the transport broke")

    async def scenario() -> tuple[list[str | int], list[str | int], list[str | int]]:
        first, broken, last = (Connection(n, f"p{n}", batch=True) for n in (1, 2, 3))
        broken.direct = failing
        for connection in (first, broken, last):
            connection.push('{"type":"action"}')
        first.push('{"type":"pot"}')
        last.push('{"type":"turn"}')
        assert not first.frames and not last.frames  # not before the turn ends
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        return list(first.frames), list(broken.frames), list(last.frames)

    first, broken, last = asyncio.run(scenario())
    assert first == ['[{"type":"action"},{"type":"pot"}]']
    assert broken == []
    assert last == ['[{"type":"action"},{"type":"turn"}]']


def test_a_step_seen_alike_is_joined_once() -> None:
    """Sockets pushed the same messages in one turn get one batch object: one encoding, and one write into a bus
    message of frames (the batches are joined afresh in the next turn)."""
    import asyncio

    from studpoker.server.connection import Connection

    async def alike() -> list[str | int]:
        sockets = [Connection(n, f"p{n}", batch=True) for n in (1, 2)]
        for socket in sockets:
            socket.push('{"type":"pot"}')
            socket.push('{"type":"turn"}')
        await asyncio.sleep(0)
        return [socket.frames[0] for socket in sockets]

    first, second = asyncio.run(alike())
    assert first == '[{"type":"pot"},{"type":"turn"}]' and first is second
