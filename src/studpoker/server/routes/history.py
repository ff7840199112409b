"""Finished hands of a table (open or closed), as the asker may see them.

A hand history shows what was seen at the table: every card dealt face up and the hands shown at the showdown;
the player's own down cards too when a player of that hand asks; everything only to an admin. Folded and mucked
hands stay hidden (written ``??``, as PHH writes an unknown card), in the JSON and in the ``.phh`` download alike.

A training table is the exception: practice chips, and every card of a finished hand public, with each player's
equity street by street (``GET .../hands/{number}/equity``, computed once when first asked for, then stored).
"""

from __future__ import annotations

import logging
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Path, Query
from fastapi.responses import PlainTextResponse
from sqlalchemy import select
from sqlalchemy.orm import Session

from ...history import phh
from ...history.record import seen_by
from ..auth import Who
from ..db import HandRow, TableRow
from ..deps import MaybeAccount, RoomDep, TableId, check_csrf
from ..errors import ApiError
from ..historyschemas import HandDetail, HandEquity, HandList
from ..limits import MAX_ID
from . import errors
from .auth import iso

router = APIRouter(prefix="/api/tables/{table_id}/hands", tags=["history"], dependencies=[Depends(check_csrf)])
log = logging.getLogger("studpoker.server")

HandNumber = Annotated[int, Path(ge=1, le=MAX_ID, description="the hand's number at its table")]


def _summary(row: HandRow) -> dict[str, Any]:
    return {
        "number": row.number,
        "status": row.status,
        "started_at": iso(row.started_at),
        "finished_at": iso(row.finished_at),
        "pot": row.pot,
        "players": [{k: p.get(k) for k in ("seat", "name", "start", "end")} for p in row.players],
        "winners": row.winners,
    }


async def _table_exists(room: Any, table_id: int) -> tuple[bool, str]:
    """Whether the table is a training table, and its variant (404 if there is no such table)."""
    found = await room.db.run(
        lambda s: s.execute(select(TableRow.training, TableRow.variant).where(TableRow.id == table_id)).first()
    )
    if found is None:
        raise ApiError(404, "not_found", f"there is no table {table_id}")
    return bool(found[0]), str(found[1])


async def _finished(room: Any, table_id: int, number: int) -> tuple[HandRow, bool, str]:
    """The finished (or voided) hand, whether its table is a training table, and the table's variant."""
    training, variant = await _table_exists(room, table_id)
    row = await room.db.run(
        lambda s: s.scalar(
            select(HandRow).where(HandRow.table_id == table_id, HandRow.number == number, HandRow.status != "playing")
        )
    )
    if row is None:
        raise ApiError(404, "not_found", f"table {table_id} has no finished hand {number}")
    assert isinstance(row, HandRow)
    return row, training, variant


def _seat_of(row: HandRow, who: Who | None) -> int | None:
    """The engine player number of ``who`` in the hand, or ``None``."""
    if who is None:
        return None
    for index, player in enumerate(row.players):
        account = player.get("account_id")
        if account == who.id or (account is None and "account_id" not in player and player.get("name") == who.username):
            return index
    return None


def _as_seen(
    row: HandRow, who: Who | None, training: bool
) -> tuple[str | None, Literal["public", "player", "admin", "training"]]:
    """The hand's PHH as ``who`` may see it, and which view that is (everything, at a training table)."""
    if row.phh is None:
        return None, "public"
    if training:
        return row.phh, "training"
    if who is not None and who.is_admin:
        return row.phh, "admin"
    player = _seat_of(row, who)
    try:
        shown_after = [i for i, p in enumerate(row.players) if p.get("shown")]  # an uncalled winner who showed
        text = phh.dumps(seen_by(phh.loads_hand(row.phh), player, shown_after))
    except Exception:  # a stored hand that does not replay: never serve its cards
        log.exception("table %s hand %s: the stored history does not replay", row.table_id, row.number)
        return None, "public"
    return text, "public" if player is None else "player"


@router.get("", responses=errors(400, 404))
async def hands(
    table_id: TableId,
    room: RoomDep,
    limit: Annotated[int, Query(ge=1, le=500)] = 50,
    before: Annotated[int | None, Query(ge=1, le=MAX_ID, description="only hands numbered below this")] = None,
) -> HandList:
    """The table's finished and voided hands, newest first (no cards: ask for a hand)."""
    await _table_exists(room, table_id)

    def work(session: Session) -> list[dict[str, Any]]:
        query = select(HandRow).where(HandRow.table_id == table_id, HandRow.status != "playing")
        if before is not None:
            query = query.where(HandRow.number < before)
        rows = session.scalars(query.order_by(HandRow.number.desc()).limit(limit)).all()
        return [_summary(r) for r in rows]

    return HandList.model_validate({"table_id": table_id, "hands": await room.db.run(work)})


@router.get(
    "/export.phhs",
    response_class=PlainTextResponse,
    responses={200: {"content": {"text/plain": {}}, "description": "the PHH hands file"}, **errors(400, 404)},
)
async def hands_file(
    table_id: TableId,
    room: RoomDep,
    who: MaybeAccount,
    limit: Annotated[int, Query(ge=1, le=1000)] = 1000,
    before: Annotated[int | None, Query(ge=1, le=MAX_ID, description="only hands numbered below this")] = None,
) -> PlainTextResponse:
    """The table's last finished hands (up to ``limit``, oldest first) as one PHH hands file, each as the asker may
    see it: what ``stud import`` takes (page back with ``before``)."""
    training, _ = await _table_exists(room, table_id)

    def work(session: Session) -> list[HandRow]:
        query = select(HandRow).where(HandRow.table_id == table_id, HandRow.status == "finished")
        if before is not None:
            query = query.where(HandRow.number < before)
        return list(session.scalars(query.order_by(HandRow.number.desc()).limit(limit)).all())

    rows = await room.db.run(work)
    texts = [text for text, _ in (_as_seen(row, who, training) for row in reversed(rows)) if text is not None]
    return PlainTextResponse(
        "\n".join(f"[{i}]\n{text}" for i, text in enumerate(texts, 1)),  # as phh.dumps writes several hands
        headers={"Content-Disposition": f'attachment; filename="table{table_id}-hands.phhs"'},
    )


@router.get(
    "/{number}.phh",
    response_class=PlainTextResponse,
    responses={200: {"content": {"text/plain": {}}, "description": "the PHH file"}, **errors(404)},
)
async def hand_file(table_id: TableId, number: HandNumber, room: RoomDep, who: MaybeAccount) -> PlainTextResponse:
    """The hand as a PHH file (a download), as the asker may see it."""
    row, training, _ = await _finished(room, table_id, number)
    text, _ = _as_seen(row, who, training)
    if text is None:
        raise ApiError(404, "not_found", f"hand {row.number} was voided: it has no history")
    return PlainTextResponse(
        text, headers={"Content-Disposition": f'attachment; filename="table{table_id}-hand{row.number}.phh"'}
    )


@router.get("/{number}", responses=errors(404))
async def hand(table_id: TableId, number: HandNumber, room: RoomDep, who: MaybeAccount) -> HandDetail:
    """One hand with its PHH, as the asker may see it (``seen_as`` says how)."""
    row, training, _ = await _finished(room, table_id, number)
    text, seen_as = _as_seen(row, who, training)
    detail = {**_summary(row), "table_id": table_id, "phh": text, "seen_as": seen_as, "training": training}
    return HandDetail.model_validate(detail)


@router.get("/{number}/equity", responses=errors(404, 503))
async def hand_equity(table_id: TableId, number: HandNumber, room: RoomDep) -> HandEquity:
    """A training table's finished hand, street by street: each live player's equity against the others' actual
    cards and against their up cards with any down cards (404 at any other table: its down cards are private)."""
    row, training, variant = await _finished(room, table_id, number)
    if not training:
        raise ApiError(404, "not_found", f"table {table_id} is not a training table: its hands have no equities")
    if row.phh is None:
        raise ApiError(404, "not_found", f"hand {row.number} was voided: it has no history")
    streets = await room.front.equity_desk.streets(room, row)
    return HandEquity.model_validate(
        {"table_id": table_id, "number": row.number, "variant": variant, "streets": streets}
    )
