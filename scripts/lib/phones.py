"""A table's phones and the databases they play on, for the tests that run the real server
(tests/reliability) and for scripts/cafe.py and scripts/cafe_load.py.

Everything talks to 127.0.0.1 only, and every wait has a deadline.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import uuid
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import requests
import sqlalchemy as sa

POSTGRES_URL = os.environ.get("TEST_POSTGRES_URL")

_CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')
_ROUND_NUMBER = re.compile(r'<form id="round-form".*?name="number" value="(\d+)"', re.S)
PLAYERS = [f"Joueur {seat}" for seat in range(1, 11)]
_FOLLOW_ADDRESS = re.compile(r'<a href="https?://[^"/]+(/suivre/[A-Za-z0-9_-]+)"')
_STREAM = re.compile(r'data-follow-stream="([^"]+)"')


def stream_path(phone: Phone, game: str) -> str:
    """Share the game from its phone; return the path of its live stream."""
    page = phone.get(f"/parties/{game}")
    assert phone.post(f"/parties/{game}/partage", {"csrf_token": csrf_token(page.text)}).ok
    address = _FOLLOW_ADDRESS.search(phone.get(f"/parties/{game}/partage").text)
    assert address, "no follow address on the share page"
    follow_page = phone.get(address.group(1))
    return _STREAM.search(follow_page.text).group(1).replace("&amp;", "&")


class NoPostgres(LookupError):
    """No PostgreSQL server to make a database on."""


@dataclass
class Database:
    backend: str
    url: str
    path: Path | None = None  # the SQLite file, for PRAGMA checks

    def engine(self) -> sa.Engine:
        return sa.create_engine(self.url, poolclass=sa.pool.NullPool)


@contextlib.contextmanager
def empty_database(backend: str, directory: Path) -> Iterator[Database]:
    """Make an empty database: a SQLite file, or a new PostgreSQL database dropped afterwards."""
    if backend == "sqlite":
        path = directory / "game.sqlite"
        yield Database("sqlite", f"sqlite:///{path}", path)
        return
    if not POSTGRES_URL:
        raise NoPostgres("TEST_POSTGRES_URL is not set (scripts/start-postgres.sh)")
    name = f"sqp_reliability_{uuid.uuid4().hex[:12]}"
    _as_admin(f'CREATE DATABASE "{name}"')
    database = Database(
        "postgresql",
        sa.make_url(POSTGRES_URL).set(database=name).render_as_string(hide_password=False),
    )
    try:
        yield database
    finally:
        drop_database(database)


def drop_database(database: Database) -> None:
    """Drop a PostgreSQL database made by empty_database, cutting off whoever is connected to it."""
    name = sa.make_url(database.url).database
    _as_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _as_admin(statement: str) -> None:
    """Run one statement on the PostgreSQL server of TEST_POSTGRES_URL, outside a transaction
    (CREATE and DROP DATABASE cannot run in one)."""
    admin = sa.create_engine(POSTGRES_URL, isolation_level="AUTOCOMMIT", poolclass=sa.pool.NullPool)
    try:
        with admin.connect() as conn:
            conn.execute(sa.text(statement))
    finally:
        admin.dispose()


class Phone:
    """One device at a table: its own cookies (device token and session), talking plain HTTP."""

    def __init__(self, base_url: str, *, timeout: float = 30.0):
        self.base_url = base_url
        self.timeout = timeout
        self.http = requests.Session()

    def get(self, path: str) -> requests.Response:
        return self.http.get(self.base_url + path, timeout=self.timeout, allow_redirects=False)

    def post(self, path: str, data: Mapping[str, str], *, htmx: bool = False) -> requests.Response:
        headers = {"HX-Request": "true"} if htmx else {}
        return self.http.post(
            self.base_url + path,
            data=data,
            headers=headers,
            timeout=self.timeout,
            allow_redirects=False,
        )

    def start_game(self, names: Sequence[str], **rule: str) -> str:
        """Start a game from the new-game form and return its public id."""
        page = self.get("/parties/nouvelle")
        assert page.status_code == 200, page.status_code
        form = {"csrf_token": csrf_token(page.text), "end": "above", **rule}
        form.update({f"players-{seat}": name for seat, name in enumerate(names)})
        answer = self.post("/parties", form)
        assert answer.status_code == 303, (answer.status_code, answer.text[:2000])
        return answer.headers["Location"].rstrip("/").rsplit("/", 1)[-1]

    def open_game(self, public_id: str) -> tuple[str, int]:
        """Return the CSRF token and the number of the next round from the game page."""
        page = self.get(f"/parties/{public_id}")
        assert page.status_code == 200, page.status_code
        number = _ROUND_NUMBER.search(page.text)
        assert number, "the game page has no entry form"
        return csrf_token(page.text), int(number.group(1))

    def twin(self) -> Phone:
        """Another connection with the same cookies: the same phone tapping again, a second tab."""
        other = Phone(self.base_url, timeout=self.timeout)
        other.http.cookies.update(self.http.cookies)
        return other


def round_form(
    token: str, number: int, scores: Sequence[int], version: int | None = None
) -> dict[str, str]:
    """Round `number` as its form sends it, drawn from the game at `version`: by default the
    version of a game only ever played forward, where round N is drawn at version N (a new game
    is at 1, and each round recorded moves it once)."""
    drawn = number if version is None else version
    form = {"csrf_token": token, "number": str(number), "version": str(drawn)}
    form.update({f"score-{seat}": str(value) for seat, value in enumerate(scores)})
    return form


def csrf_token(html: str) -> str:
    found = _CSRF.search(html)
    assert found, "no CSRF token in the page"
    return found.group(1)


@dataclass
class StoredGame:
    players: int
    rounds: dict[int, dict[int, int]]  # round number -> {seat: heads}, as the database holds them

    def heads(self, number: int) -> tuple[int, ...]:
        return tuple(self.rounds[number][seat] for seat in sorted(self.rounds[number]))


def stored_games(database: Database) -> dict[str, StoredGame]:
    """Read every game and its rounds straight from the database, keyed by public id.

    A round holding fewer heads than its game has players shows as missing seats: half stored.
    """
    engine = database.engine()
    try:
        with engine.connect() as conn:
            players = conn.execute(
                sa.text(
                    "SELECT g.public_id, count(p.id) FROM game g "
                    "LEFT JOIN player p ON p.game_id = g.id GROUP BY g.public_id"
                )
            ).all()
            rounds = conn.execute(
                sa.text(
                    "SELECT g.public_id, r.number, r.heads FROM game g JOIN round r ON r.game_id = g.id"
                )
            ).all()
    finally:
        engine.dispose()
    games = {public_id: StoredGame(count, {}) for public_id, count in players}
    for public_id, number, heads in rounds:
        if isinstance(heads, str):  # SQLite hands JSON back as text, PostgreSQL as a list
            heads = json.loads(heads)
        games[public_id].rounds[number] = dict(enumerate(heads))
    return games
