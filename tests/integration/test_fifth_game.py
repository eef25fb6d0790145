"""A fifth game, defined in the tests (tests/fifth_game.py) and registered here: the new-game form
offers what it declares, and it is played to its end through the forms, with no file of the app
changed for it (issue 44). The browser plays it too, online and offline:
tests/e2e/test_fifth_game.py."""

from __future__ import annotations

import pytest

from app import rules
from tests.fifth_game import FIVE_HUNDRED

from .actions import game_page, game_url, start_game, version_of
from .html import parse, status_text, totals

KEY = FIVE_HUNDRED.key


@pytest.fixture(autouse=True)
def fifth_game(monkeypatch):
    monkeypatch.setitem(rules.GAMES, KEY, FIVE_HUNDRED)


def play(client, public_id, number, scores, ended_by=None):
    data = {f"score-{seat}": str(score) for seat, score in enumerate(scores)}
    data |= {"number": str(number), "version": version_of(client, public_id)}
    if ended_by is not None:
        data["ended_by"] = str(ended_by)
    return client.post(f"{game_url(public_id)}/manches", data=data)


def test_the_new_game_form_offers_the_fifth_game_with_what_it_declares(client):
    form = parse(client.get("/parties/nouvelle").data).by_id("new-game")

    radio = form.by_id(f"game-{KEY}")
    assert radio is not None and radio.get("data-most") == "6"
    # What static/new_game.js shows once the game is chosen: the parts made for it.
    shown = " ".join(
        part.text
        for part in form.find_all(data_games=True)
        if KEY in (part.get("data-games") or "").split()
    )
    assert "Par la règle du jeu" in shown  # its own end, 500, unless a number of rounds
    for other_games_choice in ("Autre limite", "Plus de 66", "Variante pro", "Nom du jeu"):
        assert other_games_choice not in shown


def test_the_fifth_game_is_played_to_its_end_without_doubling_who_ended_a_round(client):
    public_id = start_game(client, ["Alice", "Bruno"], game=KEY)

    refused = play(client, public_id, 1, [150, 100])  # who ended it is missing
    assert refused.status_code == 422
    assert "Dites qui a fini la manche." in refused.get_data(as_text=True)

    # Alice ends the round, positive and not the lowest: Skyjo would double her 150.
    assert play(client, public_id, 1, [150, 100], ended_by=0).status_code == 303
    assert totals(game_page(client, public_id)) == {"Alice": 150, "Bruno": 100}
    assert play(client, public_id, 2, [200, 100], ended_by=1).status_code == 303
    assert play(client, public_id, 3, [160, 10], ended_by=0).status_code == 303

    page = game_page(client, public_id)
    assert totals(page) == {"Alice": 510, "Bruno": 210}
    assert "Bruno gagne avec 210 points" in status_text(page)
    assert play(client, public_id, 4, [0, 0], ended_by=0).status_code == 422  # it is over


def test_the_fifth_game_may_last_a_number_of_rounds(client):
    public_id = start_game(client, ["Alice", "Bruno"], game=KEY, end="rounds", round_count="1")

    assert play(client, public_id, 1, [20, 30], ended_by=1).status_code == 303

    assert "Alice gagne avec 20 points" in status_text(game_page(client, public_id))
