"""Rate limits on the real server: gunicorn's workers count in one place — the SQLite file under
instance/ by default — so two workers let through the configured allowance, not twice it.

(With memory:// storage each worker counted apart: a burst that both workers answer let up to
twice the allowance through.)
"""

from __future__ import annotations

import re
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from scripts.lib.phones import Phone, csrf_token
from scripts.lib.servers import Gunicorn

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


@pytest.mark.parametrize("served_database", ["sqlite"], indirect=True)
def test_two_workers_share_one_count_of_game_creations(served_database, tmp_path):
    # RATELIMIT_STORAGE_URI unset: the SQLite file under the server's instance folder. Redis
    # shared by two servers is test_hosted_shape.py::test_rate_limits_count_once_for_both_servers…
    settings = {
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
