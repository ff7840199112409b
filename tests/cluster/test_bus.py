"""The bus on a real redis-server: what one process sends arrives in order; while Redis is away, what is sent is
counted as lost (and said once in a while), never queued without bound; the reader listens again when Redis is
back and says so (the owner of the bus resynchronises)."""

from __future__ import annotations

import asyncio
import logging

import pytest

from .conftest import RedisServer, skip_reason

if skip_reason() is not None:
    pytest.skip(skip_reason() or "", allow_module_level=True)


def test_sent_messages_arrive_in_order_and_losses_are_counted(
    redis_server: RedisServer, caplog: pytest.LogCaptureFixture
) -> None:
    from studpoker.server import bus as busmodule
    from studpoker.server.bus import Bus

    got: list[str] = []
    back: list[int] = []

    async def scenario() -> None:
        async def reconnected() -> None:
            back.append(1)

        reader = Bus(redis_server.url, lambda _channel, data: got.append(data), reconnected)
        reader.subscribe("studpoker:test")
        reader.start()
        assert await reader.listening(5)
        sender = Bus(redis_server.url, lambda *_: None)
        sender.start()
        try:
            for i in range(3000):  # several pipelines' worth
                sender.send("studpoker:test", str(i))
            for _ in range(200):
                if len(got) == 3000:
                    break
                await asyncio.sleep(0.05)
            assert got == [str(i) for i in range(3000)]
            assert sender.sent_lost == 0
            # Redis away: what is sent is lost, counted and warned of; the queue stays bounded
            redis_server.stop()
            busmodule.QUEUE_LIMIT, limit = 50, busmodule.QUEUE_LIMIT
            try:
                for i in range(120):
                    sender.send("studpoker:test", f"lost {i}")
                    await asyncio.sleep(0)
                await asyncio.sleep(0.5)
                assert sender.sent_lost >= 70 and len(sender._outgoing) <= 50
            finally:
                busmodule.QUEUE_LIMIT = limit
            # Redis back: the reader listens again and says so; new messages arrive
            redis_server.start()
            for _ in range(200):
                if back and reader.connected.is_set():
                    break
                await asyncio.sleep(0.05)
            assert back == [1]
            got.clear()
            sender._outgoing.clear()
            sender.send("studpoker:test", "after")
            for _ in range(100):
                if "after" in got:
                    break
                await asyncio.sleep(0.05)
            assert "after" in got
        finally:
            await sender.close()
            await reader.close()

    with caplog.at_level(logging.WARNING, logger="studpoker.server"):
        asyncio.run(scenario())
    assert any("could not be published" in r.getMessage() for r in caplog.records)
    assert any("lost Redis" in r.getMessage() for r in caplog.records)
