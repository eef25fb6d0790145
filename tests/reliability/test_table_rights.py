"""The table's rights on the real server (gunicorn, 2 workers): a removed phone's live stream
ends, and « Arrêter l’invitation » racing a join gives the joining phone one true answer."""

from __future__ import annotations

import queue
import re
import threading

import pytest
import requests

from scripts.lib.phones import Phone, csrf_token

from .conftest import running_server
from .test_concurrency import _all_at_once

pytestmark = pytest.mark.slow

NAMES = ["Ana", "Bob", "Chloé"]
_SCORER_ADDRESS = re.compile(r'<a href="https?://[^"/]+(/rejoindre/[A-Za-z0-9_-]+)"')
TRIALS = 15


@pytest.fixture(scope="module")
def server(served_database, tmp_path_factory):
    with running_server(served_database, tmp_path_factory.mktemp("server"), workers=2) as server:
        yield server


def _invite(owner: Phone, game: str) -> str:
    page = owner.get(f"/parties/{game}/inviter")
    answer = owner.post(f"/parties/{game}/inviter", {"csrf_token": csrf_token(page.text)})
    assert answer.status_code == 303
    invited = _SCORER_ADDRESS.search(owner.get(f"/parties/{game}/inviter").text)
    assert invited, "no scorer address on the invitation page"
    return invited.group(1)


def _joined(server_url: str, address: str) -> Phone:
    phone = Phone(server_url)
    page = phone.get(address)
    assert phone.post(address, {"csrf_token": csrf_token(page.text)}).status_code == 303
    return phone


def test_removing_the_invited_phones_ends_their_live_stream(server):
    owner = Phone(server.url)
    game = owner.start_game(NAMES)
    joined = _joined(server.url, _invite(owner, game))
    stream = joined.http.get(f"{server.url}/parties/{game}/direct", stream=True, timeout=(5, 60))
    assert stream.status_code == 200
    events: queue.Queue[str | None] = queue.Queue()

    def read() -> None:
        try:
            for line in stream.iter_lines(decode_unicode=True):
                if line.startswith("event: "):
                    events.put(line.removeprefix("event: "))
        except (requests.RequestException, AttributeError):
            pass
        events.put(None)  # the server ended the stream

    threading.Thread(target=read, daemon=True).start()
    try:
        assert events.get(timeout=10) == "version"  # the stream is open
        page = owner.get(f"/parties/{game}/inviter")
        seen = re.search(r'name="newest_seat" value="(\d+)"', page.text).group(1)  # as shown
        removed = owner.post(
            f"/parties/{game}/inviter/retirer",
            {"csrf_token": csrf_token(page.text), "newest_seat": seen},
        )
        assert removed.status_code == 303

        assert events.get(timeout=10) == "fin"  # well before its 20 s heartbeat
        assert events.get(timeout=10) is None
    finally:
        stream.close()
    assert joined.get(f"/parties/{game}").status_code == 404


def test_stopping_the_invitation_while_a_phone_joins_gives_it_the_true_answer(server):
    owner = Phone(server.url)
    game = owner.start_game(NAMES)
    answers = set()
    for _ in range(TRIALS):
        address = _invite(owner, game)
        phone = Phone(server.url)
        token = csrf_token(phone.get(address).text)
        stop_token = csrf_token(owner.get(f"/parties/{game}/inviter").text)

        joined, stopped = _all_at_once(
            [
                lambda: phone.post(address, {"csrf_token": token}),
                lambda: owner.post(f"/parties/{game}/inviter/arreter", {"csrf_token": stop_token}),
            ]
        )

        assert stopped.status_code == 303
        seated = phone.get(f"/parties/{game}").status_code
        # Told it joined (303 to the game) exactly when it was seated, « stopped » when it was not.
        assert (joined.status_code, seated) in {(303, 200), (404, 404)}, (
            joined.status_code,
            seated,
        )
        answers.add(joined.status_code)
    print(f"answers over {TRIALS} races: {sorted(answers)}")
