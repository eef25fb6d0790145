"""Skyjo, Flip 7 and a free game through the forms: each game's own round, end and winner."""

from __future__ import annotations

import pytest

from .actions import (
    game_page,
    game_url,
    new_device,
    play_round,
    play_rounds,
    round_data,
    start_game,
    version_of,
)
from .html import field_labelled, leaders, parse, status_text, table_named, totals
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


def _row(page, name: str):
    """Return the « Scores » row of this player."""
    for row in table_named(page, "Scores").find("tbody").find_all("tr"):
        header = row.find("th")
        if header is not None and name in header.text:
            return row
    raise AssertionError(f"no row for {name}")


def test_a_flip_7_player_near_200_reads_how_far_victory_is_not_a_warning(client):
    """Issue 43: at 195 Flip 7's leader read « Marge avant la fin : 4 » in red."""
    public_id = start_game(client, ["Alice", "Bruno"], game="flip-7")
    play_rounds(client, public_id, [100, 20], [95, 20])

    row = _row(game_page(client, public_id), "Alice")

    assert "À 5 points de la victoire" in row.text and "Marge" not in row.text
    assert "close" not in (row.get("class") or "")  # not drawn as a danger


def test_a_6_qui_prend_player_near_66_is_still_warned(client):
    public_id = start_game(client, ["Alice", "Bruno"])
    play_rounds(client, public_id, [60, 2])

    row = _row(game_page(client, public_id), "Alice")

    assert "Marge avant la fin" in row.text and "close" in row.get("class")


def test_flip_7_refuses_two_players_above_108_in_one_round_naming_them(client):
    public_id = start_game(client, ["Alice", "Bruno", "Chloé"], game="flip-7")

    response = play_round(client, public_id, 1, [109, 20, 171])

    assert response.status_code == 422
    alert = parse(response.data).find(role="alert").text
    assert "Une seule carte ×2" in alert and "Alice et Chloé" in alert and "108" in alert
    text = response.get_data(as_text=True)
    assert 'value="109"' in text and 'value="171"' in text


def test_a_flip_7_tie_for_the_highest_total_at_the_end_plays_another_round(app, client):
    public_id = start_game(client, ["Alice", "Bruno", "Chloé"], game="flip-7")
    play_rounds(client, public_id, [106, 106, 20], [106, 106, 0])
    address = share(client, public_id)

    page = game_page(client, public_id)
    followed = parse(new_device(app).get(address).data)

    for shown in (page, followed):
        said = status_text(shown)
        assert "Égalité à 212" in said and "une manche de plus, entre Alice et Bruno." in said
        assert "gagne" not in said
    assert field_labelled(page, "Alice") is not None  # the round form stays
    assert "Pas encore de partie terminée" in statistics_text(
        client
    )  # a game going on is not counted

    refused = play_round(client, public_id, 3, [5, 0, 12])  # Chloé does not play it
    assert refused.status_code == 422
    assert "Chloé : cette manche départage Alice et Bruno" in parse(refused.data).text

    play_rounds(client, public_id, [5, 0, 0])

    assert "Alice gagne avec 217 points" in status_text(game_page(client, public_id))


def statistics_text(client) -> str:
    return parse(client.get("/statistiques").data).find("main").text


def test_the_rules_page_says_flip_7_s_x2_and_its_tie_in_each_language(client):
    french = parse(client.get("/regles").data).find("main").text
    english = parse(client.get("/regles", headers={"Accept-Language": "en"}).data).find("main").text
    german = parse(client.get("/regles", headers={"Accept-Language": "de"}).data).find("main").text

    assert "une manche de plus" in french
    assert "dépasser 108 points" in french
    assert "one more round" in english and "more than 108 points" in english
    assert "noch eine Runde" in german and "mehr als 108 Punkte" in german


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
    drawn = version_of(client, public_id)
    data = round_data(1, [5, 7], drawn) | {"ended_by": "0"}  # who ended it: Skyjo asks
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
