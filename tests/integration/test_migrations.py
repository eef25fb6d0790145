"""The migrations build the schema the models describe, and step down to nothing and back up."""

from __future__ import annotations

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
