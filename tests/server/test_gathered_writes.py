"""Issue 29: a WebSocket's frames sent in one turn of the event loop go to the socket in one write
(:class:`studpoker.server.edge.GatheredWrites`), in order; closing writes them first, aborting drops them."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from studpoker.server.edge import GatheredWrites


class Recorder(asyncio.Transport):
    def __init__(self) -> None:
        super().__init__()
        self.writes: list[bytes] = []
        self.closed = False
        self.aborted = False

    def write(self, data: Any) -> None:
        assert not self.closed
        self.writes.append(bytes(data))

    def close(self) -> None:
        self.closed = True

    def abort(self) -> None:
        self.aborted = self.closed = True

    def is_closing(self) -> bool:
        return self.closed

    def get_write_buffer_size(self) -> int:
        return 0


async def _turn() -> None:
    await asyncio.sleep(0)
    await asyncio.sleep(0)


def test_frames_of_one_turn_are_one_write_in_order() -> None:
    async def main() -> None:
        real = Recorder()
        gathered = GatheredWrites(real)
        for frame in (b"a", b"bc", b"", b"d"):
            gathered.write(frame)
        assert real.writes == [] and gathered.get_write_buffer_size() == 4
        await _turn()
        assert real.writes == [b"abcd"]
        gathered.write(b"e")
        await _turn()
        assert real.writes == [b"abcd", b"e"]

    asyncio.run(main())


def test_close_writes_what_is_gathered_first_and_abort_drops_it() -> None:
    async def main() -> None:
        real = Recorder()
        gathered = GatheredWrites(real)
        gathered.write(b"last")
        gathered.close()
        assert real.writes == [b"last"] and real.closed
        await _turn()
        assert real.writes == [b"last"]  # nothing more after the close

        other = Recorder()
        dropped = GatheredWrites(other)
        dropped.write(b"never")
        dropped.abort()
        await _turn()
        assert other.writes == [] and other.aborted

    asyncio.run(main())


@pytest.mark.allow_server_errors("gathered writes could not be written")
def test_the_sockets_written_in_one_turn_are_flushed_together_and_one_failure_stays_its_own(
    caplog: Any,
) -> None:
    """One callback at the end of the turn writes every connection's gathered bytes (a step goes to every socket
    of a table), each in one write; a connection whose write fails is logged, and the others are written."""

    class Broken(Recorder):
        def write(self, data: Any) -> None:
            raise OSError("the socket is gone")

    async def main() -> None:
        loop = asyncio.get_running_loop()
        scheduled: list[Any] = []
        real_call_soon = loop.call_soon

        def counting(callback: Any, *args: Any, **kwargs: Any) -> Any:
            scheduled.append(callback)
            return real_call_soon(callback, *args, **kwargs)

        loop.call_soon = counting  # type: ignore[method-assign]
        sockets = [Recorder(), Broken(), Recorder()]
        gathered = [GatheredWrites(s) for s in sockets]
        for n, transport in enumerate(gathered):
            transport.write(b"step")
            transport.write(b"%d" % n)
        assert len(scheduled) == 1  # one callback for the three
        loop.call_soon = real_call_soon  # type: ignore[method-assign]
        await _turn()
        assert sockets[0].writes == [b"step0"] and sockets[2].writes == [b"step2"]

    asyncio.run(main())
    assert "gathered writes could not be written" in caplog.text
