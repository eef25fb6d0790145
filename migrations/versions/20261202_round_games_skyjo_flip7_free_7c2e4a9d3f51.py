"""round games: each game's own game (existing ones are « 6 qui prend ! »), a free game's name and
winner rule, and who ended each round (Skyjo)

Revision ID: 7c2e4a9d3f51
Revises: 3e7a9c5d1b08
Create Date: 2026-12-02 10:20:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "7c2e4a9d3f51"
down_revision = "3e7a9c5d1b08"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("game") as batch_op:
        batch_op.add_column(
            sa.Column("game", sa.String(length=16), nullable=False, server_default="6-qui-prend")
        )
        batch_op.add_column(sa.Column("title", sa.String(length=40), nullable=True))
        batch_op.add_column(sa.Column("best", sa.String(length=8), nullable=True))
    with op.batch_alter_table("round") as batch_op:
        batch_op.add_column(sa.Column("ended_by", sa.Integer(), nullable=True))


def downgrade():
    with op.batch_alter_table("round") as batch_op:
        batch_op.drop_column("ended_by")
    with op.batch_alter_table("game") as batch_op:
        batch_op.drop_column("best")
        batch_op.drop_column("title")
        batch_op.drop_column("game")
