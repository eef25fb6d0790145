"""The container's start outside Docker: the Dockerfile's environment, entrypoint and healthcheck.

No Docker engine is needed: the test reads the Dockerfile's ENV, ENTRYPOINT and HEALTHCHECK and
runs them here with this virtualenv's flask and gunicorn, on an empty database, on loopback.
"""

from __future__ import annotations

import fnmatch
import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from scripts.lib.phones import Phone, drop_database, round_form, stored_games
from scripts.lib.servers import BIN, ROOT, Server, clean_env, free_port

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
