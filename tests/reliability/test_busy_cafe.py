"""A busy café on the default server (`make run`: two gevent workers, gunicorn.conf.py): half-sent
requests hold no worker, and one machine holds 30 tables of ten followers live.

Rounds are sent with a request deadline, not timed: with threaded workers, 200 half-sent heads
took every thread and the next round waited until they closed (far past the deadline).
"""

from __future__ import annotations

import re
import secrets
import socket
import sqlite3
import time

import pytest

from scripts.lib.cafe import Followers, get, half_sent, still_open
from scripts.lib.phones import PLAYERS, Phone, round_form, stored_games, stream_path
from scripts.lib.servers import running

from .conftest import running_server

pytestmark = pytest.mark.slow

HALF_SENT = 200
TABLES = 30
FOLLOWERS_PER_TABLE = 10
ARRIVAL_SECONDS = 5.0  # « within 5 s » of the scoring phone's answer (ui-contract, Following)


@pytest.fixture(scope="module")
def server(served_database, tmp_path_factory):
    """The default server (2 workers) on each backend, for the two tests of a busy evening."""
    folder = tmp_path_factory.mktemp("server")
    with running_server(served_database, folder, workers=2) as server:
        yield server


def test_rounds_are_answered_while_200_requests_stay_half_sent(served_database, server):
    phone = Phone(server.url, timeout=10)
    game = phone.start_game(["Ana", "Bob", "Chloé"])
    token, number = phone.open_game(game)
    with half_sent(server.port, HALF_SENT) as stalled:
        answers = [
            phone.post(
                f"/parties/{game}/manches",
                round_form(token, number + n, (n, 1, 2)),
                htmx=True,
            )
            for n in range(5)
        ]
        newcomer = Phone(server.url, timeout=10)  # a phone that arrives meanwhile
        home = newcomer.get("/")
        held = still_open(stalled)

    assert [answer.status_code for answer in answers] == [200] * 5
    assert home.status_code == 200
    assert held == HALF_SENT  # held open, not dropped, while everyone else is answered
    assert sorted(stored_games(served_database)[game].rounds) == [1, 2, 3, 4, 5]


def test_thirty_tables_of_ten_followers_see_each_round_live(served_database, server):
    phones = [Phone(server.url, timeout=10) for _ in range(TABLES)]
    games = [phone.start_game(PLAYERS) for phone in phones]
    paths = [stream_path(phone, game) for phone, game in zip(phones, games, strict=True)]
    followers = Followers(server.port)
    try:
        tables = [[followers.open(path) for _ in range(FOLLOWERS_PER_TABLE)] for path in paths]
        everyone = [stream for table in tables for stream in table]
        assert followers.read_until(lambda: all(s.opened for s in everyone), within=30), [
            s.data[:200] for s in everyone if not s.opened
        ][:3]
        for phone, game in zip(phones, games, strict=True):
            token, number = phone.open_game(game)
            answer = phone.post(
                f"/parties/{game}/manches", round_form(token, number, range(1, 11)), htmx=True
            )
            assert answer.status_code == 200
        arrived = followers.read_until(
            lambda: all(s.events("partie") >= 1 for s in everyone), within=ARRIVAL_SECONDS
        )
        late = sum(1 for s in everyone if not s.events("partie"))
    finally:
        followers.close_all()

    assert arrived, f"{late} of {len(everyone)} followers saw no round within {ARRIVAL_SECONDS} s"
    stored = stored_games(served_database)
    assert [stored[game].heads(1) for game in games] == [tuple(range(1, 11))] * TABLES


def test_live_slots_are_shared_by_address_never_overshot_and_free_once_a_phone_leaves(tmp_path):
    # One worker holding 6 streams, 3 per client address; heartbeats a minute apart, so that a
    # slot given back within seconds was given back by the phone leaving, not by a heartbeat.
    with running(
        f"sqlite:///{tmp_path / 'cafe.sqlite'}",
        tmp_path,
        workers=1,
        FLASK_FOLLOW_MAX_STREAMS="6",
        FLASK_FOLLOW_STREAMS_PER_ADDRESS="3",
        FLASK_FOLLOW_HEARTBEAT_SECONDS="60",
    ) as server:
        phone = Phone(server.url, timeout=10)
        path = stream_path(phone, phone.start_game(["Ana", "Bob"]))
        followers = Followers(server.port)
        try:
            # A burst from five addresses at once: exactly the cap gets a stream.
            burst = [
                followers.open(path, source=f"127.0.0.{n}") for n in range(1, 6) for _ in "abcd"
            ]
            assert followers.read_until(lambda: all(s.status for s in burst), within=15)
            assert sum(s.status == 200 for s in burst) == 6
            assert {s.status for s in burst} == {200, 503}
            for stream in burst:
                followers.close(stream)

            def one(source: str):
                stream = followers.open(path, source=source)
                assert followers.read_until(
                    lambda: stream.opened or stream.status == 503, within=10
                )
                return stream

            def freed(source: str):  # a new phone of that address gets a stream within 3 s
                deadline = time.monotonic() + 3
                while time.monotonic() < deadline:
                    stream = one(source)
                    if stream.opened:
                        return stream
                    followers.close(stream)
                    time.sleep(0.1)
                return None

            first = freed("127.0.0.1")  # the burst's slots came back when its phones left
            assert first is not None
            ours = [first, one("127.0.0.1"), one("127.0.0.1")]
            assert all(s.opened for s in ours)
            ours_full = one("127.0.0.1")  # a fourth from one address: its share is taken
            theirs = [one("127.0.0.2") for _ in range(3)]  # another network still gets its own
            server_full = one("127.0.0.3")
            leaving = ours[0]
            followers.close(leaving)
            came_back = freed("127.0.0.3")
        finally:
            followers.close_all()

    assert (
        ours_full.status == 503
        and b"de votre r\xc3\xa9seau suivent d\xc3\xa9j\xc3\xa0 ce serveur" in ours_full.data
    )
    assert all(s.opened for s in theirs)
    assert (
        server_full.status == 503 and b"suivent d\xc3\xa9j\xc3\xa0 ce serveur" in server_full.data
    )
    assert b"Retry-After: 30\r\n" in server_full.data
    assert (
        came_back is not None
    )  # within 3 s of the phone leaving, though its heartbeat was 30-90 s away


def test_guessing_follow_addresses_is_bounded_per_client_and_costs_no_storage(tmp_path):
    with running(
        f"sqlite:///{tmp_path / 'cafe.sqlite'}",
        tmp_path,
        workers=2,
        FLASK_RATELIMIT_ENABLED="true",
        FLASK_RATELIMIT_GUESSES="20 per minute",
    ) as server:
        phone = Phone(server.url, timeout=10)
        game = phone.start_game(["Ana", "Bob"])
        stream_path(phone, game)
        follow_path = re.search(
            r"/suivre/[A-Za-z0-9_-]+", phone.get(f"/parties/{game}/partage").text
        ).group(0)
        storage = sqlite3.connect(tmp_path / "instance" / "rate-limits.sqlite")
        counters_before = storage.execute("SELECT count(*) FROM counter").fetchone()[0]
        guesses = [
            get(server.port, route.format(secrets.token_urlsafe(16)))[0]
            for _ in range(50)
            for route in (
                "/suivre/{}",
                "/suivre/{}/direct",
                "/suivre/{}/resultat.png",
                "/rejoindre/{}",
            )
        ]
        counters_after = storage.execute("SELECT count(*) FROM counter").fetchone()[0]
        storage.close()
        shared_still_opens = get(server.port, follow_path)[0]
        other_client = get(server.port, f"/suivre/{secrets.token_urlsafe(16)}", source="127.0.0.2")
        refused = get(server.port, f"/suivre/{secrets.token_urlsafe(16)}")

    # Pages, streams, images and scorer invitations count toward one allowance: 20 guesses
    # answered, every later one refused.
    assert guesses == [404] * 20 + [429] * 180
    assert counters_after - counters_before <= 2  # one counter for the guessing client
    assert shared_still_opens == 200  # its own game's follow address is not a guess
    assert other_client[0] == 404  # another client has its own allowance
    assert refused[0] == 429 and int(refused[1]["Retry-After"]) > 0


def test_a_body_that_does_not_arrive_in_time_is_answered_408_and_closed(tmp_path):
    with running(
        f"sqlite:///{tmp_path / 'cafe.sqlite'}", tmp_path, workers=1, GUNICORN_BODY_TIMEOUT="1"
    ) as server:
        slow = socket.create_connection(("127.0.0.1", server.port), timeout=20)
        slow.sendall(
            b"POST /parties HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 60000\r\n\r\n"
            b"players-0=Ana"  # and then nothing more
        )
        answer = b""
        while chunk := slow.recv(65536):  # until the server closes the connection
            answer += chunk
        slow.close()
        healthy = get(server.port, "/healthz")[0]

    assert answer.startswith(b"HTTP/1.1 408 ")
    assert healthy == 200
