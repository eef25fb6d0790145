"""Rate limits on game creation and on writes, per device and address, answered by a French 429."""

import secrets

import pytest

from app.extensions import limiter

from .actions import dump, game_url, new_device, play_round, start_game
from .html import parse

NAMES = {"players-0": "Alice", "players-1": "Bob"}


@pytest.fixture
def app_settings():
    return {
        "RATELIMIT_ENABLED": True,
        "RATELIMIT_GAME_CREATION": "3 per minute",
        "RATELIMIT_WRITES": "5 per minute",
    }


@pytest.fixture(autouse=True)
def fresh_counters(app):
    # The Limiter is module-global (app/extensions.py): start and leave every test with no counts.
    with app.app_context():
        limiter.reset()
    yield
    with app.app_context():
        limiter.reset()


def assert_french_429(response):
    assert response.status_code == 429
    page = parse(response.data)
    assert page.find("html").get("lang") == "fr"
    assert "Trop de demandes" in page.text or "patientez" in page.text
    assert response.headers.get("Retry-After")


def test_the_fourth_game_created_in_a_minute_is_refused(client, app):
    client.get("/parties/nouvelle")  # as a person does: the form first, then the games
    for _ in range(3):
        assert client.post("/parties", data=NAMES).status_code == 303
    before = dump(app)

    response = client.post("/parties", data=NAMES)

    assert_french_429(response)
    assert dump(app) == before


def test_a_returning_device_is_limited_on_its_fourth_creation(client, app):
    """A phone that kept its cookie from an earlier visit (a new client, the same cookie)."""
    client.get("/")
    returning = new_device(app)
    returning.set_cookie(
        app.config["DEVICE_COOKIE_NAME"], client.get_cookie(app.config["DEVICE_COOKIE_NAME"]).value
    )
    for _ in range(3):
        assert returning.post("/parties", data=NAMES).status_code == 303

    assert_french_429(returning.post("/parties", data=NAMES))


def test_a_script_posting_without_opening_a_page_is_limited_too(client):
    """Its first creation counts as the address's, the next ones as the device it was given."""
    statuses = [client.post("/parties", data=NAMES).status_code for _ in range(5)]

    assert statuses[:3] == [303, 303, 303]
    assert statuses[-1] == 429


def test_dropping_the_cookie_does_not_reset_the_limit(app):
    for _ in range(3):
        assert new_device(app).post("/parties", data=NAMES).status_code == 303

    assert_french_429(new_device(app).post("/parties", data=NAMES))


def test_made_up_cookies_do_not_escape_the_limit(app):
    """A script that sends a new random device cookie with each request is still one client."""
    name = app.config["DEVICE_COOKIE_NAME"]
    statuses = []
    for _ in range(4):
        script = new_device(app)
        script.set_cookie(name, secrets.token_urlsafe(32))
        statuses.append(script.post("/parties", data=NAMES).status_code)

    assert statuses[:3] == [303, 303, 303]
    assert statuses[3] == 429


def test_one_device_at_the_limit_does_not_block_another_at_the_same_address(client, app):
    # Two tables in the same café, each with the device cookie the server gave it.
    other_table = new_device(app)
    assert client.post("/parties", data=NAMES).status_code == 303
    assert other_table.post("/parties", data=NAMES).status_code == 303
    for _ in range(3):
        client.post("/parties", data=NAMES)
    assert client.post("/parties", data=NAMES).status_code == 429

    assert other_table.post("/parties", data=NAMES).status_code == 303


def test_rematches_are_limited_like_creations(client, app):
    client.set_cookie(app.config["DEVICE_COOKIE_NAME"], secrets.token_urlsafe(32))
    public_id = start_game(client, ["Alice", "Bob"])
    for _ in range(3):
        assert client.post(f"{game_url(public_id)}/revanche").status_code == 303
    before = dump(app)

    response = client.post(f"{game_url(public_id)}/revanche")

    assert_french_429(response)
    assert dump(app) == before


def test_writes_past_the_limit_are_refused_and_store_nothing(client, app):
    public_id = start_game(client, ["Alice", "Bob"])
    for number in range(1, 6):
        assert play_round(client, public_id, number, [1, 2]).status_code == 303
    before = dump(app)

    response = play_round(client, public_id, 6, [1, 2])

    assert_french_429(response)
    assert dump(app) == before


def test_reading_pages_is_not_limited_like_writes(client):
    public_id = start_game(client, ["Alice", "Bob"])

    statuses = {client.get(game_url(public_id)).status_code for _ in range(12)}
    statuses |= {client.get("/healthz").status_code for _ in range(12)}

    assert statuses == {200}
