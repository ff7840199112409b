"""The bus's frame batches (studpoker.server.bus.pack_frames): what a worker sends a gateway in one message."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("redis")

from studpoker.server import wire
from studpoker.server.bus import pack_frames, unpack_frames


def test_a_batch_carries_each_text_once_and_every_socket_its_numbered_frames() -> None:
    shared = wire.encode({"type": "action", "hand": 3, "seq": 7, "text": "line one\nline two"})
    own = wire.encode({"type": "dealt", "cards": ["As", "Kd"]})
    entries: list[tuple[int, int, int, str | int]] = [
        (1, 1, 5, shared),
        (2, 3, 9, shared),
        (2, 3, 10, own),
        (4, 1, 2, 1001),  # a close code
    ]
    data = pack_frames(12, 4, entries)
    assert data.count(shared) == 1  # the same text for two sockets travels once
    header, *texts = data.split("\n")
    assert json.loads(header)["t"] == 12 and len(texts) == 2  # a newline inside a message is escaped in JSON
    assert unpack_frames(data) == (12, 4, entries)


def test_an_empty_batch_round_trips() -> None:
    assert unpack_frames(pack_frames(1, 1, [])) == (1, 1, [])


@pytest.mark.parametrize("linger", [-0.001, 0.5, float("nan")])
def test_a_linger_out_of_bounds_is_refused_by_name(linger: float) -> None:
    from studpoker.server.config import Settings

    with pytest.raises(ValueError, match=r"bus_linger_seconds must be 0 to 0\.1"):
        Settings(bus_linger_seconds=linger)
    assert Settings(bus_linger_seconds=0.0).bus_linger_seconds == 0.0  # 0: every write at once
