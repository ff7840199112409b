"""The HTTP API by area, one :class:`fastapi.APIRouter` each: ``auth`` (accounts and sessions), ``lobby`` (the
table list, presets, opening a table), ``tables`` (seats, chips, bots, closing), ``history`` (finished hands),
``admin`` (accounts and the books), and ``pages`` (the browser client and the API's own docs)."""

from __future__ import annotations

from typing import Any

from ..schemas import ErrorBody

__all__ = ["errors"]

_WHAT = {
    400: "the request is not valid (the message says what is wrong and where)",
    401: "no valid session: sign in",
    402: "not enough chips in the balance",
    403: "not allowed: another site's request (csrf), not the table's manager or an admin, or not in this room",
    404: "no such table or hand",
    409: "in conflict with the state: seat taken, already seated, name taken, a limit reached",
    413: "the request body is too large",
    429: "too many attempts: wait for Retry-After seconds",
    503: "busy or between owners: try again after Retry-After seconds",
}


def errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """The documented error answers of a route (each with the one error body)."""
    return {status: {"model": ErrorBody, "description": _WHAT[status]} for status in statuses}
