"""Tournaments: sit-and-gos and scheduled tournaments, their entries, and the tables they deal on.

* ``tournaments``: the game, the structure (JSON), buy-in, seats a table, the most entries, the scheduled start,
  the status, when play began and ended, the hand-for-hand round and the draws' seed.
* ``tournament_entries``: one row a buy-in (an account's or a bot's), its status, place, prize.
* ``tables.tournament_id`` and ``tables.tournament_table``: a tournament's table and its number there.

Money: a buy-in goes to the tournament's escrow ledger account (``tournament:<id>``) and the prizes come out of it;
the tournament's chips are issued from its own chip account (``chips:<id>``) to its tables and all go back to it.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("name", sa.String(60), nullable=False),
        sa.Column("kind", sa.String(12), nullable=False),
        sa.Column("variant", sa.String(12), nullable=False),
        sa.Column("structure", sa.JSON(), nullable=False),
        sa.Column("buy_in", sa.BigInteger(), nullable=False),
        sa.Column("seats", sa.Integer(), nullable=False),
        sa.Column("max_entries", sa.Integer(), nullable=False),
        sa.Column("starts_at", sa.DateTime(), nullable=True),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("started_at", sa.DateTime(), nullable=True),
        sa.Column("finished_at", sa.DateTime(), nullable=True),
        sa.Column("hand_round", sa.Integer(), nullable=True),
        sa.Column("paused", sa.JSON(), nullable=True),
        sa.Column("payouts", sa.JSON(), nullable=True),
        sa.Column("runner", sa.String(80), nullable=True),
        sa.Column("runner_until", sa.Float(), nullable=False, server_default="0"),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("created_by", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
    )
    op.create_index("ix_tournaments_status", "tournaments", ["status"])
    op.create_table(
        "tournament_entries",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("tournament_id", sa.Integer(), sa.ForeignKey("tournaments.id", ondelete="CASCADE"), nullable=False),
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id"), nullable=True),
        sa.Column("bot_tag", sa.String(40), nullable=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False, server_default="1"),
        sa.Column("status", sa.String(12), nullable=False),
        sa.Column("out_seq", sa.Integer(), nullable=True),
        sa.Column("place", sa.Integer(), nullable=True),
        sa.Column("busted_from", sa.BigInteger(), nullable=True),
        sa.Column("prize", sa.BigInteger(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.UniqueConstraint("tournament_id", "name", "number", name="one_entry_per_name"),
    )
    op.create_index("ix_tournament_entries_tournament_id", "tournament_entries", ["tournament_id"])
    op.add_column("tables", sa.Column("tournament_id", sa.Integer(), nullable=True))
    op.add_column("tables", sa.Column("tournament_table", sa.Integer(), nullable=True))
    op.create_index("ix_tables_tournament_id", "tables", ["tournament_id"])


def downgrade() -> None:
    op.drop_index("ix_tables_tournament_id", "tables")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("tournament_table")
        batch.drop_column("tournament_id")
    op.drop_table("tournament_entries")
    op.drop_table("tournaments")
