"""Who a request comes from behind a reverse proxy: ``X-Forwarded-For`` and ``X-Forwarded-Proto``, believed only
from the proxies the operator names (``Settings.trusted_proxies``, ``stud serve --proxy-headers``).

Anyone can send these headers, so a server that believes them from any peer lets every client pick its own
address, and every limit per address (sign-ups, wrong logins, table sockets) counts nothing. The room therefore
believes them from nobody unless told, whatever server runs it: :func:`studpoker.server.app.create_app` installs
:class:`ForwardedMiddleware` when there are trusted proxies, and the uvicorn options of ``stud serve``
(:func:`studpoker.server.edge.uvicorn_options`) switch uvicorn's own handling, which believes 127.0.0.1 by
default, off.

The client is the right-most address of ``X-Forwarded-For`` that no trusted proxy wrote: each proxy appends the
address it saw, so everything left of the last trusted hop may be the client's own invention. A proxy that
overwrites the header instead (the recommended nginx configuration, docs/server.md) gives the same answer.

>>> trusted = TrustedProxies(["127.0.0.1"])
>>> forwarded_client([b"6.6.6.6, 203.0.113.9"], "127.0.0.1", trusted)
'203.0.113.9'
>>> "203.0.113.9" in trusted    # a request straight from a client: its headers change nothing
False
"""

from __future__ import annotations

import ipaddress
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import Any

__all__ = ["ForwardedMiddleware", "TrustedProxies", "forwarded_client", "parse_address"]

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]
Address = ipaddress.IPv4Address | ipaddress.IPv6Address

#: Hops of ``X-Forwarded-For`` looked at, from the right (more proxies than this in a row is not a deployment).
MAX_HOPS = 16


def parse_address(text: str) -> Address | None:
    """An IP address as a peer or a hop writes it (``203.0.113.9``, ``203.0.113.9:4711``, ``[2001:db8::1]:443``,
    ``::ffff:203.0.113.9`` as its IPv4 address), or ``None``."""
    text = text.strip()
    if text.startswith("["):
        text = text[1 : text.find("]")] if "]" in text else ""
    elif text.count(":") == 1:
        text = text.split(":", 1)[0]
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


class TrustedProxies:
    """The addresses and networks (``127.0.0.1``, ``10.0.0.0/8``, ``::1``) whose forwarded headers are believed.

    Raises ValueError naming an entry that is neither (a host name or ``*`` too: trust is given by address)."""

    #: Peers whose answer is remembered (a flood of addresses cannot grow the cache without end).
    CACHE = 4096

    def __init__(self, entries: Iterable[str]) -> None:
        networks = []
        for entry in entries:
            try:
                networks.append(ipaddress.ip_network(entry.strip(), strict=False))
            except ValueError:
                raise ValueError(
                    f"trusted proxy {entry!r} is not an address or network such as 127.0.0.1 or 10.0.0.0/8"
                ) from None
        self.networks = tuple(networks)
        self._known: dict[str, bool] = {}

    def __bool__(self) -> bool:
        return bool(self.networks)

    def __contains__(self, host: object) -> bool:
        if not isinstance(host, str):
            return False
        known = self._known.get(host)
        if known is None:
            address = parse_address(host)
            known = address is not None and any(address in network for network in self.networks)
            if len(self._known) >= self.CACHE:
                self._known.clear()
            self._known[host] = known
        return known


def forwarded_client(values: list[bytes], peer: str, trusted: TrustedProxies) -> str:
    """The client of a request from the trusted proxy ``peer`` with these ``X-Forwarded-For`` header values: the
    right-most hop that is not a trusted proxy (all trusted: the left-most). A hop that is not an address stops the
    walk: the nearest address before it is the answer (``peer`` itself if it is the first)."""
    hops = [hop for value in values for hop in value.decode("latin-1").split(",")]
    peer_address = parse_address(peer)
    client = str(peer_address) if peer_address is not None else peer
    for hop in reversed(hops[-MAX_HOPS:]):
        address = parse_address(hop)
        if address is None:
            break
        client = str(address)
        if client not in trusted:
            break
    return client


class ForwardedMiddleware:
    """ASGI middleware: for a request or socket from a trusted proxy, the client address and the scheme are the
    ones it forwards (``X-Forwarded-For``, ``X-Forwarded-Proto``: ``http`` or ``https``); from anyone else the
    headers change nothing."""

    def __init__(self, app: App, trusted: TrustedProxies) -> None:
        self.app = app
        self.trusted = trusted

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            peer = scope.get("client")
            if peer is not None and peer[0] in self.trusted:
                self._believe(scope, peer[0])
        await self.app(scope, receive, send)

    def _believe(self, scope: Scope, peer: str) -> None:
        forwarded_for: list[bytes] = []
        proto = None
        for name, value in scope.get("headers", ()):
            if name == b"x-forwarded-for":
                forwarded_for.append(value)
            elif name == b"x-forwarded-proto":
                proto = value
        if forwarded_for:
            scope["client"] = (forwarded_client(forwarded_for, peer, self.trusted), 0)
        if proto is not None:
            scheme = proto.decode("latin-1").rsplit(",", 1)[-1].strip().lower()  # the nearest proxy's word
            if scheme in ("http", "https"):
                websocket = scope["type"] == "websocket"
                scope["scheme"] = {"http": "ws", "https": "wss"}[scheme] if websocket else scheme
