"""scripts/load.py, run briefly against the real server: it plays real games and counts honestly."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from scripts.lib.phones import stored_games
from scripts.lib.servers import ROOT

from .conftest import running_server

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def server(served_database, tmp_path_factory):
    with running_server(served_database, tmp_path_factory.mktemp("server"), workers=2) as server:
        yield server


def test_a_short_load_records_every_round_it_reports_accepted(server, served_database):
    before = stored_games(served_database)

    run = subprocess.run(
        [
            sys.executable,
            "scripts/load.py",
            "--url",
            server.url,
            "--tables",
            "6",
            "--threads",
            "3",
            "--requests",
            "120",
            "--write-share",
            "0.5",
            "--json",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )

    assert run.returncode == 0, run.stdout + run.stderr
    figures = json.loads(run.stdout)
    assert figures["all"]["requests"] == 120
    assert figures["all"]["errors"] == 0
    after = stored_games(served_database)
    new_games = set(after) - set(before)
    assert len(new_games) == 6
    rounds = sum(len(after[game].rounds) for game in new_games)
    assert rounds == figures["outcomes"]["round 303"] == figures["round"]["requests"]


def test_the_load_refuses_to_leave_the_machine():
    run = subprocess.run(
        [sys.executable, "scripts/load.py", "--url", "http://192.0.2.1:8000", "--requests", "1"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )

    assert run.returncode != 0
    assert "not a loopback address" in run.stderr
