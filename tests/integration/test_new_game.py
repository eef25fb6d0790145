"""Seating the players: the new-game form, « ajouter », refused names, the game's address."""

import re

import pytest

from .actions import HTMX, count_rows, dump, game_page, start_game
from .html import accessible_text, button, field_labelled, parse, scoreboard


def name_fields(page):
    """Return the values of the fields labelled « Joueur 1 », « Joueur 2 », … in order."""
    values = []
    while (field := field_labelled(page, f"Joueur {len(values) + 1}")) is not None:
        values.append(field.get("value") or "")
    return values


def post_names(client, names, headers=None):
    data = {f"players-{seat}": name for seat, name in enumerate(names)}
    return client.post("/parties", data=data, headers=headers or {})


def test_new_game_form_shows_two_name_fields_and_the_buttons(client):
    response = client.get("/parties/nouvelle")

    assert response.status_code == 200
    page = parse(response.data)
    assert name_fields(page) == ["", ""]
    assert button(page, "Ajouter un joueur") is not None
    assert button(page, "Commencer la partie") is not None
    form = page.find("form", id="new-game")
    assert form.get("method") == "post" and form.get("action") == "/parties"


def test_valid_names_start_a_game_at_a_random_address(client, app):
    response = post_names(client, ["Alice", "Bob"])

    assert response.status_code == 303
    match = re.fullmatch(r"/parties/([A-Za-z0-9_-]+)", response.headers["Location"])
    assert match, response.headers["Location"]
    public_id = match.group(1)
    assert len(public_id) >= 22  # >= 128 bits of base64url
    page = game_page(client, public_id)
    assert [name for name, _, _ in scoreboard(page)] == ["Alice", "Bob"]


def test_game_addresses_are_random_not_sequential(client):
    ids = [start_game(client, ["Alice", "Bob"]) for _ in range(3)]

    assert len(set(ids)) == 3
    assert all(len(public_id) >= 22 for public_id in ids)
    assert not any(public_id.isdigit() for public_id in ids)


def test_blank_fields_are_ignored_and_seat_order_kept(client):
    public_id = start_game(client, ["", "Alice", "   ", "Bob", "", "Carla"])

    page = game_page(client, public_id)
    assert [name for name, _, _ in scoreboard(page)] == ["Alice", "Bob", "Carla"]


def test_names_are_trimmed(client):
    public_id = start_game(client, ["  Alice  ", "Bob"])

    assert [name for name, _, _ in scoreboard(game_page(client, public_id))] == ["Alice", "Bob"]


@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
def test_add_button_adds_a_field_and_keeps_names(client, app, htmx):
    response = client.post(
        "/parties",
        data={"players-0": "Alice", "players-1": "Bob", "ajouter": "1"},
        headers=HTMX if htmx else {},
    )

    assert response.status_code == 200
    page = parse(response.data)
    assert name_fields(page) == ["Alice", "Bob", ""]
    assert count_rows(app, "game") == 0
    if htmx:
        assert response.data.lstrip().startswith(b"<form")
        assert b"<html" not in response.data


def test_add_button_stops_at_ten_fields(client, app):
    data = {f"players-{seat}": f"P{seat}" for seat in range(9)}
    data["ajouter"] = "1"

    response = client.post("/parties", data=data)
    page = parse(response.data)
    assert name_fields(page) == [f"P{seat}" for seat in range(9)] + [""]
    assert (
        button(page, "Ajouter un joueur") is None
        or "disabled" in button(page, "Ajouter un joueur").attrs
    )

    data["players-9"] = "P9"
    response = client.post("/parties", data=data)
    page = parse(response.data)
    assert len(name_fields(page)) == 10
    assert (
        button(page, "Ajouter un joueur") is None
        or "disabled" in button(page, "Ajouter un joueur").attrs
    )
    assert count_rows(app, "game") == 0


def test_add_button_stops_at_the_most_players_of_the_game_chosen(client):
    data = {"game": "skyjo", "ajouter": "1", **{f"players-{seat}": f"P{seat}" for seat in range(7)}}

    page = parse(client.post("/parties", data=data).data)

    assert len(name_fields(page)) == 8  # Skyjo seats 8
    add = button(page, "Ajouter un joueur")  # there for the games that seat 10, not shown
    assert add is not None and "hidden" in add.attrs
    choices = {radio.get("value"): radio.get("data-most") for radio in page.find_all(name="game")}
    assert choices["skyjo"] == "8" and choices["flip-7"] == "10"  # what new_game.js shows it by
    assert re.search(r"\b8 joueurs\s*: la table est complète", accessible_text(page))


def test_ten_players_can_play(client):
    names = [f"Joueuse {seat}" for seat in range(10)]

    public_id = start_game(client, names)

    assert [name for name, _, _ in scoreboard(game_page(client, public_id))] == names


# Which names are refused is tests/unit/test_rules.py's; here a form-wide and a field refusal.
REFUSED = {
    "one name": (["Alice", ""], "au moins 2"),
    "duplicate ignoring case and spaces": (["Alice", "Bob", "  aLICE "], "déjà"),
}


@pytest.mark.parametrize("names, says", REFUSED.values(), ids=REFUSED.keys())
@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
def test_refused_names_say_why_and_keep_what_was_typed(client, app, names, says, htmx):
    before = dump(app)

    response = post_names(client, names, headers=HTMX if htmx else {})

    assert response.status_code == 422
    page = parse(response.data)
    alert = page.find(role="alert")
    assert alert is not None
    said = [alert.text, *(message.text for message in page.find_all(**{"class": "field-error"}))]
    assert any(says in text for text in said)
    assert name_fields(page)[: len(names)] == names
    assert dump(app) == before


def test_refused_name_field_points_to_its_message(client):
    response = post_names(client, ["Alice", "Bob", "alice"])

    page = parse(response.data)
    field = field_labelled(page, "Joueur 3")
    assert field.get("aria-invalid") == "true"
    message = page.by_id(field.get("aria-describedby"))
    assert message is not None and "déjà" in message.text
    assert field_labelled(page, "Joueur 1").get("aria-invalid") is None
