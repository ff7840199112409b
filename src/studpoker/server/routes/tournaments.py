"""Tournaments: the lobby's list, a tournament's page, opening one (a sit-and-go by anyone, a scheduled one by an
admin), registering and unregistering (the buy-in held in the tournament's escrow), and bots entered."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Path

from ..deps import CurrentAccount, RoomDep, check_csrf
from ..limits import MAX_ID
from ..tournamentschemas import (
    CreateTournament,
    Registered,
    TournamentBots,
    TournamentDetail,
    TournamentInfo,
    TournamentList,
    Unregistered,
)
from . import errors

router = APIRouter(prefix="/api/tournaments", tags=["tournaments"], dependencies=[Depends(check_csrf)])

TournamentId = Annotated[int, Path(ge=1, le=MAX_ID, description="the tournament's id")]


@router.get("")
async def tournaments(room: RoomDep) -> TournamentList:
    """Every tournament registering or running, and those finished in the last day, newest first."""
    return TournamentList.model_validate({"tournaments": await room.tournaments.list()})


@router.post("", status_code=201, responses=errors(400, 401, 403, 409, 413))
async def create(body: CreateTournament, who: CurrentAccount, room: RoomDep) -> TournamentInfo:
    """Open a tournament: a sit-and-go (dealt when full), or a scheduled one (admins only)."""
    return await room.tournaments.create(who, body)


@router.get("/{tournament_id}", responses=errors(404))
async def detail(tournament_id: TournamentId, room: RoomDep) -> TournamentDetail:
    """A tournament's page: structure, clock, stacks, payouts, tables and players."""
    return await room.tournaments.detail(tournament_id)


@router.post("/{tournament_id}/register", responses=errors(401, 402, 403, 404, 409))
async def register(tournament_id: TournamentId, who: CurrentAccount, room: RoomDep) -> Registered:
    """Enter: the buy-in goes from your balance to the tournament's escrow."""
    return await room.tournaments.register(who, tournament_id)


@router.delete("/{tournament_id}/register", responses=errors(401, 403, 404, 409))
async def unregister(tournament_id: TournamentId, who: CurrentAccount, room: RoomDep) -> Unregistered:
    """Take your entry back before the start: the buy-in comes back."""
    return await room.tournaments.unregister(who, tournament_id)


@router.post("/{tournament_id}/bots", responses=errors(400, 401, 403, 404, 409))
async def bots(tournament_id: TournamentId, body: TournamentBots, who: CurrentAccount, room: RoomDep) -> Registered:
    """Enter bots (the creator or an admin): the house pays their buy-ins and takes back their prizes."""
    return await room.tournaments.add_bots(who, tournament_id, body.count)
