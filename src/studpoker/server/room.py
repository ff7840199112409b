"""The card room: every table's actor, table creation, and recovery after a stop.

:meth:`Room.open` migrates the database, voids the hands a stop left unfinished (every chip goes back to the
stack it came from, and the ledger gets a ``void`` memo row per player), seeds the default table when the
database has none, and starts one :class:`~studpoker.server.actor.TableActor` per table.
"""

from __future__ import annotations

import asyncio
import gc
import logging
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from ..bots import make_bot
from ..engine import Rules, Variant
from ..engine.errors import EngineError
from ..table import Table, TableError
from . import wire
from .actor import ApiError, SeatMeta, TableActor
from .auth import Passwords
from .config import Settings
from .db import Database, HandRow, SeatRow, TableRow, utcnow
from .ledger import HOUSE, table_account, transfer, user_account

__all__ = ["STAKES", "Room", "rules_of"]

log = logging.getLogger("studpoker.server")

#: The stakes the create form offers.
STAKES: tuple[dict[str, int], ...] = (
    {"small_bet": 2, "big_bet": 4, "ante": 0, "bring_in": 1},
    {"small_bet": 4, "big_bet": 8, "ante": 1, "bring_in": 2},
    {"small_bet": 10, "big_bet": 20, "ante": 1, "bring_in": 3},
    {"small_bet": 20, "big_bet": 40, "ante": 3, "bring_in": 5},
    {"small_bet": 50, "big_bet": 100, "ante": 5, "bring_in": 15},
)


def rules_of(row: TableRow) -> Rules:
    """A table row's sign as engine rules."""
    options: dict[str, Any] = {}
    if row.min_buy_in is not None:
        options["min_buy_in"] = row.min_buy_in
    if row.max_buy_in is not None:
        options["max_buy_in"] = row.max_buy_in
    return Rules.from_preset(row.preset, row.variant, row.ante, row.bring_in, row.small_bet, row.big_bet, **options)


def void_unfinished(session: Session) -> list[tuple[int, int]]:
    """Void every hand left ``playing`` (the server stopped during it): the seat rows still hold the stacks
    from before the hand, so each player gets back what he put in; queued top-ups join the stacks, players who
    asked to leave are cashed out. Returns the (table, hand) pairs voided."""
    voided: list[tuple[int, int]] = []
    for hand in session.scalars(select(HandRow).where(HandRow.status == "playing")).all():
        hand.status, hand.finished_at = "voided", utcnow()
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
        voided.append((hand.table_id, hand.number))
    for row in session.scalars(select(SeatRow)).all():
        if row.queued:
            row.stack, row.queued = row.stack + row.queued, 0
        if row.leaving:
            target = HOUSE if row.bot_tag is not None else user_account(row.account_id or 0)
            transfer(
                session,
                table_account(row.table_id),
                target,
                row.stack,
                "bot_cash_out" if row.bot_tag else "cash_out",
                table_id=row.table_id,
                memo=f"left seat {row.seat} (after a server stop)",
            )
            session.execute(delete(SeatRow).where(SeatRow.table_id == row.table_id, SeatRow.seat == row.seat))
    return voided


_frozen = False


def _freeze_startup_objects() -> None:
    """Move everything alive after startup (the imported modules, FastAPI's and SQLAlchemy's objects, the tables)
    out of the garbage collector's reach, once per process. A full collection then walks only what the running
    room allocated since: on a 2-core machine it took 150 to 200 ms with 100 tables (the whole event loop, every
    table, stops meanwhile), and a few milliseconds after the freeze."""
    global _frozen
    if not _frozen:
        _frozen = True
        gc.collect()
        gc.freeze()


def _warm_up() -> None:
    """Build the evaluator's lookup tables now: built on first use, they would stall the first showdown (and
    every table waiting behind it) for most of a second."""
    from ..evaluation import evaluate_high, evaluate_low8, evaluate_razz

    cards = "As Kd 7c 7h 2s 3d 4c"
    evaluate_high(cards), evaluate_low8(cards), evaluate_razz(cards)


class Room:
    """All tables of one server process."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.db = Database(settings.db_url)
        self.passwords = Passwords(settings.password_time_cost, settings.password_memory_kib)
        self.actors: dict[int, TableActor] = {}

    async def open(self) -> None:
        await asyncio.to_thread(_warm_up)
        await self.db.run_plain(self.db.migrate)
        voided = await self.db.run(void_unfinished)
        for table_id, number in voided:
            log.warning("table %s: hand %s was cut short by a stop and is void; every chip went back", table_id, number)
        rows = await self.db.run(lambda s: list(s.scalars(select(TableRow).order_by(TableRow.id)).all()))
        for row in rows:
            await self._load(row)
        if not rows and self.settings.default_table:
            actor = await self.create_table(
                None,
                {"name": "Stud 10/20", "variant": "STUD7", "small_bet": 10, "big_bet": 20, "ante": 1, "bring_in": 3},
            )
            if self.settings.default_bots:
                await actor.add_bots(self.settings.default_bots, "tight-aggressive")
        _freeze_startup_objects()

    async def close(self) -> None:
        for actor in self.actors.values():
            await actor.stop()
        self.db.close()

    async def _load(self, row: TableRow) -> TableActor:
        rules = rules_of(row)

        def read(session: Session) -> tuple[list[SeatRow], list[int]]:
            seats = list(session.scalars(select(SeatRow).where(SeatRow.table_id == row.id)).all())
            pots = list(
                session.scalars(
                    select(HandRow.pot)
                    .where(HandRow.table_id == row.id, HandRow.status == "finished")
                    .order_by(HandRow.number.desc())
                    .limit(100)
                ).all()
            )
            return seats, pots[::-1]

        seats, pots = await self.db.run(read)
        snapshot = {
            "name": row.name,
            "seed": None if self.settings.seed is None else self.settings.seed + row.id,
            "hand_number": row.hand_number,
            "money_in": sum(s.stack + s.queued for s in seats),
            "money_out": 0,
            "seats": [{"seat": s.seat, "name": s.name, "stack": s.stack, "sitting_out": s.sitting_out} for s in seats],
        }
        table = Table.restore(rules, snapshot)
        metas: dict[int, SeatMeta] = {}
        for s in seats:
            bot = None
            if s.bot_tag is not None:
                seed = None if self.settings.seed is None else self.settings.seed + 1000 * row.id + s.seat
                bot = make_bot(s.bot_tag, seed)
            metas[s.seat] = SeatMeta(s.account_id, s.bot_tag, bot, self.settings.time_bank)
        actor = TableActor(self, row, table, metas, pots)
        count = await self.db.run(
            lambda session: len(
                session.scalars(
                    select(HandRow.id).where(HandRow.table_id == row.id, HandRow.status == "finished")
                ).all()
            )
        )
        actor.hands_played = count
        self.actors[row.id] = actor
        actor.start()
        return actor

    async def create_table(self, account_id: int | None, body: dict[str, Any]) -> TableActor:
        """A new table from a preset and stakes (the API's create form); :class:`ApiError` for bad values."""
        variant = body.get("variant")
        try:
            variant_enum = Variant(variant)
        except ValueError:
            raise ApiError(400, "invalid", f"unknown variant {variant!r}: STUD7, STUD7_HL8, STUD5 or RAZZ") from None
        small = body.get("small_bet")
        if type(small) is not int or small < 1:
            raise ApiError(400, "invalid", f"small_bet must be a whole number of chips of at least 1, got {small!r}")
        preset = body.get("preset", "casino")
        big = body.get("big_bet", 2 * small)
        ante = body.get("ante", small // 10)
        bring_in = body.get("bring_in", max(1, small // 3))
        name = body.get("name") or f"{wire.VARIANT_NAMES[variant_enum]} {small}/{big}"
        if not isinstance(name, str) or len(name) > 60:
            raise ApiError(400, "invalid", "a table name is text of at most 60 characters")
        options: dict[str, Any] = {}
        for key in ("min_buy_in", "max_buy_in"):
            if body.get(key) is not None:
                options[key] = body[key]
        for key, value in (("big_bet", big), ("ante", ante), ("bring_in", bring_in), *options.items()):
            if type(value) is not int:
                raise ApiError(400, "invalid", f"{key} must be a whole number of chips, got {value!r}")
        if not isinstance(preset, str):
            raise ApiError(400, "invalid", f"unknown preset {preset!r}")
        try:
            rules = Rules.from_preset(preset, variant_enum, ante, bring_in, small, big, **options)
            Table(rules)
        except (EngineError, TableError, ValueError, TypeError) as error:
            raise ApiError(400, "invalid", str(error)) from None
        bots = body.get("bots", 0)
        assert rules.max_seats is not None
        if type(bots) is not int or not 0 <= bots < rules.max_seats:
            raise ApiError(400, "invalid", f"bots must be 0 to {rules.max_seats - 1}, got {bots!r}")
        row = TableRow(
            name=name.strip() or "Stud",
            variant=variant_enum.value,
            preset=preset,
            ante=ante,
            bring_in=bring_in,
            small_bet=small,
            big_bet=big,
            min_buy_in=options.get("min_buy_in"),
            max_buy_in=options.get("max_buy_in"),
            created_by=account_id,
        )

        def work(session: Session) -> TableRow:
            session.add(row)
            session.flush()
            return row

        saved = await self.db.run(work)
        actor = await self._load(saved)
        if bots:
            await actor.add_bots(bots, "tight-aggressive")
        return actor

    def actor(self, table_id: object) -> TableActor:
        actor = self.actors.get(table_id) if type(table_id) is int else None
        if actor is None:
            raise ApiError(404, "not_found", f"there is no table {table_id}")
        return actor
