"""What one machine holds by default: the real server as `make run` starts it (2 gevent workers),
a table recording rounds, first alone, then with 300 followers live (30 tables of ten) and 200
half-sent requests open. Prints the round's latency in both phases (docs/performance.md).

With --attacks, rate limits on as in production: the round's latency quiet, then while each
attack of issue 30 runs from the same address (docs/reliability.md, « Limits »): followers asking
a ten-player shared win's image in regional variants, guessed addresses on every route,
statistics and exports of 3,000 games in a loop, and request bodies sent a byte at a time.

    .venv/bin/python scripts/cafe.py [--postgresql] [--rounds 60] [--attacks]

--postgresql makes a new database on the server of $TEST_POSTGRES_URL (scripts/start-postgres.sh)
and drops it afterwards; the default is a new SQLite file.
"""

from __future__ import annotations

import argparse
import json
import re
import secrets
import socket
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scripts.lib.cafe import Followers, get, half_sent, still_open
from scripts.lib.phones import PLAYERS, Phone, csrf_token, empty_database, round_form, stream_path
from scripts.lib.servers import running
from scripts.seed import Shape, sheet_of


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


REGIONS = [
    f"{language}-{region}"
    for language in ("fr", "en", "de")
    for region in ["CA", "BE", "CH", "LU", "GB", "AU", "US", "AT", "IT", "NZ", "IE", "MT"]
]
_FOLLOW = re.compile(r'<a href="https?://[^"/]+(/suivre/[A-Za-z0-9_-]+)"')


def shared_win_image(phone: Phone) -> str:
    """A finished game of ten, nine of them tied: its follow address's image."""
    game = phone.start_game(PLAYERS)
    token, number = phone.open_game(game)
    phone.post(f"/parties/{game}/manches", round_form(token, number, [5] * 9 + [67]))
    page = phone.get(f"/parties/{game}")
    phone.post(f"/parties/{game}/partage", {"csrf_token": csrf_token(page.text)})
    return _FOLLOW.search(phone.get(f"/parties/{game}/partage").text).group(1) + "/resultat.png"


def with_history(url: str, games: int) -> Phone:
    """A phone that imported `games` finished games of five players and ten rounds."""
    sheet = sheet_of(Shape(players=5, rounds=10))
    record = {
        "created_at": "2026-11-29T19:05:00Z",
        "players": list(sheet.players),
        "rules": {"end": "above", "limit": 66, "round_count": None, "pro": False},
        "rounds": [list(heads) for heads in sheet.rounds],
    }
    export = {
        "format": "six-qui-prend",
        "version": 1,
        "games": [{**record, "id": f"partie-{n}"} for n in range(games)],
    }
    phone = Phone(url)
    token = csrf_token(phone.get("/historique").text)
    answer = phone.http.post(
        url + "/historique/import",
        data={"csrf_token": token},
        files={"fichier": ("parties.json", json.dumps(export))},
        allow_redirects=False,
    )
    assert answer.status_code == 303, answer.status_code
    return phone


def slow_bodies(port: int, count: int, stop: threading.Event) -> None:
    """Connections announcing 60 kB of body and sending one byte every 2 s, again as closed."""
    head = (
        b"POST /parties HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 60000\r\n"
        b"Content-Type: application/x-www-form-urlencoded\r\n\r\n"
    )
    sockets = [socket.create_connection(("127.0.0.1", port)) for _ in range(count)]
    for sock in sockets:
        sock.sendall(head)
    while not stop.wait(2):
        for index, sock in enumerate(sockets):
            try:
                sock.sendall(b"a")
            except OSError:  # answered 408 and closed: open another
                sock.close()
                sockets[index] = socket.create_connection(("127.0.0.1", port))
                sockets[index].sendall(head)
    for sock in sockets:
        sock.close()


def under_attack(
    attack: Callable[[threading.Event], int], threads: int, measure: Callable[[], list[float]]
) -> tuple[list[float], Counter[int]]:
    """Run `threads` copies of the attack while `measure` runs; return its times and how many
    requests the attack made."""
    stop = threading.Event()
    made: Counter[int] = Counter()  # the attack's answers by status

    def loop() -> None:
        while not stop.is_set():
            made[attack(stop)] += 1

    workers = [threading.Thread(target=loop, daemon=True) for _ in range(threads)]
    for worker in workers:
        worker.start()
    try:
        return measure(), made
    finally:
        stop.set()
        for worker in workers:
            worker.join(30)


def attacks(server, rounds_each: int) -> None:
    phone = Phone(server.url)
    measure = lambda: rounds(phone, phone.start_game(PLAYERS), rounds_each)  # noqa: E731
    print("quiet:", summary(measure()))
    image = shared_win_image(Phone(server.url))
    regions = iter(REGIONS * 10_000)
    follower = Phone(server.url)

    def images(_stop: threading.Event) -> int:
        return follower.http.get(
            server.url + image, headers={"Accept-Language": next(regions)}
        ).status_code

    def guesses(_stop: threading.Event) -> int:
        route = secrets.choice(
            ["/suivre/{}", "/suivre/{}/resultat.png", "/rejoindre/{}", "/parties/{}"]
        )
        return get(server.port, route.format(secrets.token_urlsafe(16)))[0]

    heavy = with_history(server.url, 3000)

    def heavy_reads(_stop: threading.Event) -> int:
        return heavy.get(secrets.choice(["/statistiques", "/historique/export.json"])).status_code

    for name, attack, threads in [
        ("3 followers redrawing the image in regional variants", images, 3),
        ("3 clients guessing addresses on every route", guesses, 3),
        ("2 loops of statistics and exports of 3,000 games", heavy_reads, 2),
    ]:
        times, made = under_attack(attack, threads, measure)
        answers = ", ".join(f"{count} × {status}" for status, count in sorted(made.items()))
        print(f"{name} ({answers}):", summary(times))
    stop = threading.Event()
    slow = threading.Thread(target=slow_bodies, args=(server.port, 500, stop), daemon=True)
    slow.start()
    time.sleep(3)
    times = measure()
    stop.set()
    slow.join(30)
    print("500 bodies sent a byte every 2 s:", summary(times))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--postgresql", action="store_true", help="PostgreSQL, not SQLite")
    parser.add_argument("--rounds", type=int, default=60)
    parser.add_argument("--attacks", action="store_true", help="the attacks of issue 30")
    args = parser.parse_args()
    backend = "postgresql" if args.postgresql else "sqlite"
    if args.attacks:
        with (
            tempfile.TemporaryDirectory() as folder,
            empty_database(backend, Path(folder)) as database,
            running(
                database.url,
                Path(folder),
                workers=2,
                access_log=False,
                FLASK_RATELIMIT_ENABLED="true",
                # The measuring phone's own rounds are not the attack: two a second for minutes.
                FLASK_RATELIMIT_WRITES="10000 per minute",
                FLASK_RATELIMIT_WRITES_PER_ADDRESS="10000 per minute",
            ) as server,
        ):
            attacks(server, args.rounds)
        return
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
