"""keep the rounds « Annuler la manche » removed, so « Rétablir la manche N » can put them back

Cancelled rounds are a stack (the last cancelled on top), as a JSON list of head lists on the
game; recording a new round empties it. NULL means empty, so no default is needed.

Revision ID: a7c3e19f0b42
Revises: f0110a5e7c3d
Create Date: 2026-12-01 11:45:00

"""

import sqlalchemy as sa
from alembic import op

revision = "a7c3e19f0b42"
down_revision = "f0110a5e7c3d"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.add_column(sa.Column("cancelled_rounds", sa.JSON(), nullable=True))


def downgrade():
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.drop_column("cancelled_rounds")
