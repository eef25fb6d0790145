"""Tools for tests that run the real server: gunicorn on a migrated database, and a table's phone.

Everything talks to 127.0.0.1 only, every wait has a deadline, and every server started here is
stopped (or killed, with its whole process group) when its test ends.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest
import requests
import sqlalchemy as sa

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent  # the virtualenv running the tests also has flask and gunicorn
POSTGRES_URL = os.environ.get("TEST_POSTGRES_URL")
SECRET_KEY = "reliability-tests-secret"  # the same key across restarts, so cookies stay valid

_CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')
_ROUND_NUMBER = re.compile(r'<form id="round-form".*?name="number" value="(\d+)"', re.S)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def clean_env() -> dict[str, str]:
    """Return this process's environment without the settings of the app and of gunicorn."""
    settings = (
        "DATABASE_URL",
        "SECRET_KEY",
        "PRODUCTION",
        "PROXY_FIX",
        "RATELIMIT_STORAGE_URI",
        "INSTANCE_PATH",
        "HOST",
        "PORT",
        "WEB_CONCURRENCY",
    )
    return {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("FLASK_", "GUNICORN_")) and key not in settings
    }


def server_env(database_url: str, instance_path: Path, **extra: str) -> dict[str, str]:
    """Return the environment of a server on that database, rate limits off (load is the point)."""
    env = clean_env()
    env.update(
        DATABASE_URL=database_url,
        INSTANCE_PATH=str(instance_path),
        SECRET_KEY=SECRET_KEY,
        FLASK_RATELIMIT_ENABLED="false",
        PYTHONUNBUFFERED="1",
    )
    env.update(extra)
    return env


def migrate(env: Mapping[str, str], log: Path) -> None:
    """Apply the migrations with the same command as `make run` and the container."""
    with log.open("ab") as out:
        subprocess.run(
            [str(BIN / "flask"), "--app", "app", "db", "upgrade"],
            cwd=ROOT,
            env=dict(env),
            stdout=out,
            stderr=subprocess.STDOUT,
            check=True,
            timeout=60,
        )


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
        path = directory / "counter.sqlite"
        yield Database("sqlite", f"sqlite:///{path}", path)
        return
    if not POSTGRES_URL:
        pytest.skip(
            "PostgreSQL not tested: TEST_POSTGRES_URL is not set (scripts/start-postgres.sh)"
        )
    name = f"sqp_reliability_{uuid.uuid4().hex[:12]}"
    admin = sa.create_engine(POSTGRES_URL, isolation_level="AUTOCOMMIT", poolclass=sa.pool.NullPool)
    try:
        with admin.connect() as conn:
            conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
    finally:
        admin.dispose()
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
    admin = sa.create_engine(POSTGRES_URL, isolation_level="AUTOCOMMIT", poolclass=sa.pool.NullPool)
    try:
        with admin.connect() as conn:
            conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    finally:
        admin.dispose()


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def served_database(request, tmp_path_factory) -> Iterator[Database]:
    """Yield a database of each backend migrated by `flask db upgrade`, for a test module."""
    directory = tmp_path_factory.mktemp(request.param)
    with empty_database(request.param, directory) as database:
        migrate(server_env(database.url, directory / "instance"), directory / "migrate.log")
        yield database


class Server:
    """A server command run in its own process group, so that it can be killed whole."""

    def __init__(self, command: Sequence[str], env: Mapping[str, str], log: Path, port: int):
        self.command = list(command)
        self.env = dict(env)
        self.log = log
        self.port = port
        self.process: subprocess.Popen | None = None
        self.returncode: int | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def launch(self) -> subprocess.Popen:
        """Start the command without waiting for it to serve."""
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(
                self.command,
                cwd=ROOT,
                env=self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its own process group: master and workers die together
            )
        return self.process

    def start(self, *, ready_within: float = 60.0) -> None:
        """Start the command and wait until /healthz answers 200."""
        process = self.launch()
        wait_until_healthy(self.url, within=ready_within, process=process, log=self.log)

    def kill(self) -> None:
        """SIGKILL the master and every worker at once, as a power cut or an OOM kill would."""
        assert self.process is not None
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.returncode = self.process.wait(timeout=10)
        _wait_for_group_to_end(self.process.pid, within=10)
        self.process = None

    def stop(self) -> None:
        """Stop gracefully (SIGTERM lets workers finish their request), else kill."""
        if self.process is None:
            return
        try:
            os.killpg(self.process.pid, signal.SIGTERM)
            self.returncode = self.process.wait(timeout=30)
            _wait_for_group_to_end(self.process.pid, within=10)
            self.process = None
        except (ProcessLookupError, subprocess.TimeoutExpired):
            self.kill()

    def output(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""


class Gunicorn(Server):
    """The real server as `make run` starts it: gunicorn with sync workers and an access log."""

    def __init__(self, env: Mapping[str, str], log: Path, *, workers: int, port: int | None = None):
        port = port or free_port()
        command = [
            str(BIN / "gunicorn"),
            "--workers",
            str(workers),
            "--bind",
            f"127.0.0.1:{port}",
            "--access-logfile",
            "-",
        ]
        if _gunicorn_has_control_socket():
            command.append("--no-control-socket")  # servers of parallel tests must not share one
        super().__init__([*command, "app:create_app()"], env, log, port)


@functools.cache
def _gunicorn_has_control_socket() -> bool:
    result = subprocess.run(
        [str(BIN / "gunicorn"), "--help"], capture_output=True, text=True, timeout=30
    )
    return "--no-control-socket" in result.stdout


def _wait_for_group_to_end(pgid: int, *, within: float) -> None:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if not _living_members(pgid):
            return
        time.sleep(0.01)
    raise AssertionError(
        f"processes {_living_members(pgid)} still alive {within}s after being stopped"
    )


def _living_members(pgid: int) -> list[int]:
    """Return the processes of a group that still run (zombies waiting for their reaper do not)."""
    members = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue  # gone meanwhile
        state, group = fields[0], int(fields[2])
        if group == pgid and state not in ("Z", "X"):
            members.append(int(stat.parent.name))
    return members


def wait_until_healthy(
    url: str, *, within: float, process: subprocess.Popen | None = None, log: Path | None = None
) -> None:
    """Poll /healthz until it answers 200, failing early if the server process died."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise AssertionError(f"server exited with {process.returncode}:\n{_tail(log)}")
        try:
            if requests.get(f"{url}/healthz", timeout=2).status_code == 200:
                return
        except requests.RequestException:
            pass
        time.sleep(0.05)
    raise AssertionError(f"{url}/healthz did not answer 200 within {within}s:\n{_tail(log)}")


def _tail(log: Path | None) -> str:
    if log is None or not log.exists():
        return ""
    return log.read_text(errors="replace")[-4000:]


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


def round_form(token: str, number: int, heads: Sequence[int]) -> dict[str, str]:
    form = {"csrf_token": token, "number": str(number)}
    form.update({f"heads-{seat}": str(value) for seat, value in enumerate(heads)})
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
