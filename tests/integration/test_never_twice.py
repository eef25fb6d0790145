"""Never twice: a double tap, two tabs or a retry records a round once and cancels a round once."""

import pytest

from .actions import (
    cancel_round,
    count_rows,
    dump,
    game_page,
    game_url,
    play_round,
    play_rounds,
    start_game,
)
from .html import hidden_value, parse, round_lines, totals

pytestmark = pytest.mark.storage  # on SQLite and PostgreSQL


@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
def test_same_round_submitted_twice_is_recorded_once(client, app, htmx):
    public_id = start_game(client, ["Alice", "Bob"])

    first = play_round(client, public_id, 1, [5, 7], htmx=htmx)
    second = play_round(client, public_id, 1, [5, 7], htmx=htmx)

    assert first.status_code == second.status_code == (200 if htmx else 303)
    assert count_rows(app, "round") == 1
    page = game_page(client, public_id)
    assert round_lines(page) == [[5, 7]]
    assert totals(page) == {"Alice": 5, "Bob": 7}


def test_a_repeated_round_shows_the_current_sheet(client):
    public_id = start_game(client, ["Alice", "Bob"])
    play_round(client, public_id, 1, [5, 7])

    response = play_round(client, public_id, 1, [9, 9], htmx=True)

    page = parse(response.data)
    assert response.status_code == 200
    assert page.find(role="alert") is None
    assert round_lines(page) == [[5, 7]]


def test_a_round_from_a_stale_tab_with_other_values_records_nothing(client, app):
    public_id = start_game(client, ["Alice", "Bob"])
    play_rounds(client, public_id, [5, 7])
    before = dump(app)

    response = play_round(client, public_id, 1, [1, 2])

    assert response.status_code < 400
    assert dump(app) == before


def test_a_round_ahead_of_the_sheet_records_nothing(client, app):
    public_id = start_game(client, ["Alice", "Bob"])
    play_rounds(client, public_id, [5, 7])
    before = dump(app)

    response = play_round(client, public_id, 3, [1, 2])

    assert response.status_code < 500
    assert dump(app) == before
    assert round_lines(game_page(client, public_id)) == [[5, 7]]


@pytest.mark.parametrize("number", ["", "0", "-1", "abc", "1.0", "3", "9" * 20], ids=repr)
def test_a_round_without_a_sensible_number_records_nothing(client, app, number):
    public_id = start_game(client, ["Alice", "Bob"])
    play_rounds(client, public_id, [5, 7])
    before = dump(app)

    response = play_round(client, public_id, number, [1, 2])

    assert response.status_code < 500
    assert dump(app) == before


@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
def test_a_repeated_cancel_removes_one_round(client, app, htmx):
    public_id = start_game(client, ["Alice", "Bob"])
    play_rounds(client, public_id, [5, 7], [1, 2], [3, 3])

    first = cancel_round(client, public_id, 3, htmx=htmx)
    second = cancel_round(client, public_id, 3, htmx=htmx)

    assert first.status_code == second.status_code == (200 if htmx else 303)
    assert round_lines(game_page(client, public_id)) == [[5, 7], [1, 2]]


def test_cancel_on_a_game_without_rounds_does_nothing(client, app):
    public_id = start_game(client, ["Alice", "Bob"])
    before = dump(app)

    response = cancel_round(client, public_id, 1)

    assert response.status_code < 500
    assert dump(app) == before


def test_a_round_cancelled_then_entered_again_is_recorded_with_the_new_values(client):
    public_id = start_game(client, ["Alice", "Bob"])
    play_rounds(client, public_id, [5, 7])
    cancel_round(client, public_id, 1)

    response = play_round(client, public_id, 1, [2, 9])

    assert response.status_code == 303
    assert round_lines(game_page(client, public_id)) == [[2, 9]]


def test_the_same_new_game_form_sent_twice_starts_one_game(client, app):
    page = parse(client.get("/parties/nouvelle").data)
    key = hidden_value(page.find("form"), "key")
    data = {"key": key, "players-0": "Alice", "players-1": "Bob"}

    first = client.post("/parties", data=data)
    second = client.post("/parties", data=data)

    assert first.status_code == second.status_code == 303
    assert first.headers["Location"] == second.headers["Location"]
    assert len(dump(app)["game"]) == 1


def test_two_taps_on_rematch_start_one_new_game(client, app):
    public_id = start_game(client, ["Alice", "Bob"])
    play_round(client, public_id, 1, [67, 1])

    first = client.post(f"{game_url(public_id)}/revanche")
    second = client.post(f"{game_url(public_id)}/revanche")

    assert first.headers["Location"] == second.headers["Location"] != f"/parties/{public_id}"
    assert len(dump(app)["game"]) == 2
