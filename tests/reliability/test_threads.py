"""One threaded worker (gunicorn.conf.py) serving many tables at once: each request its own session."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.integration.html import parse, totals

from .conftest import Phone, round_form, running_server, stored_games

pytestmark = pytest.mark.slow

TABLES = 24


def test_one_threaded_worker_answers_each_table_with_its_own_game(served_database, tmp_path):
    with running_server(served_database, tmp_path, workers=1) as server:
        tables = [Phone(server.url) for _ in range(TABLES)]
        games = [table.start_game([f"Table {t}", "Bob"]) for t, table in enumerate(tables)]
        forms = [table.open_game(game) for table, game in zip(tables, games, strict=True)]
        barrier = threading.Barrier(TABLES, timeout=30)

        def record(t: int):
            barrier.wait()  # all at once: the worker's threads interleave their requests
            token, number = forms[t]
            return tables[t].post(
                f"/parties/{games[t]}/manches", round_form(token, number, (t, 1)), htmx=True
            )

        with ThreadPoolExecutor(max_workers=TABLES) as pool:
            answers = list(pool.map(record, range(TABLES)))

    assert [answer.status_code for answer in answers] == [200] * TABLES
    assert [totals(parse(answer.text)) for answer in answers] == [
        {f"Table {t}": t, "Bob": 1} for t in range(TABLES)
    ]
    stored = stored_games(served_database)
    assert [stored[game].heads(1) for game in games] == [(t, 1) for t in range(TABLES)]
