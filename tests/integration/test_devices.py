"""Games belong to the device that started them: a long-lived cookie; the server keeps a hash."""

import re

import pytest

from .actions import HTMX, dump, game_url, new_device, play_rounds, round_data, start_game
from .html import link, parse

FOUR_HUNDRED_DAYS = 400 * 24 * 3600


def device_cookie_header(response, name):
    """Return the Set-Cookie header that sets the device cookie, or None."""
    for header in response.headers.getlist("Set-Cookie"):
        if header.startswith(f"{name}="):
            return header
    return None


def cookie_attributes(header):
    parts = [part.strip() for part in header.split(";")]
    value = parts[0].split("=", 1)[1]
    attributes = {}
    for part in parts[1:]:
        key, _, val = part.partition("=")
        attributes[key.lower()] = val
    return value, attributes


def test_starting_a_game_gives_the_device_a_long_lived_httponly_lax_cookie(client, app):
    name = app.config["DEVICE_COOKIE_NAME"]

    response = client.post("/parties", data={"players-0": "Alice", "players-1": "Bob"})

    header = device_cookie_header(response, name)
    assert header is not None
    token, attributes = cookie_attributes(header)
    assert len(token) >= 22  # at least 128 bits of base64url
    assert "httponly" in attributes
    assert attributes.get("samesite", "").lower() == "lax"
    assert FOUR_HUNDRED_DAYS - 24 * 3600 <= int(attributes["max-age"]) <= FOUR_HUNDRED_DAYS
    assert "secure" not in attributes  # plain HTTP here: a Secure cookie would never come back


def test_cookie_is_secure_over_https(app):
    client = app.test_client()
    name = app.config["DEVICE_COOKIE_NAME"]

    response = client.post(
        "/parties", data={"players-0": "Alice", "players-1": "Bob"}, base_url="https://localhost"
    )

    _, attributes = cookie_attributes(device_cookie_header(response, name))
    assert "secure" in attributes


@pytest.mark.parametrize("path", ["/", "/historique", "/parties/nouvelle", "game"])
def test_device_cookie_is_renewed_on_visits(client, app, path):
    name = app.config["DEVICE_COOKIE_NAME"]
    public_id = start_game(client, ["Alice", "Bob"])
    token = client.get_cookie(name).value

    response = client.get(game_url(public_id) if path == "game" else path)

    header = device_cookie_header(response, name)
    assert header is not None
    renewed, attributes = cookie_attributes(header)
    assert renewed == token
    assert int(attributes["max-age"]) >= FOUR_HUNDRED_DAYS - 24 * 3600
    assert "httponly" in attributes


def test_every_device_gets_its_own_token(app):
    name = app.config["DEVICE_COOKIE_NAME"]
    first, second = new_device(app), new_device(app)

    start_game(first, ["Alice", "Bob"])
    start_game(second, ["Alice", "Bob"])

    assert first.get_cookie(name).value != second.get_cookie(name).value


def test_the_database_keeps_only_a_hash_of_the_token(client, app):
    name = app.config["DEVICE_COOKIE_NAME"]
    public_id = start_game(client, ["Alice", "Bob"])
    play_rounds(client, public_id, [3, 4])
    token = client.get_cookie(name).value

    stored = repr(dump(app))

    assert token not in stored
    assert public_id in stored  # the dump does hold the game


def test_the_stored_hash_does_not_open_the_game(client, app):
    """Someone who reads the database cannot use what is stored there as a cookie."""
    public_id = start_game(client, ["Alice", "Bob"])
    stored_values = {
        value
        for row in dump(app)["game"]
        for value in row
        if isinstance(value, str) and value != public_id
    }
    intruder = new_device(app)

    for value in stored_values:
        intruder.set_cookie(app.config["DEVICE_COOKIE_NAME"], value)
        assert intruder.get(game_url(public_id)).status_code == 404


# --- Another device ------------------------------------------------------------------------------


def every_game_route(public_id):
    """(method, path, form data, headers) of every route of a game."""
    url = game_url(public_id)
    return [
        ("GET", url, None, {}),
        ("GET", url, None, HTMX),
        ("POST", f"{url}/manches", round_data(2, [1, 2]), {}),
        ("POST", f"{url}/manches", round_data(2, [1, 2]), HTMX),
        ("POST", f"{url}/manches/annuler", {"number": "1"}, {}),
        ("POST", f"{url}/manches/annuler", {"number": "1"}, HTMX),
        ("POST", f"{url}/revanche", {}, {}),
        ("GET", f"{url}/manches/1", None, {}),
        ("POST", f"{url}/manches/1", {"version": "1", **round_data(1, [9, 9])}, {}),
        ("GET", f"{url}/export.csv", None, {}),
        ("GET", f"{url}/export.json", None, {}),
        ("GET", f"{url}/resultat.png", None, {}),
        ("POST", f"{url}/supprimer", {}, {}),
        ("GET", f"{url}/compter?cartes=55", None, {}),
        ("GET", f"{url}/assistant", None, {}),
        ("POST", f"{url}/assistant/rangees", {"number": "1", "row-0": "1", "row-1": "2"}, {}),
        ("POST", f"{url}/assistant/tours", {"turn": "1", "card-0": "50", "card-1": "75"}, {}),
        ("POST", f"{url}/assistant/choix", {"turn": "1", "row": "1"}, {}),
        ("POST", f"{url}/assistant/annuler", {"turn": "1"}, {}),
        ("GET", f"{url}/partage", None, {}),
        ("POST", f"{url}/partage", {}, {}),
        ("POST", f"{url}/partage/arreter", {}, {}),
        ("GET", f"{url}/inviter", None, {}),
    ]


@pytest.mark.parametrize("own_cookie", [True, False], ids=["another device", "no cookie"])
def test_a_stranger_gets_404_on_every_route_of_a_game(client, app, own_cookie):
    public_id = start_game(client, ["Alice", "Bob"])
    play_rounds(client, public_id, [3, 4])
    stranger = new_device(app)
    if own_cookie:
        start_game(stranger, ["Eve", "Mallory"])  # a device of its own, with a cookie
    before = dump(app)

    for method, path, data, headers in every_game_route(public_id):
        response = stranger.open(path, method=method, data=data, headers=headers)
        assert response.status_code == 404, (method, path, headers)
        assert "Alice" not in response.get_data(as_text=True)

    assert dump(app) == before


def test_another_device_sees_an_empty_history_and_nothing_to_resume(client, app):
    start_game(client, ["Alice", "Bob"])
    stranger = new_device(app)
    start_game(stranger, ["Eve", "Mallory"])

    history = parse(stranger.get("/historique").data)
    home = parse(stranger.get("/").data)

    assert "Alice" not in history.text and "Eve" in history.text
    assert "Alice" not in home.text
    assert link(home, "Reprendre la partie") is not None  # its own game, not Alice's
    assert "Alice" not in stranger.get(link(home, "Reprendre la partie").get("href")).get_data(
        as_text=True
    )


def test_a_device_without_cookie_has_an_empty_history(client, app):
    start_game(client, ["Alice", "Bob"])

    page = parse(new_device(app).get("/historique").data)

    assert "Alice" not in page.text
    game_links = [
        a for a in page.find_all("a") if re.fullmatch(r"/parties/[\w-]{22,}", a.get("href", ""))
    ]
    assert game_links == []


def test_the_owner_keeps_access_with_the_same_cookie_on_a_new_client(client, app):
    """The cookie alone is the device: a new client with the same cookie keeps the games."""
    name = app.config["DEVICE_COOKIE_NAME"]
    public_id = start_game(client, ["Alice", "Bob"])
    restarted = new_device(app)
    restarted.set_cookie(name, client.get_cookie(name).value)

    response = restarted.get(game_url(public_id))

    assert response.status_code == 200
