"""Refusals and their one body: every error the card room answers is ``{"error": {"code", "message"}}``.

:class:`ApiError` is what the room's code raises; :func:`install` maps it, FastAPI's validation errors (bad JSON,
wrong types, values out of bounds), Starlette's HTTP errors (unknown paths, wrong methods) and any unexpected
exception to that body, with the codes of docs/server-protocol.md. A path parameter that is not a valid id is
``404 not_found`` (there is no such thing), a body or query that is not valid is ``400``.
"""

from __future__ import annotations

import logging
import re
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

__all__ = ["ApiError", "error_body", "install"]

log = logging.getLogger("studpoker.server")

_CODES = {
    400: "invalid",
    401: "not_logged_in",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    413: "too_large",
    415: "unsupported_media_type",
    429: "rate_limited",
}


class ApiError(Exception):
    """A refused request: ``status`` and ``code`` as in docs/server-protocol.md, ``message`` a sentence for the
    user; nothing changed. ``headers`` go on the response (``Retry-After`` for 429)."""

    def __init__(self, status: int, code: str, message: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers


def error_body(code: str, message: str, details: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """The error envelope."""
    error: dict[str, Any] = {"code": code, "message": message}
    if details:
        error["details"] = details
    return {"error": error}


def _field(loc: tuple[Any, ...]) -> str:
    parts = [str(p) for p in loc if p not in ("body", "query", "path", "header", "cookie")]
    return ".".join(parts) if parts else "the request body"


def _message(error: dict[str, Any]) -> str:
    text = str(error.get("msg", "is not valid"))
    return text.removeprefix("Value error, ")


def _validation(exc: RequestValidationError) -> JSONResponse:
    errors = list(exc.errors())
    if any(e.get("type") == "json_invalid" for e in errors):
        return JSONResponse(error_body("bad_request", "the request body is not valid JSON"), status_code=400)
    for error in errors:
        loc = tuple(error.get("loc", ()))
        if loc[:1] == ("path",):
            raw = str(error.get("input", ""))[:40]
            return JSONResponse(error_body("not_found", f"there is no {_field(loc)} {raw!r}"), status_code=404)
    details = [{"field": _field(tuple(e.get("loc", ()))), "message": _message(e)} for e in errors[:10]]
    first = details[0] if details else {"field": "the request", "message": "is not valid"}
    message = first["message"] if first["field"] == "the request body" else f"{first['field']}: {first['message']}"
    return JSONResponse(error_body("invalid", message, details), status_code=400)


def _methods(request: Request) -> set[str]:
    """Every method the API's schema documents at the request's path (for a 405's ``Allow``; the routes of one
    path are separate routes, each knowing its own method only)."""
    patterns: list[tuple[re.Pattern[str], set[str]]] | None = getattr(request.app.state, "allow", None)
    if patterns is None:
        patterns = []
        for template, operations in request.app.openapi().get("paths", {}).items():
            regex = re.sub(r"\\\{.*?\\\}", "[^/]+", re.escape(template))
            methods = {m.upper() for m in operations}
            patterns.append((re.compile(f"^{regex}$"), methods | ({"HEAD"} if "GET" in methods else set())))
        request.app.state.allow = patterns
    path = request.url.path
    return set().union(*(methods for pattern, methods in patterns if pattern.match(path)))


def install(app: FastAPI) -> None:
    """Answer every error of ``app`` with the envelope."""

    @app.exception_handler(ApiError)
    async def _api_error(_request: Request, exc: ApiError) -> JSONResponse:
        return JSONResponse(error_body(exc.code, exc.message), status_code=exc.status, headers=exc.headers)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
        return _validation(exc)

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = _CODES.get(exc.status_code, "error")
        if exc.status_code == 404:
            message = f"there is nothing at {request.url.path[:100]}"
        elif exc.status_code == 405:
            message = f"{request.method} is not allowed on {request.url.path[:100]}"
            allowed = _methods(request)
            if allowed:
                return JSONResponse(
                    error_body(code, message), status_code=405, headers={"Allow": ", ".join(sorted(allowed))}
                )
        else:
            message = str(exc.detail)
        headers = dict(exc.headers) if exc.headers else None
        return JSONResponse(error_body(code, message), status_code=exc.status_code, headers=headers)

    @app.exception_handler(Exception)
    async def _crash(request: Request, exc: Exception) -> JSONResponse:
        log.error("%s %s failed", request.method, request.url.path, exc_info=exc)
        return JSONResponse(error_body("internal", "the server failed on this request (it is logged)"), status_code=500)
