"""Many writes at once on the real server (gunicorn, 4 workers): none lost, none doubled, no 5xx."""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor

import pytest
import requests

from scripts.lib.phones import Phone, csrf_token, round_form, stored_games

from .conftest import running_server

pytestmark = pytest.mark.slow

CONCURRENT = 50
STALE_NOTICE = "Cette manche était déjà enregistrée"
TAKEN_NOTICE = "La partie a changé sur un autre téléphone ou un autre onglet"


def _all_at_once(calls: Sequence[Callable[[], requests.Response]]) -> list[requests.Response]:
    """Run every call in its own thread, released together by a barrier."""
    barrier = threading.Barrier(len(calls), timeout=30)

    def run(call: Callable[[], requests.Response]) -> requests.Response:
        barrier.wait()
        return call()

    with ThreadPoolExecutor(max_workers=len(calls)) as pool:
        return list(pool.map(run, calls))


@pytest.fixture(scope="module")
def server(served_database, tmp_path_factory):
    """Gunicorn with 4 workers, shared by the tests of a backend: each plays its own games."""
    with running_server(served_database, tmp_path_factory.mktemp("server"), workers=4) as server:
        yield server


def test_fifty_taps_on_the_same_round_record_it_once(server, served_database):
    phone = Phone(server.url)
    game = phone.start_game(["Ana", "Bob", "Chloé"])
    token, number = phone.open_game(game)
    # Each tap carries different heads, so the stored round tells which single tap won.
    typed = [(tap % 5, (tap // 5) % 5, 1) for tap in range(CONCURRENT)]
    taps = [phone.twin() for _ in range(CONCURRENT)]

    answers = _all_at_once(
        [
            lambda tap=tap, heads=heads: tap.post(
                f"/parties/{game}/manches", round_form(token, number, heads), htmx=True
            )
            for tap, heads in zip(taps, typed, strict=True)
        ]
    )

    # The others are told: a repeat of the same heads gets the sheet, other heads come back (409).
    assert {a.status_code for a in answers} <= {200, 409}
    assert all(TAKEN_NOTICE in a.text for a in answers if a.status_code == 409)
    recorded = [
        heads
        for a, heads in zip(answers, typed, strict=True)
        if a.status_code == 200 and STALE_NOTICE not in a.text
    ]
    assert len(recorded) == 1, f"{len(recorded)} taps were told their round was recorded"
    stored = stored_games(served_database)[game]
    assert list(stored.rounds) == [number]
    assert stored.heads(number) == recorded[0]


def test_fifty_tables_recording_at_once_all_keep_their_round(server, served_database):
    tables = [Phone(server.url) for _ in range(CONCURRENT)]
    games = [table.start_game([f"Joueur {t}", "Bob"]) for t, table in enumerate(tables)]
    forms = [table.open_game(game) for table, game in zip(tables, games, strict=True)]
    typed = {game: (t % 7, 1 + t % 3) for t, game in enumerate(games)}

    answers = _all_at_once(
        [
            lambda table=table, game=game, form=form: table.post(
                f"/parties/{game}/manches", round_form(form[0], form[1], typed[game])
            )
            for table, game, form in zip(tables, games, forms, strict=True)
        ]
    )

    assert [a.status_code for a in answers] == [303] * CONCURRENT
    assert [a.headers["Location"] for a in answers] == [f"/parties/{game}" for game in games]
    stored = stored_games(served_database)
    assert {game: stored[game].rounds for game in games} == {
        game: {1: dict(enumerate(heads))} for game, heads in typed.items()
    }


def test_fifty_taps_on_cancel_remove_only_the_round_they_name(server, served_database):
    phone = Phone(server.url)
    game = phone.start_game(["Ana", "Bob"])
    for heads in [(1, 0), (2, 3), (0, 4)]:
        token, number = phone.open_game(game)
        answer = phone.post(f"/parties/{game}/manches", round_form(token, number, heads))
        assert answer.status_code == 303
    token, _ = phone.open_game(game)
    taps = [phone.twin() for _ in range(CONCURRENT)]

    answers = _all_at_once(
        [
            lambda tap=tap: tap.post(
                f"/parties/{game}/manches/annuler",
                {"csrf_token": token, "number": "3", "version": "4"},  # 3 rounds: version 4
                htmx=True,
            )
            for tap in taps
        ]
    )

    assert [a.status_code for a in answers] == [200] * CONCURRENT
    assert sum("Manche 3 annulée" in a.text for a in answers) == 1
    assert stored_games(served_database)[game].rounds == {1: {0: 1, 1: 0}, 2: {0: 2, 1: 3}}


def test_fifty_saves_of_one_edit_form_change_the_round_once(server, served_database):
    phone = Phone(server.url)
    game = phone.start_game(["Ana", "Bob"])
    token, number = phone.open_game(game)
    answer = phone.post(f"/parties/{game}/manches", round_form(token, number, (1, 0)))
    assert answer.status_code == 303
    edit_page = phone.get(f"/parties/{game}/manches/1")
    version = re.search(r'name="version" value="(\d+)"', edit_page.text).group(1)
    typed = [(1 + tap % 9, tap // 9) for tap in range(CONCURRENT)]
    taps = [phone.twin() for _ in range(CONCURRENT)]

    answers = _all_at_once(
        [
            lambda tap=tap, heads=heads: tap.post(
                f"/parties/{game}/manches/1",
                {
                    "csrf_token": csrf_token(edit_page.text),
                    "version": version,
                    **{f"score-{seat}": str(value) for seat, value in enumerate(heads)},
                },
            )
            for tap, heads in zip(taps, typed, strict=True)
        ]
    )

    statuses = [a.status_code for a in answers]
    assert sorted(statuses) == [303] + [409] * (CONCURRENT - 1)
    saved = typed[statuses.index(303)]
    assert stored_games(served_database)[game].rounds == {1: dict(enumerate(saved))}
