"""The container's start outside Docker: the Dockerfile's environment, entrypoint and healthcheck.

No Docker engine is needed: the test reads the Dockerfile's ENV, ENTRYPOINT and HEALTHCHECK and
runs them here with this virtualenv's flask and gunicorn, on an empty database, on loopback.
"""

from __future__ import annotations

import contextlib
import fcntl
import fnmatch
import json
import os
import re
import shlex
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa

from app.storage import migrating
from scripts.lib.phones import Database, Phone, drop_database, round_form, stored_games
from scripts.lib.servers import BIN, ROOT, Server, clean_env, free_port, wait_until_healthy

from .conftest import empty_database

pytestmark = pytest.mark.slow


def dockerfile() -> list[tuple[str, str]]:
    """Return the Dockerfile's instructions as (KEYWORD, arguments), continuation lines joined."""
    text = re.sub(r"\\\n", " ", (ROOT / "Dockerfile").read_text())
    instructions = []
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            keyword, _, arguments = line.partition(" ")
            instructions.append((keyword.upper(), arguments.strip()))
    return instructions


def image_environment() -> dict[str, str]:
    env: dict[str, str] = {}
    for keyword, arguments in dockerfile():
        if keyword == "ENV":
            env.update(pair.split("=", 1) for pair in shlex.split(arguments))
    return env


def entrypoint() -> list[str]:
    [arguments] = [arguments for keyword, arguments in dockerfile() if keyword == "ENTRYPOINT"]
    command = json.loads(arguments)
    return [str(ROOT / command[0]), *command[1:]]  # relative to WORKDIR: the project's root


def healthcheck() -> list[str]:
    [arguments] = [arguments for keyword, arguments in dockerfile() if keyword == "HEALTHCHECK"]
    command = json.loads(arguments.split(" CMD ", 1)[1])
    return [sys.executable if command[0] == "python" else command[0], *command[1:]]


def container_env(database_url: str | None, home: Path, port: int, **extra: str) -> dict[str, str]:
    """The image's environment, on this machine: loopback, this virtualenv, a temporary /data."""
    env = clean_env()
    env.update(image_environment())
    env.update(
        PATH=f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}",
        HOME=str(home),  # gunicorn keeps its control socket under $HOME, as in the image
        INSTANCE_PATH=str(home / "data"),
        HOST="127.0.0.1",
        PORT=str(port),
    )
    if database_url:
        env["DATABASE_URL"] = database_url
    env.update(extra)
    return env


@pytest.fixture(params=["sqlite", "postgresql"])
def fresh_database(request, tmp_path):
    with empty_database(request.param, tmp_path) as database:
        yield database


def test_the_container_migrates_an_empty_database_then_serves_and_passes_its_healthcheck(
    fresh_database, tmp_path
):
    port = free_port()
    env = container_env(fresh_database.url, tmp_path, port, SECRET_KEY="a-production-secret")
    assert env["PRODUCTION"] == "1"
    server = Server(entrypoint(), env, tmp_path / "container.log", port)

    try:
        server.start()
        check = subprocess.run(healthcheck(), env=env, capture_output=True, timeout=30)
        phone = Phone(server.url)
        game = phone.start_game(["Ana", "Bob"])
        token, number = phone.open_game(game)
        answer = phone.post(f"/parties/{game}/manches", round_form(token, number, [3, 1]))
    finally:
        server.stop(graceful=True)  # the container's SIGTERM

    assert check.returncode == 0, check.stderr
    assert answer.status_code == 303
    assert stored_games(fresh_database)[game].heads(1) == (3, 1)
    log = server.output()
    assert "Running upgrade" in log.split("Starting gunicorn")[0]  # migrations ran first
    # One access-log line per request.
    assert f'"GET /parties/{game} HTTP/1.1" 200' in log
    assert f'"POST /parties/{game}/manches HTTP/1.1" 303' in log
    assert server.returncode == 0  # SIGTERM stops gunicorn gracefully
    after = subprocess.run(healthcheck(), env=env, capture_output=True, timeout=30)
    assert after.returncode != 0  # and with the server gone the healthcheck fails


def test_the_container_refuses_to_start_in_production_without_a_secret_key(tmp_path):
    port = free_port()
    env = container_env(f"sqlite:///{tmp_path / 'game.sqlite'}", tmp_path, port)
    server = Server(entrypoint(), env, tmp_path / "container.log", port)

    process = server.launch()
    try:
        returncode = process.wait(timeout=60)
    finally:
        server.stop()

    assert returncode != 0
    assert "SECRET_KEY must be set in production" in server.output()
    assert "Starting gunicorn" not in server.output()


def test_the_image_context_keeps_what_the_app_needs_and_leaves_out_local_state():
    ignored = [
        line.strip()
        for line in (ROOT / ".dockerignore").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]

    def is_ignored(name: str) -> bool:
        return any(fnmatch.fnmatch(name, pattern.removeprefix("**/")) for pattern in ignored)

    needed = [
        "app",
        "templates",
        "static",
        "migrations",
        "pyproject.toml",
        "README.md",
        "gunicorn.conf.py",
        entrypoint()[0].removeprefix(f"{ROOT}/"),
    ]
    assert [name for name in needed if is_ignored(name)] == []
    assert all((ROOT / name).exists() for name in needed)
    assert all(is_ignored(name) for name in [".venv", "instance", ".git", "tests", "node_modules"])


def test_the_healthcheck_fails_once_the_database_is_gone(tmp_path):
    port = free_port()
    with empty_database("postgresql", tmp_path) as database:
        env = container_env(database.url, tmp_path, port, SECRET_KEY="a-production-secret")
        server = Server(entrypoint(), env, tmp_path / "container.log", port)
        try:
            server.start()
            healthy = subprocess.run(healthcheck(), env=env, capture_output=True, timeout=30)
            drop_database(database)

            gone = subprocess.run(healthcheck(), env=env, capture_output=True, timeout=30)
        finally:
            server.stop()

    assert healthy.returncode == 0, healthy.stderr
    assert gone.returncode != 0
    assert b"HTTP Error 503" in gone.stderr  # the database is gone: try again later


@contextlib.contextmanager
def migration_lock_held(database: Database) -> Iterator[Callable[[], int]]:
    """Hold the migration lock of app/storage/migrating.py, as a replica migrating would; yield
    a count of the processes waiting for it."""
    if database.backend == "postgresql":
        engine = database.engine()
        with engine.connect() as held:
            held.execute(sa.text("SELECT pg_advisory_lock(:key)"), {"key": migrating.POSTGRES_LOCK})
            held.commit()  # a session lock: it outlives the transaction

            def waiting() -> int:
                with engine.connect() as look:
                    return look.execute(
                        sa.text(
                            "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'"
                            " AND NOT granted AND database = (SELECT oid FROM pg_database"
                            " WHERE datname = current_database())"
                        )
                    ).scalar_one()

            try:
                yield waiting
            finally:
                held.execute(sa.text("SELECT pg_advisory_unlock_all()"))
                held.commit()
        engine.dispose()
        return
    assert database.path is not None
    path = Path(migrating.lock_file(str(database.path)))
    with path.open("a") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        inode = os.fstat(held.fileno()).st_ino

        def waiting() -> int:
            # Linux lists a lock's waiters after « -> », with the file's device:inode.
            lines = Path("/proc/locks").read_text().splitlines()
            return sum(1 for line in lines if "->" in line and f":{inode} " in line)

        yield waiting  # released when the file closes


def test_two_replicas_started_together_on_an_empty_database_migrate_it_once_and_both_serve(
    fresh_database, tmp_path
):
    # Both are let in only once both wait at the migration lock: « at the same moment » is then
    # certain, not a matter of how fast each imports the app.
    replicas = []
    for name in ("web-1", "web-2"):
        home = tmp_path / name
        home.mkdir()
        port = free_port()
        env = container_env(fresh_database.url, home, port, SECRET_KEY="a-production-secret")
        replicas.append(Server(entrypoint(), env, home / "container.log", port))

    try:
        with migration_lock_held(fresh_database) as waiting:
            for replica in replicas:
                replica.launch()
            deadline = time.monotonic() + 60
            while waiting() < 2:
                assert time.monotonic() < deadline, [r.output()[-2000:] for r in replicas]
                assert all(r.process.poll() is None for r in replicas), [
                    r.output()[-2000:] for r in replicas
                ]
                time.sleep(0.05)
        for replica in replicas:
            wait_until_healthy(replica.url, within=60, process=replica.process, log=replica.log)
        games = [Phone(replica.url).start_game(["Ana", "Bob"]) for replica in replicas]
    finally:
        for replica in replicas:
            replica.stop()

    upgrades = [
        line
        for replica in replicas
        for line in replica.output().splitlines()
        if "Running upgrade" in line
    ]
    revisions = list((ROOT / "migrations" / "versions").glob("*.py"))
    assert len(upgrades) == len(revisions)  # each migration applied once, by one of them
    assert set(stored_games(fresh_database)) == set(games)  # both served on the one schema
