"""Opening a new table, as a part of a process that answers the API's create form (the one-process room, a
gateway): the stakes and the name checked, the limits on open tables and on openings per hour, the row written, and
the table started wherever its :class:`~studpoker.server.directory.Directory` runs tables.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from ..engine import Rules
from ..engine.errors import EngineError
from ..rotation import Rotation
from ..table import Table, TableError
from .auth import Who
from .config import Settings
from .db import Database, TableRow
from .directory import Directory
from .errors import ApiError
from .handle import TableHandle
from .limits import MAX_NAME
from .names import BadNameError, look_key, name_key, table_name
from .schemas import CreateTable, MixGameRequest
from .tablehost import signed_rules
from .throttle import Throttle

__all__ = ["DEFAULT_TABLE", "TRAINING_MAX_BUY_IN", "TableMaker", "name_taken", "numbered_name", "seat_bots"]

log = logging.getLogger("studpoker.server")

#: The table of a room with none yet (``Settings.default_table``), with ``default_bots`` tight-aggressive bots.
DEFAULT_TABLE = CreateTable.model_validate(
    {"name": "Stud 10/20", "variant": "STUD7", "small_bet": 10, "big_bet": 20, "ante": 1, "bring_in": 3}
)
#: A training table's maximum buy-in, in big bets, when its creator gives none (its chips come from the house).
TRAINING_MAX_BUY_IN = 100


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


#: How long a new table's bots are asked to sit while it changes hands (see :func:`seat_bots`), and how often.
BOTS_PATIENCE, BOTS_RETRY = 10.0, 0.5


async def seat_bots(
    table: TableHandle,
    count: int,
    patience: float = BOTS_PATIENCE,
    pause: float = BOTS_RETRY,
    between_owners: tuple[int, ...] = (503,),
) -> None:
    """Seat a new table's ``count`` bots. On several processes a table just opened may change hands at once (the
    workers balance their shares, and a table with no hand in play moves at once): its worker answers 503 and
    wrote nothing, so the bots are asked for again every ``pause`` seconds while the answer's status is one of
    ``between_owners``, for up to ``patience`` seconds (then the last answer is raised).

    >>> class Moving:
    ...     asks = 0
    ...     async def add_bots(self, count, tag):
    ...         self.asks += 1
    ...         if self.asks < 3:
    ...             raise ApiError(503, "unavailable", "table 1 is changing hands between servers")
    >>> table = Moving()
    >>> asyncio.run(seat_bots(table, 5, pause=0.01)), table.asks
    (None, 3)
    """
    deadline = asyncio.get_running_loop().time() + patience
    while True:
        try:
            await table.add_bots(count, "tight-aggressive")
            return
        except ApiError as error:
            if error.status not in between_owners or asyncio.get_running_loop().time() > deadline:
                raise
        await asyncio.sleep(pause)


def _rules(preset: str, game: CreateTable | MixGameRequest, table: CreateTable, options: dict[str, Any]) -> Rules:
    """One game's rules: its own stakes, else the table's, else set from its small bet (a big bet of two small bets,
    an ante of a tenth, at least 1, a bring-in of a third, at least twice the ante and at most the small bet)."""
    small = game.small_bet or table.small_bet
    big = game.big_bet or (table.big_bet if game.small_bet is None else None) or 2 * small
    ante = game.ante or (table.ante if game.small_bet is None else None) or max(1, small // 10)
    bring_in = game.bring_in or (table.bring_in if game.small_bet is None else None)
    bring_in = bring_in or min(small, max(2 * ante, small // 3))  # SPEC section 2
    assert game.variant is not None
    return signed_rules(game.preset or preset, game.variant, ante, bring_in, small, big, **options)


def _sign(request: CreateTable, options: dict[str, Any]) -> Rules | Rotation:
    """The rules of a table of one game, or the rotation of a mixed table, that ``request`` asks for."""
    if request.games is None:
        return _rules(request.preset, request, request, options)
    games = tuple(_rules(request.preset, game, request, options) for game in request.games)
    return Rotation(games, request.every)


class TableMaker:
    """Opens tables, one at a time, into ``directory`` (see the module's docstring)."""

    def __init__(self, settings: Settings, db: Database, directory: Directory, openings: Throttle) -> None:
        self.settings = settings
        self.db = db
        self.directory = directory
        self.openings = openings  # tables opened per account and hour
        self._creating = asyncio.Lock()

    async def create(self, owner: Who | None, request: CreateTable) -> TableHandle:
        """A new table from a preset and stakes (the API's create form), opened by ``owner`` (``None``: the room).

        Refused with :class:`ApiError`: stakes the rules refuse (400), a name that is not allowed (400) or that looks
        like an open table's (409: :func:`~studpoker.server.names.look_alike`), more open tables than
        ``max_tables_per_account`` for the owner (admins excepted) or than ``max_tables`` in all (409 ``limit``).
        """
        options: dict[str, Any] = {}
        if request.min_buy_in is not None:
            options["min_buy_in"] = request.min_buy_in
        if request.max_buy_in is not None:
            options["max_buy_in"] = request.max_buy_in
        try:
            sign = _sign(request, options)
            if request.training and sign.max_buy_in is None:
                # practice chips cost nothing: without a maximum a seat could top up without end (past what the
                # ledger can move), so a training table has one, TRAINING_MAX_BUY_IN big bets unless given
                games = sign.games if isinstance(sign, Rotation) else (sign,)
                options["max_buy_in"] = max(sign.min_buy_in or 0, TRAINING_MAX_BUY_IN * max(g.big_bet for g in games))
                sign = _sign(request, options)
            first = sign.games[0] if isinstance(sign, Rotation) else sign
            title = sign.name if isinstance(sign, Rotation) else first.variant.title
            Table(sign)
        except (EngineError, TableError, ValueError, TypeError) as error:
            raise ApiError(400, "invalid", str(error)) from None
        try:
            name = table_name(request.name or f"{title} {first.small_bet}/{first.big_bet}")
        except BadNameError as error:
            raise ApiError(400, "invalid", str(error)) from None
        max_seats = sign.max_seats
        assert max_seats is not None
        if request.training and not self.settings.training_tables:
            raise ApiError(403, "forbidden", "this card room has no training tables")
        if request.bots >= max_seats:
            raise ApiError(400, "invalid", f"bots must be 0 to {max_seats - 1}, got {request.bots}")
        settings = self.settings
        async with self._creating:  # one creation at a time: the limits and the name are checked, then taken
            total, mine, twin = await self.directory.open_tables(None if owner is None else owner.id, name)
            if total >= settings.max_tables:
                raise ApiError(409, "limit", f"the room has its maximum of {settings.max_tables} open tables")
            if owner is not None and not owner.is_admin:
                if mine >= settings.max_tables_per_account:
                    raise ApiError(
                        409, "limit", f"you have {mine} open tables, the most one account may open: close one first"
                    )
                wait = self.openings.retry_after(str(owner.id))
                if wait:
                    raise ApiError(
                        429,
                        "rate_limited",
                        f"you opened {settings.tables_per_account_per_hour} tables in the last hour: wait {wait} s",
                        {"Retry-After": str(wait)},
                    )
            if twin is not None and not request.name:  # the automatic name of an open table's: the next free one
                name = await self.free_name(name)
            elif twin is not None:
                raise name_taken(name, twin, await self.free_name(name))
            row = TableRow(
                name=name,
                name_key=name_key(name),
                name_look=look_key(name),
                variant=first.variant.value,
                preset=request.preset,
                ante=first.ante,
                bring_in=first.bring_in,
                small_bet=first.small_bet,
                big_bet=first.big_bet,
                rotation=sign.to_json() if isinstance(sign, Rotation) else None,
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
                raise name_taken(name, None, await self.free_name(name)) from None
            if owner is not None and not owner.is_admin:
                self.openings.add(str(owner.id))
            actor = await self.directory.opened(saved)
        for game in sign.games if isinstance(sign, Rotation) else (sign,):
            for caution in game.cautions():
                log.info("table %s (%s): %s", saved.id, name, caution)
        if request.bots:
            await seat_bots(actor, request.bots)
        return actor

    async def free_name(self, name: str) -> str:
        """The first of ``name #2``, ``name #3``... that looks like no open table's name: what the lobby's automatic
        name becomes when a table of the same game and stakes is open, and what a refusal proposes."""
        number = 2
        while True:
            candidate = numbered_name(name, number)
            if (await self.directory.open_tables(None, candidate))[2] is None:
                return candidate
            number += 1
