"""Fixtures shared by every test: an app on its own temporary database, migrated like production."""

from __future__ import annotations

import os

import pytest
from flask_migrate import upgrade

from app import create_app
from app.extensions import db


def database_urls() -> list[str]:
    """Return the backends to run against: SQLite always, PostgreSQL when TEST_POSTGRES_URL is set."""
    return ["sqlite"] + (["postgresql"] if os.environ.get("TEST_POSTGRES_URL") else [])


@pytest.fixture
def app(tmp_path):
    app = create_app(
        {
            "TESTING": True,
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'test.sqlite'}",
            "SECRET_KEY": "test",
            "WTF_CSRF_ENABLED": False,
            "RATELIMIT_ENABLED": False,
        }
    )
    with app.app_context():
        upgrade()
    yield app
    with app.app_context():
        db.engine.dispose()


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def runner(app):
    return app.test_cli_runner()
