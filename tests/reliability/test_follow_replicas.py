"""Two app servers on one PostgreSQL: a round recorded through one reaches a follower of the other.

As two replicas behind a proxy would run (compose.yaml): nothing is shared between the servers
but the database, so the change travels by PostgreSQL's NOTIFY (the live stream) or by the
version stored with the game (the conditional poll).
"""

from __future__ import annotations

import queue
import re
import threading
from collections.abc import Iterator

import pytest
import requests

from scripts.lib.phones import Phone, csrf_token, round_form
from scripts.lib.servers import migrate, server_env

from .conftest import empty_database, running_server

pytestmark = pytest.mark.slow

ARRIVAL_SECONDS = 5.0  # « within 5 s » of the scoring phone's answer (ui-contract, Following)
NAMES = ["Ana", "Bob", "Chloé"]
_FOLLOW_ADDRESS = re.compile(r'<a href="https?://[^"/]+(/suivre/[A-Za-z0-9_-]+)"')
_STREAM = re.compile(r'data-follow-stream="([^"]+)"')


@pytest.fixture(scope="module")
def two_servers(tmp_path_factory) -> Iterator[tuple[str, str]]:
    directory = tmp_path_factory.mktemp("replicas")
    with empty_database("postgresql", directory) as database:
        migrate(server_env(database.url, directory / "instance"), directory / "migrate.log")
        (directory / "a").mkdir()
        (directory / "b").mkdir()
        with (
            running_server(database, directory / "a", workers=2) as a,
            running_server(database, directory / "b", workers=2) as b,
        ):
            yield a.url, b.url


def share(phone: Phone, game: str) -> str:
    """Share the game from its phone; return the path of its follow address."""
    page = phone.get(f"/parties/{game}")
    answer = phone.post(f"/parties/{game}/partage", {"csrf_token": csrf_token(page.text)})
    assert answer.status_code == 303, answer.status_code
    found = _FOLLOW_ADDRESS.search(phone.get(f"/parties/{game}/partage").text)
    assert found, "no follow address on the share page"
    return found.group(1)


class Follower:
    """A phone following a game's live stream on one server, its events read by a thread."""

    def __init__(self, base_url: str, follow_path: str):
        page = requests.get(base_url + follow_path, timeout=10)
        assert page.status_code == 200
        stream = _STREAM.search(page.text).group(1).replace("&amp;", "&")
        self.answer = requests.get(base_url + stream, stream=True, timeout=(5, 60))
        assert self.answer.status_code == 200
        assert self.answer.headers["Content-Type"].startswith("text/event-stream")
        self.events: queue.Queue[tuple[str, str]] = queue.Queue()
        self.opened = threading.Event()
        threading.Thread(target=self._read, daemon=True).start()
        assert self.opened.wait(10), "the stream did not open"

    def _read(self) -> None:
        event, data = "", []
        try:
            for line in self.answer.iter_lines(decode_unicode=True):
                if line.startswith("retry:"):
                    self.opened.set()
                elif line.startswith("event: "):
                    event = line.removeprefix("event: ")
                elif line.startswith("data: "):
                    data.append(line.removeprefix("data: "))
                elif line == "" and event:
                    self.events.put((event, "\n".join(data)))
                    event, data = "", []
        except (requests.RequestException, AttributeError):
            pass  # the test closed the stream (urllib3 then reads from a closed socket)

    def next_event(self) -> tuple[str, str]:
        """The next event within ARRIVAL_SECONDS, or fail."""
        try:
            return self.events.get(timeout=ARRIVAL_SECONDS)
        except queue.Empty:
            raise AssertionError(f"nothing arrived within {ARRIVAL_SECONDS} s") from None

    def close(self) -> None:
        self.answer.close()


def test_a_round_recorded_on_one_server_reaches_a_follower_of_the_other(two_servers):
    server_a, server_b = two_servers
    phone = Phone(server_a)
    game = phone.start_game(NAMES)
    follow_path = share(phone, game)
    follower = Follower(server_b, follow_path)
    try:
        token, number = phone.open_game(game)
        answer = phone.post(f"/parties/{game}/manches", round_form(token, number, [5, 6, 7]))
        assert answer.status_code == 303
        event, part = follower.next_event()
        assert event == "partie" and "Manche 1" in part

        answer = phone.post(
            f"/parties/{game}/manches/annuler",
            {"csrf_token": token, "number": "1", "version": "2"},  # after round 1: version 2
        )
        assert answer.status_code == 303
        event, part = follower.next_event()
        assert event == "partie" and "Manche 1" not in part

        answer = phone.post(f"/parties/{game}/partage/arreter", {"csrf_token": token})
        assert answer.status_code == 303
        assert follower.next_event()[0] == "fin"
    finally:
        follower.close()
    assert requests.get(server_b + follow_path, timeout=10).status_code == 404


_SCORER_ADDRESS = re.compile(r'<a href="https?://[^"/]+(/rejoindre/[A-Za-z0-9_-]+)"')


def test_two_phones_of_a_table_on_two_servers_score_one_game_live(two_servers):
    server_a, server_b = two_servers
    first, second = Phone(server_a), Phone(server_b)
    game = first.start_game(NAMES)
    page = first.get(f"/parties/{game}/inviter")
    answer = first.post(f"/parties/{game}/inviter", {"csrf_token": csrf_token(page.text)})
    assert answer.status_code == 303
    invited = _SCORER_ADDRESS.search(first.get(f"/parties/{game}/inviter").text)
    assert invited, "no scorer address on the invitation page"
    join_page = second.get(invited.group(1))
    joined = second.post(invited.group(1), {"csrf_token": csrf_token(join_page.text)})
    assert joined.status_code == 303 and joined.headers["Location"].endswith(f"/parties/{game}")
    stream = second.http.get(f"{server_b}/parties/{game}/direct", stream=True, timeout=(5, 60))
    assert stream.status_code == 200
    lines = stream.iter_lines(decode_unicode=True)
    versions: queue.Queue[str] = queue.Queue()

    def read() -> None:
        try:
            for line in lines:
                if line.startswith("data: "):
                    versions.put(line.removeprefix("data: "))
        except (requests.RequestException, AttributeError):
            pass

    threading.Thread(target=read, daemon=True).start()
    try:
        first_version = versions.get(timeout=10)  # the stream says the version it starts at
        token, number = first.open_game(game)
        answer = first.post(f"/parties/{game}/manches", round_form(token, number, [5, 6, 7]))
        assert answer.status_code == 303

        newer = versions.get(timeout=ARRIVAL_SECONDS)  # server A's round, heard on server B
        assert int(newer) > int(first_version)
        token, number = second.open_game(game)
        assert number == 2
        answer = second.post(f"/parties/{game}/manches", round_form(token, number, [1, 1, 1]))
        assert answer.status_code == 303
    finally:
        stream.close()
    assert "Manche 2" in first.get(f"/parties/{game}").text
