"""One table: its seats; sitting down, leaving, topping up and sitting out (the account's own seat only), the
waiting list of a full table; bots and closing (the table's creator or an admin). Every change is queued to the
table's actor and answered after the actor has done it, the money having moved in the same database transaction as
the seat."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body, Depends

from ..deps import CurrentAccount, ManagedTable, OpenTable, check_csrf
from ..schemas import (
    AddBots,
    BotsAdded,
    BotsRemoved,
    CloseResult,
    Empty,
    LeaveResult,
    Sit,
    SitResult,
    SittingOut,
    TableDetail,
    TopUp,
    TopUpResult,
    WaitingLeft,
    WaitingPlace,
)
from . import errors

router = APIRouter(prefix="/api/tables/{table_id}", tags=["tables"], dependencies=[Depends(check_csrf)])

_CHANGE = errors(400, 401, 403, 404, 409, 413)
#: The body of a change with nothing to say: ``{}``, or none (the request is JSON all the same).
NoData = Annotated[Empty | None, Body()]


@router.get("", responses=errors(404))
async def table(actor: OpenTable) -> TableDetail:
    """The table and its occupied seats."""
    return TableDetail.model_validate({**actor.info(), "seats": actor.seats_info()})


@router.post("/sit", responses={**_CHANGE, **errors(402)})
async def sit(who: CurrentAccount, actor: OpenTable, body: Sit) -> SitResult:
    """Take a seat, buying in from the balance (dealt in from the next hand)."""
    return await actor.sit(who.id, who.username, body.buy_in, body.seat)


@router.post("/leave", responses=_CHANGE)
async def leave(who: CurrentAccount, actor: OpenTable, _body: NoData = None) -> LeaveResult:
    """Leave the seat: at once with the stack, or when the hand in play is over."""
    return await actor.leave(who.id)


@router.post("/top-up", responses={**_CHANGE, **errors(402)})
async def top_up(who: CurrentAccount, actor: OpenTable, body: TopUp) -> TopUpResult:
    """Add chips from the balance (queued until the hand in play is over)."""
    return await actor.top_up(who.id, body.amount)


@router.post("/sit-out", responses=_CHANGE)
async def sit_out(who: CurrentAccount, actor: OpenTable, _body: NoData = None) -> SittingOut:
    """Not dealt in from the next hand on (the seat and chips stay)."""
    return await actor.set_sitting_out(who.id, True)


@router.post("/sit-in", responses=_CHANGE)
async def sit_in(who: CurrentAccount, actor: OpenTable, _body: NoData = None) -> SittingOut:
    """Dealt in again from the next hand."""
    return await actor.set_sitting_out(who.id, False)


@router.post("/waiting-list", responses=_CHANGE)
async def join_waiting_list(who: CurrentAccount, actor: OpenTable, _body: NoData = None) -> WaitingPlace:
    """Put your name on a full table's waiting list: when a seat opens it is held for the first name for a while
    (the table's sockets of that account get a snapshot with the ``offer``)."""
    return await actor.join_waiting_list(who.id, who.username)


@router.delete("/waiting-list", responses=_CHANGE)
async def leave_waiting_list(who: CurrentAccount, actor: OpenTable, _body: NoData = None) -> WaitingLeft:
    """Take your name off the table's waiting list."""
    return await actor.leave_waiting_list(who.id)


@router.post("/bots", responses=_CHANGE)
async def add_bots(actor: ManagedTable, body: Annotated[AddBots | None, Body()] = None) -> BotsAdded:
    """Seat bots in free seats (the table's creator or an admin)."""
    body = body or AddBots.model_validate({})
    return await actor.add_bots(body.count, body.tag)


@router.delete("/bots", responses=_CHANGE)
async def remove_bots(actor: ManagedTable, _body: NoData = None) -> BotsRemoved:
    """Every bot leaves (a bot in the hand in play when it is over); the table's creator or an admin."""
    return await actor.remove_bots()


@router.delete("", responses=_CHANGE)
async def close(actor: ManagedTable, _body: NoData = None) -> CloseResult:
    """Close the table (its creator or an admin): no new hand; every seat is cashed out through the ledger, at
    once between hands or when the hand in play is over (``closed`` false until then)."""
    return await actor.close()
