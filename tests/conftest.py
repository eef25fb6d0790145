"""Fixtures shared by every test: an app on its own temporary database, migrated like production.

Integration tests run on SQLite, and on PostgreSQL too when TEST_POSTGRES_URL names a server
(`make test` and `.ci/run` start one). Without it the PostgreSQL cases are reported as skipped.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator

import pytest
import sqlalchemy as sa
from flask import Flask
from flask_migrate import upgrade

from app import create_app
from app.extensions import db

POSTGRES_URL = os.environ.get("TEST_POSTGRES_URL")  # e.g. postgresql+psycopg://u:p@127.0.0.1/postgres
TEMPLATE_DB = "sqp_test_template"


def _admin_engine() -> sa.Engine:
    return sa.create_engine(POSTGRES_URL, isolation_level="AUTOCOMMIT")


def _url_for(database: str) -> str:
    return sa.make_url(POSTGRES_URL).set(database=database).render_as_string(hide_password=False)


@pytest.fixture(scope="session")
def postgres_template() -> Iterator[str]:
    """Create once a PostgreSQL database migrated to the latest schema, to copy for each test."""
    if not POSTGRES_URL:
        pytest.skip("PostgreSQL not tested: TEST_POSTGRES_URL is not set")
    admin = _admin_engine()
    with admin.connect() as conn:
        conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{TEMPLATE_DB}" WITH (FORCE)'))
        conn.execute(sa.text(f'CREATE DATABASE "{TEMPLATE_DB}"'))
    migrated = create_app(_settings(_url_for(TEMPLATE_DB)))
    with migrated.app_context():
        upgrade()
        db.engine.dispose()
    yield TEMPLATE_DB
    with admin.connect() as conn:
        conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{TEMPLATE_DB}" WITH (FORCE)'))
    admin.dispose()


def _settings(url: str, **extra) -> dict:
    return {
        "TESTING": True,
        "SQLALCHEMY_DATABASE_URI": url,
        "SECRET_KEY": "test-secret",
        "WTF_CSRF_ENABLED": False,
        "RATELIMIT_ENABLED": False,
        **extra,
    }


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request, tmp_path) -> Iterator[str]:
    """Yield the URL of a fresh, migrated database of each backend."""
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'test.sqlite'}"
        migrated = create_app(_settings(url))
        with migrated.app_context():
            upgrade()
            db.engine.dispose()
        yield url
        return
    template = request.getfixturevalue("postgres_template")
    name = f"sqp_test_{uuid.uuid4().hex[:12]}"
    admin = _admin_engine()
    with admin.connect() as conn:
        conn.execute(sa.text(f'CREATE DATABASE "{name}" TEMPLATE "{template}"'))
    yield _url_for(name)
    with admin.connect() as conn:
        conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    admin.dispose()


@pytest.fixture
def app_settings() -> dict:
    """Settings a test module may override (e.g. to switch CSRF or rate limits on)."""
    return {}


@pytest.fixture
def app(database_url, app_settings) -> Iterator[Flask]:
    app = create_app(_settings(database_url, **app_settings))
    yield app
    with app.app_context():
        db.engine.dispose()


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def runner(app):
    return app.test_cli_runner()
