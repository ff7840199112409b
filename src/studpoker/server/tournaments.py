"""The room's tournaments as the API sees them: opening one, registering and unregistering (the buy-in held in the
tournament's escrow), bots entered, and what the lobby and the tournament's page show (:class:`Tournaments`).

Running them (the start, places, balancing, the prizes) is :mod:`studpoker.server.tournamentrunner`'s; each
tournament table's own part is :mod:`studpoker.server.tournamenttable`'s. The database is the truth: a tournament's
row, its entries, its tables' rows and seat rows, and the ledger.
"""

from __future__ import annotations

import dataclasses
import itertools
import secrets
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from ..engine import Variant
from ..tournament import Break, Level, PayoutTable, Structure, TournamentError, payouts
from . import wire
from .auth import Who
from .config import Settings
from .db import Account, Database, EntryRow, SeatRow, TableRow, TournamentRow, utcnow
from .errors import ApiError
from .ledger import HOUSE, InsufficientFundsError, escrow_account, transfer, user_account
from .names import BadNameError, look_key, name_key, table_name
from .tournamentschemas import (
    MAX_ENTRIES,
    CreateTournament,
    EntryInfo,
    Registered,
    TournamentClock,
    TournamentDetail,
    TournamentInfo,
    TournamentTable,
    Unregistered,
)

__all__ = [
    "BOT",
    "MAX_OPEN_PER_ACCOUNT",
    "Tournaments",
    "at_text",
    "clock_seconds",
    "paid_places",
    "prizes",
    "tournament_info",
]

#: Tournaments an account (not an admin) may have registering at once.
MAX_OPEN_PER_ACCOUNT = 3


def at_text(moment: Any) -> str | None:
    return None if moment is None else moment.replace(microsecond=0).isoformat() + "Z"


def tournament_info(row: TournamentRow, entries: list[EntryRow]) -> dict[str, Any]:
    """A tournament's lobby fields from its row and entries."""
    structure = Structure.from_json(row.structure)
    return {
        "id": row.id,
        "name": row.name,
        "kind": row.kind,
        "variant": row.variant,
        "variant_name": Variant(row.variant).title,
        "buy_in": row.buy_in,
        "seats": row.seats,
        "max_entries": row.max_entries,
        "entries": len(entries),
        "players_left": sum(1 for e in entries if e.status != "out"),
        "prize_pool": row.buy_in * len(entries),
        "status": row.status,
        "starts_at": at_text(row.starts_at),
        "started_at": at_text(row.started_at),
        "finished_at": at_text(row.finished_at),
        "starting_chips": structure.starting_chips,
        "hand_for_hand": row.hand_round is not None,
        "created_by": row.created_by,
    }


class Tournaments:
    """The API's tournament operations on the room's database (see the module's docstring)."""

    def __init__(self, settings: Settings, db: Database) -> None:
        self.settings = settings
        self.db = db

    # -- opening ---------------------------------------------------------------------------------------------

    async def create(self, who: Who, request: CreateTournament) -> TournamentInfo:
        """Open a tournament: 400 for what cannot be played, 403 for a scheduled one opened by anyone but an admin,
        409 ``limit`` past :data:`MAX_OPEN_PER_ACCOUNT` registering at once."""
        if request.kind == "scheduled" and not who.is_admin:
            raise ApiError(403, "forbidden", "only an admin schedules a tournament; anyone may open a sit-and-go")
        if request.kind == "scheduled" and request.starts_in is None:
            raise ApiError(400, "invalid", "a scheduled tournament needs starts_in (seconds from now)")
        variant = request.variant
        if request.seats > variant.max_seats:
            raise ApiError(400, "invalid", f"a {variant.title.lower()} table has at most {variant.max_seats} seats")
        structure = Structure.standard() if request.structure == "standard" else Structure.turbo(None)
        late = request.late_registration_level or structure.late_registration_level
        try:
            if request.levels is not None:
                structure = _own_structure(request, late)
            structure = dataclasses.replace(structure, late_registration_level=late, reentries=request.reentries)
            for level in structure.levels:
                structure.rules(level, variant)  # stakes the game takes under the tournament preset
            if request.payouts is not None:
                PayoutTable.fixed(*request.payouts)  # checked here; the tournament keeps the percentages
        except TournamentError as error:
            raise ApiError(400, "invalid", str(error)) from None
        if request.starting_chips is not None and request.levels is None:
            raise ApiError(400, "invalid", "starting_chips goes with levels of your own (a structure of your own)")
        if request.reentries and late is None:
            raise ApiError(400, "invalid", "re-entries are taken during late registration: give its last level")
        if request.kind == "sit_and_go":
            most = request.max_entries or request.seats
            if most > request.seats:
                raise ApiError(400, "invalid", f"a sit-and-go is one table: at most {request.seats} entries")
        else:
            most = request.max_entries or MAX_ENTRIES
        if request.bots > most:
            raise ApiError(400, "invalid", f"bots must be 0 to {most}, the entries it takes")
        try:
            name = table_name(request.name or f"{variant.title} {'sit-and-go' if most <= request.seats else 'event'}")
        except BadNameError as error:
            raise ApiError(400, "invalid", str(error)) from None
        starts_at = None if request.starts_in is None else utcnow() + timedelta(seconds=request.starts_in)
        seed = secrets.randbits(48) if self.settings.seed is None else self.settings.seed

        def work(session: Session) -> int:
            if not who.is_admin:
                open_now = session.scalar(
                    select(func.count(TournamentRow.id)).where(
                        TournamentRow.created_by == who.id, TournamentRow.status.in_(("registering", "running"))
                    )
                )
                if (open_now or 0) >= MAX_OPEN_PER_ACCOUNT:
                    raise ApiError(
                        409, "limit", f"you have {open_now} tournaments registering or running: the most one may"
                    )
            row = TournamentRow(
                name=name,
                kind=request.kind,
                variant=variant.value,
                structure=structure.to_json(),
                payouts=request.payouts,
                buy_in=request.buy_in,
                seats=request.seats,
                max_entries=most,
                starts_at=starts_at,
                status="registering",
                seed=seed,
                created_by=who.id,
            )
            session.add(row)
            session.flush()
            return row.id

        tournament_id = await self.db.run(work)
        if request.bots:
            await self.add_bots(who, tournament_id, request.bots)
        return TournamentInfo.model_validate(await self.info(tournament_id))

    # -- entries ---------------------------------------------------------------------------------------------

    async def register(self, who: Who, tournament_id: int) -> Registered:
        """Enter ``who``: the buy-in goes from his balance to the tournament's escrow (402 if it is short). Before
        the start, or while late registration is open (the structure's level; the runner seats him at once), when
        he may also re-enter once out, as often as the structure allows. 409 if he is in it already, it is full, or
        registration is closed."""
        scale = self.settings.tournament_time_scale

        def work(session: Session) -> Registered:
            row = _tournament(session, tournament_id, lock=True)
            if row.status == "running" and row.started_at is not None:
                structure = Structure.from_json(row.structure)
                elapsed = clock_seconds(row.started_at, scale)
                if not structure.registration_open(structure.at(elapsed)):
                    level = structure.late_registration_level
                    when = "at the start" if level is None else f"at the end of level {level}"
                    raise ApiError(409, "conflict", f"{row.name}: registration is closed (it closed {when})")
            elif row.status != "registering":
                raise ApiError(409, "conflict", f"{row.name} is {row.status}: registration is closed")
            count = _entries(session, tournament_id)
            if count >= row.max_entries:
                raise ApiError(409, "conflict", f"{row.name} is full ({row.max_entries} entries)")
            mine = list(
                session.scalars(
                    select(EntryRow).where(EntryRow.tournament_id == tournament_id, EntryRow.account_id == who.id)
                ).all()
            )
            if any(e.status != "out" for e in mine):
                raise ApiError(409, "conflict", f"you have entered {row.name} already")
            if mine and len(mine) > Structure.from_json(row.structure).reentries:
                raise ApiError(409, "conflict", f"{row.name} allows {len(mine) - 1} re-entries: you have used them")
            try:
                transfer(
                    session,
                    user_account(who.id),
                    escrow_account(tournament_id),
                    row.buy_in,
                    "tournament_buy_in",
                    memo=f"entered {row.name}",
                )
            except InsufficientFundsError as error:
                raise ApiError(402, "insufficient_funds", str(error)) from None
            session.add(
                EntryRow(
                    tournament_id=tournament_id,
                    account_id=who.id,
                    name=who.username,
                    number=len(mine) + 1,
                    status="registered",
                )
            )
            session.flush()
            balance = int(session.scalar(select(Account.balance).where(Account.id == who.id)) or 0)
            return Registered(entries=count + 1, prize_pool=(count + 1) * row.buy_in, balance=balance)

        return await self.db.run(work)

    async def unregister(self, who: Who, tournament_id: int) -> Unregistered:
        """Take back ``who``'s entry before the start: the buy-in back to his balance. 409 once it has started."""

        def work(session: Session) -> Unregistered:
            row = _registering(session, tournament_id)
            entry = session.scalar(
                select(EntryRow).where(EntryRow.tournament_id == tournament_id, EntryRow.account_id == who.id)
            )
            refunded = 0
            if entry is not None:
                transfer(
                    session,
                    escrow_account(tournament_id),
                    user_account(who.id),
                    row.buy_in,
                    "tournament_refund",
                    memo=f"left {row.name} before the start",
                )
                session.delete(entry)
                session.flush()
                refunded = row.buy_in
            balance = int(session.scalar(select(Account.balance).where(Account.id == who.id)) or 0)
            return Unregistered(entries=_entries(session, tournament_id), refunded=refunded, balance=balance)

        return await self.db.run(work)

    async def add_bots(self, who: Who, tournament_id: int, count: int) -> Registered:
        """Enter ``count`` bots (the house pays their buy-ins; their prizes go back to it): the creator's or an
        admin's to ask (403). Each bot is an account that cannot sign in (so a tournament moves its seat as it moves a
        player's), from one pool the room's tournaments share: ``Tourney bot 1``, ``2``... (at most
        :data:`~studpoker.server.tournamentschemas.MAX_ENTRIES`). As many as there is room for (409 if none)."""
        tag = "tight-aggressive"

        def work(session: Session) -> Registered:
            row = _registering(session, tournament_id)
            if row.created_by != who.id and not who.is_admin:
                raise ApiError(403, "forbidden", "only the tournament's creator or an admin enters bots")
            count_now = _entries(session, tournament_id)
            room = min(count, row.max_entries - count_now)
            if room <= 0:
                raise ApiError(409, "conflict", f"{row.name} is full ({row.max_entries} entries)")
            entered = set(
                session.scalars(
                    select(EntryRow.account_id).where(
                        EntryRow.tournament_id == tournament_id, EntryRow.bot_tag.is_not(None)
                    )
                ).all()
            )
            pool = {a.username: a for a in session.scalars(select(Account).where(Account.password_hash == BOT))}
            free = (n for n in range(1, MAX_ENTRIES + 1) if getattr(pool.get(_bot(n)), "id", None) not in entered)
            for n in itertools.islice(free, room):
                name = _bot(n)
                account = pool.get(name)
                if account is None:
                    account = Account(
                        username=name, username_key=name_key(name), username_look=look_key(name), password_hash=BOT
                    )
                    session.add(account)
                    session.flush()
                transfer(session, HOUSE, escrow_account(tournament_id), row.buy_in, "tournament_bot_entry")
                session.add(
                    EntryRow(
                        tournament_id=tournament_id, account_id=account.id, bot_tag=tag, name=name, status="registered"
                    )
                )
            session.flush()
            total = count_now + room
            return Registered(entries=total, prize_pool=total * row.buy_in, balance=0)

        try:
            return await self.db.run(work)
        except IntegrityError:
            raise ApiError(409, "conflict", "the bots' names are taken: try again") from None

    # -- reading ---------------------------------------------------------------------------------------------

    async def list(self) -> list[dict[str, Any]]:
        """Every tournament not finished for more than a day, newest first (the lobby's)."""

        def work(session: Session) -> list[dict[str, Any]]:
            since = utcnow() - timedelta(days=1)
            rows = session.scalars(
                select(TournamentRow)
                .where((TournamentRow.finished_at.is_(None)) | (TournamentRow.finished_at > since))
                .order_by(TournamentRow.id.desc())
                .limit(200)
            ).all()
            every: dict[int, list[EntryRow]] = {row.id: [] for row in rows}
            for entry in session.scalars(select(EntryRow).where(EntryRow.tournament_id.in_(list(every)))).all():
                every[entry.tournament_id].append(entry)
            return [tournament_info(row, every[row.id]) for row in rows]

        return await self.db.run(work)

    async def info(self, tournament_id: int) -> dict[str, Any]:
        def work(session: Session) -> dict[str, Any]:
            row = _tournament(session, tournament_id)
            return tournament_info(row, _entry_rows(session, tournament_id))

        return await self.db.run(work)

    async def detail(self, tournament_id: int) -> TournamentDetail:
        """The tournament's page (see :class:`~studpoker.server.tournamentschemas.TournamentDetail`)."""
        scale = self.settings.tournament_time_scale

        def work(session: Session) -> TournamentDetail:
            row = _tournament(session, tournament_id)
            entries = _entry_rows(session, tournament_id)
            info = tournament_info(row, entries)
            structure = Structure.from_json(row.structure)
            tables = session.scalars(
                select(TableRow).where(TableRow.tournament_id == tournament_id, TableRow.status != "closed")
            ).all()
            stacks: dict[int, int] = {}
            seated: dict[int, int] = {}
            for seat in session.scalars(select(SeatRow).where(SeatRow.table_id.in_([t.id for t in tables]))).all():
                if seat.account_id is not None:
                    stacks[seat.account_id] = seat.stack + seat.queued
                seated[seat.table_id] = seated.get(seat.table_id, 0) + 1
            players = [
                EntryInfo(
                    name=e.name,
                    bot=e.bot_tag is not None,
                    status=e.status,  # type: ignore[arg-type]  # the column holds the three words
                    stack=stacks.get(e.account_id or 0) if e.status == "playing" else None,
                    place=e.place,
                    prize=e.prize,
                )
                for e in entries
            ]
            players.sort(key=lambda p: (p.status == "out", -(p.stack or 0), p.place or 0, p.name))
            left = [p.stack for p in players if p.status == "playing" and p.stack is not None]
            levels: list[dict[str, int]] = []
            for period in structure.periods:
                if isinstance(period, Level):
                    levels.append(
                        {
                            "level": period.number,
                            "ante": period.ante,
                            "bring_in": period.bring_in,
                            "small_bet": period.small_bet,
                            "big_bet": period.big_bet,
                            "minutes": period.minutes,
                        }
                    )
                else:
                    levels.append({"break": period.minutes})
            clock = None
            if row.status == "running" and row.started_at is not None:
                now = structure.at(clock_seconds(row.started_at, scale))
                level, after = now.level, now.next_level
                clock = TournamentClock(
                    level=None if level is None else level.number,
                    on_break=level is None,
                    stakes_text=None if level is None else _stakes(structure, level.number, row.variant),
                    seconds_left=None if after is None else round(now.seconds_left / scale, 1),
                    next_level=None if after is None else after.number,
                    next_stakes_text=None if after is None else _stakes(structure, after.number, row.variant),
                )
            paid = prizes(info["prize_pool"], len(entries), row.payouts)
            return TournamentDetail.model_validate(
                {
                    **info,
                    "levels": levels,
                    "clock": clock,
                    "average_stack": sum(left) // len(left) if left else None,
                    "biggest_stack": max(left) if left else None,
                    "payouts": paid,
                    "tables": [
                        TournamentTable(
                            table_id=t.id, number=t.tournament_table or 0, name=t.name, players=seated.get(t.id, 0)
                        )
                        for t in sorted(tables, key=lambda t: t.tournament_table or 0)
                    ],
                    "players": players,
                }
            )

        return await self.db.run(work)


def clock_seconds(started_at: datetime, time_scale: float) -> float:
    """Seconds on a tournament's clock since its start (``time_scale``: the room's ``tournament_time_scale``)."""
    return max(0.0, (utcnow() - started_at).total_seconds()) * time_scale


def prizes(pool: int, entries: int, percents: list[float] | None) -> list[int]:
    """The prize of each place paid, best first: by the tournament's own percentages if it has them and they pay no
    more places than there are entries, else by the standard table for the field (the whole pool to one entry)."""
    if entries < 2:
        return [pool]
    if percents is not None and len(percents) <= entries:
        return list(payouts(pool, entries, PayoutTable.fixed(*percents)))
    return list(payouts(pool, entries))


def _own_structure(request: CreateTournament, late: int | None) -> Structure:
    """The structure of ``request.levels`` (numbered in order; big bets twice the small bets unless given)."""
    assert request.levels is not None
    periods: list[Level | Break] = []
    for i, period in enumerate(request.levels):
        if period.pause:
            periods.append(Break(period.minutes))
            continue
        if period.small_bet is None or period.bring_in is None or period.ante is None:
            raise TournamentError(f"level {i + 1} needs ante, bring_in and small_bet (or pause for a break)")
        big = period.big_bet or 2 * period.small_bet
        number = sum(1 for p in periods if isinstance(p, Level)) + 1
        periods.append(Level(number, period.ante, period.bring_in, period.small_bet, big, period.minutes))
    first = next((p for p in periods if isinstance(p, Level)), None)
    if first is None:
        raise TournamentError("a structure starts with a level")
    return Structure(request.starting_chips or 25 * first.big_bet, tuple(periods), late)


#: The password hash of a tournament bot's account: no password hashes to it, so it never signs in.
BOT = "!tournament-bot"


def _bot(number: int) -> str:
    return f"Tourney bot {number}"


def paid_places(row: TournamentRow, entries: int) -> int:
    """How many places the tournament pays with ``entries`` entries (its own table's, or the standard one's)."""
    return len(prizes(row.buy_in * entries, entries, row.payouts))


def _stakes(structure: Structure, level: int, variant: str) -> str:
    return wire.stakes_text(structure.rules(level, variant))


def _tournament(session: Session, tournament_id: int, *, lock: bool = False) -> TournamentRow:
    """The tournament's row (404 if none); ``lock``: locked until the transaction ends (PostgreSQL), so that two
    entries taken at once cannot both take the last place."""
    row = session.get(TournamentRow, tournament_id, with_for_update=lock)
    if row is None:
        raise ApiError(404, "not_found", f"there is no tournament {tournament_id}")
    return row


def _registering(session: Session, tournament_id: int) -> TournamentRow:
    row = _tournament(session, tournament_id, lock=True)
    if row.status != "registering":
        raise ApiError(409, "conflict", f"{row.name} is {row.status}: registration is closed")
    return row


def _entries(session: Session, tournament_id: int) -> int:
    return int(session.scalar(select(func.count(EntryRow.id)).where(EntryRow.tournament_id == tournament_id)) or 0)


def _entry_rows(session: Session, tournament_id: int) -> list[EntryRow]:
    return list(session.scalars(select(EntryRow).where(EntryRow.tournament_id == tournament_id)).all())
