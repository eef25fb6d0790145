"""Rate limits on game creation and on writes, per device and address, answered by a French 429."""

import io
import json
import re
import secrets
import sqlite3

import pytest

from app import create_app
from app.platform.extensions import limiter
from app.web.result import picture

from .actions import dump, game_page, game_url, new_device, play_round, play_rounds, start_game, tap
from .html import parse
from .test_follow import share

NAMES = {"players-0": "Alice", "players-1": "Bob"}


@pytest.fixture
def app_settings(tmp_path):
    return {
        "RATELIMIT_ENABLED": True,
        "RATELIMIT_STORAGE_URI": f"sqlite:///{tmp_path / 'rate-limits.sqlite'}",  # the default's kind
        "RATELIMIT_GAME_CREATION": "3 per minute",
        "RATELIMIT_WRITES": "5 per minute",
        "RATELIMIT_GAME_CREATION_PER_ADDRESS": "8 per minute",
        "RATELIMIT_WRITES_PER_ADDRESS": "12 per minute",
        "RATELIMIT_IMPORTED_GAMES": "5 per hour",
        "RATELIMIT_IMPORTED_GAMES_PER_ADDRESS": "8 per hour",
        "RATELIMIT_GUESSES": "5 per minute",
        "RATELIMIT_DRAWINGS_PER_ADDRESS": "2 per minute",
        "RATELIMIT_HEAVY": "6 per minute",
        "RATELIMIT_HEAVY_PER_ADDRESS": "10 per minute",
    }


@pytest.fixture(autouse=True)
def fresh_counters(app):
    # The Limiter is module-global (app/platform/extensions.py): start and leave every test with no counts.
    with app.app_context():
        limiter.reset()
    yield
    with app.app_context():
        limiter.reset()


def assert_french_429(response):
    assert response.status_code == 429
    page = parse(response.data)
    assert page.find("html").get("lang") == "fr"
    assert "Trop de demandes" in page.text
    assert re.search(r"Réessayez dans \d+ (seconde|minute|heure)", page.text), page.text
    assert 1 <= int(response.headers["Retry-After"]) <= 3600


def test_the_fourth_game_created_in_a_minute_is_refused(client, app):
    client.get("/parties/nouvelle")  # as a person does: the form first, then the games
    for _ in range(3):
        assert client.post("/parties", data=NAMES).status_code == 303
    before = dump(app)

    response = client.post("/parties", data=NAMES)

    assert_french_429(response)
    assert dump(app) == before


def test_adding_players_spends_no_game_of_the_allowance(client):
    client.get("/parties/nouvelle")
    for _ in range(8):  # more than the device's 3 games and the address's 8 a minute
        assert client.post("/parties", data={**NAMES, "ajouter": "1"}).status_code == 200

    assert client.post("/parties", data=NAMES).status_code == 303


def test_a_refused_new_game_spends_no_game_of_the_allowance(client):
    """The host's report: thirty forms refused (a name typed twice) left a phone no game for an
    hour, having created none."""
    client.get("/parties/nouvelle")
    for _ in range(8):  # more than the device's 3 games and the address's 8 a minute
        refused = client.post("/parties", data={"players-0": "Ana", "players-1": "ana"})
        assert refused.status_code == 422

    assert client.post("/parties", data=NAMES).status_code == 303


def test_the_same_form_sent_again_spends_no_second_game(client):
    """The host's report: a double tap on « Commencer la partie » started one game and counted
    two."""
    client.get("/parties/nouvelle")
    form = {**NAMES, "key": "une-seule-partie"}
    for _ in range(8):  # the same form: one game, whatever the taps
        assert client.post("/parties", data=form).status_code == 303

    assert client.post("/parties", data=NAMES).status_code == 303  # two more of the device's 3
    assert client.post("/parties", data=NAMES).status_code == 303


def test_a_returning_device_is_limited_on_its_fourth_creation(client, app):
    """A phone that kept its cookie from an earlier visit (a new client, the same cookie)."""
    client.get("/")
    returning = new_device(app)
    returning.set_cookie(
        app.config["DEVICE_COOKIE_NAME"],
        client.get_cookie(app.config["DEVICE_COOKIE_NAME"]).value,
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
    play_rounds(client, public_id, [70, 1])
    page = game_page(client, public_id)
    for _ in range(3):
        assert tap(client, page, "Rejouer avec les mêmes joueurs").status_code == 303
    before = dump(app)

    response = tap(client, page, "Rejouer avec les mêmes joueurs")

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


def test_only_a_refusal_says_when_to_come_back(client):
    client.get("/parties/nouvelle")

    answers = [client.post("/parties", data=NAMES), client.get("/parties/nouvelle")]

    assert [answer.headers.get("Retry-After") for answer in answers] == [None, None]


def test_reading_pages_is_not_limited_like_writes(client):
    public_id = start_game(client, ["Alice", "Bob"])

    statuses = {client.get(game_url(public_id)).status_code for _ in range(12)}
    statuses |= {client.get("/healthz").status_code for _ in range(12)}

    assert statuses == {200}


# --- Per address: fresh cookies gain nothing ------------------------------------------------------


def test_fresh_devices_from_one_address_share_its_creation_allowance(app):
    statuses = []
    for _ in range(9):
        script = new_device(app)
        script.get("/")  # a fresh, signed device token, as the attack did
        statuses.append(script.post("/parties", data=NAMES).status_code)

    assert statuses == [303] * 8 + [429]


def test_fresh_devices_from_one_address_share_its_write_allowance(app):
    statuses = []
    for _ in range(4):
        script = new_device(app)
        script.get("/")
        public_id = start_game(script, ["Alice", "Bob"])
        statuses += [play_round(script, public_id, n, [1, 2]).status_code for n in (1, 2, 3)]
    # 4 creations and 12 rounds fill the 12 writes of the address (creations count apart).

    assert statuses == [303] * 12
    script = new_device(app)
    script.get("/")
    assert_french_429(script.post(f"{game_url(public_id)}/manches", data={"number": "4"}))


def test_another_address_has_its_own_allowance(app):
    for _ in range(8):
        new_device(app).post("/parties", data=NAMES)
    elsewhere = new_device(app)
    elsewhere.environ_base["REMOTE_ADDR"] = "192.0.2.7"

    assert elsewhere.post("/parties", data=NAMES).status_code == 303


def test_a_device_signed_before_a_key_change_keeps_its_own_allowance(app, app_settings):
    table = new_device(app)
    table.get("/")
    token = table.get_cookie(app.config["DEVICE_COOKIE_NAME"]).value
    rotated = create_app(
        {
            **app.config,
            "SECRET_KEY": "a-new-key",
            "SECRET_KEY_FALLBACKS": [app.config["SECRET_KEY"]],
        }
    )
    for _ in range(3):  # a neighbour's script without cookies uses up the anonymous allowance
        rotated.test_client().post("/parties", data=NAMES)
    assert rotated.test_client().post("/parties", data=NAMES).status_code == 429
    table = rotated.test_client()
    table.set_cookie(app.config["DEVICE_COOKIE_NAME"], token)

    assert table.post("/parties", data=NAMES).status_code == 303


# --- Guesses and drawings -------------------------------------------------------------------------


def counters(app) -> list[str]:
    storage = sqlite3.connect(app.config["RATELIMIT_STORAGE_URI"].removeprefix("sqlite:///"))
    try:
        return [key for (key,) in storage.execute("SELECT key FROM counter")]
    finally:
        storage.close()


def test_addresses_leading_nowhere_count_toward_one_allowance_on_every_route(app, client):
    game = start_game(client, ["Ana", "Bob"])
    follow_address = share(client, game)
    guesser = new_device(app)
    guesser.get("/")
    routes = [
        "/suivre/{}",
        "/suivre/{}/direct",
        "/suivre/{}/resultat.png",
        "/rejoindre/{}",
        "/parties/{}",
        "/parties/{}/resultat.png",
    ]
    guesses = [secrets.token_urlsafe(16) for _ in routes]
    answers = [guesser.get(route.format(guess)) for route, guess in zip(routes, guesses)]
    kept = counters(app)

    assert [answer.status_code for answer in answers] == [404] * 5 + [429]
    assert_french_429(answers[-1])
    assert not [key for key in kept for guess in guesses if guess in key]  # none per guess
    # What exists still answers, to the same address: a café's tables share it with the guesser.
    assert guesser.get(follow_address).status_code == 200
    assert client.get(game_url(game)).status_code == 200


def test_only_new_drawings_of_the_result_count(client):
    game = start_game(client, ["Brice", "Chloé", "Aube"])
    play_rounds(client, game, [5, 9, 30], [10, 10, 40])
    image = f"{game_url(game)}/resultat.png"
    picture.forget_drawings()  # another test may have drawn the same card this minute
    french = [client.get(image, headers={"Accept-Language": "fr"}) for _ in range(4)]
    regional = client.get(image, headers={"Accept-Language": "fr-CA"})
    english = client.get(image, headers={"Accept-Language": "en"})
    german = client.get(image, headers={"Accept-Language": "de"})

    assert [answer.status_code for answer in french] == [200] * 4
    assert regional.status_code == 200 and regional.data == french[0].data  # the same drawing
    assert english.status_code == 200
    assert german.status_code == 429 and int(german.headers["Retry-After"]) > 0


# --- Imports count their games --------------------------------------------------------------------


def export_of(count: int, first: int = 0) -> bytes:
    games = [
        {
            "id": f"partie-{n}",
            "created_at": "2026-11-29T19:05:00Z",
            "rules": {"end": "above", "limit": 66, "round_count": None, "pro": False},
            "players": ["Alice", "Bob"],
            "rounds": [[1, 2]],
        }
        for n in range(first, first + count)
    ]
    return json.dumps({"format": "six-qui-prend", "version": 1, "games": games}).encode()


def import_file(client, data: bytes):
    return client.post(
        "/historique/import",
        data={"fichier": (io.BytesIO(data), "parties.json")},
        content_type="multipart/form-data",
    )


def test_a_device_imports_so_many_games_an_hour_and_is_told_when_to_come_back(client, app):
    assert import_file(client, export_of(3)).status_code == 303
    before = dump(app)

    response = import_file(client, export_of(3, first=3))

    assert response.status_code == 422
    assert dump(app) == before
    text = parse(response.data).find(role="alert").text
    assert "Ce fichier compte 3 parties" in text and "5 parties en 1 heure" in text
    assert re.search(r"Réessayez dans (\d+ minutes|1 heure)", text), text
    assert import_file(client, export_of(2, first=3)).status_code == 303


def test_only_the_games_not_here_yet_count_against_the_import_allowance(client):
    assert import_file(client, export_of(4)).status_code == 303
    assert import_file(client, export_of(4)).status_code == 303  # again: nothing new, not refused
    assert import_file(client, export_of(5)).status_code == 303  # 4 here, 1 new: 5 of 5

    assert import_file(client, export_of(1, first=5)).status_code == 422


def test_statistics_exports_and_imports_refused_or_not_share_one_allowance(client):
    client.post("/parties", data=NAMES)  # a phone with its device cookie
    answers = [
        import_file(client, export_of(1)),
        import_file(client, b"not an export"),
        import_file(client, b"{}"),
        client.get("/statistiques"),
        client.get("/historique/export.json"),
        client.get("/historique/export.csv"),
    ]

    assert [answer.status_code for answer in answers] == [303, 422, 422, 200, 200, 200]
    refused = client.get("/statistiques")
    assert_french_429(refused)
    assert "enregistré" not in refused.text  # a page read: there was nothing to record
    assert client.get("/historique").status_code == 200  # one page of games is not heavy


def test_fresh_devices_share_the_addresss_import_allowance(app):
    assert import_file(new_device(app), export_of(4)).status_code == 303
    assert import_file(new_device(app), export_of(4, first=4)).status_code == 303

    assert import_file(new_device(app), export_of(1, first=8)).status_code == 422


def test_the_import_allowance_is_said_in_the_requests_language(client):
    client.set_cookie("lang", "en")
    assert import_file(client, export_of(4)).status_code == 303

    response = import_file(client, export_of(2, first=4))

    assert response.status_code == 422
    text = parse(response.data).find(role="alert").text
    assert "This file holds 2 games" in text and "5 games in 1 hour" in text


# --- Behind a proxy -------------------------------------------------------------------------------


def test_forwarded_addresses_are_believed_only_from_the_trusted_proxy(app):
    proxied = create_app({**app.config, "PROXY_FIX": True, "TRUSTED_PROXIES": ["127.0.0.1"]})
    direct = proxied.test_client()
    direct.environ_base["REMOTE_ADDR"] = "192.0.2.7"  # reached the app without the proxy
    for n in range(8):
        direct.post("/parties", data=NAMES, headers={"X-Forwarded-For": f"198.51.100.{n}"})
    refused = direct.post("/parties", data=NAMES, headers={"X-Forwarded-For": "198.51.100.99"})
    through_proxy = proxied.test_client()  # from 127.0.0.1: the proxy names the client
    for n in range(8):
        through_proxy.post("/parties", data=NAMES, headers={"X-Forwarded-For": "203.0.113.1"})
    another_client = through_proxy.post(
        "/parties", data=NAMES, headers={"X-Forwarded-For": "203.0.113.2"}
    )

    assert refused.status_code == 429  # one address, whatever it claims to forward
    assert another_client.status_code == 303  # each client behind the proxy has its own
