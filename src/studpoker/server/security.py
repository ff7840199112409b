"""What keeps other sites and oversized input out: origin checks, the CSRF rule, security headers, body limits.

**The CSRF rule** (:func:`csrf_problem`): a request that changes something (``POST``, ``PUT``, ``PATCH``,
``DELETE``) must be ``Content-Type: application/json`` (which no HTML form can send, and which a page elsewhere
can send only after a CORS preflight this server never grants), and must show that it comes from the room's own
pages: an ``Origin`` equal to the server's (the scheme the request came in on, with the ``Host`` the browser
connected to; or one of ``Settings.allowed_origins``), or, without ``Origin``, ``Sec-Fetch-Site: same-origin``,
or, with neither (a program), an ``X-CSRF-Token`` header equal to the ``studpoker_csrf`` cookie (double submit;
``GET /api/csrf`` gives one). Anything else is ``403 csrf``. Cookies alone prove nothing: SameSite=Lax does not
stop another port or subdomain of the same site.

**Headers** (:class:`GuardMiddleware`): every response gets a Content-Security-Policy without inline script or
style and ``frame-ancestors 'none'`` (no framing, so no clickjacking), ``X-Content-Type-Options: nosniff``,
``Referrer-Policy: same-origin``, ``X-Frame-Options: DENY``, ``Cross-Origin-Opener-Policy: same-origin``; API
answers are ``Cache-Control: no-store``; with secure cookies, HSTS.

**Bodies**: larger than ``max_body_bytes`` is ``413`` (checked while reading, whatever ``Content-Length`` says);
JSON nested deeper than :data:`~studpoker.server.limits.MAX_JSON_DEPTH` is ``400``, before any parser sees it; a
body that has not all arrived ``body_seconds`` after the request's head is ``408`` and the connection is closed.
"""

from __future__ import annotations

import asyncio
import hmac
import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import urlsplit

from .errors import error_body
from .limits import MAX_JSON_DEPTH, json_depth

__all__ = [
    "CSP",
    "GuardMiddleware",
    "csrf_problem",
    "origin_key",
    "same_origin",
]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]

#: The room's pages load scripts, styles and images from the server only, and may be framed by nobody.
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; "
    "connect-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def origin_key(origin: str) -> str:
    """An origin as ``scheme://host:port``, lower case, with the scheme's default port made explicit (``""`` for
    ``null`` and anything unparsable).

    >>> origin_key("HTTP://Example.org"), origin_key("null")
    ('http://example.org:80', '')
    """
    parts = urlsplit(origin.strip().lower())
    try:
        port = parts.port
    except ValueError:
        return ""
    if port is None:
        port = {"http": 80, "https": 443, "ws": 80, "wss": 443}.get(parts.scheme)
    return f"{parts.scheme}://{parts.hostname}:{port}" if parts.scheme and parts.hostname else ""


#: A WebSocket's scheme as the scheme of the pages that may open it.
_PAGE_SCHEME = {"http": "http", "https": "https", "ws": "http", "wss": "https"}


def same_origin(origin: str, host: str | None, scheme: str, allowed: frozenset[str] = frozenset()) -> bool:
    """Whether a page's ``Origin`` is the server itself (the same scheme, host and port as the request: ``scheme``
    is the one the request came in on, the ASGI scope's, ``ws``/``wss`` counting as ``http``/``https``, and
    ``host`` its ``Host``) or one of the ``allowed`` origin keys.

    >>> same_origin("http://cards.example.org", "cards.example.org", "ws")
    True
    >>> same_origin("https://cards.example.org", "cards.example.org", "http")   # another origin: another scheme
    False
    """
    key = origin_key(origin)
    if not key:
        return False
    if key in allowed:
        return True
    page_scheme = _PAGE_SCHEME.get(scheme)
    if not host or page_scheme is None:
        return False
    return key == origin_key(f"{page_scheme}://{host}")


def csrf_problem(
    method: str,
    headers: dict[str, str],
    cookies: dict[str, str],
    allowed: frozenset[str],
    csrf_cookie: str,
    scheme: str,
) -> str | None:
    """Why a request may not change anything (the CSRF rule of this module), or ``None``. ``headers`` have
    lower-case names; ``scheme`` is the one the request came in on (``http`` or ``https``)."""
    if method not in UNSAFE:
        return None
    media = headers.get("content-type", "").split(";", 1)[0].strip().lower()
    if media != "application/json":
        return "a request that changes something must be sent as Content-Type: application/json"
    site = headers.get("sec-fetch-site")
    if site is not None and site != "same-origin":
        return f"this request came from another site ({site[:20]}): only the room's own pages may change anything"
    origin = headers.get("origin")
    if origin is not None:
        if same_origin(origin, headers.get("host"), scheme, allowed):
            return None
        return f"requests from {origin[:80]} are refused: only the room's own pages may change anything"
    if site == "same-origin":
        return None
    token, expected = headers.get("x-csrf-token", ""), cookies.get(csrf_cookie, "")
    if token and expected and len(token) <= 200 and hmac.compare_digest(token.encode(), expected.encode()):
        return None
    return "say where this request comes from: send an Origin header, or X-CSRF-Token with the studpoker_csrf cookie"


class GuardMiddleware:
    """ASGI middleware: security headers on every HTTP response, and the body limits before the app reads one."""

    def __init__(
        self,
        app: App,
        *,
        max_body_bytes: int,
        hsts: bool,
        max_depth: int = MAX_JSON_DEPTH,
        body_seconds: float = 10.0,
    ) -> None:
        self.app = app
        self.max_body_bytes = max_body_bytes
        self.max_depth = max_depth
        self.body_seconds = body_seconds
        headers = [
            (b"content-security-policy", CSP.encode()),
            (b"x-content-type-options", b"nosniff"),
            (b"referrer-policy", b"same-origin"),
            (b"x-frame-options", b"DENY"),
            (b"cross-origin-opener-policy", b"same-origin"),
            (b"permissions-policy", b"camera=(), microphone=(), geolocation=(), payment=()"),
        ]
        if hsts:
            headers.append((b"strict-transport-security", b"max-age=31536000; includeSubDomains"))
        self.headers = headers

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        api = str(scope.get("path", "")).startswith("/api/")
        extra = [*self.headers, (b"cache-control", b"no-store")] if api else self.headers

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                present = {name.lower() for name, _ in message.get("headers", [])}
                message["headers"] = [*message.get("headers", []), *(h for h in extra if h[0] not in present)]
            await send(message)

        if scope.get("method") in UNSAFE:
            body = await self._read(scope, receive, send_with_headers)
            if body is None:
                return
            delivered = False

            async def replay() -> Message:
                nonlocal delivered
                if delivered:
                    return await receive()
                delivered = True
                return {"type": "http.request", "body": body, "more_body": False}

            await self.app(scope, replay, send_with_headers)
            return
        await self.app(scope, receive, send_with_headers)

    async def _read(self, scope: Scope, receive: Receive, send: Send) -> bytes | None:
        """The whole body, or ``None`` after answering 413, 408 or 400 itself."""
        length = dict(scope.get("headers", [])).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.max_body_bytes):
            await _answer(send, 413, "too_large", f"a request body is at most {self.max_body_bytes} bytes")
            return None
        chunks: list[bytes] = []
        size = 0
        try:
            async with asyncio.timeout(self.body_seconds):  # a body sent a byte at a time holds no connection
                while True:
                    message = await receive()
                    if message["type"] == "http.disconnect":
                        return None
                    chunk = message.get("body", b"")
                    size += len(chunk)
                    if size > self.max_body_bytes:
                        await _answer(send, 413, "too_large", f"a request body is at most {self.max_body_bytes} bytes")
                        return None
                    chunks.append(chunk)
                    if not message.get("more_body", False):
                        break
        except TimeoutError:
            late = f"the request's body did not arrive within {self.body_seconds:g} s"
            await _answer(send, 408, "request_timeout", late, close=True)
            return None
        body = b"".join(chunks)
        if json_depth(body, self.max_depth) > self.max_depth:
            await _answer(send, 400, "bad_request", f"JSON may nest at most {self.max_depth} levels deep")
            return None
        return body


async def _answer(send: Send, status: int, code: str, message: str, *, close: bool = False) -> None:
    """Answer with the error body; ``close``: and end the connection after (the rest of the request is unread)."""
    payload = json.dumps(error_body(code, message)).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(payload)).encode())]
    if close:
        headers.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": payload})
