"""End-to-end fixtures: the real app under gunicorn on a migrated database, and a phone-sized Chromium.

The server runs once per backend for the whole session (SQLite always; PostgreSQL when
TEST_POSTGRES_URL names a server that may create databases, otherwise reported as skipped).
Tests stay apart without a database per test: each one uses a fresh browser context, that is a
new device, and a device only ever sees its own games.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.sync_api import expect

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent  # the virtualenv running pytest holds flask and gunicorn
# Chromium's headless shell: the same Blink as the full browser without its windowing parts,
# what Playwright itself runs headless; half the CPU of the full `chromium` here (e2e 361 -> 176
# core-seconds, `make test` 4:48 -> 3:42). Debian's package when installed, else Playwright's own.
HEADLESS_SHELL = Path("/usr/lib/chromium/chromium-headless-shell")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
PHONE = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True}
STARTUP_SECONDS = 30
# Bounded waits, generous for a 2-core machine running other suites at the same time.
ACTION_TIMEOUT_MS = 15_000
EXPECT_TIMEOUT_MS = 10_000


@dataclass(frozen=True)
class LiveServer:
    url: str
    log: Path

    def log_tail(self, lines: int = 80) -> str:
        return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _server_env(database_url: str, instance: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("FLASK_")}
    env.update(
        DATABASE_URL=database_url,
        SECRET_KEY="e2e-" + uuid.uuid4().hex,
        INSTANCE_PATH=str(instance),
        # A whole game from one device is far more writes a minute than a table makes by hand.
        FLASK_RATELIMIT_ENABLED="false",
    )
    env.pop("PRODUCTION", None)
    return env


def _wait_until_healthy(url: str, server: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + STARTUP_SECONDS
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"gunicorn exited with {server.returncode}:\n{log.read_text()}")
        try:
            with urllib.request.urlopen(url + "/healthz", timeout=2) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.1)  # polling the server's start-up, not waiting on the page under test
    raise RuntimeError(
        f"{url}/healthz did not answer within {STARTUP_SECONDS} s:\n{log.read_text()}"
    )


def _serve(database_url: str, workdir: Path) -> Iterator[LiveServer]:
    """Migrate the database, run gunicorn on it, yield its address, then stop it."""
    env = _server_env(database_url, workdir / "instance")
    migration = subprocess.run(
        [str(BIN / "flask"), "--app", "app", "db", "upgrade"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    if migration.returncode != 0:
        raise RuntimeError(f"flask db upgrade failed:\n{migration.stdout}{migration.stderr}")
    url = f"http://127.0.0.1:{_free_port()}"
    log = workdir / "gunicorn.log"
    with log.open("w") as log_file:
        server = subprocess.Popen(
            [
                str(BIN / "gunicorn"),
                "--workers",
                "2",
                "--bind",
                url.removeprefix("http://"),
                "--access-logfile",
                "-",
                "app:create_app()",
            ],
            cwd=ROOT,
            env=env,
            stdout=log_file,
            stderr=subprocess.STDOUT,
        )
    try:
        _wait_until_healthy(url, server, log)
        yield LiveServer(url, log)
    finally:
        server.terminate()
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(timeout=5)


@pytest.fixture(scope="session")
def live_server() -> Iterator[LiveServer]:
    """Yield the real app under gunicorn, on a freshly migrated SQLite database.

    What a browser shows does not depend on the database: PostgreSQL is tested where storage
    is (integration tests marked `storage`, and the real-server tests of tests/reliability).
    """
    # Our own directory, not tmp_path_factory's: other suites' runs rotate those away.
    workdir = Path(tempfile.mkdtemp(prefix="sqp-e2e-"))
    try:
        yield from _serve(f"sqlite:///{workdir / 'e2e.sqlite'}", workdir)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


@pytest.fixture(scope="session")
def base_url(live_server) -> str:
    """Point pytest-playwright's contexts (page.goto("/")) at the live server."""
    return live_server.url


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    """On a failure, show the end of the server's log next to the browser's view."""
    report = yield
    server = getattr(item, "funcargs", {}).get("live_server")
    if report.failed and isinstance(server, LiveServer) and server.log.exists():
        report.sections.append(("gunicorn log (end)", server.log_tail()))
    return report


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args) -> dict:
    args = {**browser_type_launch_args, "args": CHROMIUM_ARGS}
    if HEADLESS_SHELL.exists():  # Playwright cannot download its own browser everywhere
        args["executable_path"] = str(HEADLESS_SHELL)
    return args


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args) -> dict:
    """Every context is a new phone: 360 × 740, touch, French."""
    return {**browser_context_args, **PHONE, "locale": "fr-FR"}


@pytest.fixture(scope="session", autouse=True)
def _bounded_expectations() -> None:
    expect.set_options(timeout=EXPECT_TIMEOUT_MS)


@pytest.fixture
def new_context(new_context):
    """pytest-playwright's context factory (phone, French, live server), with bounded actions."""

    def make(**kwargs):
        context = new_context(**kwargs)
        context.set_default_timeout(ACTION_TIMEOUT_MS)
        return context

    return make
