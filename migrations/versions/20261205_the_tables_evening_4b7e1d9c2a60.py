"""the table's evening: each game names the first game of its evening (« La soirée »), and keeps
its players' colours where a name seen earlier in the evening keeps its own

NULL for a game that began its own evening (every game stored before: an evening of one).

Revision ID: 4b7e1d9c2a60
Revises: d5a1e7c3b902
Create Date: 2026-12-05 14:50:00

"""

import sqlalchemy as sa
from alembic import op

revision = "4b7e1d9c2a60"
down_revision = "d5a1e7c3b902"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.add_column(sa.Column("evening_id", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("colours", sa.JSON(), nullable=True))
        batch_op.create_index("ix_game_evening", ["evening_id"], unique=False)


def downgrade():
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.drop_index("ix_game_evening")
        batch_op.drop_column("colours")
        batch_op.drop_column("evening_id")
