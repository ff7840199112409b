"""The frame batches of the distributed room: what a table worker sends a gateway for its sockets, the hot path.

A batch is one bus message for one gateway and one table: a JSON header line ``{"t": table, "g": lease
generation, "m": rows}`` then the frames' texts, one per line (an encoded message has no raw newline). Each row is
``[socket, attachment, number, text index]`` or ``[socket, attachment, number, -1, close code]``; a text that goes
to several sockets is written once. Batches start with ``{"t"`` and are told apart from the typed messages
(:mod:`studpoker.server.messages`) by that alone; they stay plain JSON because they carry every frame.
"""

from __future__ import annotations

from collections.abc import Iterable

import orjson

from .messages import BadMessage

__all__ = ["pack_frames", "unpack_frames"]


def pack_frames(table_id: int, generation: int, entries: Iterable[tuple[int, int, int, str | int]]) -> str:
    """One bus message of frames for one gateway: ``entries`` are ``(socket, attachment, number, frame)``,
    a frame being an encoded message or an ``int`` close code."""
    texts: list[str] = []
    index: dict[int, int] = {}
    rows: list[list[int]] = []
    for socket, attachment, number, frame in entries:
        if isinstance(frame, int):
            rows.append([socket, attachment, number, -1, frame])
            continue
        at = index.get(id(frame))
        if at is None:
            at = index[id(frame)] = len(texts)
            texts.append(frame)
        rows.append([socket, attachment, number, at])
    header = orjson.dumps({"t": table_id, "g": generation, "m": rows}).decode()
    return "\n".join([header, *texts])


def unpack_frames(data: str) -> tuple[int, int, list[tuple[int, int, int, str | int]]]:
    """The inverse of :func:`pack_frames`: ``(table id, generation, entries)``; :class:`BadMessage` for a text
    that is no batch of frames."""
    try:
        lines = data.split("\n")
        header = orjson.loads(lines[0])
        texts = lines[1:]
        entries: list[tuple[int, int, int, str | int]] = []
        for row in header["m"]:
            frame: str | int = int(row[4]) if row[3] < 0 else texts[row[3]]
            entries.append((int(row[0]), int(row[1]), int(row[2]), frame))
        return int(header["t"]), int(header["g"]), entries
    except (ValueError, TypeError, KeyError, IndexError, AttributeError, RecursionError) as error:
        raise BadMessage(f"not a batch of frames: {type(error).__name__}: {str(error)[:100]}") from None
