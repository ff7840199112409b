"""The initial schema: accounts, sessions, the ledger, tables, seats and hands.

Revision ID: 0001
Revises: (none)
Create Date: 2025-01-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("username", sa.String(length=40), nullable=False),
        sa.Column("username_key", sa.String(length=40), nullable=False),
        sa.Column("password_hash", sa.String(length=255), nullable=False),
        sa.Column("balance", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.CheckConstraint("balance >= 0", name="balance_not_negative"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("username_key"),
    )
    op.create_table(
        "ledger",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.Column("source", sa.String(length=40), nullable=False),
        sa.Column("target", sa.String(length=40), nullable=False),
        sa.Column("amount", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=20), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=True),
        sa.Column("hand_number", sa.Integer(), nullable=True),
        sa.Column("memo", sa.String(length=200), nullable=False),
        sa.CheckConstraint("amount >= 0", name="amount_not_negative"),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("ledger", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_ledger_source"), ["source"], unique=False)
        batch_op.create_index(batch_op.f("ix_ledger_target"), ["target"], unique=False)

    op.create_table(
        "tables",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=60), nullable=False),
        sa.Column("variant", sa.String(length=12), nullable=False),
        sa.Column("preset", sa.String(length=20), nullable=False),
        sa.Column("ante", sa.Integer(), nullable=False),
        sa.Column("bring_in", sa.Integer(), nullable=False),
        sa.Column("small_bet", sa.Integer(), nullable=False),
        sa.Column("big_bet", sa.Integer(), nullable=False),
        sa.Column("min_buy_in", sa.Integer(), nullable=True),
        sa.Column("max_buy_in", sa.Integer(), nullable=True),
        sa.Column("hand_number", sa.Integer(), nullable=False),
        sa.Column("created_by", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_table(
        "hands",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=10), nullable=False),
        sa.Column("started_at", sa.DateTime(), nullable=False),
        sa.Column("finished_at", sa.DateTime(), nullable=True),
        sa.Column("players", sa.JSON(), nullable=False),
        sa.Column("pot", sa.Integer(), nullable=False),
        sa.Column("winners", sa.JSON(), nullable=False),
        sa.Column("phh", sa.Text(), nullable=True),
        sa.ForeignKeyConstraint(["table_id"], ["tables.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("table_id", "number", name="one_hand_number_per_table"),
    )
    with op.batch_alter_table("hands", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_hands_status"), ["status"], unique=False)
        batch_op.create_index(batch_op.f("ix_hands_table_id"), ["table_id"], unique=False)

    op.create_table(
        "seats",
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=True),
        sa.Column("bot_tag", sa.String(length=40), nullable=True),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("stack", sa.Integer(), nullable=False),
        sa.Column("queued", sa.Integer(), nullable=False),
        sa.Column("sitting_out", sa.Boolean(), nullable=False),
        sa.Column("leaving", sa.Boolean(), nullable=False),
        sa.CheckConstraint("stack >= 0 AND queued >= 0", name="chips_not_negative"),
        sa.ForeignKeyConstraint(
            ["account_id"],
            ["accounts.id"],
        ),
        sa.ForeignKeyConstraint(["table_id"], ["tables.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("table_id", "seat"),
        sa.UniqueConstraint("table_id", "account_id", name="one_seat_per_account"),
    )
    op.create_table(
        "sessions",
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["account_id"], ["accounts.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("token_hash"),
    )
    with op.batch_alter_table("sessions", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_sessions_account_id"), ["account_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("sessions", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_sessions_account_id"))

    op.drop_table("sessions")
    op.drop_table("seats")
    with op.batch_alter_table("hands", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_hands_table_id"))
        batch_op.drop_index(batch_op.f("ix_hands_status"))

    op.drop_table("hands")
    op.drop_table("tables")
    with op.batch_alter_table("ledger", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_ledger_target"))
        batch_op.drop_index(batch_op.f("ix_ledger_source"))

    op.drop_table("ledger")
    op.drop_table("accounts")
