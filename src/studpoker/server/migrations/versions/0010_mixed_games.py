"""Mixed games: a table that deals several stud games in turn.

* ``tables.rotation`` (JSON; ``NULL`` at a table of one game): the games in order, each with its preset, stakes and
  options, how many hands each lasts (``every``; 0: an orbit) and the sign's name (``studpoker.rotation.Rotation``).
  The table's ``variant`` and stakes columns hold its first game's.
* ``tables.turn`` (JSON; ``NULL`` until the first hand ends): where the rotation stands after the last finished
  hand, ``{"index", "dealt", "length"}`` (a voided hand does not count).

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("tables", sa.Column("rotation", sa.JSON(), nullable=True))
    op.add_column("tables", sa.Column("turn", sa.JSON(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("turn")
        batch.drop_column("rotation")
