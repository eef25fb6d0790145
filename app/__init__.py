"""The « 6 qui prend ! » score counter: a Flask application made by create_app."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from flask import Flask
from sqlalchemy import event
from sqlalchemy.engine import Engine
from werkzeug.middleware.proxy_fix import ProxyFix

from app import assets, device, filters, fragments, security
from app.config import Config, database_url, local_secret_key
from app.extensions import csrf, db, limiter, migrate

try:
    import fcntl
except ImportError:  # Windows: SQLite's own polling is used there
    fcntl = None  # type: ignore[assignment]

ROOT = Path(__file__).resolve().parent.parent


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    """Create the application: defaults, then the environment, then the test's own settings."""
    app = Flask(
        __name__,
        instance_path=os.environ.get("INSTANCE_PATH", str(ROOT / "instance")),
        template_folder=str(ROOT / "templates"),
        static_folder=str(ROOT / "static"),
    )
    app.config.from_object(Config)
    app.config.from_prefixed_env()
    for name in ("DATABASE_URL", "SECRET_KEY", "PRODUCTION", "PROXY_FIX", "RATELIMIT_STORAGE_URI"):
        if name in os.environ:
            app.config[name] = _typed(os.environ[name])
    if test_config:
        app.config.update(test_config)
    app.config["SQLALCHEMY_DATABASE_URI"] = app.config.get("SQLALCHEMY_DATABASE_URI") or (
        database_url(app.instance_path)
    )
    if app.config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite"):
        Path(app.instance_path).mkdir(parents=True, exist_ok=True)
    else:
        # A server's connections can drop (restart, failover): check each before handing it out.
        # A SQLite file cannot, so it skips the check.
        app.config["SQLALCHEMY_ENGINE_OPTIONS"] = {
            "pool_pre_ping": True,
            **app.config["SQLALCHEMY_ENGINE_OPTIONS"],
        }
    if not app.config.get("SECRET_KEY"):
        if app.config["PRODUCTION"]:
            raise RuntimeError("SECRET_KEY must be set in production (PRODUCTION=1).")
        app.config["SECRET_KEY"] = local_secret_key(app.instance_path)
    if app.config["PROXY_FIX"]:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=1, x_proto=1, x_host=1)  # type: ignore[method-assign]

    db.init_app(app)
    migrate.init_app(app, db, directory=str(ROOT / "migrations"), render_as_batch=True)
    csrf.init_app(app)
    limiter.init_app(app)
    device.init_app(app)
    security.init_app(app)
    filters.init_app(app)
    fragments.init_app(app)
    assets.init_app(app)
    with app.app_context():
        _configure_engine(db.engine)

    from app import errors, views

    app.register_blueprint(views.bp)
    errors.init_app(app)
    return app


def _typed(value: str) -> Any:
    return {"1": True, "true": True, "0": False, "false": False}.get(value.lower(), value)


def _configure_engine(engine: Engine) -> None:
    """Set SQLite up for several workers writing at once; PostgreSQL needs nothing here."""
    if engine.dialect.name != "sqlite":
        return

    @event.listens_for(engine, "connect")
    def on_connect(dbapi_connection, _record):  # type: ignore[no-untyped-def]
        # Let SQLAlchemy's "begin" event emit BEGIN itself, so writes can ask for IMMEDIATE.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=FULL")  # an acknowledged round survives a power cut
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=10000")
        cursor.close()

    writers = _WriterQueue.for_database(engine.url.database)

    @event.listens_for(engine, "begin")
    def on_begin(connection):  # type: ignore[no-untyped-def]
        mode = connection.get_execution_options().get("sqlite_begin", "DEFERRED")
        if mode == "IMMEDIATE" and writers:
            writers.enter(connection.info)
        connection.exec_driver_sql(f"BEGIN {mode}")

    if writers:
        # The connection goes back to the pool once its transaction is committed or rolled back.
        event.listen(engine, "checkin", lambda _dbapi, record: writers.leave(record.info))
        event.listen(engine, "close", lambda _dbapi, record: writers.forget(record.info))


class _WriterQueue:
    """Writers of one SQLite file take turns on a lock file, woken the moment it is free.

    SQLite lets one writer in at a time and makes the others poll: a writer that finds the
    database locked sleeps 1, 2, 5, 10… ms and tries again, so with a commit taking ~4 ms (one
    fsync) a waiting worker often sleeps longer than the write it waits for, and a busy worker
    can take the lock again before it. Waiting on an flock instead queues writers in the
    kernel, which wakes the next one when the lock is released, here when the connection
    returns to the pool after its commit or rollback. A worker that dies releases it with its
    files; one stuck is killed by gunicorn's timeout. busy_timeout still covers other
    processes (a migration, the sqlite3 shell).
    """

    def __init__(self, path: str) -> None:
        self.path = path

    @classmethod
    def for_database(cls, database: str | None) -> _WriterQueue | None:
        if fcntl is None or not database or database == ":memory:" or database.startswith("file:"):
            return None
        return cls(database + ".writers")

    def enter(self, info: dict) -> None:
        if "writer_lock" not in info:
            info["writer_lock"] = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        fcntl.flock(info["writer_lock"], fcntl.LOCK_EX)
        info["writing"] = True

    def leave(self, info: dict) -> None:
        if info.pop("writing", False):
            fcntl.flock(info["writer_lock"], fcntl.LOCK_UN)

    def forget(self, info: dict) -> None:
        self.leave(info)
        if "writer_lock" in info:
            os.close(info.pop("writer_lock"))
