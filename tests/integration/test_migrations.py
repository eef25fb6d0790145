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
