"""The card room's web application: :func:`create_app` builds the FastAPI app for one :class:`Settings`.

HTTP endpoints (JSON under ``/api/``), the page routes of the browser client and the table WebSockets, as
docs/server-protocol.md describes them. The app's lifespan opens the :class:`~studpoker.server.room.Room`
(migrations, recovery of unfinished hands, table actors) and closes it on shutdown.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from fastapi import FastAPI, Request, WebSocket
from fastapi.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from sqlalchemy import select
from sqlalchemy.orm import Session
from starlette.websockets import WebSocketDisconnect, WebSocketState

from . import wire
from .actor import ApiError, Connection
from .auth import (
    COOKIE,
    AuthError,
    account_for_token,
    check_credentials_shape,
    create_account,
    end_session,
    new_session,
)
from .config import Settings
from .db import Account, HandRow, LedgerEntry
from .ledger import user_account
from .room import STAKES, Room

__all__ = ["create_app"]

_PAGES = {
    "/": "index.html",
    "/login": "login.html",
    "/signup": "signup.html",
    "/lobby": "lobby.html",
    "/cashier": "cashier.html",
}


def _iso(value: Any) -> str | None:
    return None if value is None else value.replace(microsecond=0).isoformat() + "Z"


def create_app(settings: Settings | None = None) -> FastAPI:
    """The card room for ``settings`` (defaults: ``./studpoker.db``, 10,000 play chips, 15 s clock)."""
    settings = settings or Settings()
    static = settings.static_dir or Path(__file__).parent / "static"
    room = Room(settings)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await room.open()
        try:
            yield
        finally:
            await room.close()

    app = FastAPI(title="studpoker card room", lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None)
    app.state.room = room
    db = room.db

    # -- plumbing -----------------------------------------------------------------------------------------

    @app.exception_handler(ApiError)
    async def _api_error(_request: Request, exc: ApiError) -> JSONResponse:
        return JSONResponse({"error": {"code": exc.code, "message": exc.message}}, status_code=exc.status)

    @app.exception_handler(AuthError)
    async def _auth_error(_request: Request, exc: AuthError) -> JSONResponse:
        return JSONResponse({"error": {"code": exc.code, "message": str(exc)}}, status_code=exc.status)

    async def body_of(request: Request) -> dict[str, Any]:
        raw = await request.body()
        if len(raw) > settings.max_body_bytes:
            raise ApiError(413, "too_large", f"a request body is at most {settings.max_body_bytes} bytes")
        if not raw.strip():
            return {}
        try:
            data = json.loads(raw)
        except (ValueError, UnicodeDecodeError):
            raise ApiError(400, "bad_request", "the request body is not JSON") from None
        if not isinstance(data, dict):
            raise ApiError(400, "bad_request", "the request body must be a JSON object")
        return data

    async def current(request: Request) -> tuple[int, str] | None:
        token = request.cookies.get(COOKIE)
        if not token:
            return None

        def work(session: Session) -> tuple[int, str] | None:
            account = account_for_token(session, token)
            return None if account is None else (account.id, account.username)

        return await db.run(work)

    async def required(request: Request) -> tuple[int, str]:
        who = await current(request)
        if who is None:
            raise ApiError(401, "not_logged_in", "log in first")
        return who

    def set_cookie(response: Response, token: str) -> None:
        response.set_cookie(
            COOKIE,
            token,
            httponly=True,
            samesite="lax",
            secure=settings.secure_cookies,
            path="/",
            max_age=30 * 24 * 3600,
        )

    def parse_table_id(raw: str) -> int:
        try:
            return int(raw)
        except ValueError:
            raise ApiError(404, "not_found", f"there is no table {raw!r}") from None

    # -- pages --------------------------------------------------------------------------------------------

    def page(name: str) -> Response:
        path = static / name
        if not path.is_file():
            return PlainTextResponse(f"{name} is not installed", status_code=404)
        return FileResponse(path, media_type="text/html")

    for route, filename in _PAGES.items():

        async def serve_page(filename: str = filename) -> Response:
            return page(filename)

        app.add_api_route(route, serve_page, methods=["GET"], include_in_schema=False)

    @app.get("/table/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> Response:
        return page("table.html")

    @app.get("/history/{table_id}", include_in_schema=False)
    async def history_page(table_id: str) -> Response:
        return page("history.html")

    app.mount("/static", StaticFiles(directory=static, check_dir=False), name="static")

    # -- accounts -----------------------------------------------------------------------------------------

    @app.post("/api/signup", status_code=201)
    async def signup(request: Request) -> Response:
        body = await body_of(request)
        username, password = check_credentials_shape(body.get("username"), body.get("password"))
        hashed = await asyncio.to_thread(room.passwords.hash, password)

        def work(session: Session) -> tuple[dict[str, Any], str]:
            account = create_account(session, username, hashed, settings.starting_balance)
            token = new_session(session, account.id)
            return {"id": account.id, "username": account.username, "balance": account.balance}, token

        data, token = await db.run(work)
        response = JSONResponse(data, status_code=201)
        set_cookie(response, token)
        return response

    @app.post("/api/login")
    async def login(request: Request) -> Response:
        body = await body_of(request)
        username, password = body.get("username"), body.get("password")
        if not isinstance(username, str) or not isinstance(password, str) or len(password) > 128:
            raise ApiError(401, "bad_credentials", "wrong username or password")
        found = await db.run(
            lambda s: s.execute(
                select(Account.id, Account.password_hash).where(Account.username_key == username.lower()[:40])
            ).first()
        )
        ok = await asyncio.to_thread(room.passwords.verify, None if found is None else found[1], password)
        if not ok or found is None:
            raise ApiError(401, "bad_credentials", "wrong username or password")
        account_id = int(found[0])

        def work(session: Session) -> tuple[dict[str, Any], str]:
            account = session.get(Account, account_id)
            assert account is not None
            token = new_session(session, account_id)
            return {"id": account.id, "username": account.username, "balance": account.balance}, token

        data, token = await db.run(work)
        response = JSONResponse(data)
        set_cookie(response, token)
        return response

    @app.post("/api/logout")
    async def logout(request: Request) -> Response:
        token = request.cookies.get(COOKIE)
        await db.run(lambda s: end_session(s, token))
        response = JSONResponse({"ok": True})
        response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax", secure=settings.secure_cookies)
        return response

    @app.get("/api/me")
    async def me(request: Request) -> dict[str, Any]:
        account_id, username = await required(request)
        balance = await db.run(lambda s: int(s.scalar(select(Account.balance).where(Account.id == account_id)) or 0))
        seats = []
        for actor in room.actors.values():
            seat = actor.seat_of(account_id)
            if seat is not None:
                info = actor.table.seat(seat)
                seats.append(
                    {
                        "table_id": actor.id,
                        "table": actor.name,
                        "seat": seat,
                        "stack": info.stack,
                        "queued": info.queued,
                        "sitting_out": info.sitting_out,
                    }
                )
        return {"id": account_id, "username": username, "balance": balance, "seats": seats}

    @app.get("/api/ledger")
    async def ledger(request: Request, limit: int = 50) -> dict[str, Any]:
        account_id, _ = await required(request)
        limit = max(1, min(limit, 500))
        name = user_account(account_id)

        def work(session: Session) -> dict[str, Any]:
            rows = session.scalars(
                select(LedgerEntry)
                .where((LedgerEntry.source == name) | (LedgerEntry.target == name))
                .order_by(LedgerEntry.id.desc())
                .limit(limit)
            ).all()
            balance = session.scalar(select(Account.balance).where(Account.id == account_id))
            return {
                "balance": balance,
                "entries": [
                    {
                        "id": r.id,
                        "at": _iso(r.at),
                        "amount": r.amount if r.target == name else -r.amount,
                        "kind": r.kind,
                        "table_id": r.table_id,
                        "memo": r.memo,
                    }
                    for r in rows
                ],
            }

        return await db.run(work)

    # -- lobby and tables -----------------------------------------------------------------------------------

    @app.get("/api/tables")
    async def tables() -> dict[str, Any]:
        return {"tables": [actor.info() for actor in room.actors.values()]}

    @app.get("/api/presets")
    async def presets() -> dict[str, Any]:
        return {
            "variants": [{"variant": v.value, "name": n} for v, n in wire.VARIANT_NAMES.items()],
            "presets": ["casino", "tournament"],
            "stakes": list(STAKES),
            "bots": list(settings.bot_tags),
        }

    @app.post("/api/tables", status_code=201)
    async def create_table(request: Request) -> dict[str, Any]:
        account_id, _ = await required(request)
        actor = await room.create_table(account_id, await body_of(request))
        return actor.info()

    @app.get("/api/tables/{table_id}")
    async def table_info(table_id: str) -> dict[str, Any]:
        actor = room.actor(parse_table_id(table_id))
        return {**actor.info(), "seats": actor.seats_info()}

    @app.post("/api/tables/{table_id}/sit")
    async def sit(table_id: str, request: Request) -> dict[str, Any]:
        actor = room.actor(parse_table_id(table_id))
        account_id, username = await required(request)
        body = await body_of(request)
        if "buy_in" not in body:
            raise ApiError(400, "invalid", 'say how many chips to buy in for: {"buy_in": 400}')
        return await actor.sit(account_id, username, body.get("buy_in"), body.get("seat"))

    @app.post("/api/tables/{table_id}/leave")
    async def leave(table_id: str, request: Request) -> dict[str, Any]:
        actor = room.actor(parse_table_id(table_id))
        account_id, _ = await required(request)
        return await actor.leave(account_id)

    @app.post("/api/tables/{table_id}/top-up")
    async def top_up(table_id: str, request: Request) -> dict[str, Any]:
        actor = room.actor(parse_table_id(table_id))
        account_id, _ = await required(request)
        body = await body_of(request)
        return await actor.top_up(account_id, body.get("amount"))

    @app.post("/api/tables/{table_id}/sit-out")
    async def sit_out(table_id: str, request: Request) -> dict[str, Any]:
        actor = room.actor(parse_table_id(table_id))
        account_id, _ = await required(request)
        return await actor.set_sitting_out(account_id, True)

    @app.post("/api/tables/{table_id}/sit-in")
    async def sit_in(table_id: str, request: Request) -> dict[str, Any]:
        actor = room.actor(parse_table_id(table_id))
        account_id, _ = await required(request)
        return await actor.set_sitting_out(account_id, False)

    @app.post("/api/tables/{table_id}/bots")
    async def add_bots(table_id: str, request: Request) -> dict[str, Any]:
        actor = room.actor(parse_table_id(table_id))
        await required(request)
        body = await body_of(request)
        return await actor.add_bots(body.get("count", actor.table.max_seats), body.get("tag"))

    @app.delete("/api/tables/{table_id}/bots")
    async def remove_bots(table_id: str, request: Request) -> dict[str, Any]:
        actor = room.actor(parse_table_id(table_id))
        await required(request)
        return await actor.remove_bots()

    # -- hand histories -------------------------------------------------------------------------------------

    def hand_entry(row: HandRow) -> dict[str, Any]:
        return {
            "number": row.number,
            "status": row.status,
            "started_at": _iso(row.started_at),
            "finished_at": _iso(row.finished_at),
            "pot": row.pot,
            "players": row.players,
            "winners": row.winners,
        }

    @app.get("/api/tables/{table_id}/hands")
    async def hands(table_id: str, limit: int = 50, before: int | None = None) -> dict[str, Any]:
        tid = parse_table_id(table_id)
        room.actor(tid)
        limit = max(1, min(limit, 500))

        def work(session: Session) -> list[dict[str, Any]]:
            query = select(HandRow).where(HandRow.table_id == tid, HandRow.status != "playing")
            if before is not None:
                query = query.where(HandRow.number < before)
            rows = session.scalars(query.order_by(HandRow.number.desc()).limit(limit)).all()
            return [hand_entry(r) for r in rows]

        return {"table_id": tid, "hands": await db.run(work)}

    async def one_hand(tid: int, number: int) -> HandRow:
        room.actor(tid)
        row = await db.run(
            lambda s: s.scalar(
                select(HandRow).where(HandRow.table_id == tid, HandRow.number == number, HandRow.status != "playing")
            )
        )
        if row is None:
            raise ApiError(404, "not_found", f"table {tid} has no finished hand {number}")
        return row

    @app.get("/api/tables/{table_id}/hands/{number}")
    async def hand(table_id: str, number: str) -> Response:
        tid = parse_table_id(table_id)
        if number.endswith(".phh"):
            row = await one_hand(tid, _number(number.removesuffix(".phh")))
            if row.phh is None:
                raise ApiError(404, "not_found", f"hand {row.number} was voided: it has no history")
            return PlainTextResponse(
                row.phh,
                headers={"Content-Disposition": f'attachment; filename="table{tid}-hand{row.number}.phh"'},
            )
        row = await one_hand(tid, _number(number))
        return JSONResponse({**hand_entry(row), "table_id": tid, "phh": row.phh})

    # -- the table WebSocket ----------------------------------------------------------------------------------

    allowed_origins = {_origin_key(o) for o in settings.allowed_origins}

    @app.websocket("/ws/table/{table_id}")
    async def table_socket(websocket: WebSocket, table_id: str) -> None:
        # Cross-site WebSocket hijacking: WebSockets have no same-origin policy, and SameSite=Lax keeps the cookie
        # off upgrades from other sites only in current browsers, never off other origins of the same site (another
        # port or subdomain). So a handshake that carries the session cookie and an Origin must come from the
        # server's own pages (or an allowed origin); no Origin (a program, not a browser page) is fine.
        origin = websocket.headers.get("origin")
        if (
            origin is not None
            and COOKIE in websocket.cookies
            and not _same_origin(origin, websocket.headers.get("host"))
            and _origin_key(origin) not in allowed_origins
        ):
            await websocket.close(1008)  # before accepting: the handshake is answered 403
            return
        await websocket.accept()
        try:
            actor = room.actor(int(table_id))
        except (ValueError, ApiError):
            await websocket.send_text(wire.encode(wire.error("not_found", f"there is no table {table_id}")))
            await websocket.close(4404)
            return
        token = websocket.cookies.get(COOKIE)

        def who(session: Session) -> tuple[int, str] | None:
            account = account_for_token(session, token)
            return None if account is None else (account.id, account.username)

        found = await db.run(who) if token else None
        connection = Connection(found[0] if found else None, found[1] if found else None)
        writer = asyncio.create_task(_writer(websocket, connection))
        await actor.connect(connection)
        window_start, count = time.monotonic(), 0
        try:
            while not connection.closed:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                if text is None:
                    _refuse(connection, "bad_json", "frames must be JSON text", 1008)
                    break
                if len(text) > settings.max_message_bytes or len(text.encode()) > settings.max_message_bytes:
                    _refuse(connection, "too_big", f"a message is at most {settings.max_message_bytes} bytes", 1009)
                    break
                now = time.monotonic()
                if now - window_start >= 1.0:
                    window_start, count = now, 0
                count += 1
                if count > settings.max_messages_per_second:
                    connection.push(wire.encode(wire.error("rate_limited", "too many messages: slow down")))
                    continue
                try:
                    data = json.loads(text)
                except ValueError:
                    data = None
                if not isinstance(data, dict) or not isinstance(data.get("type"), str):
                    _refuse(
                        connection, "bad_json", 'a message is a JSON object with a "type", e.g. {"type":"ping"}', 1008
                    )
                    break
                kind = data["type"]
                if kind == "ping":
                    connection.push(wire.encode({"type": "pong"}))
                elif kind == "snapshot":
                    actor.resend_snapshot(connection)
                elif kind == "act":
                    hand, seq, action, amount = (
                        data.get("hand"),
                        data.get("seq"),
                        data.get("action"),
                        data.get("amount"),
                    )
                    if (
                        type(hand) is not int
                        or type(seq) is not int
                        or not isinstance(action, str)
                        or (amount is not None and type(amount) is not int)
                    ):
                        connection.push(
                            wire.encode(
                                wire.error(
                                    "bad_message",
                                    'act needs integers "hand" and "seq", an "action" name and an integer "amount"',
                                )
                            )
                        )
                        continue
                    await actor.act(connection, hand, seq, action, amount)
                else:
                    connection.push(wire.encode(wire.error("unknown_type", f"unknown message type {kind[:40]!r}")))
        except WebSocketDisconnect:
            pass
        finally:
            actor.disconnect(connection)
            connection.close(1000)
            try:
                await asyncio.wait_for(writer, timeout=5)
            except (TimeoutError, asyncio.CancelledError):
                writer.cancel()

    return app


def _origin_key(origin: str) -> str:
    """An origin as ``scheme://host:port``, lower case, with the scheme's default port made explicit."""
    parts = urlsplit(origin.strip().lower())
    try:
        port = parts.port
    except ValueError:
        return ""
    if port is None:
        port = {"http": 80, "https": 443}.get(parts.scheme)
    return f"{parts.scheme}://{parts.hostname}:{port}" if parts.scheme and parts.hostname else ""


def _same_origin(origin: str, host: str | None) -> bool:
    """Whether the page's ``Origin`` is the server itself: the same host and port as the ``Host`` the browser
    connected to (``"null"`` and unparsable origins are not)."""
    key = _origin_key(origin)
    if not key or not host:
        return False
    scheme = key.split("://", 1)[0]
    return key == _origin_key(f"{scheme}://{host}")


def _number(raw: str) -> int:
    try:
        return int(raw)
    except ValueError:
        raise ApiError(404, "not_found", f"there is no hand {raw!r}") from None


def _refuse(connection: Connection, code: str, message: str, close_code: int) -> None:
    connection.push(wire.encode(wire.error(code, message)))
    connection.close(close_code)


async def _writer(websocket: WebSocket, connection: Connection) -> None:
    """Send a connection's queued frames in order; an ``int`` in the queue closes the socket with that code."""
    try:
        while True:
            item = await connection.next()
            if isinstance(item, int):
                if websocket.application_state == WebSocketState.CONNECTED:
                    await websocket.close(item)
                return
            await websocket.send_text(item)
    except Exception:  # the client went away: the reader notices and cleans up
        connection.closed = True
