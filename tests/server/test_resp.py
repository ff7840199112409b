"""The bus's own RESP connections (server/resp.py): parsing in any chunks, answers counted, bad replies refused."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from studpoker.server.bus import HEALTH_SECONDS, Bus
from studpoker.server.resp import Publisher, Subscriber, encode_command, encode_publish


class FakeTransport(asyncio.WriteTransport):
    def __init__(self) -> None:
        super().__init__()
        self.written: list[bytes] = []
        self.closing = False

    def write(self, data: bytes | bytearray | memoryview) -> None:
        self.written.append(bytes(data))

    def is_closing(self) -> bool:
        return self.closing

    def close(self) -> None:
        self.closing = True

    def set_write_buffer_limits(self, high: int | None = None, low: int | None = None) -> None:
        pass


def push(*items: bytes | int) -> bytes:
    out = [b"*%d\r\n" % len(items)]
    for item in items:
        out.append(b":%d\r\n" % item if isinstance(item, int) else b"$%d\r\n%s\r\n" % (len(item), item))
    return b"".join(out)


def subscriber() -> tuple[Subscriber, list[tuple[str, str]], list[int], FakeTransport]:
    got: list[tuple[str, str]] = []
    lost: list[int] = []
    protocol = Subscriber(lambda channel, data: got.append((channel, data)), lambda: lost.append(1))
    transport = FakeTransport()
    protocol.connection_made(transport)
    return protocol, got, lost, transport


def test_messages_cut_anywhere_arrive_whole_and_in_order() -> None:
    async def scenario() -> None:
        protocol, got, lost, _ = subscriber()
        rng = random.Random(7)
        sent = [(f"studpoker:table:{rng.randrange(5)}", "é" * rng.randrange(300) + str(i)) for i in range(500)]
        stream = push(b"subscribe", b"studpoker:room", 1)
        stream += b"".join(push(b"message", c.encode(), d.encode()) for c, d in sent)
        stream += b"*2\r\n$4\r\npong\r\n$0\r\n\r\n+PONG\r\n"  # PING's answers, in subscribe mode and out of it
        at = 0
        while at < len(stream):  # cut in pieces of 1 to 40 bytes: headers, strings and CRLFs split anywhere
            size = rng.randint(1, 40)
            protocol.data_received(stream[at : at + size])
            at += size
        assert got == sent and not lost and not protocol.closed
        assert protocol.subscribed == {"studpoker:room"}
        await protocol.confirmed(["studpoker:room"])  # confirmed already: at once

    asyncio.run(scenario())


def test_a_subscription_is_waited_for_until_redis_confirms_it() -> None:
    async def scenario() -> None:
        protocol, _, _, transport = subscriber()
        protocol.send("SUBSCRIBE", "a", "b")
        assert transport.written == [encode_command("SUBSCRIBE", "a", "b")]
        waiting = asyncio.ensure_future(protocol.confirmed(["a", "b"]))
        protocol.data_received(push(b"subscribe", b"a", 1))
        await asyncio.sleep(0)
        assert not waiting.done()
        protocol.data_received(push(b"subscribe", b"b", 2))
        await asyncio.wait_for(waiting, 5)
        protocol.data_received(push(b"unsubscribe", b"a", 1))
        assert protocol.subscribed == {"b"}
        # lost while waiting: the waiter hears it
        waiting = asyncio.ensure_future(protocol.confirmed(["c"]))
        await asyncio.sleep(0)
        protocol.connection_lost(None)
        with pytest.raises(ConnectionError):
            await asyncio.wait_for(waiting, 5)

    asyncio.run(scenario())


@pytest.mark.parametrize(
    "junk",
    [
        b"$5\r\nhello\r\n",  # a reply that is no array
        b"*99\r\n",  # more items than subscribe mode ever sends
        b"*3\r\n$-4\r\n",  # a negative length
        b"*3\r\n$9999999999999\r\n",  # a string longer than the bound
        b"*1\r\n%2\r\n",  # a kind of item the bus never asks for
        b"*3\r\n$7" + b"9" * 100,  # a header line that never ends
        b"*x\r\n",  # not a number
    ],
)
def test_what_cannot_be_read_closes_the_connection(junk: bytes) -> None:
    async def scenario() -> None:
        protocol, got, lost, transport = subscriber()
        protocol.data_received(push(b"message", b"c", b"before"))
        protocol.data_received(junk)
        assert got == [("c", "before")]
        assert transport.closing  # the bus opens a new connection and resynchronises
        protocol.connection_lost(None)
        assert lost == [1]

    asyncio.run(scenario())


def test_an_error_reply_is_logged_not_fatal(caplog: pytest.LogCaptureFixture) -> None:
    async def scenario() -> None:
        protocol, got, _, transport = subscriber()
        protocol.data_received(b"-NOPERM this user has no permissions to access one of the channels\r\n")
        protocol.data_received(push(b"message", b"c", b"after"))
        assert got == [("c", "after")] and not transport.closing

    asyncio.run(scenario())
    assert "NOPERM" in caplog.text


@pytest.mark.allow_server_errors(r"could not be handled")
def test_a_handler_that_fails_does_not_stop_the_others(caplog: pytest.LogCaptureFixture) -> None:
    async def scenario() -> None:
        got: list[str] = []

        def handler(channel: str, data: str) -> None:
            if data == "bad":
                raise RuntimeError("boom")
            got.append(data)

        protocol = Subscriber(handler, lambda: None)
        protocol.connection_made(FakeTransport())
        protocol.data_received(push(b"message", b"c", b"bad") + push(b"message", b"c", b"good"))
        assert got == ["good"]

    asyncio.run(scenario())
    assert "could not be handled" in caplog.text


def test_a_silent_connection_is_pinged_then_given_up() -> None:
    async def scenario() -> None:
        protocol, _, lost, transport = subscriber()
        loop = asyncio.get_running_loop()
        protocol.heard = loop.time() - HEALTH_SECONDS
        Bus._check_health(protocol)
        assert transport.written == [encode_command("PING")] and not transport.closing
        protocol.heard = loop.time() - 2 * HEALTH_SECONDS
        Bus._check_health(protocol)
        assert transport.closing and protocol.closed and lost == [1]

    asyncio.run(scenario())


def test_the_publisher_writes_at_once_and_counts_the_answers(caplog: pytest.LogCaptureFixture) -> None:
    async def scenario() -> None:
        publisher = Publisher()
        transport = FakeTransport()
        publisher.connection_made(transport)
        assert publisher.publish([("a", "1"), ("b", "2é")]) == 2
        assert transport.written == [encode_publish("a", "1") + encode_publish("b", "2é")]
        assert publisher.unanswered == 2
        publisher.data_received(b":1\r")  # an answer cut in two
        publisher.data_received(b"\n-NOPERM no\r\n")
        assert publisher.unanswered == 0 and publisher.refused == 1
        await asyncio.wait_for(publisher.drained(), 5)
        publisher.pause_writing()
        draining = asyncio.ensure_future(publisher.drained())
        await asyncio.sleep(0)
        assert not draining.done()
        publisher.resume_writing()
        await asyncio.wait_for(draining, 5)
        publisher.connection_lost(None)
        with pytest.raises(ConnectionError):
            publisher.publish([("a", "3")])

    asyncio.run(scenario())
    assert "NOPERM" in caplog.text


def test_the_commands_are_resp() -> None:
    assert encode_command("PING") == b"*1\r\n$4\r\nPING\r\n"
    parsed: list[Any] = []
    protocol = Subscriber(lambda c, d: parsed.append((c, d)), lambda: None)
    asyncio.run(_feed(protocol, push(b"message", b"ch", "été".encode())))
    assert parsed == [("ch", "été")]


async def _feed(protocol: Subscriber, data: bytes) -> None:
    protocol.connection_made(FakeTransport())
    protocol.data_received(data)
