"""a follow address per game: a random token that shows the game read-only, or nothing

The token is not the game's own id: the game's address works only for its device, the follow
address works for anyone who has it, can be revoked (set back to NULL) and replaced.

Revision ID: f0110a5e7c3d
Revises: 5b8e2c41d7a3
Create Date: 2026-12-01 11:30:00

"""

import sqlalchemy as sa
from alembic import op

revision = "f0110a5e7c3d"
down_revision = "5b8e2c41d7a3"  # main's head when this branch was rebased
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.add_column(sa.Column("follow_token", sa.String(length=32), nullable=True))
        batch_op.create_index("ix_game_follow_token", ["follow_token"], unique=True)


def downgrade():
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.drop_index("ix_game_follow_token")
        batch_op.drop_column("follow_token")
