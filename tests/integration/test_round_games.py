"""Skyjo, Flip 7 and a free game through the forms: each game's own round, end and winner."""

from __future__ import annotations

from .actions import game_page, game_url, play_round, round_data, start_game, version_of
from .html import leaders, table_named, totals


def test_a_skyjo_round_without_who_ended_it_is_refused_with_the_values_kept(client):
    public_id = start_game(client, ["Alice", "Bruno"], game="skyjo")

    response = play_round(client, public_id, 1, [-5, 12])

    assert response.status_code == 422
    text = response.get_data(as_text=True)
    assert "qui a fini la manche" in text
    assert 'value="-5"' in text and 'value="12"' in text


def test_skyjo_doubles_the_ender_and_marks_it_on_the_sheet(client):
    public_id = start_game(client, ["Alice", "Bruno"], game="skyjo")
    data = round_data(1, ["\u22125", "12"]) | {"ended_by": "1"}

    data["version"] = version_of(client, public_id)

    response = client.post(f"{game_url(public_id)}/manches", data=data)

    assert response.status_code == 303, response.get_data(as_text=True)
    page = game_page(client, public_id)
    assert totals(page) == {"Alice": -5, "Bruno": 24}
    assert "24 ×2" in table_named(page, "Manches").text


def test_flip_7_refuses_an_even_score_past_144(client):
    public_id = start_game(client, ["Alice", "Bruno"], game="flip-7")

    response = play_round(client, public_id, 1, [146, 20])

    assert response.status_code == 422
    assert "146, 148 … 170" in response.get_data(as_text=True)


def test_a_free_game_needs_its_name_and_its_end(client):
    response = client.post(
        "/parties", data={"players-0": "A", "players-1": "B", "game": "libre", "title": ""}
    )
    assert response.status_code == 422
    assert "nom du jeu" in response.get_data(as_text=True)
    public_id = start_game(
        client,
        ["A", "B"],
        game="libre",
        title="Tarot",
        best="highest",
        end="other_limit",
        limit="50",
    )
    assert play_round(client, public_id, 1, [-20, 60]).status_code == 303
    assert "Tarot" in game_page(client, public_id).text
    assert leaders(game_page(client, public_id)) == {"B"}


def test_the_assistant_and_the_heads_count_are_6_qui_prend_s_alone(client):
    public_id = start_game(client, ["Alice", "Bruno"], game="skyjo")

    assert "Assistant de manche" not in game_page(client, public_id).text
    assert client.get(f"{game_url(public_id)}/assistant").status_code == 404
    assert client.get(f"{game_url(public_id)}/compter").status_code == 404


def test_a_game_in_points_speaks_of_points_where_it_is_corrected(client):
    """The evening's report: Skyjo's round edit asked for « Têtes de bœuf », and a decimal
    score was « pas un nombre entier de têtes »."""
    public_id = start_game(client, ["Alice", "Bruno"], game="skyjo")
    drawn = version_of(client, public_id)
    data = round_data(1, ["3", "12"], drawn) | {"ended_by": "0"}
    client.post(f"{game_url(public_id)}/manches", data=data)

    edit = client.get(f"{game_url(public_id)}/manches/1").get_data(as_text=True)
    refused = play_round(client, public_id, 2, ["3.5", "1"]).get_data(as_text=True)

    assert "Points de la manche 1" in edit and "Têtes de bœuf prises" not in edit
    assert "n’est pas un nombre entier." in refused
