"""Live follow pages: tell every follower's stream, in every process, that its game changed.

A write that changes a shared game (a round recorded, cancelled, restored or corrected, a share
stopped, a game deleted) announces it to its unit of work (app.services.unit_of_work), which sends
`NOTIFY partie, '<game id>'` in the write's own transaction on PostgreSQL, so the notice leaves
only if the write commits, and reaches every worker of every replica listening on
the same database. Each process keeps one listening connection (a thread) and wakes only the
streams that follow that game. SQLite has no NOTIFY: there the same thread reads the versions of
the games being followed a few times a second (one query, whatever the number of followers),
which is enough for one machine.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Iterator

import sqlalchemy as sa
from flask import Flask, current_app
from sqlalchemy.orm import Session

CHANNEL = "partie"
SQLITE_EVERY = 0.25  # seconds between two looks at the followed games' versions (SQLite only)
RETRY_AFTER = 1.0  # seconds before listening again when the database connection dropped
# The columns the SQLite look reads, named here so the platform needs no model (app/storage).
GAMES = sa.table("game", sa.column("id"), sa.column("version"), sa.column("follow_token"))

log = logging.getLogger(__name__)


class Watch:
    """One follower's stream, waiting for its game to change."""

    def __init__(self, hub: Hub, game_id: int):
        self.hub = hub
        self.game_id = game_id
        self.seen = hub.stamps.get(game_id, 0)

    def wait(self, timeout: float) -> bool:
        """Wait until the game changes (True) or the timeout passes (False)."""
        hub = self.hub
        with hub.lock:
            changed = hub.conditions[self.game_id].wait_for(
                lambda: hub.stamps.get(self.game_id, 0) != self.seen, timeout
            )
            self.seen = hub.stamps.get(self.game_id, 0)
        return changed


class Hub:
    """The streams of one process, by game, and the thread that hears about changes."""

    def __init__(self, engine: sa.Engine):
        self.engine = engine
        self.lock = threading.Lock()
        self.conditions: dict[int, threading.Condition] = {}
        self.watchers: dict[int, int] = {}
        self.stamps: dict[int, int] = {}  # bumped at each change heard of, per game
        # The last live part drawn for each followed game and language, as (token, version,
        # event), shared by its followers in this process.
        self.drawn: dict[tuple[int, str], tuple[str, int, str]] = {}
        self.thread: threading.Thread | None = None

    @property
    def streams(self) -> int:
        """How many streams this process holds."""
        return sum(self.watchers.values())

    @contextlib.contextmanager
    def watching(self, game_id: int) -> Iterator[Watch]:
        """Follow one game for as long as the stream lasts."""
        with self.lock:
            self._start()
            self.watchers[game_id] = self.watchers.get(game_id, 0) + 1
            self.conditions.setdefault(game_id, threading.Condition(self.lock))
            watch = Watch(self, game_id)
        try:
            yield watch
        finally:
            with self.lock:
                self.watchers[game_id] -= 1
                if not self.watchers[game_id]:
                    del self.watchers[game_id], self.conditions[game_id]
                    self.stamps.pop(game_id, None)
                    for key in [key for key in self.drawn if key[0] == game_id]:
                        del self.drawn[key]

    def changed(self, game_ids: list[int]) -> None:
        """Wake the streams of these games."""
        with self.lock:
            for game_id in game_ids:
                if game_id in self.conditions:
                    self.stamps[game_id] = self.stamps.get(game_id, 0) + 1
                    self.conditions[game_id].notify_all()

    def _start(self) -> None:
        # Started by the first stream, in the process that serves it (never before a fork).
        if self.thread is None or not self.thread.is_alive():
            listen = self._listen if self.engine.dialect.name == "postgresql" else self._look
            self.thread = threading.Thread(target=listen, name="live-updates", daemon=True)
            self.thread.start()

    def _listen(self) -> None:
        import psycopg

        url = self.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
        while True:
            try:
                with psycopg.connect(url, autocommit=True) as connection:
                    connection.execute(f"LISTEN {CHANNEL}")
                    # Whatever happened while no one listened (a restart, a dropped link):
                    self.changed(list(self.watchers))
                    for notice in connection.notifies():
                        self.changed([int(notice.payload)])
            except (psycopg.Error, ValueError):
                log.warning("live updates: the listening connection dropped; listening again")
                time.sleep(RETRY_AFTER)

    def _look(self) -> None:
        versions: dict[int, tuple[int, str | None]] = {}
        while True:
            time.sleep(SQLITE_EVERY)
            followed = list(self.watchers)
            if not followed:
                continue
            try:
                with self.engine.connect() as connection:
                    rows = connection.execute(
                        sa.select(GAMES.c.id, GAMES.c.version, GAMES.c.follow_token).where(
                            GAMES.c.id.in_(followed)
                        )
                    ).all()
            except sa.exc.OperationalError:  # the database is busy or gone: look again later
                continue
            now = {row.id: (row.version, row.follow_token) for row in rows}
            # A game newly followed is woken once too: it may have changed before its first look.
            self.changed([g for g in followed if now.get(g) != versions.get(g)])
            versions = {g: now.get(g, (0, None)) for g in followed}


def hub() -> Hub:
    """Return this process's hub for the app's database."""
    return current_app.extensions["live"]


def queue_notices(session: Session, game_ids: list[int]) -> None:
    """Queue a NOTIFY for each of these games in the session's transaction (PostgreSQL sends it
    at commit); SQLite has no NOTIFY: its followers' thread looks at the versions instead."""
    if not game_ids or session.get_bind().dialect.name != "postgresql":
        return
    for game_id in game_ids:
        session.execute(
            sa.text("SELECT pg_notify(:channel, :game)"), {"channel": CHANNEL, "game": str(game_id)}
        )


def init_app(app: Flask, engine: sa.Engine) -> None:
    app.extensions["live"] = Hub(engine)
