"""Accounts and sessions: argon2id password hashes, strength checks, random session tokens that expire.

A session token is 32 random bytes (URL-safe text) given to the browser in the ``studpoker_session`` cookie
(HttpOnly, SameSite=Lax); the database keeps only its SHA-256, so reading the database does not let anyone log
in. A session ends at logout, ``session_idle_seconds`` after it was last used (an open table socket counts as
use) and ``session_max_seconds`` after login. Passwords are hashed with argon2id (argon2-cffi), off the event
loop because it is deliberately slow, and must be hard to guess: zxcvbn's estimate decides.
"""

from __future__ import annotations

import hashlib
import secrets
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from sqlalchemy import delete, select, update
from sqlalchemy.orm import Session

from .db import Account, SessionRow, utcnow
from .errors import ApiError
from .ledger import HOUSE, transfer, user_account
from .names import BadNameError, look_key, name_key, username

__all__ = [
    "COOKIE",
    "CSRF_COOKIE",
    "Passwords",
    "Who",
    "check_username_free",
    "create_account",
    "digest",
    "end_session",
    "end_sessions",
    "expire_sessions",
    "find_account",
    "kept_key",
    "new_session",
    "password_problem",
    "valid_username",
    "who_for_token",
]

COOKIE = "studpoker_session"
#: The double-submit CSRF cookie (readable by the room's pages; see :mod:`studpoker.server.security`).
CSRF_COOKIE = "studpoker_csrf"
MAX_PASSWORD = 128
#: How often a session's ``last_seen_at`` is written at most (a write per request would be a write per click).
TOUCH_EVERY = timedelta(minutes=5)


@dataclass(frozen=True, slots=True)
class Who:
    """The account a request or socket speaks for, and the session (token hash) it came with."""

    id: int
    username: str
    is_admin: bool
    session: str


class Passwords:
    """argon2id hashing with the configured cost."""

    def __init__(self, time_cost: int = 3, memory_kib: int = 65536) -> None:
        self._hasher = PasswordHasher(time_cost=time_cost, memory_cost=memory_kib)
        self._dummy = self._hasher.hash("not a password")

    def hash(self, password: str) -> str:
        return self._hasher.hash(password)

    def verify(self, stored: str | None, password: str) -> bool:
        """True if ``password`` matches ``stored``; with no stored hash a dummy one is checked, so a wrong
        username takes as long as a wrong password."""
        try:
            return self._hasher.verify(stored or self._dummy, password) and stored is not None
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return False


def valid_username(text: object) -> str:
    """The normalised username, or :class:`ApiError` ``400 invalid`` saying why not."""
    try:
        return username(text)
    except BadNameError as error:
        raise ApiError(400, "invalid", str(error)) from None


def password_problem(password: str, user: str, min_score: int) -> str | None:
    """Why ``password`` may not be used (too long, control characters, too easy to guess), or ``None``.

    The guess estimate is zxcvbn's (dictionaries of common passwords, names and words, keyboard patterns,
    repeats, dates, and the username itself); ``min_score`` 3 is what it calls "safely unguessable".

    >>> print(password_problem("password1", "ann", 3))  # doctest: +ELLIPSIS
    this password is too easy to guess: This is a very common password. Add another word or two. ...
    >>> password_problem("correct horse battery", "ann", 3) is None
    True
    """
    if len(password) > MAX_PASSWORD:
        return f"a password is at most {MAX_PASSWORD} characters"
    if any(ord(c) < 32 or 0x7F <= ord(c) <= 0x9F for c in password):
        return "a password may not contain control characters"
    if len(password) < 8:
        return "a password is at least 8 characters"
    if min_score <= 0:
        return None
    from zxcvbn import zxcvbn  # type: ignore[import-untyped]

    result = zxcvbn(password, user_inputs=[user, "studpoker", "stud", "poker", "razz"], max_length=MAX_PASSWORD)
    if int(result["score"]) >= min_score:
        return None
    feedback = result.get("feedback") or {}
    hints = " ".join(x for x in [feedback.get("warning") or "", *(feedback.get("suggestions") or [])] if x)
    return "this password is too easy to guess" + (f": {hints}" if hints else "")


def check_username_free(session: Session, name: str) -> None:
    """409 ``conflict`` if the valid username ``name`` is taken, or looks like a name that is (one of its keys is
    another account's: :mod:`studpoker.server.names`); a cheap look-up, done before a sign-up's password is hashed."""
    key, look = name_key(name), look_key(name)
    taken = session.scalar(
        select(Account.username).where((Account.username_key == key) | (Account.username_look == look)).limit(1)
    )
    if taken is not None:
        if taken.casefold() == name.casefold():
            raise ApiError(409, "conflict", f"the username {name!r} is taken")
        raise ApiError(409, "conflict", f"the username {name!r} looks like {taken!r}, which is taken: choose another")


def create_account(
    session: Session, name: str, password_hash: str, starting_balance: int, *, is_admin: bool = False
) -> Account:
    """A new account with its play-money grant from the house (one transaction: the caller's).
    ``name`` must already be a valid username (:func:`valid_username`); 409 ``conflict`` if it is taken or looks
    like a name that is (one of its keys is another account's: :mod:`studpoker.server.names`)."""
    check_username_free(session, name)
    key, look = name_key(name), look_key(name)
    account = Account(
        username=name,
        username_key=key,
        username_look=look,
        password_hash=password_hash,
        balance=0,
        is_admin=is_admin,
    )
    session.add(account)
    session.flush()
    if starting_balance:
        transfer(session, HOUSE, user_account(account.id), starting_balance, "grant", memo="starting balance")
        session.flush()
        session.refresh(account)
    return account


def kept_key(name: str) -> str:
    """The keys of an account that kept a name looking like an older account's when the look-alike rule came
    (revision 0006): ``#`` and the name case-folded, which no other name's key can be (docs/server.md, "Names")."""
    return "#" + name.casefold()


def find_account(session: Session, typed: str) -> Account | None:
    """The account a sign-in's username names: the one whose :func:`kept_key` it is (it kept its name, typed in
    any case), else the one whose :func:`~studpoker.server.names.name_key` it has (typed in any case, or with
    look-alike characters), else ``None``. ``typed`` is as sent: normalised here as a username is."""
    name = " ".join(unicodedata.normalize("NFKC", typed).split())
    kept = kept_key(name)
    found = session.scalars(select(Account).where(Account.username_key.in_([kept, name_key(name)]))).all()
    return next((a for a in found if a.username_key == kept), found[0] if found else None)


def digest(token: str) -> str:
    """The SHA-256 of a session token, as stored."""
    return hashlib.sha256(token.encode()).hexdigest()


def new_session(session: Session, account_id: int) -> str:
    """Open a session for the account; returns the token for the cookie."""
    token = secrets.token_urlsafe(32)
    now = utcnow()
    session.add(SessionRow(token_hash=digest(token), account_id=account_id, created_at=now, last_seen_at=now))
    return token


def _expired(row: SessionRow, now: datetime, idle: float, longest: float) -> bool:
    return row.last_seen_at + timedelta(seconds=idle) <= now or row.created_at + timedelta(seconds=longest) <= now


def who_for_token(session: Session, token: str | None, idle: float, longest: float) -> Who | None:
    """The account a cookie's token logs in (``None`` for none, an unknown token or an expired session, which is
    deleted); a use more than :data:`TOUCH_EVERY` after the last one is recorded."""
    if not token or len(token) > 200:
        return None
    hashed = digest(token)
    row = session.get(SessionRow, hashed)
    if row is None:
        return None
    now = utcnow()
    if _expired(row, now, idle, longest):
        session.delete(row)
        return None
    if now - row.last_seen_at >= TOUCH_EVERY:
        row.last_seen_at = now
    account = session.get(Account, row.account_id)
    return None if account is None else Who(account.id, account.username, account.is_admin, hashed)


def end_session(session: Session, token: str | None) -> str | None:
    """Delete the session of ``token``; returns its hash (to close its sockets), or ``None``."""
    if not token or len(token) > 200:
        return None
    hashed = digest(token)
    session.execute(delete(SessionRow).where(SessionRow.token_hash == hashed))
    return hashed


def end_sessions(session: Session, account_id: int, keep: str | None = None) -> list[str]:
    """Delete every session of the account except ``keep`` (a token hash; ``None``: every one); returns the
    deleted hashes, to close their sockets."""
    hashes = [
        token
        for token in session.scalars(select(SessionRow.token_hash).where(SessionRow.account_id == account_id)).all()
        if token != keep
    ]
    for start in range(0, len(hashes), 500):
        session.execute(delete(SessionRow).where(SessionRow.token_hash.in_(hashes[start : start + 500])))
    return hashes


def expire_sessions(session: Session, in_use: Iterable[str], idle: float, longest: float) -> list[str]:
    """Record that the sessions ``in_use`` (open sockets) are being used, then delete every expired session;
    returns the deleted hashes, and those of ``in_use`` that were already gone (deleted by a request that found
    them expired, or by a logout that raced the socket's handshake): their sockets must close too."""
    now = utcnow()
    in_use = list(in_use)
    vanished: list[str] = []
    for start in range(0, len(in_use), 500):
        chunk = in_use[start : start + 500]
        session.execute(update(SessionRow).where(SessionRow.token_hash.in_(chunk)).values(last_seen_at=now))
        there = set(session.scalars(select(SessionRow.token_hash).where(SessionRow.token_hash.in_(chunk))).all())
        vanished += [token for token in chunk if token not in there]
    cutoff_idle = now - timedelta(seconds=idle)
    cutoff_max = now - timedelta(seconds=longest)
    where = (SessionRow.last_seen_at <= cutoff_idle) | (SessionRow.created_at <= cutoff_max)
    gone = list(session.scalars(select(SessionRow.token_hash).where(where)).all())
    if gone:
        session.execute(delete(SessionRow).where(where))
    return gone + vanished
