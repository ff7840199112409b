"""The card room's database: SQLAlchemy 2 models, the engine, migrations, and the single DB worker thread.

Tables (see docs/server.md): ``accounts`` (with a cached ``balance`` kept equal to the ledger), ``sessions``
(login tokens, stored as SHA-256 hashes), ``notes`` (a player's private notes on other players), ``ledger``
(double-entry: each row moves ``amount`` from one ledger account to another), ``tables`` (the sign: variant,
preset, stakes), ``seats`` (who sits where with how many chips, between hands) and ``hands`` (every hand:
started, finished with its PHH, or voided).

The schema is created by Alembic migrations (``migrations/``), run to ``head`` by :func:`migrate` when the
server starts. All database work of a running server goes through :class:`Database`'s single worker thread,
so the event loop never waits on disk and SQLite sees one writer.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import select
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol, TypeVar

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    CheckConstraint,
    DateTime,
    Engine,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    create_engine,
    event,
    false,
    text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, sessionmaker

from .._extras import install_hint
from .driversql import DriverTransaction
from .limits import MAX_BALANCE, MAX_NAME_KEY

__all__ = [
    "Account",
    "Base",
    "Database",
    "EntryRow",
    "HandRow",
    "LeaseRow",
    "LedgerEntry",
    "NoteRow",
    "Runner",
    "SeatRow",
    "SessionRow",
    "TableRow",
    "TournamentRow",
    "check_database",
    "make_engine",
    "migrate",
    "safe_url",
    "utcnow",
]

T = TypeVar("T")


def utcnow() -> datetime:
    """Now, in UTC, without microseconds noise in the API (ISO strings end in ``Z``)."""
    return datetime.now(UTC).replace(tzinfo=None)


class Base(DeclarativeBase):
    """The models' base."""


class Account(Base):
    """A player's account. ``balance`` is the chips not at a table; it always equals the ledger's sum for
    ``user:<id>`` (checked by :func:`studpoker.server.ledger.check_invariants`), never goes below 0 nor above
    :data:`~studpoker.server.limits.MAX_BALANCE`. ``is_admin``: may manage every table and see every card.
    ``preferences``: the account's settings of the browser client (:class:`~studpoker.server.schemas.Preferences`
    as JSON; ``None``: the defaults)."""

    __tablename__ = "accounts"
    __table_args__ = (
        CheckConstraint("balance >= 0", name="balance_not_negative"),
        CheckConstraint(f"balance <= {MAX_BALANCE}", name="balance_bounded"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    username: Mapped[str] = mapped_column(String(40))
    # the name's two keys (studpoker.server.names): no two accounts share either, so no two names look alike
    username_key: Mapped[str] = mapped_column(String(40), unique=True)
    username_look: Mapped[str] = mapped_column(String(40), unique=True)
    password_hash: Mapped[str] = mapped_column(String(255))
    balance: Mapped[int] = mapped_column(BigInteger, default=0)
    is_admin: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    preferences: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)


class NoteRow(Base):
    """A player's private note on another player (``subject``, as shown at the tables; ``subject_key`` its
    :func:`~studpoker.server.names.name_key`, unique per author). Only its author ever reads it."""

    __tablename__ = "notes"
    __table_args__ = (UniqueConstraint("account_id", "subject_key", name="one_note_per_subject"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    subject: Mapped[str] = mapped_column(String(40))
    subject_key: Mapped[str] = mapped_column(String(160))  # a skeleton may be longer than the name ("m": "rn")
    text: Mapped[str] = mapped_column(Text)
    updated_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)


class SessionRow(Base):
    """A login: the SHA-256 of the cookie's token (a stolen database does not give working cookies). It ends
    ``session_idle_seconds`` after ``last_seen_at`` or ``session_max_seconds`` after ``created_at``."""

    __tablename__ = "sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    last_seen_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)


class LedgerEntry(Base):
    """One movement of ``amount`` chips from ledger account ``source`` to ledger account ``target``.

    Ledger accounts are names: ``house`` (the play-money source), ``user:<id>`` (a balance), ``table:<id>``
    (every chip at a table: stacks, queued top-ups and pots). A row is both the debit and the credit, so the
    accounts always sum to zero. ``kind``: grant, buy_in, top_up, cash_out, bot_buy_in, bot_top_up,
    bot_cash_out, void (a memo row, table to itself: chips returned to a stack when a hand was voided).
    """

    __tablename__ = "ledger"
    __table_args__ = (CheckConstraint("amount >= 0", name="amount_not_negative"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    source: Mapped[str] = mapped_column(String(40), index=True)
    target: Mapped[str] = mapped_column(String(40), index=True)
    amount: Mapped[int] = mapped_column(BigInteger)
    kind: Mapped[str] = mapped_column(String(20))
    table_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    hand_number: Mapped[int | None] = mapped_column(Integer, nullable=True)
    memo: Mapped[str] = mapped_column(String(200), default="")


class TableRow(Base):
    """A table's sign and counters. ``hand_number`` is the last hand dealt (finished or voided). ``status``:
    ``open``, ``closing`` (no new hand; everyone is cashed out when the one in play ends) or ``closed``.
    ``name_key`` and ``name_look`` (the name's keys, :mod:`studpoker.server.names`) are each unique among tables
    not closed (``MAX_NAME_KEY`` wide: a key may be longer than its name). ``showdown_seconds``: the pause after a
    hand shown down (``None``, a table from before it was chosen: ``Settings.showdown_seconds``). ``training``: a
    training table (practice chips from the house, every card of a finished hand public, the replayer's equities).
    ``chat``: the last chat lines, saved at the end of each hand and when a worker hands the table over.
    ``rotation``: a mixed table's games (:meth:`studpoker.rotation.Rotation.to_json`; the variant and stakes columns
    are then its first game's) and ``turn`` where it stands after the last finished hand."""

    __tablename__ = "tables"
    __table_args__ = (
        Index(
            "one_open_table_per_name",
            "name_key",
            unique=True,
            sqlite_where=text("status != 'closed'"),
            postgresql_where=text("status != 'closed'"),
        ),
        Index(
            "one_open_table_per_look",
            "name_look",
            unique=True,
            sqlite_where=text("status != 'closed'"),
            postgresql_where=text("status != 'closed'"),
        ),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(60))
    name_key: Mapped[str | None] = mapped_column(String(MAX_NAME_KEY), nullable=True)
    name_look: Mapped[str | None] = mapped_column(String(MAX_NAME_KEY), nullable=True)
    variant: Mapped[str] = mapped_column(String(12))
    preset: Mapped[str] = mapped_column(String(20))
    ante: Mapped[int] = mapped_column(BigInteger)
    bring_in: Mapped[int] = mapped_column(BigInteger)
    small_bet: Mapped[int] = mapped_column(BigInteger)
    big_bet: Mapped[int] = mapped_column(BigInteger)
    min_buy_in: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    max_buy_in: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    hand_number: Mapped[int] = mapped_column(Integer, default=0)
    created_by: Mapped[int | None] = mapped_column(Integer, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    status: Mapped[str] = mapped_column(String(10), default="open", index=True)
    closed_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    showdown_seconds: Mapped[float | None] = mapped_column(Float, nullable=True)
    training: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    chat: Mapped[list[dict[str, Any]] | None] = mapped_column(JSON, nullable=True)  # the last chat lines
    waiting: Mapped[list[list[Any]] | None] = mapped_column(JSON, nullable=True)  # the waiting list, carried
    rotation: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)  # a mixed table's games
    turn: Mapped[dict[str, int] | None] = mapped_column(JSON, nullable=True)  # where its rotation stands
    tournament_id: Mapped[int | None] = mapped_column(Integer, nullable=True, index=True)  # a tournament's table
    tournament_table: Mapped[int | None] = mapped_column(Integer, nullable=True)  # its number in the tournament


class TournamentRow(Base):
    """A tournament (docs/server.md "Tournaments"): its game, ``structure`` (levels and breaks, as
    ``studpoker.tournament.Structure.to_json``), buy-in, seats a table, the most entries (a sit-and-go: one table,
    dealt when full), ``starts_at`` (a scheduled one), ``status`` (``registering``, ``running``, ``finished``,
    ``cancelled``), when play began (the clock's zero) and ended, the hand-for-hand round (``None``: not
    hand-for-hand), the tables that deal no hand until players have moved (``paused``), and its draws' seed."""

    __tablename__ = "tournaments"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(60))
    kind: Mapped[str] = mapped_column(String(12))  # sit_and_go or scheduled
    variant: Mapped[str] = mapped_column(String(12))
    structure: Mapped[dict[str, Any]] = mapped_column(JSON)
    buy_in: Mapped[int] = mapped_column(BigInteger)
    seats: Mapped[int] = mapped_column(Integer)
    max_entries: Mapped[int] = mapped_column(Integer)
    starts_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    status: Mapped[str] = mapped_column(String(12), default="registering", index=True)
    started_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    hand_round: Mapped[int | None] = mapped_column(Integer, nullable=True)
    paused: Mapped[list[int] | None] = mapped_column(JSON, nullable=True)  # tables that deal no hand (moves due)
    payouts: Mapped[list[float] | None] = mapped_column(JSON, nullable=True)  # its own percentages by place
    runner: Mapped[str | None] = mapped_column(String(80), nullable=True)  # the process that runs it now
    runner_until: Mapped[float] = mapped_column(Float, default=0.0)  # its claim's end, by the database's clock
    seed: Mapped[int] = mapped_column(BigInteger, default=0)
    created_by: Mapped[int | None] = mapped_column(Integer, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)


class EntryRow(Base):
    """One buy-in to a tournament: an account's or a bot's (``bot_tag``), which of the player's entries it is
    (``number``: 2 after a re-entry...), its ``status`` (``registered``, ``playing``, ``out``), and once out the
    stack it started its last hand with, the hand it went out in (``out_table``, ``out_hand``, ``out_round``: the
    hand-for-hand round, ``out_at``), the order it went out in (``out_seq``: equal for players out in one hand, or
    one hand-for-hand round, who started it with the same stack), its ``place`` (given once registration has closed:
    places count from the bottom) and its ``prize``."""

    __tablename__ = "tournament_entries"
    __table_args__ = (UniqueConstraint("tournament_id", "name", "number", name="one_entry_per_name"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"), index=True)
    account_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id"), nullable=True)
    bot_tag: Mapped[str | None] = mapped_column(String(40), nullable=True)
    name: Mapped[str] = mapped_column(String(40))
    number: Mapped[int] = mapped_column(Integer, default=1)
    status: Mapped[str] = mapped_column(String(12), default="registered")
    out_seq: Mapped[int | None] = mapped_column(Integer, nullable=True)
    place: Mapped[int | None] = mapped_column(Integer, nullable=True)
    busted_from: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    out_table: Mapped[int | None] = mapped_column(Integer, nullable=True)
    out_hand: Mapped[int | None] = mapped_column(Integer, nullable=True)
    out_round: Mapped[int | None] = mapped_column(Integer, nullable=True)
    out_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    prize: Mapped[int] = mapped_column(BigInteger, default=0)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)


class SeatRow(Base):
    """An occupied seat as of the last state change the table saved (between hands: stacks before the hand in
    play). Exactly one of ``account_id`` and ``bot_tag`` is set. ``time_bank``: the seat's time bank as the last hand
    left it (``None``: full)."""

    __tablename__ = "seats"
    __table_args__ = (
        UniqueConstraint("table_id", "account_id", name="one_seat_per_account"),
        CheckConstraint("stack >= 0 AND queued >= 0", name="chips_not_negative"),
    )

    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    account_id: Mapped[int | None] = mapped_column(ForeignKey("accounts.id"), nullable=True)
    bot_tag: Mapped[str | None] = mapped_column(String(40), nullable=True)
    name: Mapped[str] = mapped_column(String(40))
    stack: Mapped[int] = mapped_column(BigInteger)
    queued: Mapped[int] = mapped_column(BigInteger, default=0)
    sitting_out: Mapped[bool] = mapped_column(Boolean, default=False)
    leaving: Mapped[bool] = mapped_column(Boolean, default=False)
    time_bank: Mapped[float | None] = mapped_column(Float, nullable=True)  # None: a full bank


class HandRow(Base):
    """A hand: ``playing`` from the deal (with the stacks it started from), then ``finished`` (with its PHH and
    the final stacks) or ``voided`` (cut short by a server stop; the chips went back). ``equity``: at a training
    table, the equities street by street, computed when first asked for (``None`` until then)."""

    __tablename__ = "hands"
    __table_args__ = (UniqueConstraint("table_id", "number", name="one_hand_number_per_table"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(10), index=True)
    started_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    players: Mapped[list[dict[str, Any]]] = mapped_column(JSON)  # [{seat, name, start, end, account_id}]
    pot: Mapped[int] = mapped_column(BigInteger, default=0)
    winners: Mapped[list[int]] = mapped_column(JSON, default=list)
    phh: Mapped[str | None] = mapped_column(Text, nullable=True)
    equity: Mapped[list[dict[str, Any]] | None] = mapped_column(JSON, nullable=True)  # a training hand's streets


class LeaseRow(Base):
    """Which table worker drives a table (the distributed room: docs/server.md). ``generation`` grows by one at
    each change of owner and fences every write of the owner (:mod:`studpoker.server.lease`); ``expires_at`` is
    in seconds since the epoch by the database's clock, so no two hosts need agree on the time."""

    __tablename__ = "table_leases"

    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True)
    worker: Mapped[str | None] = mapped_column(String(64), nullable=True)
    generation: Mapped[int] = mapped_column(BigInteger, default=0)
    expires_at: Mapped[float] = mapped_column(Float, default=0.0)


def make_engine(url: str) -> Engine:
    """An SQLAlchemy engine; SQLite gets WAL, a busy timeout and foreign keys (it is shared by threads)."""
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

        @event.listens_for(engine, "connect")
        def _pragmas(connection: Any, _record: Any) -> None:
            cursor = connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

        return engine
    engine = create_engine(url, pool_size=8, max_overflow=4)
    event.listen(engine, "checkin", _checked_in)
    dialect = engine.dialect

    @event.listens_for(engine, "checkout")
    def _checkout(dbapi_connection: Any, record: Any, _proxy: Any) -> None:
        alive_or_replaced(dialect, dbapi_connection, record)

    return engine


#: A pooled connection idle for longer than this is pinged (a round trip) when it is checked out: a firewall or a
#: network may have dropped it silently. One used more recently is checked by :func:`server_closed` only.
PING_AFTER_IDLE = 10.0


def server_closed(dbapi_connection: Any) -> bool:
    """Whether the server has closed this idle connection (restarted, or ended the session), seen without a round
    trip: the socket of an idle PostgreSQL connection has nothing to read unless the server said goodbye (its
    ``FATAL`` message, then the end of the stream). Anything to read counts as closed (a notice we never asked for:
    the connection is replaced, which is merely a new connection)."""
    if getattr(dbapi_connection, "closed", False) or getattr(dbapi_connection, "broken", False):
        return True
    try:
        fd = dbapi_connection.fileno()
    except Exception:
        return True
    if hasattr(select, "poll"):  # not select(): a process with many sockets has descriptors past FD_SETSIZE
        poller = select.poll()
        poller.register(fd, select.POLLIN | select.POLLPRI | select.POLLERR | select.POLLHUP)
        return bool(poller.poll(0))
    readable, _, broken = select.select([fd], [], [fd], 0)
    return bool(readable or broken)


def _checked_in(_dbapi_connection: Any, record: Any) -> None:
    if record is not None:
        record.info["studpoker_idle_since"] = time.monotonic()


def alive_or_replaced(dialect: Any, dbapi_connection: Any, record: Any) -> None:
    """The pool's check before it hands out a PostgreSQL connection, in place of SQLAlchemy's ``pool_pre_ping``,
    which costs a round trip on every checkout (two of the dozen or so a dealt hand makes): a connection the server
    closed is replaced, with no round trip for one used in the last :data:`PING_AFTER_IDLE` seconds."""
    from sqlalchemy.exc import DisconnectionError

    if server_closed(dbapi_connection):
        raise DisconnectionError("the database closed this connection")  # the pool discards it and connects again
    since = record.info.get("studpoker_idle_since")  # none yet: a connection just made
    if since is not None and time.monotonic() - since > PING_AFTER_IDLE:
        try:
            dialect.do_ping(dbapi_connection)
        except Exception as error:
            if dialect.is_disconnect(error, dbapi_connection, None):
                raise DisconnectionError(f"the database did not answer a ping: {error}") from error
            raise


def migrate(engine: Engine) -> None:
    """Bring the database schema to the latest Alembic revision (a fresh database gets every table).

    On SQLite, foreign keys are off while the migrations run: a revision that changes a table rebuilds it (copy,
    drop, rename), and with them on, dropping ``accounts`` would cascade to every session. They are checked
    (``PRAGMA foreign_key_check``) before the migration commits.
    """
    from alembic import command
    from alembic.config import Config

    config = Config()  # the migrations run on the connection below; no URL goes through Alembic's config parser
    config.set_main_option("script_location", str(Path(__file__).parent / "migrations").replace("%", "%%"))
    sqlite = engine.dialect.name == "sqlite"
    with engine.connect() as connection:
        if sqlite:
            connection.exec_driver_sql("PRAGMA foreign_keys=OFF")  # outside any transaction: it takes effect
            connection.commit()
        try:
            with connection.begin():
                if engine.dialect.name == "postgresql":  # processes starting together migrate one at a time
                    connection.exec_driver_sql("SELECT pg_advisory_xact_lock(7461281)")
                config.attributes["connection"] = connection
                command.upgrade(config, "head")
                if sqlite:
                    broken = connection.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
                    if broken:
                        raise RuntimeError(f"the migration broke foreign keys: {broken[:5]}")
        finally:
            if sqlite:
                connection.exec_driver_sql("PRAGMA foreign_keys=ON")
                connection.commit()


def safe_url(url: str) -> str:
    """A database URL fit to print: the password replaced by ``***`` (and nothing of a URL that does not parse).

    >>> safe_url("postgresql+psycopg://stud:secret@db.example/room")
    'postgresql+psycopg://stud:***@db.example/room'
    """
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        return make_url(url).render_as_string(hide_password=True)
    except (ArgumentError, ValueError):
        return "(a URL that does not parse)"


def check_database(url: str) -> str | None:
    """Open the database at ``url`` and bring its schema up to date; ``None`` if that worked, else one line
    saying what is wrong (no driver, no such directory, not a database, cannot connect...), for ``stud serve``
    to print instead of a traceback."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError, DatabaseError, NoSuchModuleError, OperationalError

    shown = safe_url(url)
    try:
        parsed = make_url(url)
    except (ArgumentError, ValueError):
        return "--db is not a database URL: give sqlite:///path.db or postgresql+psycopg://user:password@host/name"
    if parsed.get_backend_name() == "sqlite":
        if parsed.database in (None, "", ":memory:") or "mode=memory" in url:
            return "--db names an in-memory SQLite database, which would be lost when the server stops: give a file"
        try:
            folder = Path(parsed.database).expanduser().resolve().parent
            missing = not folder.is_dir()
        except OSError as error:
            return f"cannot use the SQLite database {parsed.database[:100]}: {error.strerror or error}"
        if missing:
            return f"cannot create the SQLite database {parsed.database}: the directory {folder} does not exist"
    try:
        engine = make_engine(url)
    except (NoSuchModuleError, ImportError) as error:
        hint = f" ({install_hint('postgres')})" if parsed.get_backend_name() == "postgresql" else ""
        return f"no database driver for {parsed.drivername}: {_first_line(error)}{hint}"
    except Exception as error:  # a URL SQLAlchemy parses but cannot use (odd query parameters...)
        return f"cannot use the database {shown}: {_first_line(error)}"
    try:
        with engine.connect() as connection:
            connection.exec_driver_sql("SELECT 1")
            if engine.dialect.name == "sqlite":
                connection.exec_driver_sql("PRAGMA schema_version")
        migrate(engine)
    except (NoSuchModuleError, ImportError) as error:
        return f"no database driver for {parsed.drivername}: {_first_line(error)}"
    except OperationalError as error:
        return f"cannot open the database {shown}: {_first_line(getattr(error, 'orig', None) or error)}"
    except DatabaseError as error:
        return f"{shown} is not a usable database: {_first_line(getattr(error, 'orig', None) or error)}"
    except Exception as error:  # whatever else stops it: said in one line, never a traceback
        return f"the database {shown} could not be opened and brought up to date: {_first_line(error)}"
    finally:
        engine.dispose()
    return None


def _first_line(error: object) -> str:
    text = str(error).strip()
    return text.splitlines()[0][:300] if text else type(error).__name__


class Runner(Protocol):
    """What a table's actor needs of the database: run one unit of work in one transaction (``run_driver``: work
    made of driver statements alone, without a session)."""

    async def run(self, work: Callable[[Session], T]) -> T: ...

    async def run_driver(self, work: Callable[[DriverTransaction], T]) -> T: ...


class Database:
    """The engine, a session factory, and one worker thread that runs every unit of database work.

    :meth:`run` executes ``work(session)`` in that thread inside one transaction (committed if it returns,
    rolled back if it raises) and gives back its result, awaitable from the event loop. ``threads``: more than one
    on PostgreSQL, where the tables' transactions may run side by side (each table still awaits its own in
    order); SQLite has one writer, so one thread.
    """

    def __init__(self, url: str, threads: int = 1) -> None:
        self.url = url
        self.engine = make_engine(url)
        self.sessions = sessionmaker(self.engine, expire_on_commit=False)
        count = 1 if self.engine.dialect.name == "sqlite" else max(1, threads)
        self._worker = concurrent.futures.ThreadPoolExecutor(max_workers=count, thread_name_prefix="studpoker-db")

    def migrate(self) -> None:
        migrate(self.engine)

    def transaction(self, work: Callable[[Session], T]) -> T:
        """Run ``work`` in one transaction, here and now (in the calling thread)."""
        with self.sessions.begin() as session:
            return work(session)

    async def run(self, work: Callable[[Session], T]) -> T:
        """Run ``work`` in one transaction on the database thread."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._worker, self.transaction, work)

    def driver_transaction(self, work: Callable[[DriverTransaction], T]) -> T:
        """Run ``work`` in one transaction on a pooled connection of the driver's own, here and now: committed if
        it returns, rolled back if it raises (a connection found broken is dropped from the pool instead)."""
        connection = self.engine.raw_connection()
        try:
            try:
                result = work(DriverTransaction(connection, self.engine.dialect.name))
            except Exception as error:
                dialect = self.engine.dialect
                broken = isinstance(error, dialect.loaded_dbapi.Error) and dialect.is_disconnect(
                    error, connection.dbapi_connection, None
                )
                try:
                    if not broken:
                        connection.rollback()
                except Exception:
                    broken = True
                if broken:
                    connection.invalidate(error)
                raise
            connection.commit()
            return result
        finally:
            connection.close()

    async def run_driver(self, work: Callable[[DriverTransaction], T]) -> T:
        """:meth:`driver_transaction` on the database thread: the hot path of every hand's writes."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._worker, self.driver_transaction, work)

    async def run_plain(self, work: Callable[[], T]) -> T:
        """Run ``work()`` on the database thread (for work that opens its own connection, e.g. migrations)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._worker, work)

    def close(self) -> None:
        self._worker.shutdown(wait=True)
        self.engine.dispose()
