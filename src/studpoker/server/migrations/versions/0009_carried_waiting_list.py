"""What a table carries to its next worker, continued: its waiting list.

* ``tables.waiting`` (JSON; ``NULL`` until a worker first hands the table over): the names waiting for a seat, in
  order, as ``[account id, username]`` pairs. A seat held for the first of them is not carried: the next worker
  offers the free seats again.

Written when a worker hands the table over to another, read when a table is loaded (docs/server.md "Tables move
between workers").

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("tables", sa.Column("waiting", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("waiting")
