"""What a table carries to its next worker: its last chat lines and each seat's time bank.

* ``tables.chat`` (JSON; ``NULL`` until the table first saves it): the last ``chat.HISTORY`` chat lines, as the
  snapshot's ``chat`` lists them;
* ``seats.time_bank`` (seconds; ``NULL``, a seat saved before: a full bank).

Both are written at the end of each hand and when a worker hands the table over to another, and read when a
table is loaded (docs/server.md "Tables move between workers").

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("tables", sa.Column("chat", sa.JSON(), nullable=True))
    op.add_column("seats", sa.Column("time_bank", sa.Float(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("time_bank")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("chat")
