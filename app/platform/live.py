"""Live follow pages: tell every follower's stream, in every process, that its game changed.

A write that changes a game (a round recorded, cancelled, restored or corrected, a share stopped,
a game deleted, a phone gone from its table) announces it to its unit of work
(app.services.unit_of_work), which sends `NOTIFY partie, '<game id>'` in the write's own
transaction on PostgreSQL, so the notice leaves only if the write commits, and reaches every
worker of every replica listening on the same database. Each process keeps one listening
connection (a thread: a greenlet under gunicorn's gevent workers, where psycopg waits
cooperatively) and wakes only the streams that follow that game. SQLite has no NOTIFY: there the
same thread reads the versions of the games being followed a few times a second (one query,
whatever the number of followers), which is enough for one machine. That read is the layer
above's (handed to init_app): the platform knows no table.
"""

from __future__ import annotations

import contextlib
import logging
import socket
import sys
import threading
import time
from collections.abc import Callable, Hashable, Iterator, Mapping
from typing import Literal

import sqlalchemy as sa
from flask import Flask, current_app
from sqlalchemy.orm import Session

CHANNEL = "partie"
SQLITE_EVERY = 0.25  # seconds between two looks at the followed games' versions (SQLite only)
RETRY_AFTER = 1.0  # seconds before listening again when the database connection dropped
# What the SQLite look reads: for each followed game still there, anything that changes with
# what its streams show (its version, and whatever else says a change), in one query.
ReadVersions = Callable[[sa.Connection, list[int]], Mapping[int, Hashable]]

log = logging.getLogger(__name__)


class Slot:
    """One live stream's place in its process: taken before the stream answers, given back once,
    as soon as its phone leaves (its connection closes, or a write to it fails) or it ends."""

    def __init__(self, hub: Hub, game_id: int, address: str):
        self.hub = hub
        self.game_id = game_id
        self.address = address
        self.released = False
        self._watcher: object | None = None

    def release(self) -> None:
        hub = self.hub
        with hub.lock:
            if self.released:
                return
            self.released = True
            hub.slots -= 1
            left = hub.by_address[self.address] - 1
            if left:
                hub.by_address[self.address] = left
            else:
                del hub.by_address[self.address]
            if self.game_id in hub.conditions:  # its stream, if waiting, wakes and ends
                hub.conditions[self.game_id].notify_all()
        watcher, self._watcher = self._watcher, None
        if watcher is not None:
            import gevent

            if watcher is not gevent.getcurrent():
                watcher.kill(block=False)  # type: ignore[attr-defined]

    def watch_connection(self, sock: socket.socket | None) -> None:
        """Give the slot back the moment the phone closes its connection, not at the stream's
        next heartbeat (up to 30 s later). Under gevent workers only (gunicorn.conf.py): a
        greenlet waits for the socket to read its end; a thread each would cost what a stream
        no longer does. Elsewhere the heartbeat's failed write gives it back."""
        if sock is None or not _green():
            return
        import gevent

        self._watcher = gevent.spawn(self._wait_for_hang_up, sock)

    def _wait_for_hang_up(self, sock: socket.socket) -> None:
        from gevent.socket import wait_read

        try:
            wait_read(sock.fileno())
            if sock.recv(1, socket.MSG_PEEK):
                return  # the phone sent something (a browser does not, on a stream): not an end
        except (OSError, ValueError):
            pass  # closed meanwhile: gone too
        self.release()


def _green() -> bool:
    """Whether gevent has patched the standard library (gunicorn's gevent workers do)."""
    monkey = sys.modules.get("gevent.monkey")
    return bool(monkey and monkey.is_module_patched("socket"))


class Watch:
    """One follower's stream, waiting for its game to change."""

    def __init__(self, hub: Hub, game_id: int, slot: Slot | None = None):
        self.hub = hub
        self.game_id = game_id
        self.slot = slot
        self.seen = hub.stamps.get(game_id, 0)

    @property
    def gone(self) -> bool:
        """The phone left (its slot was given back): the stream ends."""
        return self.slot is not None and self.slot.released

    def wait(self, timeout: float) -> bool:
        """Wait until the game changes (True) or the timeout passes or the phone leaves (False)."""
        hub = self.hub
        with hub.lock:
            changed = hub.conditions[self.game_id].wait_for(
                lambda: hub.stamps.get(self.game_id, 0) != self.seen or self.gone, timeout
            )
            changed = changed and not self.gone
            self.seen = hub.stamps.get(self.game_id, 0)
        return changed


class Hub:
    """The streams of one process, by game, and the thread that hears about changes."""

    def __init__(self, engine: sa.Engine, read_versions: ReadVersions):
        self.engine = engine
        self.read_versions = read_versions
        self.lock = threading.Lock()
        self.conditions: dict[int, threading.Condition] = {}
        self.watchers: dict[int, int] = {}
        self.stamps: dict[int, int] = {}  # bumped at each change heard of, per game
        self.joined: set[int] = set()  # games a stream began to follow since the last look
        self.thread: threading.Thread | None = None
        self.slots = 0  # streams taken (Slot), by every client
        self.by_address: dict[str, int] = {}  # and by client address

    @property
    def streams(self) -> int:
        """How many streams this process holds."""
        return sum(self.watchers.values())

    def reserve(
        self, game_id: int, address: str, *, most: int, per_address: int
    ) -> Slot | Literal["server", "address"]:
        """Take a stream's slot, or say who holds them all: the process's `most` never
        overshot, and one client address (a network) `per_address` of them at most, so that
        it cannot take every follower's place."""
        with self.lock:
            if self.slots >= most:
                return "server"
            if self.by_address.get(address, 0) >= per_address:
                return "address"
            self.slots += 1
            self.by_address[address] = self.by_address.get(address, 0) + 1
            return Slot(self, game_id, address)

    @contextlib.contextmanager
    def watching(self, game_id: int, slot: Slot | None = None) -> Iterator[Watch]:
        """Follow one game for as long as the stream lasts."""
        with self.lock:
            self._start()
            self.watchers[game_id] = self.watchers.get(game_id, 0) + 1
            self.conditions.setdefault(game_id, threading.Condition(self.lock))
            self.joined.add(game_id)
            watch = Watch(self, game_id, slot)
        try:
            yield watch
        finally:
            with self.lock:
                self.watchers[game_id] -= 1
                if not self.watchers[game_id]:
                    del self.watchers[game_id], self.conditions[game_id]
                    self.stamps.pop(game_id, None)

    def watches(self, game_id: int) -> bool:
        """Whether a stream of this process still follows the game."""
        return game_id in self.watchers

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
        versions: dict[int, Hashable] = {}
        while True:
            time.sleep(SQLITE_EVERY)
            with self.lock:
                followed = list(self.watchers)
                joined, self.joined = self.joined, set()
            if not followed:
                versions = {}  # a game followed again later is compared with nothing this old
                continue
            try:
                with self.engine.connect() as connection:
                    now = self.read_versions(connection, followed)
            except sa.exc.OperationalError:  # the database is busy or gone: look again later
                with self.lock:
                    self.joined |= joined
                continue
            # A game a new stream follows is woken once after its stream began: what the look
            # remembers of it may be older than that stream's first look, and a share started
            # and stopped since reads the same as before (its token None both times).
            self.changed([g for g in followed if g in joined or now.get(g) != versions.get(g)])
            versions = {g: now.get(g) for g in followed}


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


def init_app(app: Flask, engine: sa.Engine, read_versions: ReadVersions) -> None:
    """Give the app its hub; `read_versions` is how it looks at the followed games on SQLite."""
    app.extensions["live"] = Hub(engine, read_versions)
