"""Rate limits on the real server: gunicorn's workers count in one place — the SQLite file under
instance/ by default, or Redis (for several machines) — so two workers let through the configured
allowance, not twice it.

(With memory:// storage each worker counted apart: a burst that both workers answer let up to
twice the allowance through.)
"""

from __future__ import annotations

import importlib.util
import re
import shutil
import subprocess
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest

from scripts.lib.phones import Phone, csrf_token
from scripts.lib.servers import Gunicorn, free_port

from .conftest import running_server

pytestmark = pytest.mark.slow

ALLOWED = 6
SENT = 16
BURSTS = 5  # a burst proves something only if both workers answered part of it


def _burst(server: Gunicorn, number: int) -> tuple[list[int], set[str]]:
    """Send SENT game creations at once from one new phone; return the statuses and the workers
    that answered them."""
    phone = Phone(server.url)
    token = csrf_token(phone.get("/parties/nouvelle").text)
    form = {"csrf_token": token, "players-0": "Ana", "players-1": "Bob"}
    taps = [phone.twin() for _ in range(SENT)]
    barrier = threading.Barrier(SENT, timeout=30)

    def tap(twin: Phone) -> int:
        barrier.wait()
        return twin.post(f"/parties?salve={number}", form).status_code

    with ThreadPoolExecutor(max_workers=SENT) as pool:
        statuses = list(pool.map(tap, taps))
    workers = set(re.findall(rf"worker=<(\d+)> POST /parties\?salve={number} ", server.output()))
    return statuses, workers


@pytest.fixture(params=["sqlite file", "redis"])
def storage(request, tmp_path) -> Iterator[dict[str, str]]:
    """Yield the settings of a rate-limit storage: the default file, or a Redis started here."""
    if request.param == "sqlite file":
        yield {}  # RATELIMIT_STORAGE_URI unset: the file under the server's instance folder
        return
    server = shutil.which("redis-server")
    if server is None or importlib.util.find_spec("redis") is None:
        pytest.skip("Redis not tested: redis-server or the redis extra is missing")
    port = free_port()
    redis = subprocess.Popen(
        [server, "--bind", "127.0.0.1", "--port", str(port), "--save", "", "--appendonly", "no"],
        cwd=tmp_path,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        import redis as client

        connection = client.Redis(port=port, socket_connect_timeout=1)
        for _ in range(100):
            try:
                connection.ping()
                break
            except client.ConnectionError:
                time.sleep(0.05)
        else:
            pytest.skip("Redis not tested: redis-server did not answer")
        yield {"RATELIMIT_STORAGE_URI": f"redis://127.0.0.1:{port}/0"}
    finally:
        redis.terminate()
        redis.wait(timeout=10)


@pytest.mark.parametrize("served_database", ["sqlite"], indirect=True)
def test_two_workers_share_one_count_of_game_creations(served_database, storage, tmp_path):
    settings = {
        **storage,
        "FLASK_RATELIMIT_ENABLED": "true",
        "FLASK_RATELIMIT_GAME_CREATION": f"{ALLOWED} per minute",
        "FLASK_RATELIMIT_GAME_CREATION_PER_ADDRESS": "1000 per minute",
        # Which worker answered each request, to know that both took part in a burst.
        "GUNICORN_CMD_ARGS": "--access-logformat 'worker=%(p)s %(r)s %(s)s'",
    }
    with running_server(served_database, tmp_path, workers=2, **settings) as server:
        for number in range(BURSTS):
            statuses, workers = _burst(server, number)
            if len(workers) == 2:
                break
        else:
            pytest.fail(f"one worker answered each of {BURSTS} bursts: nothing was shown")

    assert sorted(statuses) == [303] * ALLOWED + [429] * (SENT - ALLOWED)
