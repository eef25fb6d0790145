"""Two tabs (or two phones) on one game: a form the sheet has moved past is told what happened,
keeps every value typed, and records nothing."""

from __future__ import annotations

import pytest

from .actions import (
    cancel_round,
    dump,
    game_url,
    play_round,
    play_rounds,
    start_game,
    version_of,
)
from .html import field_labelled, parse, round_lines


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
