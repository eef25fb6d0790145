"""End-to-end fixtures: the real app under gunicorn on a migrated database, and a phone-sized Chromium.

The server (scripts/lib/servers.py) runs once for the whole session, on SQLite. Tests stay apart
without a database per test: each one uses a fresh browser context, that is a new device, and a
device only ever sees its own games.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from playwright.sync_api import expect

from scripts.lib.servers import Gunicorn, migrate, server_env
from scripts.lib.showcase import evening

# Chromium's headless shell first: the same Blink as the full browser without its windowing
# parts, what Playwright itself runs headless; half the CPU of the full `chromium` here (e2e 361
# -> 176 core-seconds, `make test` 4:48 -> 3:42). Debian's packages when installed, else
# Playwright's own download (`make browser`).
CHROMIUMS = (Path("/usr/lib/chromium/chromium-headless-shell"), Path("/usr/bin/chromium"))
LAN_HOST = "compteur.lan.test"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
    # A name that is not localhost: a phone reaching the counter by plain HTTP on a LAN, which
    # gets no service worker (tests/e2e/test_waiting_rounds.py).
    f"--host-resolver-rules=MAP {LAN_HOST} 127.0.0.1",
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


@pytest.fixture(scope="session")
def live_server() -> Iterator[LiveServer]:
    """Yield the real app under gunicorn, on a freshly migrated SQLite database.

    What a browser shows does not depend on the database: PostgreSQL is tested where storage
    is (integration tests marked `storage`, and the real-server tests of tests/reliability).
    """
    # Our own directory, not tmp_path_factory's: other suites' runs rotate those away.
    workdir = Path(tempfile.mkdtemp(prefix="sqp-e2e-"))
    # Rate limits off (server_env): a whole game from one device is far more writes a minute
    # than a table makes by hand.
    env = server_env(f"sqlite:///{workdir / 'e2e.sqlite'}", workdir / "instance")
    log = workdir / "gunicorn.log"
    server = Gunicorn(env, log, workers=2)
    try:
        migrate(env, log)
        server.start(ready_within=STARTUP_SECONDS)
        yield LiveServer(server.url, log)
    finally:
        server.stop()
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
    installed = next((path for path in CHROMIUMS if path.exists()), None)
    if installed:  # Playwright cannot download its own browser everywhere
        args["executable_path"] = str(installed)
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


@pytest.fixture(scope="session")
def evening_phone(browser, base_url: str) -> tuple[dict, dict[str, str]]:
    """The evening of scripts/lib/showcase.py played once on one phone: its cookies, and where
    each screen is (a context made with these cookies is that phone)."""
    context = browser.new_context(locale="fr-FR", base_url=base_url)
    context.set_default_timeout(ACTION_TIMEOUT_MS)
    screens = evening(context.new_page()).screens()
    state = context.storage_state()
    context.close()
    return state, screens
