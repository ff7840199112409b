"""The HUD's counts: what each account did in the room's hands, summed per game.

* ``hud_counts``: one row per account and game (``variant``), one column per count field of
  ``studpoker.tracker.counts.COUNT_FIELDS`` as of this revision (whole numbers as ``BIGINT``, ``allin_ev``,
  ``allin_ev_bb`` and ``net_bb`` as floats); deleted with the account. The books add each finished hand's counts in
  the hand's transaction
  (``studpoker.server.hud``). Hands finished before this revision count nothing until
  ``studpoker.server.hud.rebuild_counts`` sums them.

The columns are written out here, not read from the tracker: a revision must create the same table whenever it
runs. A change of the count fields comes with a revision of its own.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None

#: The count fields of this revision (whole numbers but the three floats below).
NAMES = (
    "hands",
    "vpip_chance",
    "vpip",
    "raise3",
    "three_bet_chance",
    "three_bet",
    "steal_seat_chance",
    "steal_seat",
    "steal_seat_success",
    "steal_door_chance",
    "steal_door",
    "steal_door_success",
    "bring_in",
    "bring_in_completed",
    "bring_in_faced_completion",
    "bring_in_folded_to_completion",
    "bring_in_defended",
    "saw4",
    "saw5",
    "saw6",
    "saw7",
    "showdown",
    "won_showdown",
    "won_saw4",
    "bets_s3",
    "bets_s4",
    "bets_s5",
    "bets_s6",
    "bets_s7",
    "calls_s3",
    "calls_s4",
    "calls_s5",
    "calls_s6",
    "calls_s7",
    "faced_bet_s3",
    "faced_bet_s4",
    "faced_bet_s5",
    "faced_bet_s6",
    "faced_bet_s7",
    "fold_to_bet_s3",
    "fold_to_bet_s4",
    "fold_to_bet_s5",
    "fold_to_bet_s6",
    "fold_to_bet_s7",
    "scoop_chance",
    "scoop",
    "called5",
    "showdown_after_call5",
    "allin",
    "allin_ev",
    "allin_ev_bb",
    "bring_in_position",
    "street_reached",
    "won",
    "net",
    "net_bb",
)
FLOATS = ("allin_ev", "allin_ev_bb", "net_bb")
COUNTS = tuple((name, sa.Float() if name in FLOATS else sa.BigInteger()) for name in NAMES)


def upgrade() -> None:
    op.create_table(
        "hud_counts",
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("variant", sa.String(12), primary_key=True),
        *(sa.Column(name, kind, nullable=False, server_default="0") for name, kind in COUNTS),
    )


def downgrade() -> None:
    op.drop_table("hud_counts")
