"""Two tabs (or two phones) on one game: a form the sheet has moved past is told what happened,
keeps every value typed, and records nothing."""

from __future__ import annotations

import pytest

from .actions import cancel_round, dump, game_url, play_round, play_rounds, start_game
from .html import field_labelled, parse, round_lines


@pytest.fixture
def game(client):
    public_id = start_game(client, ["Alice", "Bob"])
    play_rounds(client, public_id, [5, 7], [3, 2])
    return public_id


@pytest.mark.parametrize(
    "number, htmx, status, says",
    [
        pytest.param(3, False, 409, "la manche 2 y a été annulée", id="after a cancel"),
        pytest.param(3, True, 409, "la manche 2 y a été annulée", id="after a cancel, htmx"),
        pytest.param("abc", False, 422, "ne dit pas quelle manche", id="no readable number"),
    ],
)
def test_a_round_the_sheet_did_not_expect_says_why_and_keeps_the_values(
    client, app, game, number, htmx, status, says
):
    assert cancel_round(client, game, 2).status_code == 303  # tab B
    before = dump(app)

    response = play_round(client, game, number, ["4", "9"], htmx=htmx)  # tab A, opened before

    assert response.status_code == status
    assert dump(app) == before
    page = parse(response.data)
    alert = page.find(role="alert").text
    assert says in alert and "déjà enregistrée" not in alert
    assert [field_labelled(page, name).get("value") for name in ("Alice", "Bob")] == ["4", "9"]
    assert round_lines(parse(client.get(game_url(game)).data)) == [[5, 7]]
