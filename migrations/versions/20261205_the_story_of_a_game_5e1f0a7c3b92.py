"""the story of a game (« Le fil de la partie »): each change of its sheet, when and by which phone

Revision ID: 5e1f0a7c3b92
Revises: 6f1d2b8e4c07
Create Date: 2026-12-05 14:50:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "5e1f0a7c3b92"
down_revision = "6f1d2b8e4c07"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "story_entry",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.Column("device_hash", sa.String(length=64), nullable=True),
        sa.Column("joined_at", sa.DateTime(), nullable=True),
        sa.Column("phone", sa.Integer(), nullable=True),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("round", sa.Integer(), nullable=True),
        sa.Column("change", sa.JSON(), nullable=True),
        sa.ForeignKeyConstraint(
            ["game_id"], ["game.id"], name=op.f("fk_story_entry_game_id_game"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_story_entry")),
    )
    op.create_index("ix_story_entry_game", "story_entry", ["game_id", "id"])


def downgrade():
    op.drop_index("ix_story_entry_game", table_name="story_entry")
    op.drop_table("story_entry")
