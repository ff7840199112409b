"""A player's private notes on other players: what he wants to remember of how they play (read by nobody else).

Notes are kept on the account, one per player noted (by name, ignoring case), at most :data:`MAX_NOTES` of at most
:data:`MAX_NOTE` characters; writing an empty note deletes it. The table page shows a mark on every seat whose
player has a note and opens the note from the seat (docs/client.md).
"""

from __future__ import annotations

import unicodedata
from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends, Path
from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from ..db import NoteRow, utcnow
from ..deps import CurrentAccount, RoomDep, check_csrf
from ..errors import ApiError
from ..names import name_key, unshowable
from ..schemas import Empty, Note, NoteChange, Notes, Ok
from . import errors

router = APIRouter(prefix="/api/me/notes", tags=["accounts"], dependencies=[Depends(check_csrf)])

#: The body of a change with nothing to say: ``{}``, or none (the request is JSON all the same).
NoData = Annotated[Empty | None, Body()]

#: Notes one account may keep, and the characters of one.
MAX_NOTES = 500
MAX_NOTE = 500

#: A player's name as the tables show it: a username, or a bot's ("Bot 3").
Subject = Annotated[
    str, Path(min_length=1, max_length=40, pattern=r"^[A-Za-z0-9_-]+( [0-9]+)?$", description="the player noted")
]


def clean_note(text: str) -> str:
    """A note's text: NFC, line ends as ``\\n``, stripped; no control, format or invisible characters but line
    breaks; at most :data:`MAX_NOTE` characters. :class:`ApiError` ``400`` saying what is wrong."""
    text = unicodedata.normalize("NFC", text.replace("\r\n", "\n").replace("\r", "\n")).strip()
    for char in text:
        if char != "\n" and unshowable(char):
            raise ApiError(400, "invalid", f"a note may not contain U+{ord(char):04X}")
    if len(text) > MAX_NOTE:
        raise ApiError(400, "invalid", f"a note is at most {MAX_NOTE} characters, got {len(text)}")
    return text


def _as_note(row: NoteRow) -> dict[str, Any]:
    return {
        "name": row.subject,
        "text": row.text,
        "updated_at": row.updated_at.replace(microsecond=0).isoformat() + "Z",
    }


@router.get("", responses=errors(401))
async def notes(who: CurrentAccount, room: RoomDep) -> Notes:
    """Every note the account keeps, by the name of the player noted."""

    def work(session: Session) -> list[dict[str, Any]]:
        rows = session.scalars(select(NoteRow).where(NoteRow.account_id == who.id).order_by(NoteRow.subject_key))
        return [_as_note(row) for row in rows]

    return Notes.model_validate({"notes": await room.db.run(work)})


@router.put("/{name}", responses=errors(400, 401, 403, 404, 409, 413))
async def write_note(name: Subject, body: NoteChange, who: CurrentAccount, room: RoomDep) -> Note:
    """Write the note on ``name`` (an empty text deletes it; answered as an empty note)."""
    text = clean_note(body.text)
    key = name_key(name)

    def work(session: Session) -> dict[str, Any]:
        mine = NoteRow.account_id == who.id
        row = session.scalar(select(NoteRow).where(mine, NoteRow.subject_key == key))
        if not text:
            if row is not None:
                session.delete(row)
            return {"name": name, "text": "", "updated_at": None}
        if row is None:
            if (session.scalar(select(func.count()).select_from(NoteRow).where(mine)) or 0) >= MAX_NOTES:
                raise ApiError(409, "limit", f"an account keeps at most {MAX_NOTES} notes: delete one first")
            row = NoteRow(account_id=who.id, subject=name, subject_key=key, text=text, updated_at=utcnow())
            session.add(row)
        else:
            row.subject, row.text, row.updated_at = name, text, utcnow()
        session.flush()
        return _as_note(row)

    return Note.model_validate(await room.db.run(work))


@router.delete("/{name}", responses=errors(400, 401, 403, 404, 413))
async def delete_note(name: Subject, who: CurrentAccount, room: RoomDep, _body: NoData = None) -> Ok:
    """Delete the note on ``name`` (there may be none)."""
    key = name_key(name)
    await room.db.run(
        lambda s: s.execute(delete(NoteRow).where(NoteRow.account_id == who.id, NoteRow.subject_key == key))
    )
    return Ok(ok=True)
