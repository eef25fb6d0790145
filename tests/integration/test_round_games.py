"""Skyjo, Flip 7 and a free game through the forms: each game's own round, end and winner."""

from __future__ import annotations

import pytest

from .actions import game_page, game_url, new_device, play_round, round_data, start_game
from .html import leaders, parse, table_named, totals
from .test_follow import share
from .test_table import invite


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
    client.post(
        f"{game_url(public_id)}/manches", data=round_data(1, ["3", "12"]) | {"ended_by": "0"}
    )

    edit = client.get(f"{game_url(public_id)}/manches/1").get_data(as_text=True)
    refused = play_round(client, public_id, 2, ["3.5", "1"]).get_data(as_text=True)

    assert "Points de la manche 1" in edit and "Têtes de bœuf prises" not in edit
    assert "n’est pas un nombre entier." in refused


def named_in_header_and_title(client, address: str) -> tuple[str, str]:
    page = parse(client.get(address).data)
    return page.find("a", class_="brand").text, page.find("title").text


@pytest.mark.parametrize(
    ("fields", "name"),
    [
        ({"game": "skyjo"}, "Skyjo"),
        ({"game": "flip-7"}, "Flip 7"),
        ({"game": "libre", "title": "Tarot", "end": "other_limit", "limit": "500"}, "Tarot"),
    ],
)
def test_every_page_of_a_game_names_the_game_played_not_the_counter(app, client, fields, name):
    public_id = start_game(client, ["Alice", "Bruno"], **fields)
    data = round_data(1, [5, 7]) | {"ended_by": "0"}  # who ended it: Skyjo asks, others ignore it
    assert client.post(f"{game_url(public_id)}/manches", data=data).status_code == 303
    follower, scorer = new_device(app), new_device(app)
    pages = {
        client: [
            game_url(public_id),
            f"{game_url(public_id)}/manches/1",
            f"{game_url(public_id)}/supprimer",
            f"{game_url(public_id)}/partage",
            f"{game_url(public_id)}/inviter",
        ],
        follower: [share(client, public_id)],
        scorer: [invite(client, public_id)],  # « Rejoindre la table »
    }

    for phone, addresses in pages.items():
        for address in addresses:
            header, title = named_in_header_and_title(phone, address)
            assert header == name, address
            assert title.endswith(f"— {name}"), (address, title)
    assert named_in_header_and_title(client, "/")[0] == "6 qui prend !"  # the counter's own
