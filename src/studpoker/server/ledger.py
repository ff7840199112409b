"""The chip ledger: double-entry movements between named ledger accounts, and the invariants.

Ledger accounts: ``house`` (the source of play money; its balance is minus everything granted), ``user:<id>``
(an account's balance, mirrored in ``accounts.balance``), ``table:<id>`` (every chip at a table),
``tournament:<id>`` (a tournament's escrow: the buy-ins, until the prizes are paid) and ``chips:<id>`` (a
tournament's own chips: issued to its tables at the start, all back when it ends; they are never money). Each
:class:`~studpoker.server.db.LedgerEntry` moves an amount from one to another, so the sum over all ledger
accounts is zero at every commit. :func:`transfer` runs inside the caller's transaction, together with the
state change it pays for (a seat row, a hand row), so money and state never disagree.

A balance never goes below zero: the debit of a user is one conditional ``UPDATE ... WHERE balance >= amount``,
atomic in every database, so two buy-ins racing on one balance cannot both pass. Nor above
:data:`~studpoker.server.limits.MAX_BALANCE`: a credit that would pass it is refused the same way.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass

from sqlalchemy import func, literal_column, select, union_all, update
from sqlalchemy.exc import InvalidRequestError, SQLAlchemyError
from sqlalchemy.orm import Session

from .db import Account, LedgerEntry, SeatRow, TableRow, TournamentRow
from .limits import MAX_BALANCE

__all__ = [
    "HOUSE",
    "BalanceLimitError",
    "InsufficientFundsError",
    "Invariants",
    "balance_of",
    "cash_out_kind",
    "check_invariants",
    "chips_account",
    "escrow_account",
    "purse",
    "table_account",
    "transfer",
    "user_account",
]

HOUSE = "house"


class InsufficientFundsError(ValueError):
    """A debit larger than the account's balance; nothing was written."""


class BalanceLimitError(ValueError):
    """A credit that would take a balance past ``MAX_BALANCE``; nothing was written."""


def user_account(account_id: int) -> str:
    return f"user:{account_id}"


def table_account(table_id: int) -> str:
    return f"table:{table_id}"


def escrow_account(tournament_id: int) -> str:
    return f"tournament:{tournament_id}"


def chips_account(tournament_id: int) -> str:
    return f"chips:{tournament_id}"


def purse(account_id: int | None, *, bot: bool, training: bool, tournament: int | None = None) -> str:
    """Where a seat's chips come from and go back to: the account's balance, or the house for a bot and for
    everyone at a training table (practice chips: a training table never moves a balance), or at a tournament's
    table its chip account (tournament chips are never money)."""
    if tournament is not None:
        return chips_account(tournament)
    return HOUSE if bot or training or account_id is None else user_account(account_id)


def cash_out_kind(*, bot: bool, training: bool, tournament: int | None = None) -> str:
    """The ledger entry's kind for chips leaving a seat (:func:`purse` says where to)."""
    if tournament is not None:
        return "tournament_chips_out"
    return "bot_cash_out" if bot else "training_cash_out" if training else "cash_out"


def _user_id(name: str) -> int | None:
    return int(name[5:]) if name.startswith("user:") else None


def transfer(
    session: Session,
    source: str,
    target: str,
    amount: int,
    kind: str,
    *,
    table_id: int | None = None,
    hand_number: int | None = None,
    memo: str = "",
) -> LedgerEntry:
    """Move ``amount`` chips from ``source`` to ``target`` (in the caller's transaction).

    A user account's cached balance moves with it; a debit larger than the balance raises
    :class:`InsufficientFundsError` and writes nothing.
    """
    if type(amount) is not int or not 0 <= amount <= MAX_BALANCE:
        raise ValueError(f"a ledger amount must be a whole number of chips from 0 to {MAX_BALANCE}, got {amount!r}")
    debit = _user_id(source)
    if debit is not None and source != target:
        done = session.execute(
            update(Account)
            .where(Account.id == debit, Account.balance >= amount)
            .values(balance=Account.balance - amount)
            .execution_options(synchronize_session=False)
        )
        if done.rowcount != 1:  # type: ignore[attr-defined]
            balance = session.scalar(select(Account.balance).where(Account.id == debit))
            raise InsufficientFundsError(f"{amount} chips is more than your balance of {balance or 0}")
    credit = _user_id(target)
    if credit is not None and source != target:
        done = session.execute(
            update(Account)
            .where(Account.id == credit, Account.balance <= MAX_BALANCE - amount)
            .values(balance=Account.balance + amount)
            .execution_options(synchronize_session=False)
        )
        if done.rowcount != 1:  # type: ignore[attr-defined]
            raise BalanceLimitError(f"{amount} chips would take account {credit} past the maximum balance")
    entry = LedgerEntry(
        source=source, target=target, amount=amount, kind=kind, table_id=table_id, hand_number=hand_number, memo=memo
    )
    session.add(entry)
    return entry


def balance_of(session: Session, name: str) -> int:
    """A ledger account's balance from the ledger rows (credits minus debits)."""
    credits = session.scalar(select(func.coalesce(func.sum(LedgerEntry.amount), 0)).where(LedgerEntry.target == name))
    debits = session.scalar(select(func.coalesce(func.sum(LedgerEntry.amount), 0)).where(LedgerEntry.source == name))
    return int(credits or 0) - int(debits or 0)


@dataclass(frozen=True, slots=True)
class Invariants:
    """The money at rest: ``granted`` (what the house gave out) equals ``balances`` + ``at_tables`` (cash tables)
    + ``in_escrow`` (tournaments' buy-ins not yet paid out)."""

    granted: int
    balances: int
    at_tables: int
    in_escrow: int = 0


def check_invariants(session: Session) -> Invariants:
    """Check that the books balance and raise :class:`AssertionError` naming the first difference.

    * every user's cached balance equals its ledger balance, and none is negative;
    * every table's ledger balance equals the chips its seat rows hold (stacks and queued chips; during a hand
      the rows keep the stacks from before it, and a hand moves chips only inside the table);
    * every tournament's chips are all at its tables or back in its chip account (the two sum to zero), and its
      escrow is never negative, and empty once it is finished or cancelled;
    * the house's grants equal the balances plus the chips on cash tables plus the escrows (the ledger sums to
      zero).

    The sums are computed twice: by the database (``SUM ... GROUP BY``, so a sum the database cannot hold is an
    error here, not a wrapped number) and in Python from the rows; both must agree.

    Call it first in its transaction: on PostgreSQL it then reads one snapshot (``REPEATABLE READ``), so money
    moved by transactions that commit meanwhile (the room runs several at once there) is seen entirely or not at
    all. On SQLite the room runs every transaction on its one database thread, so nothing commits while it reads.
    """
    if session.get_bind().dialect.name == "postgresql" and not session.in_nested_transaction():
        with contextlib.suppress(InvalidRequestError):  # the transaction has already read: its own level stays
            session.connection(execution_options={"isolation_level": "REPEATABLE READ"})
    totals: dict[str, int] = {}
    for source, target, amount in session.execute(select(LedgerEntry.source, LedgerEntry.target, LedgerEntry.amount)):
        totals[source] = totals.get(source, 0) - amount
        totals[target] = totals.get(target, 0) + amount
    in_sql = _sql_totals(session)
    if in_sql != {k: v for k, v in totals.items() if v}:
        differ = sorted(k for k in set(in_sql) | set(totals) if in_sql.get(k, 0) != totals.get(k, 0))
        raise AssertionError(f"the database's sums differ from the rows' for {differ[:5]}")
    balances = 0
    for account_id, balance in session.execute(select(Account.id, Account.balance)):
        ledger = totals.get(user_account(account_id), 0)
        if ledger != balance or not 0 <= balance <= MAX_BALANCE:
            raise AssertionError(f"account {account_id}: balance {balance} but ledger says {ledger}")
        balances += balance
    sql_balances = int(session.scalar(select(func.coalesce(func.sum(Account.balance), 0))) or 0)
    if sql_balances != balances:
        raise AssertionError(f"the database sums the balances to {sql_balances}, the rows to {balances}")
    seats: dict[int, int] = {}
    for table_id, stack, queued in session.execute(select(SeatRow.table_id, SeatRow.stack, SeatRow.queued)):
        seats[table_id] = seats.get(table_id, 0) + stack + queued
    of_tournament: dict[int, int] = {
        table: tournament
        for table, tournament in session.execute(select(TableRow.id, TableRow.tournament_id))
        if tournament is not None
    }
    at_tables, in_escrow = 0, 0
    tournament_chips: dict[int, int] = {}
    for name, amount in totals.items():
        if name.startswith("table:"):
            table_id = int(name[6:])
            if amount != seats.get(table_id, 0):
                raise AssertionError(
                    f"table {table_id}: ledger says {amount} chips, seats hold {seats.get(table_id, 0)}"
                )
            if table_id in of_tournament:  # tournament chips, not money
                tournament = of_tournament[table_id]
                tournament_chips[tournament] = tournament_chips.get(tournament, 0) + amount
            else:
                at_tables += amount
        elif name.startswith("tournament:"):
            if amount < 0:
                raise AssertionError(f"{name}: the escrow is {amount}, below zero")
            in_escrow += amount
        elif name.startswith("chips:"):
            tournament = int(name[6:])
            tournament_chips[tournament] = tournament_chips.get(tournament, 0) + amount
    for tournament, left in tournament_chips.items():
        if left != 0:
            raise AssertionError(f"tournament {tournament}: {left} chips are neither at its tables nor back")
    over = select(TournamentRow.id).where(TournamentRow.status.in_(("finished", "cancelled")))
    for (tournament,) in session.execute(over):
        if totals.get(escrow_account(tournament), 0):
            raise AssertionError(f"tournament {tournament} is over with {totals[escrow_account(tournament)]} in escrow")
    for table_id, chips in seats.items():
        if chips and table_account(table_id) not in totals:
            raise AssertionError(f"table {table_id}: seats hold {chips} chips the ledger never gave it")
    granted = -totals.get(HOUSE, 0)
    if sum(totals.values()) != 0 or granted != balances + at_tables + in_escrow:
        raise AssertionError(
            f"granted {granted} != balances {balances} + chips on tables {at_tables} + in escrow {in_escrow}"
        )
    return Invariants(granted, balances, at_tables, in_escrow)


def _sql_totals(session: Session) -> dict[str, int]:
    """Every ledger account's balance, summed by the database."""
    moves = union_all(
        select(LedgerEntry.target.label("name"), LedgerEntry.amount.label("delta")),
        select(LedgerEntry.source.label("name"), (literal_column("0") - LedgerEntry.amount).label("delta")),
    ).subquery()
    try:
        rows = session.execute(select(moves.c.name, func.sum(moves.c.delta)).group_by(moves.c.name)).all()
        total = session.scalar(select(func.coalesce(func.sum(moves.c.delta), 0)))
    except SQLAlchemyError as error:  # SQLite: "integer overflow"; PostgreSQL: "numeric field overflow"
        raise AssertionError(f"the database cannot sum the ledger: {getattr(error, 'orig', None) or error}") from None
    if int(total or 0) != 0:
        raise AssertionError(f"the ledger sums to {total}, not 0, in the database")
    return {str(name): int(amount) for name, amount in rows if int(amount)}
