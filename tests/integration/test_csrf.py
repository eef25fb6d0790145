"""CSRF on every state-changing route: refused without the page's token. Accepted with it: every
e2e test posts the forms with their token (the e2e server runs with CSRF on)."""

import re

import pytest

from .actions import dump, game_url, new_device, round_data
from .html import form_of, hidden_value, parse


@pytest.fixture
def app_settings():
    return {"WTF_CSRF_ENABLED": True}


def token_from(client, path, button_name):
    """Return the CSRF token carried by the form of this button on the page at path."""
    form = form_of(parse(client.get(path).data), button_name)
    assert form is not None, (path, button_name)
    return hidden_value(form, "csrf_token")


def start_game_with_token(client, names):
    token = token_from(client, "/parties/nouvelle", "Commencer la partie")
    data = {"csrf_token": token, **{f"players-{seat}": name for seat, name in enumerate(names)}}
    response = client.post("/parties", data=data)
    assert response.status_code == 303, response.get_data(as_text=True)
    return response.headers["Location"].removeprefix("/parties/")


def play_round_with_token(client, public_id, heads):
    form = form_of(parse(client.get(game_url(public_id)).data), "Valider la manche")
    data = round_data(hidden_value(form, "number"), heads, hidden_value(form, "version"))
    data["csrf_token"] = hidden_value(form, "csrf_token")
    return client.post(form.get("action"), data=data)


@pytest.fixture
def game_with_a_round(client):
    public_id = start_game_with_token(client, ["Alice", "Bob"])
    assert play_round_with_token(client, public_id, [70, 3]).status_code == 303
    return public_id


def every_post(public_id):
    url = game_url(public_id)
    return [
        ("/parties", {"players-0": "Carla", "players-1": "David"}),
        (f"{url}/manches", round_data(2, [1, 2])),
        (f"{url}/manches/annuler", {"number": "1"}),
        (f"{url}/manches/retablir", {"number": "1"}),
        (f"{url}/supprimer", {}),
        (f"{url}/revanche", {}),
        (f"{url}/manches/1", {"version": "1", **round_data(1, [9, 9])}),
        ("/historique/import", {}),
        (f"{url}/assistant/rangees", {"number": "1", "row-0": "18", "row-1": "31"}),
        (f"{url}/assistant/rangees/reprendre", {}),
        (f"{url}/assistant/tours", {"turn": "1", "card-0": "9", "card-1": "50"}),
        (f"{url}/assistant/choix", {"turn": "1", "row": "1"}),
        (f"{url}/assistant/annuler", {"turn": "1"}),
        (f"{url}/partage", {}),
        (f"{url}/partage/arreter", {}),
        (f"{url}/inviter", {}),
        (f"{url}/inviter/arreter", {}),
        (f"{url}/inviter/retirer", {}),
        ("/rejoindre/any-token", {}),
    ]


def test_every_post_without_the_token_is_refused_with_a_french_400(client, app, game_with_a_round):
    before = dump(app)

    for token in ({}, {"csrf_token": "not-the-token"}):
        for path, data in every_post(game_with_a_round):
            response = client.post(path, data={**data, **token})
            assert response.status_code == 400, (path, token)
            page = parse(response.data)
            assert "jeton" in page.text or "expiré" in page.text, page.text
            assert page.find("html").get("lang") == "fr"

    assert dump(app) == before


def test_a_token_from_another_browser_is_refused(client, app, game_with_a_round):
    """A page's token is tied to the browser's session: an attacker's own token is useless."""
    attacker = new_device(app)
    stolen = token_from(attacker, "/parties/nouvelle", "Commencer la partie")
    before = dump(app)

    response = client.post(
        f"{game_url(game_with_a_round)}/manches/annuler", data={"number": "1", "csrf_token": stolen}
    )

    assert response.status_code == 400
    assert dump(app) == before


def test_every_form_on_every_page_carries_a_token(client, game_with_a_round):
    pages = ["/", "/parties/nouvelle", game_url(game_with_a_round), "/historique"]

    for path in pages:
        for form in parse(client.get(path).data).find_all("form"):
            if (form.get("method") or "get").lower() == "post":
                assert hidden_value(form, "csrf_token"), (path, form)


def test_oversized_bodies_are_refused_before_anything_else(client, app, game_with_a_round):
    before = dump(app)
    for path, _ in every_post(game_with_a_round):
        limit = app.config[
            "MAX_IMPORT_LENGTH" if path.endswith("/import") else "MAX_CONTENT_LENGTH"
        ]
        response = client.post(path, data={"filler": "x" * (limit + 1)})
        assert response.status_code == 413, path
        said = parse(response.data).text
        assert "trop" in said.lower(), path
        # The limit is said: an import's (a history file), or any other form's.
        size = r"2\smégaoctets" if path.endswith("/import") else r"64\skilooctets"
        assert re.search(rf"taille permise \({size} au plus\)", said), path

    assert dump(app) == before
