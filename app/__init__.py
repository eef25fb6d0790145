"""The « 6 qui prend ! » score counter: a Flask application made by create_app."""

from __future__ import annotations

import os
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from flask import Flask
from sqlalchemy import event, exc
from sqlalchemy.engine import Engine
from werkzeug.routing import Map

from app.platform import devices, languages, live, security, static_files
from app.platform.config import (
    Config,
    from_plain_environment,
    local_database_url,
    local_rate_limit_url,
    local_secret_key,
)
from app.platform.extensions import csrf, db, limiter
from app.platform.proxies import TrustedProxyFix
from app.services import sharing
from app.web import filters

ROOT = Path(__file__).resolve().parent.parent


class _Addresses(Map):
    """The app's URL map, with no slash-merging: Werkzeug would answer /static//x with a redirect
    to an absolute address built from the Host header the client sent (a forged one too)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **{**kwargs, "merge_slashes": False})


class _Counter(Flask):
    url_map_class = _Addresses
    # A line holding only a {% tag %} leaves no indentation behind: the first visit of a 10 ×
    # 20 game is held to 25 KB (tests/performance/test_bytes.py). HTML reads runs of white
    # space as one (the pages have no <pre> nor <textarea>).
    jinja_options = {**Flask.jinja_options, "lstrip_blocks": True}


def create_app(test_config: Mapping[str, Any] | None = None, *, migrations: bool = True) -> Flask:
    """Create the application: defaults, then the environment, then the test's own settings.

    `migrations=False` leaves out the migration commands (`flask db …`): the served app's workers
    never migrate (`make run` and the container migrate before gunicorn starts).
    """
    app = _Counter(
        __name__,
        instance_path=os.environ.get("INSTANCE_PATH", str(ROOT / "instance")),
        template_folder=str(ROOT / "templates"),
        static_folder=str(ROOT / "static"),
    )
    app.config.from_object(Config)
    app.config.from_mapping(from_plain_environment(os.environ))
    app.config.from_prefixed_env()
    if test_config:
        app.config.from_mapping(test_config)
    if not app.config["SQLALCHEMY_DATABASE_URI"]:
        Path(app.instance_path).mkdir(parents=True, exist_ok=True)
        app.config["SQLALCHEMY_DATABASE_URI"] = local_database_url(app.instance_path)
    if not app.config["SQLALCHEMY_DATABASE_URI"].startswith("sqlite"):
        # A server's connections can drop (restart, failover): check each before handing it out.
        # A SQLite file cannot, so it skips the check.
        app.config["SQLALCHEMY_ENGINE_OPTIONS"] = {
            "pool_pre_ping": True,
            **app.config["SQLALCHEMY_ENGINE_OPTIONS"],
        }
    if not app.config["RATELIMIT_STORAGE_URI"]:
        Path(app.instance_path).mkdir(parents=True, exist_ok=True)
        app.config["RATELIMIT_STORAGE_URI"] = local_rate_limit_url(app.instance_path)
    if not app.config.get("SECRET_KEY"):
        if app.config["PRODUCTION"]:
            raise RuntimeError("SECRET_KEY must be set in production (PRODUCTION=1).")
        app.config["SECRET_KEY"] = local_secret_key(app.instance_path)
    if app.config["PROXY_FIX"]:
        trusted = app.config["TRUSTED_PROXIES"]
        app.wsgi_app = TrustedProxyFix(app.wsgi_app, trusted)  # type: ignore[method-assign]

    db.init_app(app)
    if migrations:
        # Imported here: Flask-Migrate brings Alembic, a quarter of the app's imports (0.34 of
        # 1.38 s by `python -X importtime`), paid again by every worker that starts.
        from flask_migrate import Migrate

        Migrate(app, db, directory=str(ROOT / "migrations"), render_as_batch=True)
    security.init_app(app)  # first: its body limit for imports must hold when CSRF reads the form
    csrf.init_app(app)
    limiter.init_app(app)
    devices.init_app(app)
    languages.init_app(app)
    filters.init_app(app)
    static_files.init_app(app)
    with app.app_context():
        _configure_engine(db.engine)
        live.init_app(app, db.engine, read_versions=sharing.live_versions)

    from app.platform import installed_app
    from app.web import (
        assistant,
        cards,
        errors,
        evening,
        follow,
        game,
        health,
        history,
        home,
        new_game,
        rounds,
        story,
        table,
    )

    app.register_blueprint(home.bp)
    app.register_blueprint(new_game.bp)  # the form that seats the players, and starting the game
    app.register_blueprint(game.bp)  # a game's page, deleting it, its result's image, its rematch
    app.register_blueprint(rounds.bp)  # recording, cancelling, restoring, correcting rounds
    app.register_blueprint(story.bp)  # a game's story: every change of its sheet, by which phone
    app.register_blueprint(history.bp)  # past games, statistics, export and import
    app.register_blueprint(assistant.bp)  # the round assistant, counting heads, the rules
    app.register_blueprint(cards.bp)  # « Compter les cartes »: a round counted from the cards
    installed_app.init_app(app, kept_pages=game.KEPT_OFFLINE)  # its manifest and service worker
    app.register_blueprint(follow.bp)  # sharing a game, and following it from other phones
    app.register_blueprint(table.bp)  # several phones scoring one table
    app.register_blueprint(evening.bp)  # the table's evening: its games and ranking
    app.register_blueprint(health.bp)  # /healthz, for the host
    errors.init_app(app)
    return app


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
        # Writers wait their turn for the one write lock instead of failing at once.
        cursor.execute("PRAGMA busy_timeout=10000")
        cursor.close()

    @event.listens_for(engine, "begin")
    def on_begin(connection):  # type: ignore[no-untyped-def]
        mode = connection.get_execution_options().get("sqlite_begin", "DEFERRED")
        if mode == "IMMEDIATE":
            _take_the_write_lock(connection)
        else:
            connection.exec_driver_sql(f"BEGIN {mode}")


WRITE_LOCK_WAIT = 10.0  # seconds a write waits for the one write lock, as busy_timeout did


def _take_the_write_lock(connection) -> None:  # type: ignore[no-untyped-def]
    """BEGIN IMMEDIATE, waiting for another writer by sleeps that yield to the worker's other
    requests. SQLite's own wait (busy_timeout) sleeps inside its C code: under gunicorn's gevent
    workers that held the whole worker, every request of it, for 1 to 100 ms at each try, while a
    writer of the other worker committed (docs/performance.md, « A busy café »)."""
    connection.exec_driver_sql("PRAGMA busy_timeout=0")
    try:
        deadline = time.monotonic() + WRITE_LOCK_WAIT
        pause = 0.0005
        while True:
            try:
                connection.exec_driver_sql("BEGIN IMMEDIATE")
                return
            except exc.OperationalError as error:
                if "locked" not in str(error) or time.monotonic() > deadline:
                    raise
            time.sleep(pause)  # gevent's sleep under its workers: the others go on meanwhile
            pause = min(pause * 2, 0.01)
    finally:
        connection.exec_driver_sql("PRAGMA busy_timeout=10000")
