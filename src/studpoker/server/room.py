"""The card room: every table's actor, table creation, and recovery after a stop.

:meth:`Room.open` migrates the database, voids the hands a stop left unfinished (every chip goes back to the
stack it came from, and the ledger gets a ``void`` memo row per player), seeds the default table when the
database has none, and starts one :class:`~studpoker.server.actor.TableActor` per table that is not closed (a
table that was closing is closed at once). The room also knows every open socket by session, so a logout or
an expired session closes its sockets, and holds the login and sign-up throttles.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import warnings
from collections import deque
from typing import Any

from sqlalchemy import delete, func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from ..bots import make_bot
from ..engine import Rules, Variant
from ..engine.errors import EngineError, RulesWarning
from ..table import Table, TableError
from . import wire
from .actor import TableActor
from .auth import Passwords, Who, expire_sessions
from .config import Settings
from .connection import Connection
from .context import SeatMeta
from .db import Database, HandRow, Runner, SeatRow, TableRow, utcnow
from .errors import ApiError
from .handle import TableHandle
from .ledger import cash_out_kind, purse, table_account, transfer
from .limits import MAX_NAME
from .names import BadNameError, look_alike, look_key, name_key, table_name
from .schemas import CreateTable
from .throttle import Throttle
from .training import EquityDesk

__all__ = ["LOGGED_OUT", "STAKES", "Room", "name_taken", "numbered_name", "rules_of"]

log = logging.getLogger("studpoker.server")

#: The stakes the create form offers (every one is accepted for every game and preset: tested).
STAKES: tuple[dict[str, int], ...] = (
    {"small_bet": 2, "big_bet": 4, "ante": 1, "bring_in": 2},
    {"small_bet": 4, "big_bet": 8, "ante": 1, "bring_in": 2},
    {"small_bet": 10, "big_bet": 20, "ante": 1, "bring_in": 3},
    {"small_bet": 20, "big_bet": 40, "ante": 2, "bring_in": 5},
    {"small_bet": 50, "big_bet": 100, "ante": 5, "bring_in": 15},
)
#: The close code of a socket whose session ended (logout, expiry).
LOGGED_OUT = 4401
#: How many voided hands a table's snapshot tells of.
VOIDED_KEPT = 5

#: The table of a room with none yet (``Settings.default_table``), with ``default_bots`` tight-aggressive bots.
DEFAULT_TABLE = CreateTable.model_validate(
    {"name": "Stud 10/20", "variant": "STUD7", "small_bet": 10, "big_bet": 20, "ante": 1, "bring_in": 3}
)


def name_taken(name: str, twin: str | None, free: str) -> ApiError:
    """409 ``conflict``: ``name`` is an open table's (``twin``), or looks like it (``None``: like one of them);
    ``free`` is a name that is not, proposed instead."""
    if twin == name:
        return ApiError(409, "conflict", f"a table named {name!r} is open: choose another name, such as {free!r}")
    like = "an open table's name" if twin is None else f"the open table {twin!r}"
    return ApiError(409, "conflict", f"the name {name!r} looks like {like}: choose another name, such as {free!r}")


def numbered_name(name: str, number: int) -> str:
    """``name #number``, ``name`` shortened to fit a table name's length (what a taken name's free twin is called).

    >>> numbered_name("Stud 10/20", 2), len(numbered_name("x" * 40, 12))
    ('Stud 10/20 #2', 40)
    """
    suffix = f" #{number}"
    return table_name(name[: MAX_NAME - len(suffix)].rstrip() + suffix)


def rules_of(row: TableRow) -> Rules:
    """A table row's sign as engine rules."""
    options: dict[str, Any] = {}
    if row.min_buy_in is not None:
        options["min_buy_in"] = row.min_buy_in
    if row.max_buy_in is not None:
        options["max_buy_in"] = row.max_buy_in
    return signed_rules(row.preset, row.variant, row.ante, row.bring_in, row.small_bet, row.big_bet, **options)


def signed_rules(preset: str, variant: Variant | str, *stakes: int, **options: Any) -> Rules:
    """``Rules.from_preset`` without Python warnings: the room logs a new table's cautions once, when it opens."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RulesWarning)
        return Rules.from_preset(preset, variant, *stakes, **options)


def void_unfinished(session: Session, table_id: int | None = None) -> list[tuple[int, dict[str, Any]]]:
    """Void every hand left ``playing`` (the server stopped during it), of every table or of ``table_id`` (a
    table worker taking a table over): the seat rows still hold the stacks from before the hand, so each player
    gets back what he put in; queued top-ups join the stacks, players who asked to leave are cashed out. Returns
    each hand voided as ``(table id, the snapshot's voided entry)``: ``{"hand", "at", "players": [{"seat",
    "name", "stack"}]}``, ``stack`` being the stack given back."""
    voided: list[tuple[int, dict[str, Any]]] = []
    playing = select(HandRow).where(HandRow.status == "playing")
    seats = select(SeatRow)
    if table_id is not None:
        playing = playing.where(HandRow.table_id == table_id)
        seats = seats.where(SeatRow.table_id == table_id)
    for hand in session.scalars(playing.order_by(HandRow.id)).all():
        now = utcnow()
        hand.status, hand.finished_at = "voided", now
        account = table_account(hand.table_id)
        for player in hand.players:
            transfer(
                session,
                account,
                account,
                int(player["start"]),
                "void",
                table_id=hand.table_id,
                hand_number=hand.number,
                memo=f"hand {hand.number} voided: seat {player['seat']} gets back its stack of {player['start']}",
            )
        players = [{"seat": int(p["seat"]), "name": str(p["name"]), "stack": int(p["start"])} for p in hand.players]
        at = now.replace(microsecond=0).isoformat() + "Z"
        voided.append((hand.table_id, {"hand": hand.number, "at": at, "players": players}))
    training = set(session.scalars(select(TableRow.id).where(TableRow.training.is_(True))).all())
    for row in session.scalars(seats).all():
        if row.queued:
            row.stack, row.queued = row.stack + row.queued, 0
        if row.leaving:
            bot, practice = row.bot_tag is not None, row.table_id in training
            transfer(
                session,
                table_account(row.table_id),
                purse(row.account_id, bot=bot, training=practice),
                row.stack,
                cash_out_kind(bot=bot, training=practice),
                table_id=row.table_id,
                memo=f"left seat {row.seat} (after a server stop)",
            )
            session.execute(delete(SeatRow).where(SeatRow.table_id == row.table_id, SeatRow.seat == row.seat))
    return voided


def hands_played(session: Session, table_id: int) -> tuple[int, list[int]]:
    """How many hands a table has finished, and the pots of the last 100 of them, oldest first (its lobby entry's
    ``hands_played`` and ``average_pot``)."""
    finished = (HandRow.table_id == table_id, HandRow.status == "finished")
    count = int(session.scalar(select(func.count(HandRow.id)).where(*finished)) or 0)
    pots = session.scalars(select(HandRow.pot).where(*finished).order_by(HandRow.number.desc()).limit(100)).all()
    return count, list(pots)[::-1]


_frozen = False


#: The collector's thresholds once the room runs (Python's are ``(700, 10, 10)``), see :func:`_freeze_startup_objects`.
GC_THRESHOLDS = (5000, 10, 100)


def _freeze_startup_objects() -> None:
    """Move everything alive after startup (the imported modules, FastAPI's and SQLAlchemy's objects, the tables)
    out of the garbage collector's reach, once per process. A full collection then walks only what the running
    room allocated since: on a 2-core machine it took 150 to 200 ms with 100 tables (the whole event loop, every
    table, stops meanwhile), and a few milliseconds after the freeze.

    Then collect less often (:data:`GC_THRESHOLDS`): a playing room keeps a few thousand new container objects a
    second alive (hand state, frames, database rows), so with Python's thresholds it collected the young
    generation ten times a second and a full collection (hundreds of ms at 400 tables) every few seconds. Measured
    with bench/load.py, 400 tables single process, alternated runs: 104 ms of collection per second, longest pause
    348 ms, before; 24 ms/s, longest 117 ms, after (docs/server.md; memory held by garbage in cycles grows by at
    most a few thousand objects)."""
    global _frozen
    if not _frozen:
        _frozen = True
        gc.collect()
        gc.freeze()
        gc.set_threshold(*GC_THRESHOLDS)


def _warm_up() -> None:
    """Build the evaluator's lookup tables now: built on first use, they would stall the first showdown (and
    every table waiting behind it) for most of a second."""
    from ..evaluation import evaluate_high, evaluate_low8, evaluate_razz

    cards = "As Kd 7c 7h 2s 3d 4c"
    evaluate_high(cards), evaluate_low8(cards), evaluate_razz(cards)


#: A training table's maximum buy-in, in big bets, when its creator gives none (its chips come from the house).
TRAINING_MAX_BUY_IN = 100


class Room:
    """All tables of one server process."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.db = Database(settings.db_url, settings.db_threads)
        self.passwords = Passwords(settings.password_time_cost, settings.password_memory_kib)
        self.actors: dict[int, TableActor] = {}
        self.sockets: dict[str, set[Connection]] = {}  # open table sockets by session (token hash)
        self.sockets_by_address: dict[str, int] = {}  # how many table sockets each client address has open
        self.login_failures_by_account = Throttle(settings.login_failures_per_account, settings.login_window_seconds)
        self.login_failures_by_address = Throttle(settings.login_failures_per_address, settings.login_window_seconds)
        self.signups = Throttle(settings.signups_per_address, settings.signup_window_seconds)
        self.signup_failures = Throttle(settings.signup_failures_per_address, settings.signup_failure_window_seconds)
        self.table_openings = Throttle(settings.tables_per_account_per_hour, 3600.0)
        #: per table, the hands voided when this server started (the newest last, at most VOIDED_KEPT)
        self.voided: dict[int, deque[dict[str, Any]]] = {}
        self._creating = asyncio.Lock()
        self._sweeper: asyncio.Task[None] | None = None
        self.equity_desk = EquityDesk()  # training tables' equities, computed off the event loop

    async def open(self) -> None:
        await asyncio.to_thread(_warm_up)
        await self.db.run_plain(self.db.migrate)
        voided = await self.db.run(void_unfinished)
        for table_id, entry in voided:
            self.voided.setdefault(table_id, deque(maxlen=VOIDED_KEPT)).append(entry)
            log.warning(
                "table %s: hand %s was cut short by a stop and is void; every chip went back", table_id, entry["hand"]
            )
        rows = await self.db.run(
            lambda s: list(s.scalars(select(TableRow).where(TableRow.status != "closed").order_by(TableRow.id)).all())
        )
        for row in rows:
            actor = await self._load(row)
            if row.status == "closing":
                await actor.close()
        any_table = await self.db.run(lambda s: s.scalar(select(func.count(TableRow.id))))
        if not any_table and self.settings.default_table:
            await self.open_default_table()
        self._sweeper = asyncio.create_task(self._sweep_sessions(), name="session-sweeper")
        _freeze_startup_objects()

    async def open_default_table(self) -> None:
        """The table of a room with none yet: "Stud 10/20" with ``default_bots`` tight-aggressive bots."""
        table = await self.create_table(None, DEFAULT_TABLE)
        if self.settings.default_bots:
            await table.add_bots(self.settings.default_bots, "tight-aggressive")

    async def close(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
        for actor in list(self.actors.values()):
            await actor.stop()
        self.equity_desk.close()
        self.db.close()

    # -- sessions and their sockets ------------------------------------------------------------------------

    def open_socket(self, address: str) -> str | None:
        """Count a new table socket from ``address``, or say why it may not open (too many from there, or in all)."""
        settings = self.settings
        if sum(self.sockets_by_address.values()) >= settings.max_sockets:
            return f"the room has its maximum of {settings.max_sockets} open table connections: try again later"
        if self.sockets_by_address.get(address, 0) >= settings.max_sockets_per_address:
            return f"at most {settings.max_sockets_per_address} table connections from one address: close some"
        self.sockets_by_address[address] = self.sockets_by_address.get(address, 0) + 1
        return None

    def close_socket(self, address: str) -> None:
        left = self.sockets_by_address.get(address, 0) - 1
        if left > 0:
            self.sockets_by_address[address] = left
        else:
            self.sockets_by_address.pop(address, None)

    def add_socket(self, connection: Connection) -> None:
        if connection.session is not None:
            self.sockets.setdefault(connection.session, set()).add(connection)

    def drop_socket(self, connection: Connection) -> None:
        if connection.session is not None:
            group = self.sockets.get(connection.session)
            if group is not None:
                group.discard(connection)
                if not group:
                    del self.sockets[connection.session]

    def end_sockets(self, session: str, reason: str) -> int:
        """Close every socket opened with ``session`` (logged out, expired): an ``error`` then close code 4401."""
        group = self.sockets.pop(session, set())
        for connection in group:
            connection.push(wire.encode(wire.error("logged_out", reason)))
            connection.close(LOGGED_OUT)
        return len(group)

    async def sweep_sessions(self) -> list[str]:
        """One sweep: sessions with open sockets are in use; expired sessions are deleted and their sockets closed."""
        settings = self.settings
        in_use = list(self.sockets)
        gone = await self.db.run(
            lambda s: expire_sessions(s, in_use, settings.session_idle_seconds, settings.session_max_seconds)
        )
        for session in gone:
            self.end_sockets(session, "your session has expired: sign in again")
        return gone

    async def _sweep_sessions(self) -> None:
        while True:
            await asyncio.sleep(self.settings.session_sweep_seconds)
            try:
                await self.sweep_sessions()
            except Exception:
                log.exception("the session sweep failed; it runs again in %s s", self.settings.session_sweep_seconds)

    async def _load(self, row: TableRow, db: Runner | None = None) -> TableActor:
        rules = rules_of(row)

        def read(session: Session) -> tuple[list[SeatRow], int, list[int]]:
            seats = list(session.scalars(select(SeatRow).where(SeatRow.table_id == row.id)).all())
            return seats, *hands_played(session, row.id)

        seats, count, pots = await self.db.run(read)
        snapshot = {
            "name": row.name,
            "seed": None if self.settings.seed is None else self.settings.seed + row.id,
            "hand_number": row.hand_number,
            "money_in": sum(s.stack + s.queued for s in seats),
            "money_out": 0,
            "seats": [{"seat": s.seat, "name": s.name, "stack": s.stack, "sitting_out": s.sitting_out} for s in seats],
        }
        table = Table.restore(rules, snapshot)
        table.auto_show = False  # a hand that cannot win may be mucked (studpoker.server.showdown)
        metas: dict[int, SeatMeta] = {}
        for s in seats:
            bot = None
            if s.bot_tag is not None:
                seed = None if self.settings.seed is None else self.settings.seed + 1000 * row.id + s.seat
                bot = make_bot(s.bot_tag, seed)
            bank = self.settings.time_bank if s.time_bank is None else min(s.time_bank, self.settings.time_bank)
            metas[s.seat] = SeatMeta(s.account_id, s.bot_tag, bot, bank)
        actor = TableActor(self, row, table, metas, pots, db)
        actor.viewers.restore_chat(row.chat or ())  # what it carried from its last worker (or before a restart)
        actor.hands_played = count
        self.actors[row.id] = actor
        actor.start()
        return actor

    def forget(self, table_id: int) -> None:
        """A closed table's actor leaves the room."""
        self.actors.pop(table_id, None)

    async def create_table(self, owner: Who | None, request: CreateTable) -> TableHandle:
        """A new table from a preset and stakes (the API's create form), opened by ``owner`` (``None``: the room).

        Refused with :class:`ApiError`: stakes the rules refuse (400), a name that is not allowed (400) or that looks
        like an open table's (409: :func:`~studpoker.server.names.look_alike`), more open tables than
        ``max_tables_per_account`` for the owner (admins excepted) or than ``max_tables`` in all (409 ``limit``).
        """
        small = request.small_bet
        big = request.big_bet if request.big_bet is not None else 2 * small
        ante = request.ante if request.ante is not None else max(1, small // 10)
        # a third of the small bet, at least twice the ante (SPEC section 2), at most the small bet
        bring_in = request.bring_in if request.bring_in is not None else min(small, max(2 * ante, small // 3))
        try:
            name = table_name(request.name or f"{request.variant.title} {small}/{big}")
        except BadNameError as error:
            raise ApiError(400, "invalid", str(error)) from None
        options: dict[str, Any] = {}
        if request.min_buy_in is not None:
            options["min_buy_in"] = request.min_buy_in
        if request.max_buy_in is not None:
            options["max_buy_in"] = request.max_buy_in
        try:
            rules = signed_rules(request.preset, request.variant, ante, bring_in, small, big, **options)
            if request.training and rules.max_buy_in is None:
                # practice chips cost nothing: without a maximum a seat could top up without end (past what the
                # ledger can move), so a training table has one, TRAINING_MAX_BUY_IN big bets unless given
                options["max_buy_in"] = max(rules.min_buy_in or 0, TRAINING_MAX_BUY_IN * big)
                rules = signed_rules(request.preset, request.variant, ante, bring_in, small, big, **options)
            Table(rules)
        except (EngineError, TableError, ValueError, TypeError) as error:
            raise ApiError(400, "invalid", str(error)) from None
        assert rules.max_seats is not None
        if request.training and not self.settings.training_tables:
            raise ApiError(403, "forbidden", "this card room has no training tables")
        if request.bots >= rules.max_seats:
            raise ApiError(400, "invalid", f"bots must be 0 to {rules.max_seats - 1}, got {request.bots}")
        settings = self.settings
        async with self._creating:  # one creation at a time: the limits and the name are checked, then taken
            total, mine, twin = await self._open_tables(None if owner is None else owner.id, name)
            if total >= settings.max_tables:
                raise ApiError(409, "limit", f"the room has its maximum of {settings.max_tables} open tables")
            if owner is not None and not owner.is_admin:
                if mine >= settings.max_tables_per_account:
                    raise ApiError(
                        409, "limit", f"you have {mine} open tables, the most one account may open: close one first"
                    )
                wait = self.table_openings.retry_after(str(owner.id))
                if wait:
                    raise ApiError(
                        429,
                        "rate_limited",
                        f"you opened {settings.tables_per_account_per_hour} tables in the last hour: wait {wait} s",
                        {"Retry-After": str(wait)},
                    )
            if twin is not None and not request.name:  # the automatic name of an open table's: the next free one
                name = await self._free_name(name)
            elif twin is not None:
                raise name_taken(name, twin, await self._free_name(name))
            row = TableRow(
                name=name,
                name_key=name_key(name),
                name_look=look_key(name),
                variant=request.variant.value,
                preset=request.preset,
                ante=ante,
                bring_in=bring_in,
                small_bet=small,
                big_bet=big,
                min_buy_in=options.get("min_buy_in"),
                max_buy_in=options.get("max_buy_in"),
                created_by=None if owner is None else owner.id,
                status="open",
                showdown_seconds=(
                    settings.showdown_seconds if request.showdown_seconds is None else request.showdown_seconds
                ),
                training=request.training,
            )

            def work(session: Session) -> TableRow:
                session.add(row)
                session.flush()
                return row

            try:
                saved = await self.db.run(work)
            except IntegrityError:  # the room on several processes: another gateway opened a twin meanwhile
                raise name_taken(name, None, await self._free_name(name)) from None
            if owner is not None and not owner.is_admin:
                self.table_openings.add(str(owner.id))
            actor = await self._opened(saved)
        for caution in rules.cautions():
            log.info("table %s (%s): %s", saved.id, name, caution)
        if request.bots:
            await actor.add_bots(request.bots, "tight-aggressive")
        return actor

    async def _free_name(self, name: str) -> str:
        """The first of ``name #2``, ``name #3``... that looks like no open table's name: what the lobby's automatic
        name becomes when a table of the same game and stakes is open, and what a refusal proposes."""
        number = 2
        while True:
            candidate = numbered_name(name, number)
            if (await self._open_tables(None, candidate))[2] is None:
                return candidate
            number += 1

    async def _open_tables(self, owner: int | None, name: str) -> tuple[int, int, str | None]:
        """How many tables are open, how many of them ``owner`` opened, and the open table whose name looks like
        ``name`` (``None``: none does)."""
        actors = self.actors.values()
        mine = sum(1 for a in actors if owner is not None and a.created_by == owner)
        return len(self.actors), mine, look_alike(name, (a.name for a in actors))

    async def _opened(self, row: TableRow) -> TableHandle:
        """A table just written to the database, running."""
        return await self._load(row)

    def actor(self, table_id: int) -> TableActor:
        """The actor of an open table, or :class:`ApiError` 404."""
        actor = self.actors.get(table_id)
        if actor is None:
            raise ApiError(404, "not_found", f"there is no open table {table_id}")
        return actor

    async def find_table(self, table_id: int) -> TableHandle:
        """An open table, to read and to ask things of (here its actor), or :class:`ApiError` 404."""
        return self.actor(table_id)

    async def table_infos(self) -> list[dict[str, Any]]:
        """The lobby: every open table's info, by id."""
        return [actor.info() for actor in self.actors.values()]

    async def seats_of(self, account_id: int) -> list[dict[str, Any]]:
        """The seats an account holds, as ``/api/me`` lists them."""
        seats = []
        for actor in self.actors.values():
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
        return seats
