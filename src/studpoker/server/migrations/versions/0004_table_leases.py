"""Table leases, for the room on several processes: which worker drives each table, fenced by a generation.

* ``table_leases`` (``table_id``, ``worker``, ``generation``, ``expires_at`` in epoch seconds of the database's
  clock), one row per table not closed (a row for each table there now; new tables add theirs).

Revision ID: 0004
Revises: 0003
Create Date: 2027-02-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "table_leases",
        sa.Column("table_id", sa.Integer(), sa.ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("worker", sa.String(64), nullable=True),
        sa.Column("generation", sa.BigInteger(), nullable=False, server_default="0"),
        sa.Column("expires_at", sa.Float(), nullable=False, server_default="0"),
    )
    op.execute(
        "INSERT INTO table_leases (table_id, worker, generation, expires_at) "
        "SELECT id, NULL, 0, 0 FROM tables WHERE status != 'closed'"
    )


def downgrade() -> None:
    op.drop_table("table_leases")
