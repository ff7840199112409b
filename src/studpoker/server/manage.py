"""The room's management from the command line (``stud admin``): create an account (an admin, typically), give or
take the admin role, count the HUD's statistics again from the stored hands. Runs straight on the database, with or
without a server running."""

from __future__ import annotations

from sqlalchemy import update
from sqlalchemy.orm import Session

from .auth import Passwords, create_account, find_account, password_problem, valid_username
from .db import Account, Database, check_database
from .errors import ApiError

__all__ = ["ManageError", "create_user", "recount_hud", "set_admin"]


class ManageError(ValueError):
    """What ``stud admin`` reports in one line."""


def _open(url: str) -> Database:
    problem = check_database(url)
    if problem is not None:
        raise ManageError(problem)
    return Database(url)


def create_user(url: str, username: str, password: str, *, admin: bool, starting_balance: int = 10_000) -> int:
    """Create an account (with the starting balance from the house, as a sign-up would); returns its id.
    The username and password rules are the sign-up's (zxcvbn strength 3 and up)."""
    try:
        name = valid_username(username)
    except ApiError as error:
        raise ManageError(error.message) from None
    problem = password_problem(password, name, 3)
    if problem:
        raise ManageError(problem)
    hashed = Passwords().hash(password)
    db = _open(url)
    try:

        def work(session: Session) -> int:
            return create_account(session, name, hashed, starting_balance, is_admin=admin).id

        return db.transaction(work)
    except ApiError as error:
        raise ManageError(error.message) from None
    finally:
        db.close()


def set_admin(url: str, username: str, admin: bool) -> None:
    """Give (``admin``) or take away the admin role of an existing account."""
    db = _open(url)
    try:

        def work(session: Session) -> bool:
            found = find_account(session, username)
            if found is None:
                return False
            session.execute(update(Account).where(Account.id == found.id).values(is_admin=admin))
            return True

        if not db.transaction(work):
            raise ManageError(f"there is no account {username!r}")
    finally:
        db.close()


def recount_hud(url: str) -> int:
    """Count the HUD's statistics again from every finished hand (after a release added count fields, or for the
    hands finished before the HUD existed), in one transaction; returns the hands counted."""
    from .hud import rebuild_counts

    db = _open(url)
    try:
        return db.transaction(rebuild_counts)
    finally:
        db.close()
