"""the assistant's round on the rows: table_round becomes rows_round (« table » names the phones)

Revision ID: 3e7a9c5d1b08
Revises: 9d41c7b2e6f5
Create Date: 2026-12-02 10:10:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "3e7a9c5d1b08"
down_revision = "9d41c7b2e6f5"
branch_labels = None
depends_on = None

COLUMNS = "game_id, round_number, starts, turns"


def _create(name):
    op.create_table(
        name,
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("round_number", sa.Integer(), nullable=False),
        sa.Column("starts", sa.JSON(), nullable=False),
        sa.Column("turns", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["game.id"], name=op.f(f"fk_{name}_game_id_game"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f(f"pk_{name}")),
        sa.UniqueConstraint("game_id", name=op.f(f"uq_{name}_game_id")),
    )


def _move(old, new):
    # A new table and a copy rather than a rename: the constraints take the new name on SQLite
    # and PostgreSQL alike, and the ids (referenced nowhere) come from the new table's sequence.
    _create(new)
    op.execute(f"INSERT INTO {new} ({COLUMNS}) SELECT {COLUMNS} FROM {old}")
    op.drop_table(old)


def upgrade():
    _move("table_round", "rows_round")


def downgrade():
    _move("rows_round", "table_round")
