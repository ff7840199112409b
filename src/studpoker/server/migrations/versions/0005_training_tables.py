"""Training tables.

* ``tables.training`` (a boolean, false for every table there now): practice chips from the house, every card of
  a finished hand public, equities in the replayer (docs/server.md "Training tables");
* ``hands.equity`` (JSON; ``NULL`` until a training hand's equities are first asked for).

Revision ID: 0005
Revises: 0004
Create Date: 2027-03-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("tables", sa.Column("training", sa.Boolean(), nullable=False, server_default=sa.false()))
    op.add_column("hands", sa.Column("equity", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("hands") as batch:
        batch.drop_column("equity")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("training")
