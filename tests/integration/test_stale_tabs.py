"""Two tabs (or two phones) on one game: a form the sheet has moved past is told what happened,
keeps every value typed, and records nothing."""

from __future__ import annotations

import pytest

from .actions import (
    HTMX,
    cancel_round,
    dump,
    game_url,
    play_round,
    play_rounds,
    start_game,
    tap,
    version_of,
)
from .html import field_labelled, hidden_value, parse, round_lines


@pytest.fixture
def game(client):
    public_id = start_game(client, ["Alice", "Bob"])
    play_rounds(client, public_id, [5, 7], [3, 2])
    return public_id


@pytest.mark.parametrize(
    "number, htmx, status, says",
    [
        pytest.param(3, False, 409, "La partie a changé", id="after a cancel"),
        pytest.param(3, True, 409, "La partie a changé", id="after a cancel, htmx"),
        pytest.param("abc", False, 422, "ne dit pas quelle manche", id="no readable number"),
    ],
)
def test_a_round_the_sheet_did_not_expect_says_why_and_keeps_the_values(
    client, app, game, number, htmx, status, says
):
    drawn = version_of(client, game)  # tab A opens the game
    assert cancel_round(client, game, 2).status_code == 303  # tab B
    before = dump(app)
    if status == 422:  # a form of the game as it stands, but for no round
        drawn = version_of(client, game)

    response = play_round(client, game, number, ["4", "9"], htmx=htmx, version=drawn)  # tab A

    assert response.status_code == status
    assert dump(app) == before
    page = parse(response.data)
    alert = page.find(role="alert").text
    assert says in alert and "déjà enregistrée" not in alert
    assert [field_labelled(page, name).get("value") for name in ("Alice", "Bob")] == ["4", "9"]
    assert round_lines(parse(client.get(game_url(game)).data)) == [[5, 7]]


# --- Every write names the game its page showed (refusals.check_version): what the views add ---


def test_a_cancel_from_a_page_drawn_before_another_round_in_its_place_is_a_409(client, app, game):
    page_a = parse(client.get(game_url(game)).data)  # tab A shows round 2: 3 and 2
    assert cancel_round(client, game, 2).status_code == 303  # tab B cancels it…
    assert play_round(client, game, 2, [1, 1]).status_code == 303  # …and records another
    before = dump(app)

    response = tap(client, page_a, "Annuler la manche")

    assert response.status_code == 409
    assert dump(app) == before
    page = parse(response.data)
    alert = page.find(role="alert").text
    assert "rien n’a été annulé" in alert and "pas été enregistrée" not in alert  # no round sent
    assert round_lines(page) == [[5, 7], [1, 1]]


def test_a_restore_from_a_page_drawn_before_another_round_in_its_place_is_a_409(client, app, game):
    assert cancel_round(client, game, 2).status_code == 303
    page_a = parse(client.get(game_url(game)).data)  # « Rétablir la manche 2 »
    assert play_round(client, game, 2, [1, 1]).status_code == 303  # tab B: another round 2

    response = tap(client, page_a, "Rétablir la manche 2", htmx=True)

    assert response.status_code == 409
    page = parse(response.data)
    assert "rien n’a été rétabli" in page.find(role="alert").text
    assert "déjà rétablie" not in page.text
    assert round_lines(page) == [[5, 7], [1, 1]]


@pytest.mark.parametrize("htmx", [False, True], ids=["plain form", "htmx"])
def test_a_correction_of_a_round_cancelled_meanwhile_brings_its_values_to_the_next_round(
    client, game, htmx
):
    form = parse(client.get(f"{game_url(game)}/manches/2").data).find(id="edit-round")
    assert cancel_round(client, game, 2).status_code == 303  # tab B
    data = {"version": hidden_value(form, "version"), "score-0": "8", "score-1": "1"}

    response = client.post(form.get("action"), data=data, headers=HTMX if htmx else {})

    assert response.status_code == 409  # not a 404, nor a form for a round that is gone
    assert response.headers.get("HX-Replace-Url") == game_url(game)
    page = parse(response.data)
    assert "la manche 2 y a été annulée" in page.find(role="alert").text
    round_form = page.find(id="round-form")
    assert hidden_value(round_form, "number") == "2"  # the game's own next round…
    assert [field_labelled(page, name).get("value") for name in ("Alice", "Bob")] == ["8", "1"]
    assert round_lines(parse(client.get(game_url(game)).data)) == [[5, 7]]


def test_a_correction_refused_as_stale_keeps_its_form_while_its_round_is_there(client, game):
    form = parse(client.get(f"{game_url(game)}/manches/1").data).find(id="edit-round")
    assert play_round(client, game, 3, [1, 1]).status_code == 303  # tab B plays on
    data = {"version": hidden_value(form, "version"), "score-0": "8", "score-1": "1"}

    response = client.post(form.get("action"), data=data)

    assert response.status_code == 409
    page = parse(response.data)
    assert "La partie a changé" in page.find(role="alert").text
    assert page.find(id="edit-round") is not None  # to send again, now from the game as it is
    assert [field_labelled(page, name).get("value") for name in ("Alice", "Bob")] == ["8", "1"]


@pytest.mark.parametrize("htmx", [False, True], ids=["plain form", "htmx"])
def test_a_round_sent_after_the_end_elsewhere_comes_back_with_the_game_it_reopens(
    client, game, htmx
):
    drawn = version_of(client, game)  # tab A, typing round 3
    assert play_round(client, game, 3, [70, 0]).status_code == 303  # tab B ends the game

    refused = play_round(client, game, 3, ["4", "9"], htmx=htmx, version=drawn)

    assert refused.status_code == 409
    page = parse(refused.data)
    assert "Annuler la manche" in page.find(role="alert").text
    assert "Valeurs envoyées" in page.text and "Alice 4" in page.text and "Bob 9" in page.text
    reopened = tap(client, page, "Annuler la manche", htmx=htmx)
    if not htmx:  # the game's page takes the values into its form, once
        reopened = client.get(reopened.headers["Location"], follow_redirects=True)
    page = parse(reopened.data)
    assert round_lines(page) == [[5, 7], [3, 2]]
    assert hidden_value(page.find(id="round-form"), "number") == "3"
    assert [field_labelled(page, name).get("value") for name in ("Alice", "Bob")] == ["4", "9"]


def test_a_rematch_from_a_result_the_game_was_reopened_from_starts_nothing(client, app, game):
    assert play_round(client, game, 3, [70, 0]).status_code == 303
    result = parse(client.get(game_url(game)).data)  # tab A shows the end
    assert cancel_round(client, game, 3).status_code == 303  # tab B reopens it
    before = dump(app)

    response = tap(client, result, "Rejouer avec les mêmes joueurs")

    assert response.status_code == 409
    assert dump(app) == before
    assert "Aucune nouvelle partie" in parse(response.data).find(role="alert").text


def test_a_game_in_progress_has_no_rematch_even_by_hand(client, app, game):
    before = dump(app)

    response = client.post(f"{game_url(game)}/revanche", data={"version": version_of(client, game)})

    assert response.status_code == 422
    assert dump(app) == before
    assert "pas terminée" in parse(response.data).find(role="alert").text
