"""The room's face to the network: how ``stud serve`` configures uvicorn for a :class:`Settings`.

:func:`uvicorn_options` is the one place that says it (``stud serve``, its gateways, bench/load.py and the tests'
live servers all use it), so that what is tested is what runs. uvicorn's own forwarded-header handling is off:
by default it believes ``X-Forwarded-For`` from 127.0.0.1, which behind a proxy on the same host lets every client
pick its address. The room believes those headers only from ``Settings.trusted_proxies``
(:mod:`studpoker.server.forwarded`).
"""

from __future__ import annotations

from typing import Any

from .config import Settings

__all__ = ["WS_MAX_SIZE", "uvicorn_options"]

#: The largest WebSocket message uvicorn takes before the room sees it (the room's own limit is 4 KiB).
WS_MAX_SIZE = 65536


def uvicorn_options(settings: Settings) -> dict[str, Any]:
    """The keyword arguments of ``uvicorn.run``/``uvicorn.Config`` (besides the app, host, port and logging) that
    serve the room of ``settings`` as ``stud serve`` does."""
    return {"proxy_headers": False, "ws_max_size": WS_MAX_SIZE}
