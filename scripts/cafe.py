"""What one machine holds by default: the real server as `make run` starts it (2 gevent workers),
a table recording rounds, first alone, then with 300 followers live (30 tables of ten) and 200
half-sent requests open. Prints the round's latency in both phases (docs/performance.md).

    .venv/bin/python scripts/cafe.py [--postgresql] [--rounds 60]

--postgresql makes a new database on the server of $TEST_POSTGRES_URL (scripts/start-postgres.sh)
and drops it afterwards; the default is a new SQLite file.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scripts.lib.cafe import Followers, half_sent, still_open
from scripts.lib.phones import PLAYERS, Phone, empty_database, round_form, stream_path
from scripts.lib.servers import running


def rounds(phone: Phone, game: str, count: int) -> list[float]:
    """Record `count` rounds one after the other; return each answer's time in ms."""
    token, number = phone.open_game(game)
    times = []
    for n in range(count):
        start = time.perf_counter()
        answer = phone.post(
            f"/parties/{game}/manches",
            # one head a round, to each player in turn: the game never ends
            round_form(token, number + n, [int(seat == n % 10) for seat in range(10)]),
            htmx=True,
        )
        times.append((time.perf_counter() - start) * 1000)
        assert answer.status_code == 200, answer.status_code
        time.sleep(0.05)
    return times


def summary(times: list[float]) -> str:
    ordered = sorted(times)
    p95 = ordered[int(len(ordered) * 0.95) - 1]
    return f"p50 {statistics.median(ordered):.0f} ms, p95 {p95:.0f} ms, max {ordered[-1]:.0f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--postgresql", action="store_true", help="PostgreSQL, not SQLite")
    parser.add_argument("--rounds", type=int, default=60)
    args = parser.parse_args()
    backend = "postgresql" if args.postgresql else "sqlite"
    with (
        tempfile.TemporaryDirectory() as folder,
        empty_database(backend, Path(folder)) as database,
        running(database.url, Path(folder), workers=2, access_log=False) as server,
    ):
        phone = Phone(server.url)
        alone = rounds(phone, phone.start_game(PLAYERS), args.rounds)
        print("alone:", summary(alone))
        phones = [Phone(server.url) for _ in range(30)]
        paths = [stream_path(p, p.start_game(PLAYERS)) for p in phones]
        followers = Followers(server.port)
        streams = [followers.open(path) for path in paths for _ in range(10)]
        assert followers.read_until(lambda: all(s.opened for s in streams), within=60)
        with half_sent(server.port, 200) as stalled:
            busy = rounds(phone, phone.start_game(PLAYERS), args.rounds)
            held = still_open(stalled)
        followers.read(0.5)
        live = sum(1 for s in streams if s.opened and not s.closed)
        followers.close_all()
        print(f"with {live} followers live and {held} half-sent requests open:", summary(busy))


if __name__ == "__main__":
    main()
