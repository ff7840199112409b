"""The message bus of the distributed room: Redis pub/sub channels between gateways and table workers.

Channels (every name starts with ``studpoker:``; what each carries is :mod:`studpoker.server.messages`, whose
codec both ends decode through):

* ``table:<id>``: to the worker that owns table ``id`` (it subscribes while it holds the lease): a gateway's
  ``attach``/``detach``/``resync`` of a socket, a player's ``act`` and ``chat``, and ``call`` (an HTTP operation:
  sit, leave, top up...) whose answer goes back on the gateway's channel;
* ``gateway:<id>``: to one gateway: frames for its sockets (:func:`pack_frames`) and ``answer``s to its calls;
* ``room``: to everyone: a table has a new owner (gateways attach its sockets again), a new table wants an owner
  (workers claim at once), a session ended (gateways close its sockets).

Besides the channels: ``info:<id>``, a table's lobby entry, written by its worker every second with a short
expiry (the lobby's bound on staleness), and the sorted sets ``workers`` and ``gateways`` of heartbeats.

Pub/sub delivers at most once: a message published while a subscriber is disconnected is lost. That is why every
frame to a socket carries the number of its attachment and its place in it, and a gateway that sees a gap (or
loses Redis) attaches the socket again, which answers with a snapshot, as a reconnecting browser does; and why
ownership and money never travel on the bus: they are PostgreSQL's.

Frames travel as one bus message per gateway and batch (:func:`pack_frames`, in :mod:`studpoker.server.frames`): a
JSON header line, then the frame texts, one per line (an encoded frame is compact JSON, which never holds a raw
newline), each text once however many of the gateway's sockets get it.

Whoever can publish on the bus can act for any player, and whoever can subscribe reads every card: the bus
refuses a Redis that lets in clients without a password. Every connection it opens asks, after its own
handshake, what the same server answers a client that gives no credentials (:func:`answers_without_password`);
unless that client is told to authenticate (``NOAUTH``), the connection is closed and Redis is treated as away
(nothing is sent or read) until it asks for a password again, or unless the operator said otherwise
(``allow_unauthenticated``, ``stud serve --redis-allow-unauthenticated``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
from collections import deque
from collections.abc import Callable, Coroutine
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from redis.exceptions import ConnectionError as RedisConnectionError

from .frames import pack_frames, unpack_frames
from .messages import BadMessage
from .resp import Publisher, Subscriber, encode_command, encode_publish, take_over

__all__ = [
    "ACL_RULES",
    "DROPPED_LOG_SECONDS",
    "PREFIX",
    "Bus",
    "OpenRedisError",
    "answers_without_password",
    "dropped",
    "gateway_channel",
    "info_key",
    "pack_frames",
    "process_name",
    "safe_url",
    "table_channel",
    "unpack_frames",
    "without_credentials",
]

log = logging.getLogger("studpoker.server")

PREFIX = "studpoker:"
ROOM = PREFIX + "room"
#: Messages :meth:`Bus.send` keeps while Redis is away.
QUEUE_LIMIT = 100_000
WORKERS = PREFIX + "workers"
GATEWAYS = PREFIX + "gateways"
#: What the room needs of Redis, as an ACL user's rules (docs/server.md): its own keys and channels, every
#: command but the dangerous ones (``CONFIG``, ``FLUSHALL``, ``KEYS``...). The tests' Redis runs with exactly these.
ACL_RULES = f"~{PREFIX}* &{PREFIX}* +@all -@dangerous"
#: Seconds of silence on the subscriber connection before it is asked for a ``PING`` (twice that: taken for dead).
HEALTH_SECONDS = 10.0
#: Seconds Redis has to confirm a subscription.
CONFIRM_SECONDS = 10.0
#: Seconds between two log lines saying that the bus refuses a Redis open to anyone.
REFUSAL_LOG_SECONDS = 60.0


class OpenRedisError(RedisConnectionError):
    """Redis lets in clients that give no password: the bus does not use it (as if it were away)."""


def safe_url(url: str) -> str:
    """A Redis URL fit to print: its password replaced by ``***``.

    >>> safe_url("redis://studpoker:s3cret@10.0.0.5:6379/0")
    'redis://studpoker:***@10.0.0.5:6379/0'
    >>> safe_url("redis://:s3cret@10.0.0.5/0?password=s3cret")
    'redis://:***@10.0.0.5/0?password=%2A%2A%2A'
    """
    try:
        parts = urlsplit(url)
        if parts.password:
            host = parts.netloc.rpartition("@")[2]
            user = f"{parts.username}:***@" if parts.username else ":***@"
            parts = parts._replace(netloc=user + host)
        pairs = parse_qsl(parts.query, True)
        if any(k.lower() == "password" for k, _ in pairs):
            parts = parts._replace(query=urlencode([(k, "***" if k.lower() == "password" else v) for k, v in pairs]))
        return urlunsplit(parts)
    except ValueError:
        return "(a URL that does not parse)"


def without_credentials(url: str) -> str:
    """The same Redis URL (host, port or socket, TLS options) with no user name or password.

    >>> without_credentials("rediss://studpoker:s3cret@10.0.0.5:6380/0?ssl_cert_reqs=required")
    'rediss://10.0.0.5:6380/0?ssl_cert_reqs=required'
    >>> without_credentials("unix://:s3cret@/run/redis.sock?db=0&password=s3cret")
    'unix:///run/redis.sock?db=0'
    """
    parts = urlsplit(url)
    query = parts.query
    pairs = parse_qsl(query, True)
    if any(k.lower() in ("username", "password") for k, _ in pairs):
        query = urlencode([(k, v) for k, v in pairs if k.lower() not in ("username", "password")])
    # by hand: urlunsplit would write ``unix:/path`` for a socket without a host
    return f"{parts.scheme}://{parts.netloc.rpartition('@')[2]}{parts.path}" + (f"?{query}" if query else "")


async def answers_without_password(url: str) -> str | None:
    """What the Redis at ``url`` answers a client that gives no credentials (a ``PING`` on a connection of its
    own): ``None`` when it tells that client to authenticate (``NOAUTH``), else the answer (``PONG``, or an error
    such as ``NOPERM`` from a default user without a password). Raises :class:`redis.exceptions.ConnectionError`
    (or ``TimeoutError``) when the server cannot be asked: nobody can tell then."""
    import redis.asyncio as redis
    from redis.exceptions import AuthenticationError, ResponseError

    client = redis.Redis.from_url(without_credentials(url), socket_connect_timeout=3, socket_timeout=3)
    try:
        answer = await client.ping()
    except AuthenticationError:
        return None
    except ResponseError as error:
        return str(error).splitlines()[0][:200] if str(error) else type(error).__name__
    finally:
        await client.aclose()
    return "PONG" if answer is True else str(answer)[:200]


def process_name() -> str:
    """This process's name on the bus, in the heartbeats and in the leases: ``host-PID-random`` (the pid lets an
    operator, or a test, find the process that holds a table)."""
    import os
    import secrets
    import socket

    return f"{socket.gethostname()[:30]}-{os.getpid()}-{secrets.token_hex(3)}"


def table_channel(table_id: int) -> str:
    return f"{PREFIX}table:{table_id}"


def gateway_channel(gateway: str) -> str:
    return f"{PREFIX}gateway:{gateway}"


def info_key(table_id: int) -> str:
    return f"{PREFIX}info:{table_id}"


Handler = Callable[[str, str], None]


class Bus:
    """One process's Redis: a client for commands, and one subscriber connection read by one task.

    :meth:`subscribe`/:meth:`unsubscribe` only record what the reader should listen to; the reader applies it
    between reads (one task owns the subscriber connection). When Redis goes away the reader reconnects with a
    growing pause (up to 2 s), subscribes again to everything, then calls ``on_reconnect``: what was published
    meanwhile is lost, and the owner of the bus resynchronises.

    Every connection, the reader's and the commands', is refused (:class:`OpenRedisError`, Redis is away) while
    Redis lets in clients without a password, unless ``allow_unauthenticated`` (see the module's docstring).
    """

    def __init__(
        self,
        url: str,
        handler: Handler,
        on_reconnect: Callable[[], Coroutine[Any, Any, None]] | None = None,
        *,
        allow_unauthenticated: bool = False,
        linger: float = 0.0,
    ) -> None:
        import redis.asyncio as redis

        self.url = url
        self.linger = linger  # the least time between two writes of :meth:`send`'s queue (see :meth:`_send`)
        self._written = -math.inf  # the loop's time of the last write
        self.allow_unauthenticated = allow_unauthenticated
        self._refused_logged = -REFUSAL_LOG_SECONDS
        # a few connections, waited for when all are busy (a burst never opens hundreds of them)
        pool = redis.BlockingConnectionPool.from_url(
            url,
            decode_responses=True,
            health_check_interval=10,
            max_connections=16,
            timeout=10,
            redis_connect_func=self._handshake,
        )
        self.redis: Any = redis.Redis(connection_pool=pool)
        self._outgoing: deque[bytes] = deque()  # commands queued by send and store, in RESP
        self._send_now = asyncio.Event()
        self._sender: asyncio.Task[None] | None = None
        self.sent_lost = 0  # messages of :meth:`send` lost (Redis away, or the queue full)
        self._warned = 0.0
        self.handler = handler
        self.on_reconnect = on_reconnect
        self.channels: set[str] = set()
        self._changed = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self.connected = asyncio.Event()
        self._resync: asyncio.Task[None] | None = None
        self._waiters: list[asyncio.Future[None]] = []

    async def _handshake(self, connection: Any) -> None:
        """A new connection's handshake (redis-py's: AUTH, SELECT), then the check that Redis asks clients for a
        password; raising closes the connection, and the bus takes Redis for away."""
        await connection.on_connect()
        if self.allow_unauthenticated:
            return
        answer = await answers_without_password(self.url)
        if answer is None:
            self._refused_logged = -REFUSAL_LOG_SECONDS  # a later refusal is logged at once
            return
        why = f"Redis at {safe_url(self.url)} lets in clients without a password (it answered {answer})"
        if time.monotonic() - self._refused_logged >= REFUSAL_LOG_SECONDS:
            self._refused_logged = time.monotonic()
            log.error(
                "bus: %s: anyone who reaches it could act for any player, so it is not used until it asks for a"
                " password (give it one: docs/server.md; or run with --redis-allow-unauthenticated)",
                why,
            )
        raise OpenRedisError(why)

    def start(self) -> None:
        self._task = asyncio.create_task(self._read(), name="bus-reader")
        self._sender = asyncio.create_task(self._send(), name="bus-sender")

    async def close(self) -> None:
        if self._outgoing and self._sender is not None:  # what was queued goes out first (a second at most)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._drained(), 1.0)
        for task in (self._task, self._sender):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        with contextlib.suppress(Exception):
            await self.redis.aclose()

    def subscribe(self, *channels: str) -> None:
        self.channels.update(channels)
        self._changed.set()

    def unsubscribe(self, *channels: str) -> None:
        self.channels.difference_update(channels)
        self._changed.set()

    async def listening(self, timeout: float = 2.0) -> bool:
        """Wait until the reader listens to every channel asked for so far (``False``: not within ``timeout``,
        e.g. while Redis is away)."""
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiters.append(waiter)
        self._changed.set()
        try:
            await asyncio.wait_for(waiter, timeout)
        except TimeoutError:
            return False
        return True

    async def publish(self, channel: str, message: str) -> int:
        """Publish; the number of subscribers that got it (0 when Redis is away: the message is lost)."""
        try:
            return int(await self.redis.publish(channel, message))
        except Exception as error:
            log.debug("bus: publish to %s failed: %s", channel, error)
            return 0

    def send(self, channel: str, message: str) -> None:
        """Queue a message: one task publishes everything queued, in order, a pipeline at a time. At most
        :data:`QUEUE_LIMIT` wait (while Redis is away); beyond, the oldest are dropped. Lost messages are
        counted and warned of; the gap they leave is found by the sequence numbers."""
        self._queue(encode_publish(channel, message))

    def store(self, key: str, value: str, seconds: int) -> None:
        """Queue ``SET key value EX seconds`` with what :meth:`send` queues (in order, its answer counted, not
        waited for): a value that is written again and again, such as a table's lobby entry, where a lost write
        only leaves the older value a little longer."""
        self._queue(encode_command("SET", key, value, "EX", str(seconds)))

    def _queue(self, command: bytes) -> None:
        if len(self._outgoing) >= QUEUE_LIMIT:
            self._outgoing.popleft()
            self._lost(1, "the queue is full")
        self._outgoing.append(command)
        self._send_now.set()

    async def _drained(self) -> None:
        while self._outgoing:
            await asyncio.sleep(0.01)

    async def _send(self) -> None:
        """The sender task: what :meth:`send` queued goes out on a connection of its own, in order, written at once
        (:class:`~studpoker.server.resp.Publisher`: the answers are counted, not waited for).

        With ``linger``, a write comes at least ``linger`` seconds after the one before: a busy process gathers what
        it publishes in that moment into one write (one system call, one read for Redis, and fewer, fuller reads
        for the process at the other end); an idle one writes at once."""
        publisher: Publisher | None = None
        try:
            loop = asyncio.get_running_loop()
            while True:
                await self._send_now.wait()
                if self.linger > 0:  # busy: what comes in the next moment goes out with this, in one write
                    wait = self._written + self.linger - loop.time()
                    if wait > 0:
                        await asyncio.sleep(wait)
                self._send_now.clear()
                while self._outgoing:
                    if publisher is None or publisher.closed:
                        if publisher is not None and publisher.unanswered > 0:
                            self._lost(publisher.unanswered, "the connection to Redis closed before they were answered")
                        try:
                            publisher = await take_over(self.redis.connection_pool.make_connection(), Publisher())
                        except asyncio.CancelledError:
                            raise
                        except Exception as error:
                            publisher = None
                            dropped = min(len(self._outgoing), 1000)
                            for _ in range(dropped):
                                self._outgoing.popleft()
                            self._lost(dropped, str(error) or type(error).__name__)
                            await asyncio.sleep(0.1)
                            continue
                    batch = [self._outgoing.popleft() for _ in range(min(len(self._outgoing), 1000))]
                    try:
                        publisher.write(batch)
                        self._written = loop.time()
                    except ConnectionError as error:
                        self._lost(len(batch), str(error))
                        continue
                    await publisher.drained()
        finally:
            if publisher is not None:
                publisher.close()

    def _lost(self, count: int, why: str) -> None:
        self.sent_lost += count
        now = time.monotonic()
        if now - self._warned >= 5.0:
            self._warned = now
            log.warning("bus: %d messages could not be published (%s); %d so far", count, why, self.sent_lost)

    async def heartbeat(self, group: str, member: str) -> None:
        with contextlib.suppress(Exception):
            await self.redis.zadd(group, {member: time.time()})

    async def alive(self, group: str, within: float) -> set[str]:
        """The members of ``group`` whose heartbeat is at most ``within`` seconds old (by this host's clock)."""
        try:
            members = await self.redis.zrangebyscore(group, time.time() - within, "+inf")
        except Exception:
            return set()
        return set(members)

    async def _read(self) -> None:
        """The reader task: one :class:`~studpoker.server.resp.Subscriber` connection, subscribed to what is asked
        for, handing each message to the handler; opened again (with a growing pause) whenever it is lost."""
        pause = 0.05
        first = True
        failure = ""  # why the last attempt to connect failed
        while True:
            subscriber: Subscriber | None = None
            waiters: list[asyncio.Future[None]] = []
            try:
                subscriber = await take_over(
                    self.redis.connection_pool.make_connection(), Subscriber(self.handler, self._changed.set)
                )
                waiters, self._waiters = self._waiters, []  # those who asked before ``listening`` is taken
                listening = self.channels | {ROOM}  # every process listens to the room channel
                subscriber.send("SUBSCRIBE", *sorted(listening))
                await asyncio.wait_for(subscriber.confirmed(listening), CONFIRM_SECONDS)
                self._heard(waiters)
                waiters = []
                self.connected.set()
                if not first:
                    log.warning("bus: connected to Redis again; resynchronising")
                    if self.on_reconnect is not None:
                        self._resync = asyncio.create_task(self.on_reconnect())
                first = False
                pause = 0.05
                while True:
                    try:
                        await asyncio.wait_for(self._changed.wait(), HEALTH_SECONDS)
                    except TimeoutError:
                        self._check_health(subscriber)
                        continue
                    self._changed.clear()
                    if subscriber.closed:
                        raise ConnectionError("the connection to Redis closed")
                    waiters, self._waiters = self._waiters, []
                    wanted = self.channels | {ROOM}
                    if listening - wanted:
                        subscriber.send("UNSUBSCRIBE", *sorted(listening - wanted))
                    new = wanted - listening
                    listening = wanted
                    if new:
                        subscriber.send("SUBSCRIBE", *sorted(new))
                        await asyncio.wait_for(subscriber.confirmed(new), CONFIRM_SECONDS)
                    self._heard(waiters)
                    waiters = []
            except asyncio.CancelledError:
                if subscriber is not None:
                    subscriber.close()
                raise
            except Exception as error:
                why = str(error) or type(error).__name__
                if self.connected.is_set():
                    log.warning("bus: lost Redis (%s); reconnecting", why)
                elif why != failure and not isinstance(error, OpenRedisError):  # that one says so itself
                    # a new reason not to connect (Redis back, but the password refused...): said once
                    log.warning("bus: cannot use Redis (%s); trying again", why)
                failure = why
                self.connected.clear()
                self._waiters[:0] = waiters  # still waiting: answered once a connection listens
                if subscriber is not None:
                    subscriber.close()
                await asyncio.sleep(pause)
                pause = min(pause * 2, 2.0)

    @staticmethod
    def _heard(waiters: list[asyncio.Future[None]]) -> None:
        for waiter in waiters:
            if not waiter.done():
                waiter.set_result(None)

    @staticmethod
    def _check_health(subscriber: Subscriber) -> None:
        """Nothing heard for :data:`HEALTH_SECONDS`: ask (``PING``); nothing heard for twice that, the connection is
        taken for dead (a Redis host gone without closing it) and closed, which opens a new one."""
        silent = asyncio.get_running_loop().time() - subscriber.heard
        if silent >= 2 * HEALTH_SECONDS:
            subscriber.close()
            subscriber.connection_lost(None)
        else:
            subscriber.send("PING")


# -- what does not decode ----------------------------------------------------------------------------------


#: Seconds between two warnings of messages dropped (every one is logged at debug level).
DROPPED_LOG_SECONDS = 10.0


class _Dropped:
    count = 0
    warned = -DROPPED_LOG_SECONDS


def dropped(channel: str, error: BadMessage) -> None:
    """Log a message that did not decode (and is dropped): a warning at most every :data:`DROPPED_LOG_SECONDS`,
    with how many since the last, and a debug line for each."""
    _Dropped.count += 1
    now = time.monotonic()
    if now - _Dropped.warned >= DROPPED_LOG_SECONDS:
        log.warning("bus: dropped %d message(s) that do not decode; the last on %s: %s", _Dropped.count, channel, error)
        _Dropped.count, _Dropped.warned = 0, now
    else:
        log.debug("bus: dropped a message on %s: %s", channel, error)
