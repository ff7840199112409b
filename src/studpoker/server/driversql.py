"""Statements run on the database driver's own cursor: the few that every hand of every table writes.

SQLAlchemy spends more CPU on a Core statement than the driver does (the statement's cache key, the lookup of its
compiled form, the processing of each parameter, the wrapping of the result): measured on PostgreSQL, a
transaction of three short statements cost 330 µs of a table worker's CPU through a Core connection and 190 µs on
the driver's cursor. A table writes about six such statements a hand, which made its books a fifth of a worker's
CPU. A :class:`DriverStatement` is written once in SQL with ``:name`` parameters, put into the driver's parameter
style once per dialect (SQLite takes ``:name``, psycopg ``%(name)s``) and run on the cursor of the session's own
connection, inside its transaction, or in a :class:`DriverTransaction`: a pooled connection's own transaction,
without a session at all (a session's beginning, connection and commit cost about as much again: 100 µs of the
250 to 330 of such a transaction). Everything that is not on that path stays on SQLAlchemy.

The parameters are what both drivers take as they are: numbers, strings, booleans and ``None``; a JSON column's
value goes as its text (:func:`json_text`), a time as a ``datetime`` (written in SQLAlchemy's own text form on
SQLite, which keeps times as text).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any, cast

import orjson
from sqlalchemy.orm import Session

__all__ = ["DriverStatement", "DriverTransaction", "json_text"]

_PARAMETER = re.compile(r"(?<![:\w]):([a-z_][a-z0-9_]*)")


def json_text(value: object) -> str:
    """A JSON column's value as the text a driver writes into it.

    >>> json_text([{"seat": 1, "end": None}])
    '[{"seat":1,"end":null}]'
    """
    return orjson.dumps(value).decode()


def styled(sql: str, dialect: str) -> str:
    """``sql`` (with ``:name`` parameters) in the parameter style of ``dialect``'s driver.

    >>> styled("UPDATE t SET a = :a WHERE id = :id", "postgresql")
    'UPDATE t SET a = %(a)s WHERE id = %(id)s'
    >>> styled("SELECT x::int FROM t WHERE id = :id", "sqlite")
    'SELECT x::int FROM t WHERE id = :id'
    """
    if dialect == "sqlite":
        return sql
    if dialect == "postgresql":
        return _PARAMETER.sub(r"%(\1)s", sql.replace("%", "%%"))
    raise ValueError(f"no driver statements for the {dialect!r} dialect (the room runs on SQLite or PostgreSQL)")


def _sqlite(params: Mapping[str, Any]) -> dict[str, Any]:
    # SQLAlchemy keeps a time on SQLite as text in this form, and reads back only that
    return {
        name: f"{value:%Y-%m-%d %H:%M:%S.%f}" if isinstance(value, datetime) else value
        for name, value in params.items()
    }


class DriverTransaction:
    """A transaction on a pooled DBAPI ``connection`` of the ``dialect`` named, for work made of driver statements
    alone (:meth:`studpoker.server.db.Database.run_driver` opens, commits and closes it)."""

    __slots__ = ("connection", "dialect")

    def __init__(self, connection: Any, dialect: str) -> None:
        self.connection = connection
        self.dialect = dialect


class DriverStatement:
    """One statement, ``sql`` with ``:name`` parameters, run on the driver's cursor in a session's transaction or in
    a :class:`DriverTransaction`.

    >>> from sqlalchemy import create_engine
    >>> engine = create_engine("sqlite://")
    >>> with Session(engine) as session, session.begin():
    ...     _ = DriverStatement("CREATE TABLE t (id INTEGER, note TEXT)").run(session)
    ...     DriverStatement("INSERT INTO t VALUES (:id, :note)").run_many(session, [{"id": 1, "note": "a"}])
    ...     changed = DriverStatement("UPDATE t SET note = :note WHERE id = :id").run(session, {"id": 1, "note": "b"})
    ...     changed, DriverStatement("SELECT note FROM t WHERE id = :id").first(session, {"id": 1})
    (1, ('b',))
    """

    __slots__ = ("_forms", "sql")

    def __init__(self, sql: str) -> None:
        self.sql = sql
        self._forms: dict[str, str] = {}

    def _cursor(self, where: Session | DriverTransaction) -> tuple[Any, str, bool]:
        if type(where) is DriverTransaction:
            dbapi, dialect = where.connection, where.dialect
        else:
            connection = cast(Session, where).connection()
            dbapi, dialect = connection.connection, connection.dialect.name
        form = self._forms.get(dialect)
        if form is None:
            form = self._forms[dialect] = styled(self.sql, dialect)
        return dbapi.cursor(), form, dialect == "sqlite"

    def run(self, where: Session | DriverTransaction, params: Mapping[str, Any] | None = None) -> int:
        """Run the statement once; the rows it changed (as the driver counts them)."""
        cursor, form, sqlite = self._cursor(where)
        try:
            cursor.execute(form, _sqlite(params or {}) if sqlite else (params or {}))
            return int(cursor.rowcount)
        finally:
            cursor.close()

    def run_many(self, where: Session | DriverTransaction, rows: Sequence[Mapping[str, Any]]) -> None:
        """Run the statement once for each of ``rows`` (the driver sends them together where it can)."""
        if not rows:
            return
        cursor, form, sqlite = self._cursor(where)
        try:
            cursor.executemany(form, [_sqlite(row) for row in rows] if sqlite else rows)
        finally:
            cursor.close()

    def first(
        self, where: Session | DriverTransaction, params: Mapping[str, Any] | None = None
    ) -> tuple[Any, ...] | None:
        """Run a query; its first row, or ``None``."""
        cursor, form, sqlite = self._cursor(where)
        try:
            cursor.execute(form, _sqlite(params or {}) if sqlite else (params or {}))
            row = cursor.fetchone()
            return None if row is None else tuple(row)
        finally:
            cursor.close()
