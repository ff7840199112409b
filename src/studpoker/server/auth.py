"""Accounts and sessions: argon2id password hashes, random session tokens, the session cookie.

A session token is 32 random bytes (URL-safe text) given to the browser in the ``studpoker_session`` cookie
(HttpOnly, SameSite=Lax); the database keeps only its SHA-256, so reading the database does not let anyone log
in. Logging out deletes the row. Passwords are hashed with argon2id (argon2-cffi); hashing runs off the event
loop because it is deliberately slow.
"""

from __future__ import annotations

import hashlib
import re
import secrets

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from .db import Account, SessionRow
from .ledger import HOUSE, transfer, user_account

__all__ = [
    "COOKIE",
    "AuthError",
    "Passwords",
    "account_for_token",
    "check_credentials_shape",
    "create_account",
    "end_session",
    "new_session",
]

COOKIE = "studpoker_session"
_USERNAME = re.compile(r"[A-Za-z0-9_-]{3,20}")


class AuthError(ValueError):
    """A refused signup or login; ``code`` is the API error code, ``status`` the HTTP status."""

    def __init__(self, code: str, message: str, status: int) -> None:
        super().__init__(message)
        self.code = code
        self.status = status


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


def check_credentials_shape(username: object, password: object) -> tuple[str, str]:
    """The username and password if they are acceptable, else :class:`AuthError` ``invalid``."""
    if not isinstance(username, str) or not _USERNAME.fullmatch(username):
        raise AuthError("invalid", "a username is 3 to 20 letters, digits, '_' or '-'", 400)
    if not isinstance(password, str) or not 8 <= len(password) <= 128:
        raise AuthError("invalid", "a password is 8 to 128 characters", 400)
    return username, password


def create_account(session: Session, username: str, password_hash: str, starting_balance: int) -> Account:
    """A new account with its play-money grant from the house (one transaction: the caller's)."""
    key = username.lower()
    if session.scalar(select(Account.id).where(Account.username_key == key)) is not None:
        raise AuthError("conflict", f"the username {username!r} is taken", 409)
    account = Account(username=username, username_key=key, password_hash=password_hash, balance=0)
    session.add(account)
    session.flush()
    if starting_balance:
        transfer(session, HOUSE, user_account(account.id), starting_balance, "grant", memo="starting balance")
        session.flush()
        session.refresh(account)
    return account


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_session(session: Session, account_id: int) -> str:
    """Open a session for the account; returns the token for the cookie."""
    token = secrets.token_urlsafe(32)
    session.add(SessionRow(token_hash=_digest(token), account_id=account_id))
    return token


def account_for_token(session: Session, token: str | None) -> Account | None:
    """The account a cookie's token logs in, or ``None``."""
    if not token or len(token) > 200:
        return None
    row = session.get(SessionRow, _digest(token))
    return None if row is None else session.get(Account, row.account_id)


def end_session(session: Session, token: str | None) -> None:
    if token:
        session.execute(delete(SessionRow).where(SessionRow.token_hash == _digest(token)))
