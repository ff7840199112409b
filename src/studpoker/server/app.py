"""The card room's web application: :func:`create_app` builds the FastAPI app for one :class:`Settings`.

The HTTP API (JSON under ``/api/``, one router per area in :mod:`studpoker.server.routes`), the browser client's
pages, and the table WebSockets (:mod:`studpoker.server.socket`), as docs/server-protocol.md describes them. The
schema is published at ``/api/openapi.json`` with a reference at ``/api/docs``. Every response passes the
:class:`~studpoker.server.security.GuardMiddleware` (security headers, body limits); every error has the one body
of :mod:`studpoker.server.errors`; forwarded headers are believed only from ``Settings.trusted_proxies``
(:mod:`studpoker.server.forwarded`). The app's lifespan opens the :class:`~studpoker.server.room.Room` (migrations,
recovery of unfinished hands, table actors, the session sweeper) and closes it on shutdown.
"""

from __future__ import annotations

import importlib.util
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from fastapi.staticfiles import StaticFiles

from .. import __version__
from . import errors
from .config import Settings
from .forwarded import ForwardedMiddleware, TrustedProxies
from .front import CardRoom
from .room import Room
from .routes import admin, auth, history, hud, lobby, notes, pages, tables, tournaments
from .security import GuardMiddleware
from .socket import router as socket_router

__all__ = ["create_app"]


def create_app(settings: Settings | None = None) -> FastAPI:
    """The card room for ``settings`` (defaults: ``./studpoker.db``, 10,000 play chips, 15 s clock)."""
    settings = settings or Settings()
    room: CardRoom
    if settings.redis_url is None:
        room = Room(settings)
    else:  # a gateway of the room on several processes (docs/server.md)
        from .gateway import GatewayRoom

        room = GatewayRoom(settings)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await room.open()
        try:
            yield
        finally:
            await room.close()

    app = FastAPI(
        title="studpoker card room",
        version=__version__,
        description="Fixed-limit stud for play chips: accounts, tables, seats, hand histories. "
        "Live play is the table WebSocket (docs/server-protocol.md).",
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
        openapi_url="/api/openapi.json",
    )
    app.state.room = room
    app.state.static = settings.static_dir or Path(__file__).parent / "static"
    errors.install(app)
    routers = (auth, notes, hud, lobby, tables, tournaments, history, admin, pages)
    for router in (r.router for r in routers):
        app.include_router(router)
    app.include_router(socket_router)
    swagger = _swagger_files()
    if swagger is not None:
        app.mount("/static/swagger", StaticFiles(directory=swagger), name="swagger")
    app.mount("/static", StaticFiles(directory=app.state.static, check_dir=False), name="static")
    app.add_middleware(
        GuardMiddleware,
        max_body_bytes=settings.max_body_bytes,
        hsts=settings.secure_cookies,
        body_seconds=settings.request_seconds,
    )
    if settings.trusted_proxies:  # outermost: everything inside sees the forwarded client and scheme
        app.add_middleware(ForwardedMiddleware, trusted=TrustedProxies(settings.trusted_proxies))

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = _schema(app)
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
    return app


def _schema(app: FastAPI) -> dict[str, Any]:
    """FastAPI's schema, without the 422 answers it documents for every route (this API answers invalid input
    with 400 and the error body, and a bad path parameter with 404), and with every error answer as JSON (a route
    that answers text, the PHH download, still answers its errors in the one JSON body)."""
    schema = get_openapi(title=app.title, version=app.version, description=app.description, routes=app.routes)
    error = {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorBody"}}}
    for path in schema.get("paths", {}).values():
        for operation in path.values():
            responses = operation.get("responses", {})
            responses.pop("422", None)
            for status, response in responses.items():
                if status[:1] in ("4", "5"):
                    response["content"] = error
    _link_tables(schema)
    components = schema.get("components", {}).get("schemas", {})
    components.pop("HTTPValidationError", None)
    components.pop("ValidationError", None)
    return schema


def _link_tables(schema: dict[str, Any]) -> None:
    """OpenAPI links from the table that ``POST /api/tables`` opens to every operation on ``{table_id}``: what a
    client does next (and what Schemathesis's stateful phase follows: open, sit, top up, leave, close)."""
    paths = schema.get("paths", {})
    created = paths.get("/api/tables", {}).get("post", {}).get("responses", {}).get("201")
    if created is None:
        return
    links = created.setdefault("links", {})
    for template, operations in paths.items():
        if "{table_id}" not in template:
            continue
        for method, operation in operations.items():
            name = f"{method}_{template.removeprefix('/api/tables/').replace('{table_id}', 'table')}"
            name = "".join(c if c.isalnum() else "_" for c in name).strip("_")
            links[name] = {"operationId": operation["operationId"], "parameters": {"table_id": "$response.body#/id"}}


def _swagger_files() -> Path | None:
    """Swagger UI's files (5.x, which reads OpenAPI 3.1), served by the room itself: no CDN, since the pages'
    policy loads scripts from the room only. The ``fastapi-swagger`` package carries them."""
    spec = importlib.util.find_spec("fastapi_swagger")
    if spec is None or spec.origin is None:
        return None
    folder = Path(spec.origin).parent / "resources"
    return folder if (folder / "swagger-ui-bundle.js").is_file() else None
