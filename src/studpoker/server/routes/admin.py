"""For admins: every account, the books (the ledger's invariant, checked by the database and in Python), and the
floor's moves of a player with his chips from one table to another."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query
from sqlalchemy import select
from sqlalchemy.orm import Session

from ..db import Account
from ..deps import AdminAccount, RoomDep, check_csrf
from ..director import Director
from ..errors import ApiError
from ..ledger import check_invariants
from ..limits import MAX_ID
from ..schemas import AccountList, Books, MovePlayer, PlayerMoved
from . import errors
from .auth import iso

router = APIRouter(prefix="/api/admin", tags=["admin"], dependencies=[Depends(check_csrf)], responses=errors(401, 403))


@router.get("/accounts", responses=errors(400))
async def accounts(
    _admin: AdminAccount,
    room: RoomDep,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
    after: Annotated[int, Query(ge=0, le=MAX_ID, description="only accounts with a higher id")] = 0,
) -> AccountList:
    """Accounts by id, ``limit`` at a time."""

    def work(session: Session) -> list[dict[str, Any]]:
        rows = session.scalars(select(Account).where(Account.id > after).order_by(Account.id).limit(limit)).all()
        return [
            {
                "id": a.id,
                "username": a.username,
                "balance": a.balance,
                "is_admin": a.is_admin,
                "created_at": iso(a.created_at),
            }
            for a in rows
        ]

    return AccountList.model_validate({"accounts": await room.db.run(work)})


@router.get("/books")
async def books(_admin: AdminAccount, room: RoomDep) -> Books:
    """Whether the books balance: every balance equals its ledger sum, every table's chips its seats', and the
    house's grants equal the balances plus the chips on tables (summed by the database and in Python)."""

    def work(session: Session) -> Books:
        try:
            found = check_invariants(session)
        except AssertionError as error:
            return Books(balanced=False, problem=str(error), granted=0, balances=0, at_tables=0)
        return Books(
            balanced=True, problem=None, **{k: getattr(found, k) for k in ("granted", "balances", "at_tables")}
        )

    result: Books = await room.db.run(work)
    return result


@router.post("/move", responses=errors(400, 404, 409))
async def move(_admin: AdminAccount, room: RoomDep, body: MovePlayer) -> PlayerMoved:
    """Move a player and his chips from one table to another of the same game, between his hands (a table change;
    a tournament's balancing): one ledger transaction, wherever the two tables run."""

    def name(session: Session) -> str | None:
        return session.scalar(select(Account.username).where(Account.id == body.account_id))

    username = await room.db.run(name)
    if username is None:
        raise ApiError(404, "not_found", f"there is no account {body.account_id}")
    return await Director(room).move(body.account_id, username, body.from_table, body.to_table, body.seat)
