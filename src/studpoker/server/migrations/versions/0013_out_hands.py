"""The hand each tournament entry went out in, so that places follow the hands, not the runner's looks.

* ``tournament_entries.out_table``, ``out_hand``: the table and hand number the entry lost its last chip in;
  ``out_round``: the hand-for-hand round that hand was dealt in (none outside hand-for-hand); ``out_at``: when the
  hand was written. Players out in one hand, or in one hand-for-hand round, are placed together by the chips they
  started it with; others by the order their hands ended. Entries out before this revision keep their places.

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None

COLUMNS = ("out_table", "out_hand", "out_round")


def upgrade() -> None:
    with op.batch_alter_table("tournament_entries") as batch:
        for name in COLUMNS:
            batch.add_column(sa.Column(name, sa.Integer(), nullable=True))
        batch.add_column(sa.Column("out_at", sa.DateTime(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tournament_entries") as batch:
        for name in (*COLUMNS, "out_at"):
            batch.drop_column(name)
