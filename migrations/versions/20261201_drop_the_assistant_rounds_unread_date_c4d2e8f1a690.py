"""drop the table assistant's round date: nothing reads it

A game keeps one assistant round, replaced by the next round's and deleted with the game, so
no clean-up ever needed to know when it last changed.

Revision ID: c4d2e8f1a690
Revises: a7c3e19f0b42
Create Date: 2026-12-01 16:40:00

"""

import sqlalchemy as sa
from alembic import op

revision = "c4d2e8f1a690"
down_revision = "a7c3e19f0b42"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("table_round", schema=None) as batch_op:
        batch_op.drop_column("updated_at")


def downgrade():
    # The dates are gone: a downgrade dates every assistant round from the downgrade itself.
    with op.batch_alter_table("table_round", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("updated_at", sa.DateTime(), nullable=False, server_default=sa.func.now())
        )
