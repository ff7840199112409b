"""A card room served for real: uvicorn in a thread on a free loopback port, configured as ``stud serve`` configures
it (for the schema fuzzing, the browser tests and the attacks on the network edge, which talk HTTP and WebSocket
to it like any client)."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from studpoker.server.config import Settings


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def serve(settings: Settings, port: int | None = None, *, app: Any = None, http: str = "auto") -> Iterator[str]:
    """Serve ``create_app(settings)`` (or ``app``, with the uvicorn options of ``settings``; ``http``: uvicorn's
    HTTP implementation, ``"httptools"``, ``"h11"`` or ``"auto"``); yields its base URL (``http://127.0.0.1:PORT``)
    and stops it after."""
    import uvicorn

    from studpoker.server.app import create_app
    from studpoker.server.edge import uvicorn_options

    port = port or free_port()
    app = app if app is not None else create_app(settings)
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", **uvicorn_options(settings, http))
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name="uvicorn", daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the card room server did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
