"""The table sockets a process serves, as a part: how many each client address has open, which are open for each
session, closing a session's sockets when it ends (logout, expiry), and the sweep that expires idle sessions.

A process that serves no browsers (a table worker) has none. A gateway gives it ``tell_others``: a session that ends
here is ended on every other gateway too (:class:`~studpoker.server.messages.SessionEnded`), which closes its sockets
there with :meth:`Sockets.end_here`.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from . import wire
from .auth import expire_sessions
from .config import Settings
from .connection import Connection
from .db import Database
from .lifecycle import Loop

__all__ = ["LOGGED_OUT", "Sockets"]

log = logging.getLogger("studpoker.server")

#: The close code of a socket whose session ended (logout, expiry).
LOGGED_OUT = 4401


class Sockets:
    """The open table sockets by session and by client address (see the module's docstring)."""

    def __init__(self, settings: Settings, db: Database, tell_others: Callable[[str, str], None] | None = None) -> None:
        self.settings = settings
        self.db = db
        self.tell_others = tell_others
        self.by_session: dict[str, set[Connection]] = {}  # open table sockets by session (token hash)
        self.by_address: dict[str, int] = {}  # how many table sockets each client address has open
        self._sweeper = Loop("session-sweeper", self._sweep_forever)

    async def start(self) -> None:
        await self._sweeper.start()

    async def stop(self) -> None:
        await self._sweeper.stop()

    def open(self, address: str) -> str | None:
        """Count a new table socket from ``address``, or say why it may not open (too many from there, or in all)."""
        settings = self.settings
        if sum(self.by_address.values()) >= settings.max_sockets:
            return f"the room has its maximum of {settings.max_sockets} open table connections: try again later"
        if self.by_address.get(address, 0) >= settings.max_sockets_per_address:
            return f"at most {settings.max_sockets_per_address} table connections from one address: close some"
        self.by_address[address] = self.by_address.get(address, 0) + 1
        return None

    def close(self, address: str) -> None:
        left = self.by_address.get(address, 0) - 1
        if left > 0:
            self.by_address[address] = left
        else:
            self.by_address.pop(address, None)

    def add(self, connection: Connection) -> None:
        if connection.session is not None:
            self.by_session.setdefault(connection.session, set()).add(connection)

    def drop(self, connection: Connection) -> None:
        if connection.session is not None:
            group = self.by_session.get(connection.session)
            if group is not None:
                group.discard(connection)
                if not group:
                    del self.by_session[connection.session]

    def end(self, session: str, reason: str) -> int:
        """Close every socket opened with ``session`` (logged out, expired), here and, given ``tell_others``,
        wherever else the room serves sockets. Returns how many were closed here."""
        if self.tell_others is not None:
            self.tell_others(session, reason)
        return self.end_here(session, reason)

    def end_here(self, session: str, reason: str) -> int:
        """Close this process's sockets opened with ``session``: an ``error`` then close code 4401."""
        group = self.by_session.pop(session, set())
        for connection in group:
            connection.push(wire.encode(wire.error("logged_out", reason)))
            connection.close(LOGGED_OUT)
        return len(group)

    async def sweep(self) -> list[str]:
        """One sweep: sessions with open sockets are in use; expired sessions are deleted and their sockets closed."""
        settings = self.settings
        in_use = list(self.by_session)
        gone = await self.db.run(
            lambda s: expire_sessions(s, in_use, settings.session_idle_seconds, settings.session_max_seconds)
        )
        for session in gone:
            self.end(session, "your session has expired: sign in again")
        return gone

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(self.settings.session_sweep_seconds)
            try:
                await self.sweep()
            except Exception:
                log.exception("the session sweep failed; it runs again in %s s", self.settings.session_sweep_seconds)
