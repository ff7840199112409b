"""Roles, expiring sessions, closable tables with unique names, and 64-bit amounts with a bounded balance.

* ``accounts.is_admin``; ``accounts.balance`` as ``bigint`` with ``CHECK (balance <= 10^15)``;
* ``sessions.last_seen_at`` (a session ends after a time without use);
* ``tables.status`` (open, closing, closed), ``closed_at``, ``name_key`` unique among tables not closed (two open
  tables that had one name get the second one's id added to its name);
* every amount column (ledger, stakes, stacks, pots) as ``bigint``.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

MAX_BALANCE = 10**15  # studpoker.server.limits.MAX_BALANCE when this revision was written


def _bigint(batch: object, *columns: str, nullable: bool = False) -> None:
    for column in columns:
        batch.alter_column(  # type: ignore[attr-defined]
            column, type_=sa.BigInteger(), existing_type=sa.Integer(), existing_nullable=nullable
        )


def upgrade() -> None:
    with op.batch_alter_table("accounts") as batch:
        batch.add_column(sa.Column("is_admin", sa.Boolean(), nullable=False, server_default=sa.false()))
        _bigint(batch, "balance")
        batch.create_check_constraint("balance_bounded", sa.text(f"balance <= {MAX_BALANCE}"))

    with op.batch_alter_table("sessions") as batch:
        batch.add_column(sa.Column("last_seen_at", sa.DateTime(), nullable=True))
    op.execute("UPDATE sessions SET last_seen_at = created_at")
    with op.batch_alter_table("sessions") as batch:
        batch.alter_column("last_seen_at", existing_type=sa.DateTime(), nullable=False)

    with op.batch_alter_table("ledger") as batch:
        _bigint(batch, "amount")

    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("name_key", sa.String(length=60), nullable=True))
        batch.add_column(sa.Column("status", sa.String(length=10), nullable=False, server_default="open"))
        batch.add_column(sa.Column("closed_at", sa.DateTime(), nullable=True))
        _bigint(batch, "ante", "bring_in", "small_bet", "big_bet")
        _bigint(batch, "min_buy_in", "max_buy_in", nullable=True)
        batch.create_index("ix_tables_status", ["status"], unique=False)
    connection = op.get_bind()
    taken: set[str] = set()
    for table_id, old_name in connection.execute(sa.text("SELECT id, name FROM tables ORDER BY id")).all():
        name = " ".join(str(old_name).split())
        if name.casefold() in taken:
            name = f"{name[:50]} #{table_id}"
        taken.add(name.casefold())
        connection.execute(
            sa.text("UPDATE tables SET name = :name, name_key = :key WHERE id = :id"),
            {"name": name, "key": name.casefold(), "id": table_id},
        )
    op.create_index(
        "one_open_table_per_name",
        "tables",
        ["name_key"],
        unique=True,
        sqlite_where=sa.text("status != 'closed'"),
        postgresql_where=sa.text("status != 'closed'"),
    )

    with op.batch_alter_table("seats") as batch:
        _bigint(batch, "stack", "queued")
    with op.batch_alter_table("hands") as batch:
        _bigint(batch, "pot")


def downgrade() -> None:
    op.drop_index("one_open_table_per_name", table_name="tables")
    with op.batch_alter_table("tables") as batch:
        batch.drop_index("ix_tables_status")
        batch.drop_column("closed_at")
        batch.drop_column("status")
        batch.drop_column("name_key")
    with op.batch_alter_table("sessions") as batch:
        batch.drop_column("last_seen_at")
    with op.batch_alter_table("accounts") as batch:
        batch.drop_constraint("balance_bounded", type_="check")
        batch.drop_column("is_admin")
