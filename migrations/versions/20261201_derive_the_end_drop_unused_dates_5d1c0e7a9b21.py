"""derive the end of a game from its rounds; drop dates nothing reads

The end of a game follows from its rounds and rules (app/rules/); storing it too meant two
answers that could disagree. A round's own date was never read.

Revision ID: 5d1c0e7a9b21
Revises: e3cf9113507d
Create Date: 2026-12-01 11:40:00

"""

import sqlalchemy as sa
from alembic import op

revision = "5d1c0e7a9b21"
down_revision = "e3cf9113507d"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.drop_column("finished_at")
    with op.batch_alter_table("round", schema=None) as batch_op:
        batch_op.drop_column("created_at")


def downgrade():
    # The dates are gone: a downgrade gives rounds the game's creation date and leaves
    # finished_at empty (it was only ever a cache of the rounds).
    with op.batch_alter_table("round", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("created_at", sa.DateTime(), nullable=False, server_default=sa.func.now())
        )
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.add_column(sa.Column("finished_at", sa.DateTime(), nullable=True))
