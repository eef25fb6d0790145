"""One migrator at a time: replicas started together (compose's `replicas`, `--scale`, an
orchestrator) each run `flask db upgrade` before serving; the first applies the migrations while
the others wait, then find the schema up to date and have nothing to do (migrations/env.py)."""

from __future__ import annotations

import contextlib
import fcntl
from collections.abc import Iterator

from sqlalchemy import Connection, text

# The key of the PostgreSQL advisory lock: any number no other program on the database uses
# (« 6qp » in ASCII).
POSTGRES_LOCK = 0x367170


def lock_file(database: str) -> str:
    """Return the file whose lock a SQLite database's migrators queue on (beside the database)."""
    return f"{database}.migrating"


@contextlib.contextmanager
def one_at_a_time(connection: Connection) -> Iterator[None]:
    """Hold the database's migration lock for the block, which must run inside the migrations'
    transaction: read the schema's version, apply what is missing, commit."""
    if connection.dialect.name == "postgresql":
        # Held until that transaction ends, committed or rolled back: a waiting replica then
        # reads the version the first one committed.
        connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": POSTGRES_LOCK})
        yield
        return
    database = connection.engine.url.database
    if connection.dialect.name != "sqlite" or not database or database == ":memory:":
        yield  # a database no other process can reach
        return
    # SQLite has no transactional DDL in Alembic (a transaction per migration): a file lock, not
    # the database's own, spans them all. Released when the file closes or its process dies.
    with open(lock_file(database), "a") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        yield
