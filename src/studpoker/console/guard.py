"""The dealer's web console's guard: the ASGI layer in front of the app that answers only the host it serves (DNS
rebinding), takes a POST only from the console's own origin or, for the card reader, with its bearer token, caps the
body, and adds the security headers to every answer. A local app is still reachable by any page open on the device.
"""

from __future__ import annotations

import hmac
import ipaddress
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from fastapi.responses import JSONResponse

from .schemas import (
    MAX_BODY,
)

__all__ = [
    "SECURITY_HEADERS",
    "ASGIApp",
    "Guard",
    "RefusedError",
    "error_response",
    "is_loopback",
    "is_wildcard",
    "served_hosts",
]

#: Every answer carries these: no inline script, no framing, no sniffing, no referrer.
SECURITY_HEADERS = {
    "content-security-policy": "default-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
}
_LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class RefusedError(Exception):
    """An HTTP refusal in the contract's shape: ``status``, ``code`` and the message."""

    def __init__(self, status: int, code: str, message: str, **extra: object) -> None:
        super().__init__(message)
        self.status, self.code, self.message, self.extra = status, code, message, extra


def error_response(status: int, code: str, message: str, **extra: object) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message, **extra}}, status_code=status)


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def is_wildcard(host: str) -> bool:
    return host in ("0.0.0.0", "::", "[::]", "")


def served_hosts(host: str, port: int) -> tuple[str, ...]:
    """The Host headers the console answers when bound to ``host``:``port``: that host with the port (and without
    it on port 80), and every loopback name when bound to loopback or to every address. A wildcard bind (0.0.0.0)
    also answers any IP address with the port (:func:`create_app`): a DNS rebinding attack needs a name.

    >>> served_hosts("127.0.0.1", 8765)
    ('127.0.0.1:8765', 'localhost:8765', '[::1]:8765')
    >>> served_hosts("192.168.1.20", 80)
    ('192.168.1.20:80', '192.168.1.20')
    """
    name = f"[{host}]" if ":" in host and not host.startswith("[") else host
    names = list(_LOOPBACK_NAMES) if is_loopback(host) or is_wildcard(host) else [name]
    if name not in names:
        names.insert(0, name)
    out = [f"{n}:{port}" for n in names]
    if port == 80:
        out += names
    return tuple(out)


def _ip_host(value: str, port: int) -> bool:
    """Whether a Host header is an IP address with ``port`` (what a wildcard bind answers)."""
    address, _, given = value.rpartition(":")
    if not address or given != str(port):
        return False
    try:
        ipaddress.ip_address(address.strip("[]"))
    except ValueError:
        return False
    return True


class Guard:
    """The ASGI layer in front of the app: the Host check (DNS rebinding), the Origin check of every POST but the
    card reader's, the body-size cap, and the security headers on every answer (the refusals' too)."""

    def __init__(self, app: ASGIApp, hosts: frozenset[str], wildcard_port: int | None, token: str | None) -> None:
        self.app, self.hosts, self.wildcard_port, self.token = app, hosts, wildcard_port, token
        self.origins = frozenset(f"http://{h}" for h in hosts)

    def _reader_refusal(self, authorization: str) -> RefusedError | None:
        """Why a card reader's post is refused (no token set, or not the right one), or ``None``; the token is
        compared in constant time."""
        if self.token is None:
            return RefusedError(403, "forbidden", "no card reader is set up: start stud dealer with --reader")
        scheme, _, value = authorization.partition(" ")
        if scheme.lower() != "bearer" or not hmac.compare_digest(value.strip().encode(), self.token.encode()):
            return RefusedError(403, "forbidden", "the card reader's token is missing or wrong")
        return None

    def _host_ok(self, host: str) -> bool:
        if host in self.hosts:
            return True
        return self.wildcard_port is not None and _ip_host(host, self.wildcard_port)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def secured(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {name.lower() for name, _ in headers}
                for name, value in SECURITY_HEADERS.items():
                    if name.encode() not in present:
                        headers.append((name.encode(), value.encode()))
                if scope["path"].startswith("/api/"):
                    headers.append((b"cache-control", b"no-store"))
                message["headers"] = headers
            await send(message)

        headers = {name.decode("latin-1").lower(): value.decode("latin-1") for name, value in scope["headers"]}
        host = headers.get("host", "").lower()
        refusal: RefusedError | None = None
        named = sum(1 for name, _ in scope["headers"] if name.lower() in (b"host", b"origin", b"authorization"))
        if named > sum(1 for name in ("host", "origin", "authorization") if name in headers):
            refusal = RefusedError(403, "forbidden", "a request names its Host, Origin and Authorization once each")
        elif not self._host_ok(host):
            refusal = RefusedError(403, "forbidden", f"this console does not serve the host {host[:100]!r}")
        elif scope["path"] == "/api/reader":
            refusal = self._reader_refusal(headers.get("authorization", ""))
        elif scope["method"] not in ("GET", "HEAD"):
            origin = headers.get("origin")
            if origin is None:
                refusal = RefusedError(403, "forbidden", "a change must come from the console's own page (no Origin)")
            elif origin.lower() not in self.origins and origin.lower() != f"http://{host}":
                refusal = RefusedError(
                    403, "forbidden", f"a change must come from the console's own page, not {origin[:100]!r}"
                )
        if refusal is None:
            size = headers.get("content-length", "0")
            if not size.isdigit() or int(size) > MAX_BODY:
                refusal = RefusedError(413, "too_large", f"a request body is at most {MAX_BODY} bytes")
        if refusal is None and scope["method"] not in ("GET", "HEAD"):
            body, more = b"", True
            while more:  # the whole body first (a chunked one has no Content-Length): at most MAX_BODY bytes
                message = await receive()
                if message["type"] == "http.disconnect":
                    return
                body += message.get("body", b"")
                more = message.get("more_body", False)
                if len(body) > MAX_BODY:
                    refusal = RefusedError(413, "too_large", f"a request body is at most {MAX_BODY} bytes")
                    break
            if refusal is None:
                sent = False

                async def replay() -> Message:
                    nonlocal sent
                    if sent:
                        return await receive()
                    sent = True
                    return {"type": "http.request", "body": body, "more_body": False}

                await self.app(scope, replay, secured)
                return
        if refusal is not None:
            response = error_response(refusal.status, refusal.code, refusal.message)
            await response(scope, receive, secured)
            return
        await self.app(scope, receive, secured)
