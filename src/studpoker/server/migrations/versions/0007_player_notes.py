"""Players' private notes on other players.

* ``notes``: one row per author and player noted (``subject_key`` unique per author), the text, when it changed;
  deleted with the author's account.

Revision ID: 0007
Revises: 0006
Create Date: 2027-04-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "notes",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("subject", sa.String(40), nullable=False),
        sa.Column("subject_key", sa.String(160), nullable=False),  # a skeleton may be longer than the name
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.UniqueConstraint("account_id", "subject_key", name="one_note_per_subject"),
    )
    op.create_index("ix_notes_account_id", "notes", ["account_id"])


def downgrade() -> None:
    op.drop_index("ix_notes_account_id", table_name="notes")
    op.drop_table("notes")
