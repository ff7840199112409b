"""For admins: every account, and the books (the ledger's invariant, checked by the database and in Python)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query
from sqlalchemy import select
from sqlalchemy.orm import Session

from ..db import Account
from ..deps import AdminAccount, RoomDep, check_csrf
from ..ledger import check_invariants
from ..limits import MAX_ID
from ..schemas import AccountList, Books
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
