"""The card room: a multiplayer web stud room (``stud serve``), installed with the ``server`` extra.

* :mod:`~studpoker.server.app`: :func:`create_app`, the FastAPI application; :mod:`~studpoker.server.routes` (one
  router per area), :mod:`~studpoker.server.schemas` (the bodies), :mod:`~studpoker.server.deps` (dependencies),
  :mod:`~studpoker.server.socket` (the table WebSocket).
* :mod:`~studpoker.server.security`, :mod:`~studpoker.server.errors`, :mod:`~studpoker.server.limits`,
  :mod:`~studpoker.server.names`, :mod:`~studpoker.server.throttle`: the CSRF rule and headers, the one error body,
  the documented maximums, names, rate limits.
* :mod:`~studpoker.server.room` and :mod:`~studpoker.server.actor`: one asyncio actor per table, the single
  writer of its :class:`~studpoker.table.Table`; recovery of hands cut short by a stop. The actor's parts, which
  know no room: :mod:`~studpoker.server.viewers`, :mod:`~studpoker.server.clock`, :mod:`~studpoker.server.books`,
  :mod:`~studpoker.server.cashier`, sharing a :mod:`~studpoker.server.context`.
* The room's parts, which its three forms (:mod:`~studpoker.server.room`, :mod:`~studpoker.server.gateway`,
  :mod:`~studpoker.server.worker`) wire: :mod:`~studpoker.server.lifecycle`, :mod:`~studpoker.server.front`,
  :mod:`~studpoker.server.sockets`, :mod:`~studpoker.server.tablehost`, :mod:`~studpoker.server.directory`,
  :mod:`~studpoker.server.remotedirectory`, :mod:`~studpoker.server.tablemaker`, :mod:`~studpoker.server.leasekeeper`.
* :mod:`~studpoker.server.db`, :mod:`~studpoker.server.ledger`, :mod:`~studpoker.server.auth`: SQLAlchemy models
  and Alembic migrations, the double-entry chip ledger, accounts and sessions; :mod:`~studpoker.server.manage`:
  ``stud admin``.
* :mod:`~studpoker.server.wire`: the WebSocket messages (docs/server-protocol.md).

``import studpoker`` never imports this package; importing it needs FastAPI, SQLAlchemy, Alembic, argon2-cffi and
zxcvbn.
"""

from .config import Settings

__all__ = ["Settings", "create_app"]


def __getattr__(name: str) -> object:
    if name == "create_app":
        from .app import create_app

        return create_app
    raise AttributeError(name)
