"""The lobby: every open table with its sign, what the create form offers, and opening a table."""

from __future__ import annotations

from fastapi import APIRouter, Depends

from ...engine import Variant
from ..deps import CurrentAccount, RoomDep, SettingsDep, check_csrf
from ..room import STAKES
from ..schemas import CreateTable, Presets, TableInfo, TableList
from . import errors

router = APIRouter(prefix="/api", tags=["lobby"], dependencies=[Depends(check_csrf)])


@router.get("/tables")
async def tables(room: RoomDep) -> TableList:
    """Every open table, by id. No sign-in needed."""
    return TableList.model_validate({"tables": await room.table_infos()})


@router.get("/presets")
async def presets(settings: SettingsDep) -> Presets:
    """What the create form offers: games, presets, stakes (each accepted by every game and preset), bots."""
    return Presets.model_validate(
        {
            "variants": [{"variant": v, "name": v.title} for v in Variant],
            "presets": ["casino", "tournament"],
            "stakes": list(STAKES),
            "bots": list(settings.bot_tags),
        }
    )


@router.post("/tables", status_code=201, responses=errors(400, 401, 403, 409, 413, 429))
async def create_table(body: CreateTable, who: CurrentAccount, room: RoomDep) -> TableInfo:
    """Open a table (its creator manages its bots and may close it). An account may have
    ``max_tables_per_account`` open tables (3 unless configured) and open 20 an hour; admins any number."""
    actor = await room.create_table(who, body)
    return TableInfo.model_validate(actor.info())
