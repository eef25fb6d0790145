"""phones scoring one table: shared tables, their phones, and each game's table

Revision ID: 9d41c7b2e6f5
Revises: b25e0d7c4a19
Create Date: 2026-12-02 01:10:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "9d41c7b2e6f5"
down_revision = "b25e0d7c4a19"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "shared_table",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("invite_token", sa.String(length=32), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_shared_table")),
    )
    op.create_index("ix_shared_table_invite_token", "shared_table", ["invite_token"], unique=True)
    op.create_table(
        "table_phone",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("device_hash", sa.String(length=64), nullable=False),
        sa.Column("joined_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["table_id"],
            ["shared_table.id"],
            name=op.f("fk_table_phone_table_id_shared_table"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_table_phone")),
        sa.UniqueConstraint("table_id", "device_hash", name=op.f("uq_table_phone_table_id_device_hash")),
    )
    op.create_index("ix_table_phone_device", "table_phone", ["device_hash", "table_id"])
    with op.batch_alter_table("game") as batch:
        batch.add_column(sa.Column("table_id", sa.Integer(), nullable=True))
        batch.create_foreign_key(
            batch.f("fk_game_table_id_shared_table"),
            "shared_table",
            ["table_id"],
            ["id"],
            ondelete="SET NULL",
        )
        batch.create_index("ix_game_table_recent", ["table_id", "created_at", "id"])


def downgrade():
    with op.batch_alter_table("game") as batch:
        batch.drop_index("ix_game_table_recent")
        batch.drop_constraint(batch.f("fk_game_table_id_shared_table"), type_="foreignkey")
        batch.drop_column("table_id")
    op.drop_index("ix_table_phone_device", table_name="table_phone")
    op.drop_table("table_phone")
    op.drop_index("ix_shared_table_invite_token", table_name="shared_table")
    op.drop_table("shared_table")
