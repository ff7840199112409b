"""A socket held by a gateway, as a table worker sees it: :class:`RemoteConnection`, and its short history.

The table's actor pushes frames to it as to any socket; each is numbered within the socket's current attachment
and queued for the gateway (:meth:`FrameSink.queue_frame`). The last :data:`HISTORY` frames are kept, so that a
gateway that missed some (a gap in the numbers) gets them again instead of a snapshot, the largest frame and the
costliest to build: a short history of events for catch-up, as lila-ws keeps for its rooms.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Protocol

from .connection import Connection

__all__ = ["HISTORY", "FrameSink", "RemoteConnection"]

#: How many of a socket's last frames its worker keeps to send again: a longer gap costs a snapshot.
HISTORY = 20


class FrameSink(Protocol):
    """Where a :class:`RemoteConnection`'s frames go: its worker, which batches them for the gateways."""

    def queue_frame(self, connection: RemoteConnection, frame: str | int) -> None: ...


@dataclass(eq=False)
class RemoteConnection(Connection):
    """A socket held by gateway ``gateway`` (its number there ``socket``): what the actor pushes is numbered
    within the current ``attachment`` and queued for the gateway; ``history`` keeps the attachment's last
    frames (an ``int``: a close code)."""

    gateway: str = ""
    socket: int = 0
    table_id: int = 0
    attachment: int = 0
    number: int = 0
    worker: FrameSink | None = None
    history: deque[str | int] = field(default_factory=lambda: deque(maxlen=HISTORY))

    def deliver(self, text: str) -> None:
        if self.closed or self.worker is None:
            return
        self._queue(text)

    def close(self, code: int) -> None:
        if not self.closed and self.worker is not None:
            self._end_step()
            self.closed = True
            self._queue(code)

    def _queue(self, frame: str | int) -> None:
        self.number += 1
        self.history.append(frame)
        if self.worker is not None:
            self.worker.queue_frame(self, frame)

    def renumber(self, attachment: int) -> None:
        """Start attachment ``attachment``: its frames are numbered from 1, and nothing before it is kept."""
        self.attachment, self.number = attachment, 0
        self.history.clear()

    def resume(self, attachment: int, previous: int, since: int) -> bool:
        """Send again, as attachment ``attachment`` numbered from 1, the frames of attachment ``previous`` from
        number ``since`` on, if every one of them is still kept (``False``, and nothing done, if not); see
        tests/server/test_relay.py (no examples here: the module is compiled, and its class cannot be subclassed
        by a copy loaded from source to run them)."""
        missed = self.number - since + 1
        if self.worker is None or previous != self.attachment or not 0 <= missed <= len(self.history):
            return False
        frames = list(self.history)[len(self.history) - missed :]
        self.renumber(attachment)
        for frame in frames:
            self._queue(frame)
        return True
