"""A table's pause after a showdown, and an account's preferences of the browser client.

* ``tables.showdown_seconds`` (a float, 0 to 30; ``NULL`` for the tables already there: they get the room's
  ``Settings.showdown_seconds``);
* ``accounts.preferences`` (JSON; ``NULL``: the defaults).

Revision ID: 0003
Revises: 0002
Create Date: 2027-01-15
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("tables", sa.Column("showdown_seconds", sa.Float(), nullable=True))
    op.add_column("accounts", sa.Column("preferences", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("accounts") as batch:
        batch.drop_column("preferences")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("showdown_seconds")
