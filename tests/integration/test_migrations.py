"""The migrations build the schema the models describe, and step down to nothing and back up."""

from __future__ import annotations

import json

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from flask_migrate import downgrade, upgrade

from app.platform.extensions import db

pytestmark = pytest.mark.storage


def schema_differences() -> list:
    with db.engine.connect() as connection:
        return compare_metadata(MigrationContext.configure(connection), db.metadata)


def test_the_migrated_database_is_what_the_models_describe(app):
    with app.app_context():
        assert schema_differences() == []


def test_every_migration_steps_down_and_up_again(app):
    with app.app_context():
        downgrade(revision="base")
        with db.engine.connect() as connection:
            assert db.inspect(connection).get_table_names() == ["alembic_version"]
        upgrade()
        assert schema_differences() == []


def test_games_kept_before_the_other_games_become_6_qui_prend(app):
    with app.app_context():
        downgrade(revision="3e7a9c5d1b08")  # before Skyjo, Flip 7 and a free game
        with db.engine.begin() as connection:
            connection.execute(
                db.text(
                    "INSERT INTO game (public_id, device_hash, created_at, end_rule, head_limit, "
                    "pro, version) VALUES ('old', 'phone', CURRENT_TIMESTAMP, 'above', 66, "
                    ":pro, 1)"
                ),
                {"pro": False},
            )
        upgrade()
        with db.engine.connect() as connection:
            kept = connection.execute(
                db.text("SELECT game, title, best FROM game WHERE public_id = 'old'")
            ).one()
    assert tuple(kept) == ("6-qui-prend", None, None)


def test_games_kept_before_their_sheet_was_kept_whole_get_it(app):
    with app.app_context():
        downgrade(revision="7c2e4a9d3f51")  # before each game kept its sheet in its own row
        with db.engine.begin() as connection:
            insert = db.text(
                "INSERT INTO game (public_id, device_hash, created_at, game, end_rule, "
                "head_limit, pro, version) VALUES (:public_id, 'phone', CURRENT_TIMESTAMP, "
                ":game, 'at_or_above', 100, :pro, 3)"
            )
            connection.execute(insert, {"public_id": "skyjo", "game": "skyjo", "pro": False})
            connection.execute(insert, {"public_id": "none", "game": "skyjo", "pro": False})
            game_id = connection.execute(
                db.text("SELECT id FROM game WHERE public_id = 'skyjo'")
            ).scalar_one()
            for seat, name in [(1, "Bruno"), (0, "Alice")]:
                connection.execute(
                    db.text("INSERT INTO player (game_id, seat, name) VALUES (:g, :s, :n)"),
                    {"g": game_id, "s": seat, "n": name},
                )
            for number, heads, ender in [(2, "[3, 4]", None), (1, "[20, 5]", 0)]:
                connection.execute(
                    db.text(
                        "INSERT INTO round (game_id, number, heads, ended_by) "
                        "VALUES (:g, :n, :h, :e)"
                    ),
                    {"g": game_id, "n": number, "h": heads, "e": ender},
                )
        upgrade()
        with db.engine.connect() as connection:
            kept = dict(connection.execute(db.text("SELECT public_id, kept_sheet FROM game")).all())
    sheets = {
        key: value if isinstance(value, dict) else json.loads(value) for key, value in kept.items()
    }
    assert sheets == {
        "skyjo": {
            "version": 3,
            "players": ["Alice", "Bruno"],
            "rounds": [[20, 5], [3, 4]],
            "enders": [0, None],
        },
        "none": {"version": 3, "players": [], "rounds": []},
    }
