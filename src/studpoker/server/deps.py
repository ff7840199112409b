"""The API's dependencies, named as the types routes take: the room, the settings, who is asking, their role.

``CurrentAccount`` answers 401 without a valid session, ``AdminAccount`` 403 for anyone but an admin,
``ManagedTable`` 403 for anyone but the table's creator or an admin; ``check_csrf`` (on every router) answers 403
for a state change that does not come from the room's own pages (:func:`~studpoker.server.security.csrf_problem`).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Path, Request
from fastapi.security import APIKeyCookie

from .auth import COOKIE, CSRF_COOKIE, Who, who_for_token
from .config import Settings
from .errors import ApiError
from .front import CardRoom
from .handle import TableHandle
from .limits import MAX_ID
from .security import csrf_problem, origin_key

__all__ = [
    "AdminAccount",
    "CurrentAccount",
    "ManagedTable",
    "MaybeAccount",
    "OpenTable",
    "RoomDep",
    "SettingsDep",
    "TableId",
    "check_csrf",
    "client_address",
]

#: The session cookie, as OpenAPI's security scheme (``cookieAuth``).
session_cookie = APIKeyCookie(name=COOKIE, auto_error=False, scheme_name="cookieAuth")


def get_room(request: Request) -> CardRoom:
    room: CardRoom = request.app.state.room
    return room


RoomDep = Annotated[CardRoom, Depends(get_room)]


def get_settings(room: RoomDep) -> Settings:
    return room.settings


SettingsDep = Annotated[Settings, Depends(get_settings)]

#: A table id in a path: an int from 1 to 2^31 - 1 (anything else is 404).
TableId = Annotated[int, Path(ge=1, le=MAX_ID, description="the table's id")]


async def check_csrf(request: Request, settings: SettingsDep) -> None:
    """403 ``csrf`` for a state change that does not prove it comes from the room's own pages."""
    allowed = frozenset(origin_key(o) for o in settings.allowed_origins)
    headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in request.scope.get("headers", [])}
    scheme = str(request.scope.get("scheme", "http"))  # behind a trusted proxy, the one it was reached by
    problem = csrf_problem(request.method, headers, request.cookies, allowed, CSRF_COOKIE, scheme)
    if problem is not None:
        raise ApiError(403, "csrf", problem)


async def maybe_account(request: Request, room: RoomDep) -> Who | None:
    """The signed-in account, or ``None`` (for what anyone may see, and more when signed in)."""
    token = request.cookies.get(COOKIE)
    if not token:
        return None
    settings = room.settings
    return await room.db.run(
        lambda s: who_for_token(s, token, settings.session_idle_seconds, settings.session_max_seconds)
    )


MaybeAccount = Annotated[Who | None, Depends(maybe_account)]


async def current_account(who: MaybeAccount, _cookie: Annotated[str | None, Depends(session_cookie)]) -> Who:
    """The signed-in account; 401 ``not_logged_in`` without one. (Declares the session cookie as the route's
    security scheme in the OpenAPI schema.)"""
    if who is None:
        raise ApiError(401, "not_logged_in", "sign in first")
    return who


CurrentAccount = Annotated[Who, Depends(current_account)]


async def admin_account(who: CurrentAccount) -> Who:
    """An admin; 403 ``forbidden`` for anyone else."""
    if not who.is_admin:
        raise ApiError(403, "forbidden", "only an admin may do this")
    return who


AdminAccount = Annotated[Who, Depends(admin_account)]


async def open_table(room: RoomDep, table_id: TableId) -> TableHandle:
    """The open table of the path; 404 ``not_found`` if there is none."""
    return await room.find_table(table_id)


OpenTable = Annotated[TableHandle, Depends(open_table)]


async def managed_table(who: CurrentAccount, actor: OpenTable) -> TableHandle:
    """The table of the path, if the account opened it or is an admin; 403 ``forbidden`` otherwise."""
    if not who.is_admin and (actor.created_by is None or actor.created_by != who.id):
        raise ApiError(403, "forbidden", f"only the player who opened {actor.name} (or an admin) may manage it")
    return actor


ManagedTable = Annotated[TableHandle, Depends(managed_table)]


def client_address(request: Request) -> str:
    """The address a request came from (the proxy's, unless ``stud serve --proxy-headers`` trusts its headers)."""
    return request.client.host if request.client is not None else "unknown"
