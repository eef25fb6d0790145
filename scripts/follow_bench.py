"""Followers at once on this machine: how fast a round reaches them, and what they cost the table.

    .venv/bin/python scripts/follow_bench.py [--games 500 --followers 2000 --every 30
                                             --seconds 60 --mode sse|poll --database-url URL]

Starts the real server (gunicorn, gevent workers, as `make run`) on 127.0.0.1 only, on a fresh
SQLite file (or a new database on --database-url's PostgreSQL server, dropped afterwards), seats
--games games through the forms and shares each. Then two phases of --seconds each, every game
getting a round every --every seconds from its own phone (a random phase apart):
  1. no followers: the round submissions' latency, alone;
  2. --followers followers spread over the games, each holding the live stream (--mode sse) or
     polling the live part with If-None-Match every --poll seconds (--mode poll).
Prints the submissions' p50/p95/p99 in both phases, the time from each round's answer (its
commit is just before) to its arrival on each follower (p50/p95/max, and any that never came),
the server's CPU time, and polls per second. Everything is bounded: the run stops after its
phases, and every follower, server and database it made is closed, stopped or dropped.
Rate limits and CSRF are off on this server: one address sending thousands of requests a minute
is what they exist to stop.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import resource
import shutil
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

import requests

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scripts.lib.servers import running  # the real server, as `make run` starts it

HOST = "127.0.0.1"
PLAYERS = ["Ana", "Bob", "Chloé", "Dan", "Eve"]
ADDRESS = re.compile(r'<a href="https?://[^"/]+(/suivre/[A-Za-z0-9_-]+)"')
STREAM = re.compile(r'data-follow-stream="([^"]+)"')
VERSION = re.compile(r'W/"v(\d+)-part')
GRACE = 5.0  # seconds after the last round for its arrivals to come in


@dataclass
class Game:
    public_id: str
    cookie: str  # the scoring phone's cookies, as one header
    follow_path: str
    stream_path: str
    version: int = 1
    next_round: int = 1


@dataclass
class Run:
    answered: dict[tuple[str, int], float] = field(default_factory=dict)  # (game, version) → t
    arrived: dict[tuple[int, int], float] = field(default_factory=dict)  # (follower, version) → t
    submissions: list[float] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    polls: int = 0
    not_modified: int = 0
    streams_open: int = 0
    refused: int = 0
    stop_at: float = float("inf")  # followers stop then: GRACE after the last round
    follower_game: dict[int, Game] = field(default_factory=dict)
    elapsed: float = 0.0
    lag: list[float] = field(default_factory=list)


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


async def http(
    port: int, method: str, path: str, headers: dict[str, str], body: str = ""
) -> tuple[int, dict[str, str], bytes]:
    """One request on its own connection; return (status, headers, body)."""
    reader, writer = await asyncio.open_connection(HOST, port)
    try:
        lines = [f"{method} {path} HTTP/1.1", f"Host: {HOST}:{port}", "Connection: close"]
        lines += [f"{name}: {value}" for name, value in headers.items()]
        if body:
            lines += ["Content-Type: application/x-www-form-urlencoded"]
            lines += [f"Content-Length: {len(body.encode())}"]
        writer.write(("\r\n".join(lines) + "\r\n\r\n" + body).encode())
        await writer.drain()
        answer = await reader.read()
    finally:
        writer.close()
    head, _, rest = answer.partition(b"\r\n\r\n")
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    found = {}
    for line in header_lines:
        name, _, value = line.partition(":")
        found[name.strip().lower()] = value.strip()
    return int(status_line.split()[1]), found, rest


async def loop_lag(lags: list[float]) -> None:
    """Note how late this client wakes up: its own delays, not the server's, are in the figures."""
    while True:
        asked = time.monotonic()
        await asyncio.sleep(0.1)
        lags.append(time.monotonic() - asked - 0.1)


async def scorer(port: int, game: Game, run: Run, every: float, until: float) -> None:
    await asyncio.sleep(random.uniform(0, every))
    while time.monotonic() < until:
        started = time.monotonic()
        form = f"number={game.next_round}&version={game.version}&" + "&".join(
            f"score-{s}=1" for s in range(len(PLAYERS))
        )
        try:
            status, _, _ = await http(
                port, "POST", f"/parties/{game.public_id}/manches", {"Cookie": game.cookie}, form
            )
        except OSError as error:
            run.failed.append(f"round: {error}")
            status = 0
        answered = time.monotonic()
        if status == 303:
            game.next_round += 1
            game.version += 1
            run.answered[(game.public_id, game.version)] = answered
            run.submissions.append(answered - started)
        elif status:
            run.failed.append(f"round: {status}")
        await asyncio.sleep(max(0.0, min(started + every, until) - time.monotonic()))


async def stream_follower(port: int, number: int, game: Game, run: Run) -> None:
    """Hold the game's live stream; note when each version arrives."""
    try:
        reader, writer = await asyncio.open_connection(HOST, port)
    except OSError as error:
        run.failed.append(f"stream: {error}")
        return
    try:
        # HTTP/1.0: the stream comes unchunked, one event line after the other.
        writer.write(f"GET {game.stream_path} HTTP/1.0\r\nHost: {HOST}\r\n\r\n".encode())
        await writer.drain()
        status = (await reader.readline()).split()
        if len(status) < 2 or status[1] != b"200":
            run.refused += 1
            return
        run.streams_open += 1
        while True:  # until the phase cancels it
            line = await reader.readline()
            if not line:
                run.failed.append("stream: closed by the server")
                break
            if line.startswith(b"id: "):  # « game.version » (app/web/follow.py)
                run.arrived[(number, int(line[4:].rsplit(b".", 1)[-1]))] = time.monotonic()
        run.streams_open -= 1
    finally:
        writer.close()


async def poll_follower(port: int, number: int, game: Game, run: Run, every: float) -> None:
    """Ask for the live part every `every` seconds with the tag it has; note each new version."""
    tag = f'W/"v{game.version}-part"'
    await asyncio.sleep(random.uniform(0, every))
    while time.monotonic() < run.stop_at:
        started = time.monotonic()
        try:
            status, headers, _ = await http(
                port, "GET", game.follow_path, {"HX-Request": "true", "If-None-Match": tag}
            )
            run.polls += 1
            if status == 304:
                run.not_modified += 1
            elif status == 200:
                tag = headers["etag"]
                run.arrived[(number, int(VERSION.match(tag).group(1)))] = time.monotonic()
            else:
                run.failed.append(f"poll: {status}")
        except OSError as error:
            run.failed.append(f"poll: {error}")
        await asyncio.sleep(max(0.0, started + every - time.monotonic()))


def seat_games(url: str, count: int) -> list[Game]:
    """Start and share `count` games, each from its own phone, through the real forms."""
    from concurrent.futures import ThreadPoolExecutor

    def one(_: int) -> Game:
        phone = requests.Session()
        form = {f"players-{s}": name for s, name in enumerate(PLAYERS)}
        form.update(end="other_limit", limit="500")  # far away: games last the whole run
        answer = phone.post(url + "/parties", data=form, allow_redirects=False, timeout=30)
        public_id = answer.headers["Location"].rsplit("/", 1)[-1]
        phone.post(f"{url}/parties/{public_id}/partage", allow_redirects=False, timeout=30)
        share_page = phone.get(f"{url}/parties/{public_id}/partage", timeout=30).text
        follow_path = ADDRESS.search(share_page).group(1)
        page = requests.get(url + follow_path, timeout=30).text
        stream_path = STREAM.search(page).group(1).replace("&amp;", "&")
        cookie = "; ".join(f"{k}={v}" for k, v in phone.cookies.items())
        return Game(public_id, cookie, follow_path, stream_path)

    with ThreadPoolExecutor(max_workers=8) as pool:
        return list(pool.map(one, range(count)))


async def phase(port: int, games: list[Game], args: argparse.Namespace, followers: int) -> Run:
    run = Run()
    tasks = []
    lags: list[float] = []
    lag = asyncio.create_task(loop_lag(lags))
    if followers:
        # Open the followers a few hundred at a time, as phones arrive at tables.
        for number in range(followers):
            game = games[number % len(games)]
            run.follower_game[number] = game
            if args.mode == "sse":
                follower = stream_follower(port, number, game, run)
            else:
                follower = poll_follower(port, number, game, run, args.poll)
            tasks.append(asyncio.create_task(follower))
            if number % 200 == 199:
                await asyncio.sleep(0.2)
        deadline = time.monotonic() + 60
        while args.mode == "sse" and run.streams_open + run.refused < followers:
            if time.monotonic() > deadline:
                break
            await asyncio.sleep(0.1)
        print(f"  {run.streams_open} streams open, {run.refused} refused", flush=True)
    start = time.monotonic()
    until = start + args.seconds
    scorers = [asyncio.create_task(scorer(port, g, run, args.every, until)) for g in games]
    await asyncio.gather(*scorers)
    run.elapsed = time.monotonic() - start
    run.stop_at = time.monotonic() + GRACE
    await asyncio.sleep(GRACE)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    lag.cancel()
    run.lag = lags
    return run


def arrivals(run: Run) -> tuple[list[float], int]:
    delays, lost = [], 0
    for number, game in run.follower_game.items():
        for (public_id, version), answered in run.answered.items():
            if public_id != game.public_id:
                continue
            arrived = run.arrived.get((number, version))
            if arrived is None:
                lost += 1
            else:
                delays.append(arrived - answered)
    return delays, lost


def postgres_database(url: str) -> tuple[str, callable]:
    import sqlalchemy as sa

    name = f"sqp_follow_bench_{uuid.uuid4().hex[:8]}"
    admin = sa.create_engine(url, isolation_level="AUTOCOMMIT", poolclass=sa.pool.NullPool)
    with admin.connect() as conn:
        conn.execute(sa.text(f'CREATE DATABASE "{name}"'))

    def drop() -> None:
        with admin.connect() as conn:
            conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))

    return sa.make_url(url).set(database=name).render_as_string(hide_password=False), drop


def report(label: str, run: Run, cpu: float, followers: int) -> None:
    subs = run.submissions
    print(f"\n{label}")
    print(
        f"  rounds: {len(subs)} in {run.elapsed:.0f} s; submission p50 {percentile(subs, 50) * 1000:.0f} ms, "
        f"p95 {percentile(subs, 95) * 1000:.0f} ms, p99 {percentile(subs, 99) * 1000:.0f} ms"
    )
    print(f"  server CPU: {cpu:.1f} s ({cpu / run.elapsed * 100:.0f} % of one core)")
    print(
        f"  this client's own lateness: p50 {percentile(run.lag, 50) * 1000:.0f} ms, "
        f"p99 {percentile(run.lag, 99) * 1000:.0f} ms"
    )
    if followers:
        delays, lost = arrivals(run)
        print(
            f"  arrivals: {len(delays)}; p50 {percentile(delays, 50) * 1000:.0f} ms, "
            f"p95 {percentile(delays, 95) * 1000:.0f} ms, max {max(delays, default=0) * 1000:.0f} ms; "
            f"never arrived: {lost}"
        )
        if run.polls:
            print(
                f"  polls: {run.polls / run.elapsed:.0f}/s, {run.not_modified / max(run.polls, 1):.0%} answered 304"
            )
    if run.failed:
        print(f"  failures: {len(run.failed)}, e.g. {sorted(set(run.failed))[:5]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--followers", type=int, default=2000)
    parser.add_argument("--every", type=float, default=30.0, help="seconds between a game's rounds")
    parser.add_argument("--seconds", type=float, default=60.0, help="length of each phase")
    parser.add_argument("--mode", choices=["sse", "poll"], default="sse")
    parser.add_argument("--poll", type=float, default=2.0, help="poll period (--mode poll)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--database-url",
        default=os.environ.get("FOLLOW_BENCH_DATABASE_URL"),
        help="a PostgreSQL server (a database is made and dropped); default SQLite",
    )
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(
        resource.RLIMIT_NOFILE, (min(hard, max(soft, 4 * args.followers + 1024)), hard)
    )

    workdir = Path(tempfile.mkdtemp(prefix="sqp-follow-bench-"))
    drop = None
    if args.database_url:
        database_url, drop = postgres_database(args.database_url)
        backend = "PostgreSQL"
    else:
        database_url, backend = f"sqlite:///{workdir / 'bench.sqlite'}", "SQLite"
    # Each worker able to hold every stream: the kernel does not share connections out evenly,
    # and every follower here comes from one address (127.0.0.1).
    streams = max(1000, args.followers + 100)
    settings = {
        "SECRET_KEY": "follow-bench-" + uuid.uuid4().hex,
        "FLASK_WTF_CSRF_ENABLED": "false",
        "FLASK_FOLLOW_MAX_STREAMS": str(streams),
        "FLASK_FOLLOW_STREAMS_PER_ADDRESS": str(streams),
    }
    try:
        with running(
            database_url,
            workdir,
            workers=args.workers,
            access_log=False,
            options=["--backlog", "4096", "--worker-connections", str(streams + 1000)],
            **settings,
        ) as server:
            print(
                f"follow bench: {args.games} games, a round every {args.every:.0f} s each, "
                f"{args.followers} followers ({args.mode}{f' every {args.poll:g} s' if args.mode == 'poll' else ''}), "
                f"{args.workers} gevent workers, {backend}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}",
                flush=True,
            )
            games = seat_games(server.url, args.games)
            print(f"  {len(games)} games seated and shared", flush=True)
            for followers, label in (
                (0, "without followers"),
                (args.followers, f"with {args.followers} followers"),
            ):
                cpu = server.cpu_seconds()
                run = asyncio.run(phase(server.port, games, args, followers))
                report(label, run, server.cpu_seconds() - cpu, followers)
            errors = [line for line in server.output().splitlines() if "rror" in line]
        print(f"\nserver log: {len(errors)} error lines{':' if errors else ''}")
        for line in sorted(set(errors))[:10]:
            print("  " + line[:300])
    finally:
        if drop is not None:
            drop()
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
