"""The HUD's counts: what each account did in the room's hands, summed per game.

* ``hud_counts``: one row per account and game (``variant``), one column per count field of
  ``studpoker.tracker.counts.COUNT_FIELDS`` as of this revision (whole numbers as ``BIGINT``, ``net_bb`` as a
  float); deleted with the account. The books add each finished hand's counts in the hand's transaction
  (``studpoker.server.hud``). Hands finished before this revision count nothing until
  ``studpoker.server.hud.rebuild_counts`` sums them.

The columns are written out here, not read from the tracker: a revision must create the same table whenever it
runs. A change of the count fields comes with a revision of its own.

Revision ID: 0012
Revises: 0011
Create Date: 2027-05-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None

#: The count fields of this revision and their column types.
COUNTS = (("hands", sa.BigInteger()), ("vpip", sa.BigInteger()), ("net", sa.BigInteger()), ("net_bb", sa.Float()))


def upgrade() -> None:
    op.create_table(
        "hud_counts",
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("variant", sa.String(12), primary_key=True),
        *(sa.Column(name, kind, nullable=False, server_default="0") for name, kind in COUNTS),
    )


def downgrade() -> None:
    op.drop_table("hud_counts")
