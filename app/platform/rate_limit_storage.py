"""Rate-limit counters in a SQLite file: every worker of one machine counts in the same place.

The `limits` library's memory:// storage counts inside each process, so gunicorn's workers each
let through the whole allowance (with two workers, twice the limits). Its shared storages need
a server (Redis, Memcached, MongoDB). This one needs a file: `sqlite:///path/rate-limits.sqlite`
(the default, under instance/). Several machines behind one address need Redis (README).

Only what the fixed-window strategy (Flask-Limiter's default) asks for: a counter per key that
starts at the first hit and expires `expiry` seconds later.
"""

from __future__ import annotations

import contextlib
import os
import random
import sqlite3
import threading
import time
from collections.abc import Iterator
from pathlib import Path

from limits.storage import Storage

SCHEMA = "CREATE TABLE IF NOT EXISTS counter (key TEXT PRIMARY KEY, hits INTEGER, expires REAL)"
# One statement, so atomic whoever else counts at the same time: a counter past its window
# starts again from this hit.
INCREMENT = """
INSERT INTO counter (key, hits, expires) VALUES (:key, :amount, :now + :expiry)
ON CONFLICT (key) DO UPDATE SET
    hits = CASE WHEN expires <= :now THEN :amount ELSE hits + :amount END,
    expires = CASE WHEN expires <= :now THEN :now + :expiry ELSE expires END
RETURNING hits
"""
_chance = random.Random()  # its own: a hit leaves the random module's shared state alone


class SQLiteStorage(Storage):
    """Counters shared by the processes of one machine, in one SQLite file (WAL)."""

    STORAGE_SCHEME = ["sqlite"]

    def __init__(self, uri: str, wrap_exceptions: bool = False, **options: float | str | bool):
        self.path = Path(uri.removeprefix("sqlite:///"))
        # One connection per process, one statement at a time: under gevent workers a
        # thread-local would be a greenlet-local, a new connection for every request.
        self._lock = threading.RLock()
        self._connection: sqlite3.Connection | None = None
        self._pid = 0
        super().__init__(uri, wrap_exceptions=wrap_exceptions, **options)

    @property
    def base_exceptions(self) -> type[Exception]:
        return sqlite3.Error

    @contextlib.contextmanager
    def _db(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            # Opened in the process that uses it (a connection must not cross a fork).
            if self._connection is None or self._pid != os.getpid():
                self.path.parent.mkdir(parents=True, exist_ok=True)
                connection = sqlite3.connect(
                    self.path, timeout=10, isolation_level=None, check_same_thread=False
                )
                connection.execute("PRAGMA journal_mode=WAL")
                connection.execute("PRAGMA synchronous=OFF")  # counters need not survive a crash
                connection.execute(SCHEMA)
                self._connection, self._pid = connection, os.getpid()
            yield self._connection

    def incr(self, key: str, expiry: float, amount: int = 1) -> int:
        now = time.time()
        params = {"key": key, "amount": amount, "now": now, "expiry": expiry}
        with self._db() as db:
            if _chance.random() < 0.01:  # now and then, forget the windows that are over
                db.execute("DELETE FROM counter WHERE expires <= ?", (now,))
            (hits,) = db.execute(INCREMENT, params).fetchone()
        return int(hits)

    def get(self, key: str) -> int:
        with self._db() as db:
            row = db.execute(
                "SELECT hits FROM counter WHERE key = ? AND expires > ?", (key, time.time())
            ).fetchone()
        return int(row[0]) if row else 0

    def get_expiry(self, key: str) -> float:
        with self._db() as db:
            row = db.execute("SELECT expires FROM counter WHERE key = ?", (key,)).fetchone()
        return float(row[0]) if row else time.time()

    def check(self) -> bool:
        try:
            with self._db() as db:
                db.execute("SELECT 1")
        except sqlite3.Error:
            return False
        return True

    def reset(self) -> int | None:
        with self._db() as db:
            return db.execute("DELETE FROM counter").rowcount

    def clear(self, key: str) -> None:
        with self._db() as db:
            db.execute("DELETE FROM counter WHERE key = ?", (key,))
