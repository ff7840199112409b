"""The bus on a real redis-server: what one process sends arrives in order; while Redis is away, what is sent is
counted as lost (and said once in a while), never queued without bound; the reader listens again when Redis is
back and says so (the owner of the bus resynchronises). A Redis that lets in clients without a password is not
used, and the compose recipe's users work."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Any

import pytest

from .conftest import REDIS_SERVER, RedisServer, free_port, skip_reason, wait_for

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


def test_a_busy_sender_gathers_its_messages_into_one_write(
    redis_server: RedisServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With ``linger``, a message sent after a write waits for the end of the linger and goes out with the
    others sent meanwhile, in one write and in order; a sender that has not written lately writes at once."""
    from studpoker.server import resp
    from studpoker.server.bus import Bus

    writes: list[int] = []
    real = resp.Publisher.write

    def counted(self: resp.Publisher, commands: Any) -> int:
        written = real(self, commands)
        writes.append(written)
        return written

    monkeypatch.setattr(resp.Publisher, "write", counted)
    got: list[str] = []

    async def until(count: int) -> None:
        for _ in range(400):
            if len(got) >= count:
                return
            await asyncio.sleep(0.05)
        raise AssertionError(f"{len(got)} of {count} messages arrived: {got}")

    async def scenario() -> None:
        reader = Bus(redis_server.url, lambda _channel, data: got.append(data))
        reader.subscribe("studpoker:test")
        reader.start()
        assert await reader.listening(5)
        sender = Bus(redis_server.url, lambda *_: None, linger=3.0)
        sender.start()
        try:
            sender.send("studpoker:test", "first")
            await until(1)
            assert writes == [1]  # nothing written lately: written at once
            for i in range(10):  # in ten turns of the loop, well within the linger after the first write
                sender.send("studpoker:test", str(i))
                await asyncio.sleep(0.01)
            await until(11)
            assert got == ["first", *(str(i) for i in range(10))]
            assert writes == [1, 10]  # the ten in one write
        finally:
            await sender.close()
            await reader.close()

    asyncio.run(scenario())


async def _reader_and_sender(url: str, got: list[str]) -> tuple[Any, Any]:
    """A bus that listens on ``studpoker:test`` (what it hears goes to ``got``) and one that sends, both started."""
    from studpoker.server.bus import Bus

    reader = Bus(url, lambda _channel, data: got.append(data))
    reader.subscribe("studpoker:test")
    reader.start()
    assert await reader.listening(5)
    sender = Bus(url, lambda *_: None)
    sender.start()
    return reader, sender


def test_stored_values_go_with_the_messages_in_order_and_expire(redis_server: RedisServer) -> None:
    """``store`` (a table's lobby entry) is written on the sender's connection, after what was sent before it,
    answered without being waited for; the key expires as asked, and a later value replaces it."""
    import redis

    got: list[str] = []
    plain = redis.Redis.from_url(redis_server.url, decode_responses=True)

    async def until(done: Any, what: str) -> None:
        for _ in range(400):
            if done():
                return
            await asyncio.sleep(0.05)
        raise AssertionError(what)

    async def scenario() -> None:
        reader, sender = await _reader_and_sender(redis_server.url, got)
        try:
            sender.send("studpoker:test", "before")
            sender.store("studpoker:info:test", '{"n":1}', 5)
            sender.store("studpoker:info:test", '{"n":2}', 7)
            await until(lambda: plain.get("studpoker:info:test") == '{"n":2}', "the second value was not stored")
            assert got == ["before"]
            assert 0 < plain.ttl("studpoker:info:test") <= 7
            assert sender.sent_lost == 0
        finally:
            await sender.close()
            await reader.close()

    asyncio.run(scenario())


def test_issue26_11_the_bus_does_not_use_a_redis_open_to_anyone(
    redis_server: RedisServer, caplog: pytest.LogCaptureFixture
) -> None:
    """With the password the room's user has, but the default user let in without one: the bus's connections are
    refused (a message it publishes reaches nobody, though somebody listens) and it says why; told to allow it,
    the bus uses it. Asking for a password again, Redis is used again."""
    import redis

    from studpoker.server.bus import Bus, answers_without_password

    redis_server.stop()
    redis_server.start(open_to_all=True)
    listener = redis.Redis.from_url(redis_server.open_url).pubsub()  # anyone's, without a password
    listener.subscribe("studpoker:test")

    async def scenario() -> None:
        assert await answers_without_password(redis_server.url) == "PONG"
        refusing = Bus(redis_server.url, lambda *_: None)
        allowing = Bus(redis_server.url, lambda *_: None, allow_unauthenticated=True)
        try:
            assert await refusing.publish("studpoker:test", "from the refusing bus") == 0
            assert await allowing.publish("studpoker:test", "from the allowing bus") == 1
        finally:
            await refusing.close()
            await allowing.close()
        redis_server.stop()
        redis_server.start()
        assert await answers_without_password(redis_server.url) is None
        assert await answers_without_password(redis_server.open_url) is None
        again = Bus(redis_server.url, lambda *_: None)
        try:
            assert await again.redis.ping() is True  # connected: nothing refused
        finally:
            await again.close()

    try:
        with caplog.at_level(logging.ERROR, logger="studpoker.server"):
            asyncio.run(scenario())
    finally:
        listener.close()
    refusals = [r.getMessage() for r in caplog.records if "lets in clients without a password" in r.getMessage()]
    assert len(refusals) == 1 and "(it answered PONG)" in refusals[0] and redis_server.password not in refusals[0]


def test_issue26_11_redis_with_the_compose_acl_file(tmp_path: Path) -> None:
    """The ACL file tools/compose_secrets.py writes for docker-compose.yml, on a real redis-server started as the
    compose file starts it (``--aclfile``): the URL written beside it (at this server's address) connects, and a
    client without the password is refused (``NOAUTH``), so the room would start on it."""
    import importlib.util
    import subprocess

    import redis

    from studpoker.server.bus import answers_without_password

    tool_path = Path(__file__).parents[2] / "tools" / "compose_secrets.py"
    spec = importlib.util.spec_from_file_location("compose_secrets", tool_path)
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    assert tool.main([str(tmp_path / "secrets")]) == 0
    port = free_port()
    url = (tmp_path / "secrets" / "redis_url").read_text().strip().replace("@redis:6379/", f"@127.0.0.1:{port}/")
    command = [REDIS_SERVER, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
    command += ["--aclfile", str(tmp_path / "secrets" / "redis_acl"), "--dir", str(tmp_path)]
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    client = redis.Redis.from_url(url, socket_connect_timeout=1)
    try:

        def answers() -> bool:
            assert server.poll() is None, "redis-server ended"
            try:
                return bool(client.ping())
            except redis.ConnectionError:
                return False

        wait_for(answers, 10, "redis-server answers the room's user")
        assert client.publish("studpoker:room", "{}") == 0
        with pytest.raises(redis.exceptions.NoPermissionError):
            client.keys("*")  # a dangerous command: not the room's
        with pytest.raises(redis.exceptions.NoPermissionError):
            client.set("elsewhere", "1")  # nor another key than its own
        assert asyncio.run(answers_without_password(url)) is None
    finally:
        client.close()
        server.terminate()
        server.wait(10)
