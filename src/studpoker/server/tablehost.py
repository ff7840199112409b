"""The tables a process runs, as a part: their actors, loading a table from its rows, forgetting a closed one, and
the hands a stop left unfinished (voided, every chip back where it came from).

The one-process room recovers every table at its start (:meth:`TableHost.recover`); a table worker loads the
tables whose leases it takes, one at a time (:mod:`~studpoker.server.leasekeeper`). A gateway runs no table and has no
host. The host is what each :class:`~studpoker.server.actor.TableActor` knows of its room
(:class:`~studpoker.server.actor.RoomSide`).
"""

from __future__ import annotations

import logging
import warnings
from collections import deque
from collections.abc import Callable
from typing import Any

from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from ..bots import make_bot
from ..engine import Rules, Variant
from ..engine.errors import RulesWarning
from ..rotation import Rotation, Turn
from ..table import Table
from .actor import TableActor
from .config import Settings
from .context import SeatMeta
from .db import Database, HandRow, Runner, SeatRow, TableRow, TournamentRow, utcnow
from .errors import ApiError
from .ledger import cash_out_kind, purse, table_account, transfer
from .protocol import HandSeat, VoidedHand
from .tournamenttable import TournamentSide

__all__ = ["VOIDED_KEPT", "TableHost", "hands_played", "rules_of", "signed_rules", "turn_of", "void_unfinished"]

log = logging.getLogger("studpoker.server")

#: How many voided hands a table's snapshot tells of.
VOIDED_KEPT = 5


def rules_of(row: TableRow) -> Rules | Rotation:
    """A table row's sign as engine rules, or a mixed table's as its rotation."""
    if row.rotation is not None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RulesWarning)
            return Rotation.from_json(row.rotation)
    options: dict[str, Any] = {}
    if row.min_buy_in is not None:
        options["min_buy_in"] = row.min_buy_in
    if row.max_buy_in is not None:
        options["max_buy_in"] = row.max_buy_in
    return signed_rules(row.preset, row.variant, row.ante, row.bring_in, row.small_bet, row.big_bet, **options)


def turn_of(row: TableRow) -> Turn | None:
    """Where a mixed table's rotation stood after its last finished hand (``None``: no hand yet, or one game)."""
    return None if row.turn is None else Rotation.turn_from_json(row.turn)


def signed_rules(preset: str, variant: Variant | str, *stakes: int, **options: Any) -> Rules:
    """``Rules.from_preset`` without Python warnings: the room logs a new table's cautions once, when it opens."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RulesWarning)
        return Rules.from_preset(preset, variant, *stakes, **options)


def void_unfinished(session: Session, table_id: int | None = None) -> list[tuple[int, VoidedHand]]:
    """Void every hand left ``playing`` (the server stopped during it), of every table or of ``table_id`` (a
    table worker taking a table over): the seat rows still hold the stacks from before the hand, so each player
    gets back what he put in; queued top-ups join the stacks, players who asked to leave are cashed out. Returns
    each hand voided as ``(table id, the snapshot's voided entry)``: ``{"hand", "at", "players": [{"seat",
    "name", "stack"}]}``, ``stack`` being the stack given back."""
    voided: list[tuple[int, VoidedHand]] = []
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
        players: list[HandSeat] = [
            {"seat": int(p["seat"]), "name": str(p["name"]), "stack": int(p["start"])} for p in hand.players
        ]
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


class TableHost:
    """The actors of the tables this process runs, by table id (see the module's docstring)."""

    def __init__(self, settings: Settings, db: Database, on_forget: Callable[[int], None] | None = None) -> None:
        self.settings = settings
        self.db = db
        self.on_forget = on_forget  # told of a table that closed, once its actor has left
        self.actors: dict[int, TableActor] = {}
        #: per table, the hands voided when this process started or took it (the newest last, at most VOIDED_KEPT)
        self.voided: dict[int, deque[VoidedHand]] = {}

    def remember_voided(self, voided: list[tuple[int, VoidedHand]], why: str) -> None:
        """Keep the hands just voided for the tables' snapshots, and log each (``why``: what cut it short)."""
        for table_id, entry in voided:
            self.voided.setdefault(table_id, deque(maxlen=VOIDED_KEPT)).append(entry)
            log.warning(
                "table %s: hand %s was cut short %s; it is void, every chip went back", table_id, entry["hand"], why
            )

    async def recover(self) -> None:
        """The one-process start: void the hands a stop left unfinished, and run every table not closed (a table
        that was closing is closed at once)."""
        self.remember_voided(await self.db.run(void_unfinished), "by a stop")
        rows = await self.db.run(
            lambda s: list(s.scalars(select(TableRow).where(TableRow.status != "closed").order_by(TableRow.id)).all())
        )
        for row in rows:
            actor = await self.load(row)
            if row.status == "closing":
                await actor.close()

    async def stop(self) -> None:
        """Stop every actor where it is (the one-process stop: a hand in play is voided at the next start)."""
        for actor in list(self.actors.values()):
            await actor.stop()

    async def load(self, row: TableRow, db: Runner | None = None) -> TableActor:
        rules = rules_of(row)

        def read(session: Session) -> tuple[list[SeatRow], TournamentRow | None, int, list[int]]:
            seats = list(session.scalars(select(SeatRow).where(SeatRow.table_id == row.id)).all())
            tournament = None if row.tournament_id is None else session.get(TournamentRow, row.tournament_id)
            return seats, tournament, *hands_played(session, row.id)

        seats, tournament, count, pots = await self.db.run(read)
        snapshot: dict[str, Any] = {
            "name": row.name,
            "seed": None if self.settings.seed is None else self.settings.seed + row.id,
            "hand_number": row.hand_number,
            "money_in": sum(s.stack + s.queued for s in seats),
            "money_out": 0,
            "seats": [{"seat": s.seat, "name": s.name, "stack": s.stack, "sitting_out": s.sitting_out} for s in seats],
        }
        if row.turn is not None:
            snapshot["turn"] = row.turn
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
        side = None
        if tournament is not None:
            side = TournamentSide.of(tournament, self.settings.tournament_time_scale, db or self.db)
        actor = TableActor(self, row, table, metas, pots, db, side)  # the host is the actor's room side
        actor.viewers.restore_chat(row.chat or ())  # what it carried from its last worker (or before a restart)
        actor.waiting.restore(row.waiting or (), seated=(meta.account_id for meta in metas.values()))
        actor.hands_played = count
        self.actors[row.id] = actor
        actor.start()
        return actor

    def forget(self, table_id: int) -> None:
        """A closed table's actor leaves the host."""
        self.actors.pop(table_id, None)
        if self.on_forget is not None:
            self.on_forget(table_id)

    def actor(self, table_id: int) -> TableActor:
        """The actor of an open table, or :class:`ApiError` 404."""
        actor = self.actors.get(table_id)
        if actor is None:
            raise ApiError(404, "not_found", f"there is no open table {table_id}")
        return actor
