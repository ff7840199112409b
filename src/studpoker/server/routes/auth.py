"""Accounts and sessions: sign up, log in (throttled), log out (closing the session's sockets), who am I, my
ledger, my preferences, a change of password and signing out everywhere (closing the sockets of the sessions
they end), and a CSRF token for programs that send no ``Origin``."""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import unicodedata
from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends, Query, Request, Response
from sqlalchemy import select
from sqlalchemy.orm import Session

from ..auth import (
    COOKIE,
    CSRF_COOKIE,
    MAX_PASSWORD,
    check_username_free,
    create_account,
    end_session,
    end_sessions,
    find_account,
    new_session,
    password_problem,
    valid_username,
)
from ..config import Settings
from ..db import Account as AccountRow
from ..db import LedgerEntry, SessionRow
from ..deps import CurrentAccount, RoomDep, SettingsDep, check_csrf, client_address
from ..errors import ApiError
from ..front import CardRoom
from ..ledger import user_account
from ..names import name_key
from ..schemas import (
    Account,
    Credentials,
    CsrfToken,
    Empty,
    Ledger,
    Me,
    Ok,
    PasswordChange,
    Preferences,
    PreferencesChange,
    SessionsEnded,
)
from . import errors

router = APIRouter(prefix="/api", tags=["accounts"], dependencies=[Depends(check_csrf)])


def iso(value: Any) -> str | None:
    """A database timestamp as the API's ISO 8601 UTC text."""
    return None if value is None else value.replace(microsecond=0).isoformat() + "Z"


def _set_cookies(response: Response, token: str, settings: Settings) -> None:
    response.set_cookie(
        COOKIE,
        token,
        httponly=True,
        samesite="lax",
        secure=settings.secure_cookies,
        path="/",
        max_age=int(settings.session_max_seconds),
    )
    response.set_cookie(
        CSRF_COOKIE, secrets.token_urlsafe(24), samesite="strict", secure=settings.secure_cookies, path="/"
    )


@router.post("/signup", status_code=201, responses=errors(400, 403, 409, 413, 429))
async def signup(body: Credentials, request: Request, response: Response, room: RoomDep) -> Account:
    """Open an account (with the starting balance of play chips) and sign in.

    The cheap checks come first (the name's form, whether it is taken, the password's rules), so that only a
    sign-up that can succeed pays for argon2; refused sign-ups are counted per address (429 past the limit)."""
    settings = room.settings
    address = client_address(request)
    wait = room.front.signup_failures.retry_after(address)
    if wait:
        raise ApiError(
            429,
            "rate_limited",
            f"too many failed sign-ups from here: try again in {wait} s",
            {"Retry-After": str(wait)},
        )
    wait = room.front.signups.retry_after(address)
    if wait:
        raise ApiError(
            429, "rate_limited", f"too many new accounts from here: try again in {wait} s", {"Retry-After": str(wait)}
        )
    # counted now, so parallel sign-ups cannot all pass the checks above: a new account, and a failure until it
    # turns out to be none
    stamp = room.front.signups.add(address)
    failure = room.front.signup_failures.add(address)
    try:
        name = valid_username(body.username)
        await room.db.run(lambda session: check_username_free(session, name))
        problem = password_problem(body.password, name, settings.min_password_score)
        if problem:
            raise ApiError(400, "invalid", problem)
        hashed = await asyncio.to_thread(room.front.passwords.hash, body.password)

        def work(session: Session) -> tuple[Account, str]:
            account = create_account(session, name, hashed, settings.starting_balance)  # 409 if taken meanwhile
            token = new_session(session, account.id)
            return Account(id=account.id, username=account.username, balance=account.balance), token

        data, token = await room.db.run(work)
    except Exception:
        room.front.signups.forgive(address, stamp)  # no account was made; the failure stays counted
        raise
    room.front.signup_failures.forgive(address, failure)
    _set_cookies(response, token, settings)
    return data


@router.post("/login", responses=errors(400, 401, 403, 413, 429))
async def login(body: Credentials, request: Request, response: Response, room: RoomDep) -> Account:
    """Sign in. Wrong passwords are counted per username and per address: past the limit, 429 until the window
    has passed (even for the right password)."""
    address = client_address(request)
    key = name_key(" ".join(unicodedata.normalize("NFKC", body.username).split()))  # as stored, however odd
    wait = max(
        room.front.login_failures_by_address.retry_after(address), room.front.login_failures_by_account.retry_after(key)
    )
    if wait:
        raise ApiError(
            429, "rate_limited", f"too many wrong passwords: try again in {wait} s", {"Retry-After": str(wait)}
        )
    # counted as failures now, forgiven if the password is right: parallel guesses cannot all pass the check above
    stamp = room.front.login_failures_by_address.add(address)
    room.front.login_failures_by_account.add(key)

    def lookup(session: Session) -> tuple[int, str] | None:
        account = find_account(session, body.username)
        return None if account is None else (account.id, account.password_hash)

    found = await room.db.run(lookup)
    password = body.password[:MAX_PASSWORD]
    ok = await asyncio.to_thread(room.front.passwords.verify, None if found is None else found[1], password)
    if not ok or found is None:
        raise ApiError(401, "bad_credentials", "wrong username or password")
    room.front.login_failures_by_address.forgive(address, stamp)
    room.front.login_failures_by_account.clear(key)
    account_id, verified = found

    def work(session: Session) -> tuple[Account, str]:
        # locked, and checked again: a password changed since it was read ends every session, this one too
        account = session.get(AccountRow, account_id, with_for_update=True)
        if account is None or account.password_hash != verified:
            raise ApiError(401, "bad_credentials", "wrong username or password")
        token = new_session(session, account_id)
        return Account(
            id=account.id, username=account.username, balance=account.balance, is_admin=account.is_admin
        ), token

    data, token = await room.db.run(work)
    _set_cookies(response, token, room.settings)
    return data


@router.post("/logout", responses=errors(403, 413))
async def logout(
    request: Request,
    response: Response,
    room: RoomDep,
    settings: SettingsDep,
    _body: Annotated[Empty | None, Body()] = None,
) -> Ok:
    """End this session: its cookie stops working and its open table sockets are closed."""
    token = request.cookies.get(COOKIE)
    hashed = await room.db.run(lambda s: end_session(s, token))
    if hashed is not None:
        room.sockets.end(hashed, "you signed out")
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax", secure=settings.secure_cookies)
    response.delete_cookie(CSRF_COOKIE, path="/", samesite="strict", secure=settings.secure_cookies)
    return Ok(ok=True)


@router.get("/csrf")
async def csrf(request: Request, response: Response, settings: SettingsDep) -> CsrfToken:
    """A CSRF token for programs that send no ``Origin``: send it back as ``X-CSRF-Token`` with the
    ``studpoker_csrf`` cookie it is set in (browsers on the room's pages need none)."""
    token = request.cookies.get(CSRF_COOKIE)
    if not token or len(token) > 200:
        token = secrets.token_urlsafe(24)
        response.set_cookie(CSRF_COOKIE, token, samesite="strict", secure=settings.secure_cookies, path="/")
    return CsrfToken(token=token)


@router.get("/me", responses=errors(401))
async def me(who: CurrentAccount, room: RoomDep) -> Me:
    """The signed-in account: its balance and the seats it holds."""
    balance = await room.db.run(lambda s: int(s.scalar(select(AccountRow.balance).where(AccountRow.id == who.id)) or 0))
    seats = await room.seats_of(who.id)
    return Me.model_validate(
        {"id": who.id, "username": who.username, "balance": balance, "is_admin": who.is_admin, "seats": seats}
    )


@router.get("/ledger", responses=errors(400, 401))
async def ledger(who: CurrentAccount, room: RoomDep, limit: Annotated[int, Query(ge=1, le=500)] = 50) -> Ledger:
    """The account's ledger, newest first: each line is a change to its balance."""
    name = user_account(who.id)

    def work(session: Session) -> dict[str, Any]:
        rows = session.scalars(
            select(LedgerEntry)
            .where((LedgerEntry.source == name) | (LedgerEntry.target == name))
            .order_by(LedgerEntry.id.desc())
            .limit(limit)
        ).all()
        balance = session.scalar(select(AccountRow.balance).where(AccountRow.id == who.id))
        return {
            "balance": balance or 0,
            "entries": [
                {
                    "id": r.id,
                    "at": iso(r.at),
                    "amount": r.amount if r.target == name else -r.amount,
                    "kind": r.kind,
                    "table_id": r.table_id,
                    "memo": r.memo,
                }
                for r in rows
            ],
        }

    return Ledger.model_validate(await room.db.run(work))


def stored_preferences(stored: object) -> Preferences:
    """An account's stored preferences (``None``: the defaults; a stored value that no longer fits the model,
    field by field, gets that field's default)."""
    if not isinstance(stored, dict):
        return Preferences.model_validate({})
    fields: dict[str, Any] = {}
    for name in Preferences.model_fields:
        if name in stored:
            with contextlib.suppress(ValueError):
                fields[name] = getattr(Preferences.model_validate({name: stored[name]}), name)
    return Preferences.model_validate(fields)


@router.get("/me/preferences", responses=errors(401))
async def preferences(who: CurrentAccount, room: RoomDep) -> Preferences:
    """The account's preferences of the browser client (the defaults until it changes one)."""
    stored = await room.db.run(lambda s: s.scalar(select(AccountRow.preferences).where(AccountRow.id == who.id)))
    return stored_preferences(stored)


@router.post("/me/preferences", responses=errors(400, 401, 403, 413))
async def change_preferences(body: PreferencesChange, who: CurrentAccount, room: RoomDep) -> Preferences:
    """Change some preferences (only the fields given); answers all of them as they now are."""
    change = body.model_dump(include=body.model_fields_set)

    def work(session: Session) -> Preferences:
        account = session.get(AccountRow, who.id)
        if account is None:
            raise ApiError(401, "not_logged_in", "sign in first")
        updated = stored_preferences(account.preferences).model_copy(update=change)
        account.preferences = updated.model_dump()
        return updated

    result: Preferences = await room.db.run(work)
    return result


def _wrong_passwords_wait(room: CardRoom, address: str, key: str) -> None:
    """429 ``rate_limited`` while ``address`` or the username ``key`` has had too many wrong passwords."""
    wait = max(
        room.front.login_failures_by_address.retry_after(address), room.front.login_failures_by_account.retry_after(key)
    )
    if wait:
        raise ApiError(
            429, "rate_limited", f"too many wrong passwords: try again in {wait} s", {"Retry-After": str(wait)}
        )


@router.post("/me/password", responses=errors(400, 401, 403, 413, 429))
async def change_password(body: PasswordChange, who: CurrentAccount, request: Request, room: RoomDep) -> SessionsEnded:
    """Change the account's password. The current one must be right (a wrong one counts as a wrong login does,
    for the username and the address, and past the limit every try is 429); the new one follows the sign-up's
    rules. Every other session of the account ends and its table sockets close; this one stays signed in."""
    address, key = client_address(request), name_key(who.username)
    _wrong_passwords_wait(room, address, key)
    problem = password_problem(body.new, who.username, room.settings.min_password_score)
    if problem:
        raise ApiError(400, "invalid", problem)
    if body.new == body.current:
        raise ApiError(400, "invalid", "the new password is the current one: choose another")
    stamp = room.front.login_failures_by_address.add(address)  # counted now, forgiven if right (as a login)
    room.front.login_failures_by_account.add(key)
    stored = await room.db.run(lambda s: s.scalar(select(AccountRow.password_hash).where(AccountRow.id == who.id)))
    if not await asyncio.to_thread(room.front.passwords.verify, stored, body.current):
        raise ApiError(403, "bad_credentials", "the current password is not right")
    room.front.login_failures_by_address.forgive(address, stamp)
    room.front.login_failures_by_account.clear(key)
    hashed = await asyncio.to_thread(room.front.passwords.hash, body.new)

    def work(session: Session) -> list[str]:
        account = session.get(AccountRow, who.id, with_for_update=True)  # a sign-in racing this waits, then fails
        if account is None or session.get(SessionRow, who.session) is None:
            raise ApiError(401, "not_logged_in", "sign in first")
        if account.password_hash != stored:
            raise ApiError(409, "conflict", "the password was changed meanwhile: sign in again with the new one")
        account.password_hash = hashed
        return end_sessions(session, who.id, keep=who.session)

    ended: list[str] = await room.db.run(work)
    for token in ended:
        room.sockets.end(token, "your password was changed: sign in again")
    return SessionsEnded(ended=len(ended))


@router.post("/me/sessions/end", responses=errors(401, 403, 413))
async def end_every_session(
    who: CurrentAccount,
    response: Response,
    room: RoomDep,
    settings: SettingsDep,
    _body: Annotated[Empty | None, Body()] = None,
) -> SessionsEnded:
    """Sign out everywhere: every session of the account ends, this one too (its cookie is cleared), and every
    table socket opened with one of them closes."""
    ended: list[str] = await room.db.run(lambda s: end_sessions(s, who.id))
    for token in ended:
        room.sockets.end(token, "you signed out everywhere")
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax", secure=settings.secure_cookies)
    response.delete_cookie(CSRF_COOKIE, path="/", samesite="strict", secure=settings.secure_cookies)
    return SessionsEnded(ended=len(ended))
