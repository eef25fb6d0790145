"""Fixtures shared by every test: an app on its own temporary database, migrated like production.

Integration tests run on SQLite; those marked `storage` on PostgreSQL too, when TEST_POSTGRES_URL
names a server (`make test` and `.ci/run` start one). Without it those cases are reported as
skipped.
"""

from __future__ import annotations

import os
import shutil
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa
from flask import Flask
from flask_migrate import upgrade
from hypothesis import HealthCheck, settings

from app import create_app
from app.platform.extensions import db

# One place for Hypothesis: no deadline (a shared CI machine is slow at times), 40 examples a
# property; « fuzz » for the tests that send requests (settings.get_profile("fuzz")). HYPOTHESIS_PROFILE=thorough asks more.
settings.register_profile("default", deadline=None, max_examples=40)
settings.register_profile("thorough", deadline=None, max_examples=300)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
settings.register_profile(
    "fuzz",
    deadline=None,
    max_examples=25,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

POSTGRES_URL = os.environ.get(
    "TEST_POSTGRES_URL"
)  # e.g. postgresql+psycopg://u:p@127.0.0.1/postgres


def _admin_engine() -> sa.Engine:
    return sa.create_engine(POSTGRES_URL, isolation_level="AUTOCOMMIT")


def _url_for(database: str) -> str:
    return sa.make_url(POSTGRES_URL).set(database=database).render_as_string(hide_password=False)


@pytest.fixture(scope="session")
def postgres_database() -> Iterator[str]:
    """Create once a PostgreSQL database migrated to the latest schema; tests empty it after use."""
    if not POSTGRES_URL:
        pytest.skip("PostgreSQL not tested: TEST_POSTGRES_URL is not set")
    name = f"sqp_test_{uuid.uuid4().hex[:8]}"
    admin = _admin_engine()
    with admin.connect() as conn:
        conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
    url = _url_for(name)
    _migrate(url)
    yield url
    with admin.connect() as conn:
        conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    admin.dispose()


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory) -> Path:
    """Migrate one SQLite file once; each test gets a copy (much faster than migrating each time)."""
    path = tmp_path_factory.mktemp("template") / "migrated.sqlite"
    _migrate(f"sqlite:///{path}")
    return path


def _migrate(url: str) -> None:
    migrated = create_app(_settings(url))
    with migrated.app_context():
        upgrade()
        db.engine.dispose()


def _settings(url: str, **extra) -> dict:
    return {
        "TESTING": True,
        "SQLALCHEMY_DATABASE_URI": url,
        "SECRET_KEY": "test-secret",
        "WTF_CSRF_ENABLED": False,
        "RATELIMIT_ENABLED": False,
        "RATELIMIT_STORAGE_URI": "memory://",  # tests of the limits give their own file
        **extra,
    }


def pytest_generate_tests(metafunc) -> None:
    """Run tests on SQLite; those marked `storage` (what the database itself must guarantee:
    rounds kept once, imports, the page against a model) on PostgreSQL too."""
    if "database_url" in metafunc.fixturenames:
        storage = metafunc.definition.get_closest_marker("storage") is not None
        backends = ["sqlite", "postgresql"] if storage else ["sqlite"]
        metafunc.parametrize("database_url", backends, indirect=True)


@pytest.fixture
def database_url(request, tmp_path) -> Iterator[str]:
    """Yield the URL of a migrated database holding no game, on the backend asked for."""
    if request.param == "sqlite":
        path = tmp_path / "test.sqlite"
        shutil.copyfile(request.getfixturevalue("sqlite_template"), path)
        yield f"sqlite:///{path}"
        return
    url = request.getfixturevalue("postgres_database")
    yield url
    engine = sa.create_engine(url)
    with engine.begin() as conn:
        conn.execute(sa.text("TRUNCATE game, player, round RESTART IDENTITY CASCADE"))
    engine.dispose()


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


# The longest files first, then the rest of the slow ones (real servers, real browsers), then
# the many short files, which fill in at the end: `make test` hands whole files to its two
# processes in this order (pytest-xdist, --dist loadfile, with --no-loadscope-reorder in
# pyproject.toml: xdist's own order, the files with the most tests first, sent the one-test
# files of a minute last). Seconds are a file's sum of --durations on a loaded 2-core machine
# (docs/performance.md, « The test suite's time »); only the order matters, and a file missing
# here is merely scheduled later.
LONGEST_FIRST = (
    "tests/reliability/test_busy_cafe.py",  # 74 s
    "tests/reliability/test_container_entrypoint.py",  # 64 s
    "tests/e2e/test_waiting_rounds.py",  # 63 s
    "tests/reliability/test_concurrency.py",  # 53 s
    "tests/e2e/test_accessibility.py",  # 44 s
    "tests/e2e/test_layout.py",  # 36 s
    "tests/integration/test_export_import.py",  # 22-60 s
    "tests/reliability/test_crash.py",  # 22 s, one test
    "tests/e2e/test_table.py",  # 22 s
    "tests/integration/test_stateful.py",  # 20 s, one test
    "tests/reliability/test_load_script.py",  # 19 s
    "tests/reliability/test_table_rights.py",  # 19 s
    "tests/e2e/test_follow.py",  # 14 s
    "tests/reliability/test_hosted_shape.py",  # 13 s
    "tests/reliability/test_follow_replicas.py",  # 13 s
)
SLOW = ("tests/reliability/", "tests/e2e/")


def _order(item: pytest.Item) -> tuple[int, int]:
    path = item.nodeid.partition("::")[0]
    if path in LONGEST_FIRST:
        return (0, LONGEST_FIRST.index(path))
    return (1 if path.startswith(SLOW) else 2, 0)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=_order)  # stable: a file's tests keep their order
