"""Two tabs (or two phones) on one game: a form the sheet has moved past is told what happened,
keeps every value typed, and records nothing."""

from __future__ import annotations

import pytest

from .actions import HTMX, cancel_round, dump, game_url, play_round, play_rounds, start_game
from .html import field_labelled, parse, round_lines


@pytest.fixture
def game(client):
    public_id = start_game(client, ["Alice", "Bob"])
    play_rounds(client, public_id, [5, 7], [3, 2])
    return public_id


@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
def test_a_round_after_a_round_cancelled_elsewhere_says_so_and_keeps_the_values(
    client, app, game, htmx
):
    assert cancel_round(client, game, 2).status_code == 303  # tab B
    before = dump(app)

    response = play_round(client, game, 3, ["4", "9"], htmx=htmx)  # tab A, opened before

    assert response.status_code == 409
    assert dump(app) == before
    page = parse(response.data)
    alert = page.find(role="alert").text
    assert "la manche 2 y a été annulée" in alert and "Rien n’a été enregistré" in alert
    assert "déjà enregistrée" not in alert
    assert field_labelled(page, "Alice").get("value") == "4"
    assert field_labelled(page, "Bob").get("value") == "9"
    assert round_lines(parse(client.get(game_url(game)).data)) == [[5, 7]]


def test_a_round_form_without_a_readable_number_is_refused_with_the_values_kept(client, app, game):
    before = dump(app)

    response = play_round(client, game, "abc", ["4", "9"])

    assert response.status_code == 422
    assert dump(app) == before
    page = parse(response.data)
    assert "ne dit pas quelle manche" in page.find(role="alert").text
    assert field_labelled(page, "Alice").get("value") == "4"


def test_a_repeated_cancel_says_already_cancelled(client, game):
    cancel_round(client, game, 2)

    response = client.post(f"{game_url(game)}/manches/annuler", data={"number": "2"}, headers=HTMX)

    assert "La manche 2 était déjà annulée" in parse(response.data).text
