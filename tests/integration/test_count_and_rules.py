"""« Compter les têtes » (a GET form: it works without JavaScript) and « Règles du jeu »."""

from __future__ import annotations

import pytest

from app.rules.games.six_nimmt import cards

from .actions import game_page, game_url, start_game
from .html import button, field_labelled, link, parse, status_text

NAMES = ["Alice", "Bruno", "Chloé"]


def count(client, public_id, **args):
    return client.get(f"{game_url(public_id)}/compter", query_string=args)


@pytest.fixture
def public_id(client):
    return start_game(client, NAMES)


def test_the_count_form_has_a_cards_field_and_a_count_button(client, public_id):
    page = parse(count(client, public_id).data)
    assert field_labelled(page, "Cartes") is not None
    assert button(page, "Compter") is not None
    assert page.find(role="alert") is None


def test_the_heads_are_counted_with_the_detail_and_the_typed_text_kept(client, public_id):
    response = count(client, public_id, cartes="55 10, 23,11")
    assert response.status_code == 200
    page = parse(response.data)
    assert "55 → 7, 10 → 3, 23 → 1, 11 → 5 : 16 têtes" in status_text(page)
    assert field_labelled(page, "Cartes").get("value") == "55 10, 23,11"


@pytest.mark.parametrize("wrong", ["0", "105", "douze"])
def test_a_number_that_is_not_a_card_is_named(client, public_id, wrong):
    response = count(client, public_id, cartes=f"55 {wrong} 11")
    assert response.status_code == 422
    page = parse(response.data)
    alert = page.find(role="alert")
    assert f"« {wrong} »" in alert.text
    field = field_labelled(page, "Cartes")
    assert field.get("aria-invalid") == "true"
    assert field.get("value") == f"55 {wrong} 11"


def test_a_pro_game_counts_only_cards_up_to_10n_plus_4(client):
    public_id = start_game(client, NAMES, pro="y")
    assert count(client, public_id, cartes="34").status_code == 200
    response = count(client, public_id, cartes="35")
    assert response.status_code == 422
    assert "1 à 34" in parse(response.data).find(role="alert").text


def test_a_players_count_fills_their_field_of_the_round_form(client, public_id):
    page = parse(count(client, public_id, cartes="55 10", joueur="1").data)
    fill = link(page, "Reporter 10 pour Bruno")
    assert fill is not None

    carried = client.get(fill.get("href"))
    game = parse(client.get(carried.location).data)

    assert carried.status_code == 303 and carried.location == game_url(public_id)  # no heads
    assert field_labelled(game, "Bruno").get("value") == "10"
    assert field_labelled(game, "Alice").get("value") == ""
    again = parse(client.get(game_url(public_id)).data)  # a reload, Back, Forward
    assert field_labelled(again, "Bruno").get("value") == ""


def test_heads_typed_before_counting_come_back_with_the_count(client, public_id):
    typed = {"score-0": "4", "score-2": "7", "score-1": "x", "score-9": "5"}  # not x, no seat 9
    page = parse(count(client, public_id, cartes="55 10", joueur="1", **typed).data)
    kept = {field.get("name"): field.get("value") for field in page.find_all("input")}
    assert kept["score-0"] == "4" and kept["score-2"] == "7"  # through another count too
    assert "score-1" not in kept and "score-9" not in kept

    counted = parse(
        client.get(link(page, "Reporter 10 pour Bruno").get("href"), follow_redirects=True).data
    )
    back = parse(
        client.get(link(page, "Retour à la partie").get("href"), follow_redirects=True).data
    )

    assert [field_labelled(counted, name).get("value") for name in NAMES] == ["4", "10", "7"]
    assert [field_labelled(back, name).get("value") for name in NAMES] == ["4", "", "7"]


def test_the_rules_are_linked_from_home_and_give_the_heads_of_every_card(client, public_id):
    home = parse(client.get("/").data)
    rules_page = parse(client.get(link(home, "Règles du jeu").get("href")).data)
    assert rules_page.find("h1").text == "Règles du jeu"
    table = next(
        t for t in rules_page.find_all("table") if t.find("caption").text == "Têtes par carte"
    )
    lines = {
        int(row.find("th").text): int(row.find_all("td")[-1].text)
        for row in table.find("tbody").find_all("tr")
    }
    deck = [cards.heads(card) for card in range(1, cards.DECK_SIZE + 1)]
    assert lines == {value: deck.count(value) for value in set(deck)}
    for words in ("18, 31, 47 et 72", "66 tout juste", "Qui choisit la rangée", "55"):
        assert words in rules_page.text
    assert link(game_page(client, public_id), "Règles du jeu") is not None
