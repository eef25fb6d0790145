"""Languages: the browser's language first, a switch on every page that is remembered, all in one."""

from __future__ import annotations

from datetime import datetime
from urllib.parse import parse_qs, urlsplit

import pytest
from flask_babel import force_locale

from app.web.filters import after_colon
from app.web.wording import local_datetime

from .actions import game_url, play_round, start_game
from .html import field_labelled, link, parse, status_text, table_named

ENGLISH = {"Accept-Language": "en-GB,en;q=0.9"}
GERMAN = {"Accept-Language": "de-DE,de;q=0.9,en;q=0.5"}


def comes_back_to(switch) -> tuple[str, str]:
    """Return the address a language link opens, and the page it then comes back to."""
    address = urlsplit(switch.get("href"))
    return address.path, parse_qs(address.query)["next"][0]


def html_lang(response) -> str:
    return parse(response.data).find("html").get("lang")


@pytest.mark.parametrize(
    ("accept", "language", "new_game"),
    [
        ({"Accept-Language": "en-GB,en;q=0.9"}, "en", "New game"),
        ({"Accept-Language": "de-DE,de;q=0.9,en;q=0.5"}, "de", "Neues Spiel"),
        ({"Accept-Language": "es-ES,es;q=0.9,de;q=0.3"}, "de", "Neues Spiel"),
        ({"Accept-Language": "fr-CH,fr;q=0.9,en;q=0.8"}, "fr", "Nouvelle partie"),
        ({"Accept-Language": "es-ES,ja;q=0.5"}, "fr", "Nouvelle partie"),
        ({}, "fr", "Nouvelle partie"),
    ],
)
def test_pages_speak_the_browsers_best_language_else_french(client, accept, language, new_game):
    response = client.get("/", headers=accept)

    assert html_lang(response) == language
    assert response.headers["Content-Language"] == language
    assert {"Accept-Language", "Cookie"} <= set(response.vary)
    assert link(parse(response.data), new_game) is not None


def test_every_page_offers_each_other_language_named_in_itself(client):
    public_id = start_game(client, ["Alice", "Bob"])
    for path in ["/", "/parties/nouvelle", game_url(public_id), "/historique", "/statistiques"]:
        page = parse(client.get(path, headers=ENGLISH).data)

        switch = {a.text: a for a in page.find("nav", **{"aria-label": "Language"}).find_all("a")}
        assert set(switch) == {"Français", "Deutsch"}, path
        assert (switch["Deutsch"].get("lang"), switch["Deutsch"].get("hreflang")) == ("de", "de")
        assert comes_back_to(switch["Français"]) == ("/langue/fr", path)


def test_the_switch_shows_the_same_page_in_the_language_chosen_and_remembers_it(client):
    response = client.get("/langue/de?next=/historique", headers=ENGLISH)

    assert response.status_code == 303
    assert response.headers["Location"] == "/historique"
    later = client.get("/historique", headers=ENGLISH)
    assert html_lang(later) == "de"
    assert parse(later.data).find("h1").text == "Frühere Spiele"


def test_the_switch_goes_back_to_french_for_an_english_browser(client):
    client.get("/langue/en?next=/")
    client.get("/langue/fr?next=/")

    assert html_lang(client.get("/", headers=ENGLISH)) == "fr"


def test_the_language_cookie_lasts_and_stays_out_of_scripts(client):
    response = client.get("/langue/en?next=/")

    cookie = response.headers["Set-Cookie"]
    assert cookie.startswith("lang=en;")
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Max-Age=34560000" in cookie


@pytest.mark.parametrize(
    "target",
    ["https://evil.example/", "//evil.example/", "/\\evil.example/", "evil", "javascript:alert(1)"],
)
def test_the_switch_never_leaves_the_site(client, target):
    response = client.get("/langue/en", query_string={"next": target})

    assert response.status_code == 303
    assert response.headers["Location"] == "/"


def test_an_unknown_language_is_not_found(client):
    assert client.get("/langue/es?next=/").status_code == 404


def test_after_a_refused_round_the_switch_comes_back_to_the_game(client):
    public_id = start_game(client, ["Alice", "Bob"])
    page_url = f"http://localhost{game_url(public_id)}"

    refused = client.post(
        f"{game_url(public_id)}/manches",
        data={"number": "1", "score-0": "500", "score-1": "1", "version": "1"},
        headers={**ENGLISH, "Referer": page_url},
    )

    assert refused.status_code == 422
    switch = link(parse(refused.data), "Deutsch")
    assert comes_back_to(switch) == ("/langue/de", game_url(public_id))


def test_a_refused_round_is_explained_in_the_language_chosen(client):
    public_id = start_game(client, ["Alice", "Bob"])
    client.get("/langue/de?next=/")

    refused = parse(play_round(client, public_id, 1, [200, 1]).data)

    field = field_labelled(refused, "Alice")
    message = refused.by_id(field.get("aria-describedby")).text
    assert "Hornochsen" in message and "79" in message, message
    assert "Runde 1 wurde nicht eingetragen" in refused.find(role="alert").text


def test_a_piece_of_page_for_htmx_is_in_the_language_chosen_too(client):
    public_id = start_game(client, ["Alice", "Bob"])
    client.get("/langue/en?next=/")

    response = play_round(client, public_id, 1, [70, 3], htmx=True)

    assert response.headers["Content-Language"] == "en"
    page = parse(response.data)
    assert table_named(page, "Rounds") is not None
    assert "Bob wins with 3 bullheads!" in status_text(page)


def test_numbers_follow_the_language(client):
    public_id = start_game(client, ["Alice", "Bob"])
    play_round(client, public_id, 1, [70, 1])  # Bob: 1 head in 1 round, Alice 70

    english = parse(client.get("/statistiques", headers=ENGLISH).data).text
    german = parse(client.get("/statistiques", headers=GERMAN).data).text
    assert "70.0" in english and "70,0" in german  # dates: test_a_games_date_reads_as_each_…


FREE_GAME = {"game": "libre", "title": "Belote", "end": "other_limit"}


@pytest.mark.parametrize(
    ("headers", "written"),
    [({}, "1 à 999\u202f999"), (ENGLISH, "1 to 999,999"), (GERMAN, "1 bis 999.999")],
)
def test_a_number_in_a_message_is_written_as_the_language_writes_it(client, headers, written):
    typed = {"players-0": "Ann", "players-1": "Ben", **FREE_GAME, "limit": "1000000"}

    refused = client.post("/parties", data=typed, headers=headers)

    assert refused.status_code == 422
    assert written in refused.get_data(as_text=True)  # .text would make U+202F a plain space
    limit = parse(refused.data).find("input", name="limit")
    assert limit.get("value") == "1000000"  # what was typed, as typed


def test_a_count_that_chooses_the_plural_is_written_as_the_language_writes_it(client):
    public_id = start_game(client, ["Ann", "Ben"], **FREE_GAME, best="highest", limit="1000")

    play_round(client, public_id, 1, [1234, 5])

    english = client.get(game_url(public_id), headers=ENGLISH).get_data(as_text=True)
    french = client.get(game_url(public_id)).get_data(as_text=True)
    assert "Ann wins with 1,234 points" in english
    assert "Ann gagne avec 1\u202f234 points" in french


def test_the_assistant_counting_and_rules_speak_the_language_chosen(client):
    public_id = start_game(client, ["Alice", "Bob"])
    client.get("/langue/en?next=/")

    refused = parse(
        client.post(
            f"{game_url(public_id)}/assistant/rangees",
            data={
                "number": "1",
                "version": "1",
                **{"row-0": "5", "row-1": "5", "row-2": "200", "row-3": ""},
            },
        ).data
    )
    counted = parse(client.get(f"{game_url(public_id)}/compter?cartes=55+10+23+11").data)
    game_rules = parse(client.get("/regles").data)

    assert refused.find("h1").text == "Round assistant"
    assert field_labelled(refused, "Row 3") is not None
    assert "Nothing was placed" in refused.find(role="alert").text
    assert "Row 3: 200 is not a card of this game: 1 to 104." in refused.find(role="alert").text
    assert "55 → 7, 10 → 3, 23 → 1, 11 → 5: 16 bullheads" in status_text(counted)
    assert game_rules.find("h1").text == "Game rules"


@pytest.mark.parametrize(
    ("language", "day", "said"),
    [
        ("fr", 1, "1er déc. 2026"),
        ("fr", 2, "2 déc. 2026"),
        ("en", 1, "Dec 1, 2026"),
        ("de", 1, "1. Dez. 2026"),
    ],
)
def test_a_games_date_reads_as_each_language_writes_it(app, language, day, said):
    with app.test_request_context("/"), force_locale(language):
        assert local_datetime(datetime(2026, 12, day, 12, 0)).startswith(said)


@pytest.mark.parametrize(
    ("language", "reason", "said"),
    [
        ("fr", "Le 41 est donné deux fois.", "le 41 est donné deux fois."),
        ("en", "The 41 is given twice.", "the 41 is given twice."),
        ("de", "Die 41 wurde zweimal angegeben.", "Die 41 wurde zweimal angegeben."),
        ("fr", "« Bob » est déjà à la table.", "« Bob » est déjà à la table."),
        ("en", "CSV files only.", "CSV files only."),
    ],
)
def test_a_fields_reason_after_the_players_name_reads_on_without_a_capital(
    app, language, reason, said
):
    with app.test_request_context("/"), force_locale(language):
        assert after_colon(reason) == said
