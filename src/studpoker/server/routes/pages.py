"""The browser client's pages (static HTML, no templating) and the API's own reference at ``/api/docs``."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, Response

from ..deps import TableId
from ..errors import ApiError
from .tournaments import TournamentId

router = APIRouter(include_in_schema=False)

PAGES = {
    "/": "index.html",
    "/login": "login.html",
    "/signup": "signup.html",
    "/lobby": "lobby.html",
    "/tournaments": "tournaments.html",
    "/cashier": "cashier.html",
    "/account": "account.html",
    "/api/docs": "api-docs.html",
}


def _page(request: Request, name: str) -> Response:
    static: Path = request.app.state.static
    path = static / name
    if not path.is_file():
        raise ApiError(404, "not_found", f"{name} is not installed")
    return FileResponse(path, media_type="text/html")


def _serve(filename: str) -> object:
    async def serve_page(request: Request) -> Response:
        return _page(request, filename)

    return serve_page


for _route, _filename in PAGES.items():
    router.add_api_route(_route, _serve(_filename), methods=["GET"])  # type: ignore[arg-type]


@router.get("/table/{table_id}")
async def table_page(request: Request, table_id: TableId) -> Response:
    return _page(request, "table.html")


@router.get("/tournament/{tournament_id}")
async def tournament_page(request: Request, tournament_id: TournamentId) -> Response:
    return _page(request, "tournament.html")


@router.get("/history/{table_id}")
async def history_page(request: Request, table_id: TableId) -> Response:
    return _page(request, "history.html")
