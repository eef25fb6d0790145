"""A bounded load on a running counter over loopback: many tables reading pages, recording rounds.

Each table is its own device (cookies), plays its own game, and sends what a phone sends: the game
page, the home page, the history, and rounds through the real form with its CSRF token. The run
stops after --requests requests or --duration seconds, whichever comes first, then prints the
requests, the errors and the latency percentiles. Exits 1 if any request failed.

    .venv/bin/python scripts/load.py --url http://127.0.0.1:8000 --tables 40 --threads 8
    .venv/bin/python scripts/load.py --serve [--workers 2]   # on a server of its own

A server given by --url must run with rate limits off (FLASK_RATELIMIT_ENABLED=false): a single
address sending hundreds of rounds a minute is exactly what they exist to stop. --serve starts
the real server as `make run` does (scripts/lib/servers.py) on a temporary SQLite database, rate
limits off, and stops it after the run. See docs/reliability.md.
"""

from __future__ import annotations

import argparse
import ipaddress
import json
import math
import random
import re
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import requests

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scripts.lib.servers import running  # the real server, as `make run` starts it

CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')
ROUND_NUMBER = re.compile(r'<form id="round-form".*?name="number" value="(\d+)"', re.S)
PLAYERS = 5
LIMIT = "500"  # « Autre limite » far away, so that games go on for the whole run
READS = (("game", 0.7), ("home", 0.15), ("history", 0.15))


@dataclass
class Table:
    """One device playing one game."""

    http: requests.Session
    game: str = ""
    token: str = ""
    next_number: int = 1
    lock: threading.Lock = field(default_factory=threading.Lock)


@dataclass
class Sample:
    kind: str  # "page" (a GET) or "round" (a round submitted)
    outcome: str  # the status code, or the exception when no answer came
    ok: bool  # the answer a phone expects: 200 for a page, 303 for a round
    seconds: float


class Load:
    def __init__(self, base_url: str, args: argparse.Namespace):
        self.base_url = base_url.rstrip("/")
        self.args = args
        self.samples: list[Sample] = []
        self.lock = threading.Lock()
        self.budget = args.requests
        self.deadline = 0.0
        self.measuring = False

    def request(
        self, table: Table, method: str, path: str, data: dict[str, str] | None = None
    ) -> requests.Response | None:
        kind, expected = ("round", 303) if method == "POST" else ("page", 200)
        start = time.perf_counter()
        try:
            answer = table.http.request(
                method,
                self.base_url + path,
                data=data,
                timeout=self.args.timeout,
                allow_redirects=False,
            )
        except requests.RequestException as error:
            self.record(Sample(kind, type(error).__name__, False, time.perf_counter() - start))
            return None
        ok = answer.status_code == expected
        self.record(Sample(kind, str(answer.status_code), ok, time.perf_counter() - start))
        return answer

    def record(self, sample: Sample) -> None:
        if self.measuring:
            with self.lock:
                self.samples.append(sample)

    def take_one(self) -> bool:
        """Take one request from the budget; False once the run is over."""
        with self.lock:
            if self.budget <= 0 or time.monotonic() >= self.deadline:
                return False
            self.budget -= 1
            return True

    # -- what a table does ------------------------------------------------------------------

    def seat(self, table: Table, number: int) -> None:
        """Start a game for the table, as the new-game form does."""
        page = self.request(table, "GET", "/parties/nouvelle")
        if page is None or page.status_code != 200:
            raise SystemExit(f"cannot open the new-game form: {page and page.status_code}")
        form = {"csrf_token": _csrf(page.text), "end": "other_limit", "limit": LIMIT}
        form.update({f"players-{s}": f"Table {number} joueur {s + 1}" for s in range(PLAYERS)})
        answer = self.request(table, "POST", "/parties", form)
        if answer is None or answer.status_code != 303:
            raise SystemExit(f"cannot start a game: {answer and answer.status_code}")
        table.game = answer.headers["Location"].rstrip("/").rsplit("/", 1)[-1]
        self.open_game(table)

    def open_game(self, table: Table) -> None:
        """Read the game page, and from it the form's token and the next round's number."""
        page = self.request(table, "GET", f"/parties/{table.game}")
        if page is None or page.status_code != 200:
            return
        table.token = _csrf(page.text)
        found = ROUND_NUMBER.search(page.text)
        table.next_number = int(found.group(1)) if found else 0  # 0: the game is over

    def read(self, table: Table, rng: random.Random) -> None:
        page = rng.choices([name for name, _ in READS], [share for _, share in READS])[0]
        if page == "game":
            self.open_game(table)
        else:
            self.request(table, "GET", "/" if page == "home" else "/historique")

    def write(self, table: Table, rng: random.Random) -> None:
        if table.next_number == 0:  # game over: the table starts another one
            self.seat(table, rng.randrange(10**6))
            return
        heads = [rng.randint(0, 3) for _ in range(PLAYERS)]
        heads[rng.randrange(PLAYERS)] += 1  # someone always takes a card
        number = str(table.next_number)  # played forward only: round N is drawn from version N
        form = {"csrf_token": table.token, "number": number, "version": number}
        form.update({f"score-{seat}": str(value) for seat, value in enumerate(heads)})
        answer = self.request(table, "POST", f"/parties/{table.game}/manches", form)
        if answer is not None and answer.status_code == 303:
            table.next_number += 1
        else:
            self.open_game(table)  # find out where the game stands, as the page would show

    def run(self) -> float:
        """Seat every table (not measured), then run the mix; return its duration in seconds."""
        tables = [Table(requests.Session()) for _ in range(self.args.tables)]
        for number, table in enumerate(tables):
            self.seat(table, number)
        self.measuring = True
        self.deadline = time.monotonic() + self.args.duration
        threads = [
            threading.Thread(target=self.worker, args=(tables, random.Random(seed)), daemon=True)
            for seed in [self.args.seed + n for n in range(self.args.threads)]
        ]
        start = time.perf_counter()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(self.args.duration + self.args.timeout + 5)
        return time.perf_counter() - start

    def worker(self, tables: list[Table], rng: random.Random) -> None:
        while self.take_one():
            table = rng.choice(tables)
            with table.lock:  # a table sends one thing at a time, like one phone
                if rng.random() < self.args.write_share:
                    self.write(table, rng)
                else:
                    self.read(table, rng)


def _csrf(html: str) -> str:
    found = CSRF.search(html)
    if not found:
        raise SystemExit("no CSRF token in the page")
    return found.group(1)


def percentile(sorted_values: list[float], share: float) -> float:
    """The nearest-rank percentile (share in 0..1) of values sorted ascending."""
    if not sorted_values:
        return float("nan")
    rank = max(1, math.ceil(share * len(sorted_values)))
    return sorted_values[rank - 1]


def summary(samples: list[Sample], seconds: float) -> dict:
    def figures(kind_samples: list[Sample]) -> dict:
        times = sorted(s.seconds * 1000 for s in kind_samples)
        return {
            "requests": len(kind_samples),
            "errors": sum(1 for s in kind_samples if not s.ok),
            "p50_ms": round(percentile(times, 0.50), 1),
            "p90_ms": round(percentile(times, 0.90), 1),
            "p99_ms": round(percentile(times, 0.99), 1),
            "max_ms": round(times[-1], 1) if times else float("nan"),
        }

    result = {kind: figures([s for s in samples if s.kind == kind]) for kind in ("page", "round")}
    result["all"] = figures(samples)
    result["all"]["requests_per_second"] = round(len(samples) / seconds, 1) if seconds else 0.0
    result["all"]["seconds"] = round(seconds, 2)
    result["outcomes"] = dict(sorted(Counter(f"{s.kind} {s.outcome}" for s in samples).items()))
    return result


def print_summary(result: dict) -> None:
    header = ["requests", "errors", "p50 ms", "p90 ms", "p99 ms", "max ms"]
    print(f"{'':6} {header[0]:>9} {header[1]:>7} " + " ".join(f"{h:>8}" for h in header[2:]))
    for kind in ("page", "round", "all"):
        f = result[kind]
        print(
            f"{kind:6} {f['requests']:>9} {f['errors']:>7} {f['p50_ms']:>8} {f['p90_ms']:>8} "
            f"{f['p99_ms']:>8} {f['max_ms']:>8}"
        )
    print(f"{result['all']['requests_per_second']} requests/s over {result['all']['seconds']} s")
    print(f"answers: {result['outcomes']}")


def loopback_only(url: str) -> str:
    """Return the URL if it names this machine by a loopback address (no name lookup is made)."""
    host = urlsplit(url).hostname or ""
    try:
        loopback = host == "localhost" or ipaddress.ip_address(host).is_loopback
    except ValueError:
        loopback = False
    if not loopback:
        raise SystemExit(f"{host or url!r} is not a loopback address: this load stays on 127.0.0.1")
    return url


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", default="http://127.0.0.1:8000", help="the server (loopback only)")
    parser.add_argument("--tables", type=int, default=40, help="games at once, one device each")
    parser.add_argument("--threads", type=int, default=8, help="requests in flight at once")
    parser.add_argument("--requests", type=int, default=4000, help="stop after this many requests")
    parser.add_argument("--duration", type=float, default=60.0, help="stop after this many seconds")
    parser.add_argument("--write-share", type=float, default=0.3, help="share of round submissions")
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds to wait for an answer")
    parser.add_argument("--seed", type=int, default=1, help="the mix's random seed")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument(
        "--serve", action="store_true", help="start a server of its own (not --url)"
    )
    parser.add_argument("--workers", type=int, default=2, help="its workers (with --serve)")
    args = parser.parse_args(argv)
    if args.threads < 1 or args.tables < 1 or args.requests < 1 or not 0 <= args.write_share <= 1:
        parser.error("--threads, --tables and --requests must be positive, --write-share in 0..1")

    if args.serve:
        with tempfile.TemporaryDirectory(prefix="sqp-load-") as folder:
            database = f"sqlite:///{Path(folder) / 'load.sqlite'}"
            with running(database, Path(folder), workers=args.workers) as server:
                load = Load(server.url, args)
                seconds = load.run()
    else:
        load = Load(loopback_only(args.url), args)
        seconds = load.run()
    result = summary(load.samples, seconds)
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print_summary(result)
    return 1 if result["all"]["errors"] else 0


if __name__ == "__main__":
    sys.exit(main())
