"""who deals: the seat that dealt (or started) each round, and the one that deals the next

Revision ID: d5a1e7c3b902
Revises: 5e1f0a7c3b92
Create Date: 2026-12-05 14:50:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "d5a1e7c3b902"
down_revision = "5e1f0a7c3b92"
branch_labels = None
depends_on = None


def upgrade():
    # NULL for the games and rounds from before: no one knows who dealt them; a game in
    # progress gets a dealer when someone sets it by hand (« Qui donne ? »).
    with op.batch_alter_table("game") as batch:
        batch.add_column(sa.Column("dealer", sa.Integer(), nullable=True))
    with op.batch_alter_table("round") as batch:
        batch.add_column(sa.Column("dealer", sa.Integer(), nullable=True))


def downgrade():
    with op.batch_alter_table("round") as batch:
        batch.drop_column("dealer")
    with op.batch_alter_table("game") as batch:
        batch.drop_column("dealer")
