"""Hand-made requests: planted cookies, control characters, forged hosts, odd digits, missing
fields and headers. Each gets an honest answer, never a 5xx, and changes nothing it should not."""

from __future__ import annotations

import pytest

from app import create_app

from .actions import dump, game_url, new_device, play_rounds, round_lines_of, start_game
from .html import parse

NAMES = {"players-0": "Alice", "players-1": "Bob"}


def device_cookie(app, client) -> str | None:
    cookie = client.get_cookie(app.config["DEVICE_COOKIE_NAME"])
    return cookie.value if cookie else None


# --- Device cookies -------------------------------------------------------------------------------


def test_a_planted_token_is_replaced_not_adopted(app):
    planted = "p" * 43  # the shape of a token, but not signed by this server
    victim = new_device(app)
    victim.set_cookie(app.config["DEVICE_COOKIE_NAME"], planted)

    response = victim.post("/parties", data=NAMES)

    assert response.status_code == 303
    assert device_cookie(app, victim) not in (None, planted)
    attacker = new_device(app)
    attacker.set_cookie(app.config["DEVICE_COOKIE_NAME"], planted)
    assert attacker.get(response.headers["Location"]).status_code == 404


def test_a_token_signed_before_a_key_change_keeps_its_games(app, database_url):
    public_id = start_game(client := app.test_client(), ["Alice", "Bob"])
    token = device_cookie(app, client)
    rotated = create_app(
        {
            **app.config,
            "SECRET_KEY": "a-new-key",
            "SECRET_KEY_FALLBACKS": [app.config["SECRET_KEY"]],
        }
    )
    phone = rotated.test_client()
    phone.set_cookie(app.config["DEVICE_COOKIE_NAME"], token)

    assert phone.get(game_url(public_id)).status_code == 200
    assert device_cookie(rotated, phone) == token


def test_without_the_old_key_a_rotated_token_is_replaced(app, database_url):
    public_id = start_game(client := app.test_client(), ["Alice", "Bob"])
    token = device_cookie(app, client)
    rotated = create_app({**app.config, "SECRET_KEY": "a-new-key"})
    phone = rotated.test_client()
    phone.set_cookie(app.config["DEVICE_COOKIE_NAME"], token)

    assert phone.get(game_url(public_id)).status_code == 404
    assert device_cookie(rotated, phone) != token


# --- Control characters ---------------------------------------------------------------------------


@pytest.mark.storage  # PostgreSQL refuses a NUL byte where SQLite stores it
@pytest.mark.parametrize("key", ["\x00zz", "a\x00", "\x1b[31m", "é" * 10, "x" * 65])
def test_a_form_key_that_was_not_ours_is_refused_never_a_server_error(client, app, key):
    before = dump(app)

    response = client.post("/parties", data={**NAMES, "key": key})

    assert response.status_code == 422  # the form again, the names kept, nothing stored
    assert "Le formulaire envoyé est incomplet ou invalide." in response.text
    assert dump(app) == before


# --- Hosts and redirects --------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/static//etc/passwd", "//parties/nouvelle", "/historique//"])
def test_a_forged_host_is_never_sent_back(client, path):
    response = client.get(path, headers={"Host": "evil.example"})

    assert "evil.example" not in response.headers.get("Location", "")
    assert response.status_code == 404


def test_with_trusted_hosts_another_host_is_refused(database_url):
    app = create_app(
        {
            "SQLALCHEMY_DATABASE_URI": database_url,
            "SECRET_KEY": "k",
            "TRUSTED_HOSTS": ["compteur.example"],
        }
    )
    client = app.test_client()

    assert client.get("/", headers={"Host": "evil.example"}).status_code == 400
    assert client.get("/", headers={"Host": "compteur.example"}).status_code == 200


# --- Round addresses, exports, CSRF answers, seats ------------------------------------------------


@pytest.mark.parametrize("number", ["%EF%BC%91", "%D9%A1", "%C2%B9", "1%E2%80%8B"])
def test_a_round_address_takes_ascii_digits_only(client, number):
    public_id = start_game(client, ["Alice", "Bob"])
    play_rounds(client, public_id, [3, 4])

    assert client.get(f"{game_url(public_id)}/manches/{number}").status_code == 404
    assert client.get(f"{game_url(public_id)}/manches/1").status_code == 200


@pytest.mark.parametrize("path", ["/export.csv", "/export.json"])
def test_a_games_export_is_never_stored_by_a_cache(client, path):
    public_id = start_game(client, ["Alice", "Bob"])

    for url in (game_url(public_id) + path, "/historique" + path):
        assert client.get(url).headers["Cache-Control"] == "private, no-store"


def test_two_players_cannot_send_heads_for_seat_seven(client, app):
    public_id = start_game(client, ["Alice", "Bob"])
    before = dump(app)

    response = client.post(
        f"{game_url(public_id)}/manches", data={"number": "1", "score-0": "4", "score-7": "9"}
    )

    assert response.status_code == 422
    assert dump(app) == before
    assert round_lines_of(client, public_id) == []


@pytest.fixture
def app_settings():
    return {}


@pytest.mark.parametrize("app_settings", [{"WTF_CSRF_ENABLED": True}], ids=["csrf"])
def test_over_https_a_form_without_referer_says_so(app, app_settings):
    phone = app.test_client()
    page = parse(phone.get("/parties/nouvelle", base_url="https://localhost").data)
    token = page.find("input", name="csrf_token").get("value")

    response = phone.post(
        "/parties", data={**NAMES, "csrf_token": token}, base_url="https://localhost"
    )

    assert response.status_code == 400
    text = parse(response.data).text
    assert "Referer" in text and "expiré" not in text
