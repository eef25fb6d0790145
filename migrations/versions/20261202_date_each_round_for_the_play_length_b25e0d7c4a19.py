"""date each round when it is recorded: a shared result says how long the game lasted

BG Stats takes a play's length (durationMin): from the game's start to its last round. Rounds
recorded before this migration, and imported ones, have no date: their games say no length.

Revision ID: b25e0d7c4a19
Revises: c4d2e8f1a690
Create Date: 2026-12-02 00:10:00

"""

import sqlalchemy as sa
from alembic import op

revision = "b25e0d7c4a19"
down_revision = "c4d2e8f1a690"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("round", schema=None) as batch_op:
        batch_op.add_column(sa.Column("recorded_at", sa.DateTime(), nullable=True))


def downgrade():
    with op.batch_alter_table("round", schema=None) as batch_op:
        batch_op.drop_column("recorded_at")
