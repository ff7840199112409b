"""Training tables' equities: a finished hand's streets (:func:`studpoker.equity.streets.hand_streets`),
computed off the event loop the first time somebody asks, then stored with the hand.

The work is bounded: one hand is computed at a time per process (a few tenths of a second at most: every equity
is exact or :data:`~studpoker.equity.streets.TRIALS` trials), a hand asked for by many at once is computed once,
and at most :data:`MAX_WAITING` hands wait; beyond that the asker gets 503 with ``Retry-After``.
"""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Protocol

from sqlalchemy import update
from sqlalchemy.orm import Session

from .db import HandRow, Runner
from .errors import ApiError

__all__ = ["MAX_WAITING", "EquityDesk", "Stores", "streets_of"]

#: Hands waiting for their equities beyond which a request is answered 503.
MAX_WAITING = 16

log = logging.getLogger("studpoker.server")


def streets_of(phh_text: str, players: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The hand's streets as the API gives them (``EquityStreet``): engine players named by seat and name."""
    from ..equity.streets import hand_streets
    from ..history import phh
    from ..history.replay import replay

    state = replay(phh.loads_hand(phh_text)).state
    out = []
    for street in hand_streets(state):
        data = street.to_dict()
        for player in data["players"]:
            who = players[player.pop("player")]
            player["seat"], player["name"] = int(who["seat"]), str(who["name"])
        out.append(data)
    return out


class Stores(Protocol):
    """Where the desk stores what it computed: a room (any with a database)."""

    @property
    def db(self) -> Runner: ...


class EquityDesk:
    """One per room: the thread that computes, and the hands being computed (so each is computed once)."""

    def __init__(self) -> None:
        self._pending: dict[int, asyncio.Future[list[dict[str, Any]]]] = {}
        self._executor: ThreadPoolExecutor | None = None
        self._closed = False

    async def streets(self, room: Stores, row: HandRow) -> list[dict[str, Any]]:
        """The hand's streets: stored, being computed (awaited), or computed now and stored."""
        if row.equity is not None:
            return row.equity
        if self._closed:
            raise _busy("the room is stopping: try again shortly")
        pending = self._pending.get(row.id)
        if pending is None:
            if len(self._pending) >= MAX_WAITING:
                raise _busy("the equities of too many hands are being computed: try again shortly")
            pending = asyncio.get_running_loop().create_future()
            pending.add_done_callback(lambda f: f.cancelled() or f.exception())  # retrieved even if nobody waits
            self._pending[row.id] = pending
            asyncio.get_running_loop().create_task(self._compute(room, row, pending))
        return await asyncio.shield(pending)

    async def _compute(self, room: Stores, row: HandRow, done: asyncio.Future[list[dict[str, Any]]]) -> None:
        hand_id, text, players = row.id, row.phh or "", list(row.players)
        try:
            if self._executor is None:
                self._executor = ThreadPoolExecutor(1, thread_name_prefix="studpoker-equity")
            loop = asyncio.get_running_loop()
            try:
                streets = await loop.run_in_executor(self._executor, streets_of, text, players)
            except Exception:  # a stored hand that does not replay: say so, never a traceback to the asker
                log.exception("table %s hand %s: its equities could not be computed", row.table_id, row.number)
                done.set_exception(ApiError(404, "not_found", f"hand {row.number}'s history cannot be analysed"))
                return

            def store(session: Session) -> None:
                session.execute(update(HandRow).where(HandRow.id == hand_id).values(equity=streets))

            try:
                await room.db.run(store)
            except Exception as error:  # the answer stands; it is computed again next time
                log.warning("table %s hand %s: its equities were not stored: %s", row.table_id, row.number, error)
            done.set_result(streets)
        finally:  # cancelled (the room is stopping) or anything else unforeseen: nobody is left waiting
            if not done.done():
                done.set_exception(_busy("the room is stopping: try again shortly"))
            self._pending.pop(hand_id, None)

    def close(self) -> None:
        """Stop the thread (the room is shutting down): whoever still waits is answered 503."""
        self._closed = True
        for pending in self._pending.values():
            if not pending.done():
                pending.set_exception(_busy("the room is stopping: try again shortly"))
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)


def _busy(message: str) -> ApiError:
    return ApiError(503, "unavailable", message, {"Retry-After": "2"})
