"""keep each game's sheet whole in its own row (players, rounds, who ended them, its version): the
reads of a phone's every game take one row a game

Revision ID: 6f1d2b8e4c07
Revises: 7c2e4a9d3f51
Create Date: 2026-12-02 13:20:00

"""

from collections import defaultdict

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "6f1d2b8e4c07"
down_revision = "7c2e4a9d3f51"
branch_labels = None
depends_on = None

game = sa.table(
    "game", sa.column("id", sa.Integer), sa.column("version", sa.Integer), sa.column("kept_sheet")
)
player = sa.table(
    "player", sa.column("game_id", sa.Integer), sa.column("seat"), sa.column("name")
)
round_ = sa.table(
    "round",
    sa.column("game_id", sa.Integer),
    sa.column("number"),
    sa.column("heads", sa.JSON),
    sa.column("ended_by"),
)


def upgrade():
    with op.batch_alter_table("game") as batch_op:
        batch_op.add_column(sa.Column("kept_sheet", sa.JSON(), nullable=True))
    # Fill it for the games already kept, as app/services/saved_game.py writes it: the data only,
    # no rule (the reads also fall back to the rows for a sheet missing or older than its game).
    bind = op.get_bind()
    names = defaultdict(list)
    for game_id, name in bind.execute(
        sa.select(player.c.game_id, player.c.name).order_by(player.c.game_id, player.c.seat)
    ):
        names[game_id].append(name)
    rounds = defaultdict(list)
    for game_id, heads, ended_by in bind.execute(
        sa.select(round_.c.game_id, round_.c.heads, round_.c.ended_by).order_by(
            round_.c.game_id, round_.c.number
        )
    ):
        rounds[game_id].append((heads, ended_by))
    kept = []
    for game_id, version in bind.execute(sa.select(game.c.id, game.c.version)):
        sheet = {
            "version": version,
            "players": names[game_id],
            "rounds": [heads for heads, _ in rounds[game_id]],
        }
        if any(ended_by is not None for _, ended_by in rounds[game_id]):
            sheet["enders"] = [ended_by for _, ended_by in rounds[game_id]]
        kept.append({"key": game_id, "sheet": sheet})
    if kept:
        bind.execute(
            game.update()
            .where(game.c.id == sa.bindparam("key"))
            .values(kept_sheet=sa.bindparam("sheet", type_=sa.JSON)),
            kept,
        )


def downgrade():
    with op.batch_alter_table("game") as batch_op:
        batch_op.drop_column("kept_sheet")
