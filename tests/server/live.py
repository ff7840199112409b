"""A card room served for real: uvicorn in a thread on a free loopback port (for the schema fuzzing and the
browser tests, which talk HTTP and WebSocket to it like any client)."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

from studpoker.server.config import Settings


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def serve(settings: Settings, port: int | None = None) -> Iterator[str]:
    """Serve ``create_app(settings)`` as ``stud serve`` does (its uvicorn options); yields its base URL
    (``http://127.0.0.1:PORT``) and stops it after."""
    import uvicorn

    from studpoker.server.app import UVICORN_OPTIONS, create_app

    port = port or free_port()
    config = uvicorn.Config(create_app(settings), host="127.0.0.1", port=port, log_level="warning", **UVICORN_OPTIONS)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name="uvicorn", daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the card room server did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
