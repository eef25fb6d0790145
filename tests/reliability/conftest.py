"""Fixtures for tests that run the real server (scripts/lib/servers.py): a migrated database of
each backend, and gunicorn on it. The phones and databases themselves are scripts/lib/phones.py.

Every server started here is stopped (or killed, with its whole process group) when its test ends.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

import pytest

from scripts.lib import phones
from scripts.lib.phones import Database
from scripts.lib.servers import Gunicorn, migrate, server_env


@contextlib.contextmanager
def empty_database(backend: str, directory: Path) -> Iterator[Database]:
    """phones.empty_database, skipping the test when there is no PostgreSQL server."""
    try:
        with phones.empty_database(backend, directory) as database:
            yield database
    except phones.NoPostgres as missing:
        pytest.skip(f"PostgreSQL not tested: {missing}")


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def served_database(request, tmp_path_factory) -> Iterator[Database]:
    """Yield a database of each backend migrated by `flask db upgrade`, for a test module."""
    directory = tmp_path_factory.mktemp(request.param)
    with empty_database(request.param, directory) as database:
        migrate(server_env(database.url, directory / "instance"), directory / "migrate.log")
        yield database


@contextlib.contextmanager
def running_server(
    database: Database, directory: Path, *, workers: int, **env: str
) -> Iterator[Gunicorn]:
    """Run gunicorn on a database for the duration of a `with` block."""
    server = Gunicorn(
        server_env(database.url, directory / "instance", **env),
        directory / "gunicorn.log",
        workers=workers,
    )
    try:
        server.start()
        yield server
    finally:
        server.stop()
