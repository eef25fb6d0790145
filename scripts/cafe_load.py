"""The café load of issue 23 on the real server (`make run`'s 2 workers): scripts/load.py with 20
tables, 20 requests in flight (each table one thing at a time), while 30 followers hold live
streams on 3 shared games. Prints load.py's figures (p50/p90/p99/max, pages and rounds).

    .venv/bin/python scripts/cafe_load.py [--postgresql] [--requests 2500] [--duration 60]

--postgresql makes a new database on the server of $TEST_POSTGRES_URL (scripts/start-postgres.sh),
dropped afterwards; the default is a new SQLite file. Rate limits are off (load.py's devices all
come from one address).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import load

from scripts.lib.cafe import Followers
from scripts.lib.phones import Phone, empty_database, stream_path
from scripts.lib.servers import running


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--postgresql", action="store_true", help="PostgreSQL, not SQLite")
    parser.add_argument("--requests", type=int, default=2500)
    parser.add_argument("--duration", type=float, default=60.0)
    args = parser.parse_args()
    backend = "postgresql" if args.postgresql else "sqlite"
    with (
        tempfile.TemporaryDirectory() as folder,
        empty_database(backend, Path(folder)) as database,
        running(database.url, Path(folder), workers=2, access_log=False) as server,
    ):
        phones = [Phone(server.url) for _ in range(3)]
        paths = [stream_path(phone, phone.start_game(["Ana", "Bob", "Chloé"])) for phone in phones]
        followers = Followers(server.port)
        streams = [followers.open(paths[n % 3]) for n in range(30)]
        assert followers.read_until(lambda: all(s.opened for s in streams), within=30)
        try:
            return load.main(
                [
                    *("--url", server.url, "--tables", "20", "--threads", "20"),
                    *("--requests", str(args.requests), "--duration", str(args.duration)),
                ]
            )
        finally:
            followers.close_all()


if __name__ == "__main__":
    sys.exit(main())
