"""table assistant rounds: the row starts and turns of the round being placed

Revision ID: 5b8e2c41d7a3
Revises: 5d1c0e7a9b21
Create Date: 2026-12-01 11:20:00

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '5b8e2c41d7a3'
down_revision = '5d1c0e7a9b21'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('table_round',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('round_number', sa.Integer(), nullable=False),
    sa.Column('starts', sa.JSON(), nullable=False),
    sa.Column('turns', sa.JSON(), nullable=False),
    sa.Column('updated_at', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['game.id'], name=op.f('fk_table_round_game_id_game'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_table_round')),
    sa.UniqueConstraint('game_id', name=op.f('uq_table_round_game_id'))
    )


def downgrade():
    op.drop_table('table_round')
