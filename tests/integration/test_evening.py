"""The table's evening through its pages, without JavaScript: « Autre jeu, même table » (the
new-game form with the same names, its checked `after`), « La soirée » on the game pages and
the follow page, the evening's page (404 for another phone, and for an evening of one), the big
screen's ranking between two games."""

from __future__ import annotations

import pytest

from .actions import game_url, new_device, play_round, start_game, tap
from .html import field_labelled, form_of, hidden_value, link, parse, table_named
from .test_table import invite, join

pytestmark = pytest.mark.storage

NAMES = ["Alice", "Bruno"]


def finished_game(client, names=NAMES, scores=(70, 3)) -> str:
    public_id = start_game(client, names)
    assert play_round(client, public_id, 1, list(scores)).status_code == 303
    return public_id


def other_game_form(client, public_id: str):
    """Follow « Autre jeu, même table » from the finished game's page: the new-game form."""
    page = parse(client.get(game_url(public_id)).data)
    other = link(page, "Autre jeu, même table")
    assert other is not None, "no « Autre jeu, même table » on a finished game"
    response = client.get(other.get("href"))
    assert response.status_code == 200
    return parse(response.data)


def start_from(client, form_page, **fields: str):
    """Send the new-game form as shown (names filled in, its hidden fields), with `fields`."""
    form = form_of(form_page, "Commencer la partie")
    data = {
        field.get("name"): field.get("value") or ""
        for field in form.find_all("input")
        if field.get("type") not in ("radio", "checkbox") or "checked" in field.attrs
    }
    data.update(fields)
    return client.post(form.get("action"), data=data)


def evening_rows(page) -> list[list[str]]:
    """Each row of « Classement de la soirée »: rank, name, games, wins, mean place."""
    table = table_named(page, "Classement de la soirée")
    assert table is not None, "no table « Classement de la soirée »"
    headers = [cell.text for cell in table.find("thead").find_all("th")]
    assert any(h.startswith("Parties") for h in headers)
    assert any(h.startswith("Victoires") for h in headers)
    rows = []
    for row in table.find("tbody").find_all("tr"):
        rank, name = row.find("th").text.split(". ", 1)
        rows.append([rank, name, *(cell.text for cell in row.find_all("td"))])
    return rows


def test_another_game_at_the_same_table_has_the_names_and_joins_the_evening(client):
    first = finished_game(client)  # Bruno wins
    form_page = other_game_form(client, first)
    assert field_labelled(form_page, "Joueur 1").get("value") == "Alice"
    assert field_labelled(form_page, "Joueur 2").get("value") == "Bruno"
    assert link(parse(client.get(game_url(first)).data), "La soirée") is None  # one game yet

    started = start_from(client, form_page, game="skyjo")
    assert started.status_code == 303
    second = started.headers["Location"].rsplit("/", 1)[-1]
    page = parse(client.get(game_url(second)).data)
    evening_link = link(page, "La soirée")
    assert evening_link is not None
    old_page = parse(client.get(game_url(first)).data)  # Back, or another phone: where it went on
    assert link(old_page, "La soirée") is not None
    assert link(old_page, "Aller à la nouvelle partie").get("href") == game_url(second)

    evening = parse(client.get(evening_link.get("href")).data)
    assert "La soirée" in evening.find("h1").text
    games = [item.text for item in evening.find("ol").find_all("li")]
    assert "6 qui prend" in games[0] and "Bruno" in games[0]
    assert "Skyjo" in games[1] and "en cours" in games[1]
    # Rank, name, games, wins, mean place: Skyjo in progress counts as played, not won.
    assert evening_rows(evening) == [["1", "Bruno", "2", "1", "1"], ["2", "Alice", "2", "0", "2"]]
    assert "Bruno, 1 victoire en 2 parties" in evening.find("p", data_share_text=True).text


@pytest.mark.parametrize(
    ("language", "text"),
    [
        (
            "fr",
            "La soirée\u202f: 1. Bruno, 1 victoire en 1 partie\u202f; "
            "1. Chloé, 1 victoire en 1 partie\u202f; 3. Alice, 0 victoire en 2 parties",
        ),
        (
            "en",
            "Tonight: 1. Bruno, 1 win in 1 game; 1. Chloé, 1 win in 1 game; "
            "3. Alice, 0 wins in 2 games",
        ),
        (
            "de",
            "Der Abend: 1. Bruno, 1 Sieg in 1 Partie; 1. Chloé, 1 Sieg in 1 Partie; "
            "3. Alice, 0 Siege in 2 Partien",
        ),
    ],
)
def test_the_evenings_text_says_each_count_in_its_plural_and_the_languages_punctuation(
    client, language, text
):
    """QA: « 0 victoire en 1 parties », and « ; » with no narrow space before it in French."""
    first = finished_game(client)  # Bruno wins
    form_page = other_game_form(client, first)
    started = start_from(client, form_page, **{"players-1": "Chloé"})  # Bruno sits out
    second = started.headers["Location"].rsplit("/", 1)[-1]
    assert play_round(client, second, 1, [70, 3]).status_code == 303  # Chloé wins

    page = client.get(f"{game_url(second)}/soiree", headers={"Accept-Language": language})
    # The markup as sent: html.py's text() collapses every space, the narrow no-break one too.
    assert f"<p data-share-text>{text}</p>" in page.get_data(as_text=True)


def test_a_rematch_joins_the_evening_and_a_plain_new_game_starts_another(client):
    first = finished_game(client)
    again = tap(client, parse(client.get(game_url(first)).data), "Rejouer avec les mêmes joueurs")
    second = again.headers["Location"].rsplit("/", 1)[-1]
    plain = start_game(client, NAMES)

    assert client.get(f"{game_url(second)}/soiree").status_code == 200
    assert link(parse(client.get(game_url(plain)).data), "La soirée") is None
    assert client.get(f"{game_url(plain)}/soiree").status_code == 404  # an evening of one


def test_every_phone_of_the_table_sees_the_evening_and_another_phone_gets_404(app, client):
    first = start_game(client, NAMES)
    joined = new_device(app)
    join(joined, invite(client, first))
    play_round(client, first, 1, [70, 3])
    started = start_from(joined, other_game_form(joined, first), game="flip-7")
    second = started.headers["Location"].rsplit("/", 1)[-1]

    mine = client.get(f"{game_url(first)}/soiree")
    theirs = joined.get(f"{game_url(second)}/soiree")

    assert mine.status_code == theirs.status_code == 200
    assert evening_rows(parse(mine.data)) == evening_rows(parse(theirs.data))
    stranger = new_device(app)
    assert stranger.get(f"{game_url(first)}/soiree").status_code == 404
    assert stranger.get(f"/parties/nouvelle?after={first}").status_code == 200


@pytest.mark.parametrize(
    "after", ["x" * 500, "\x00", "../soiree", "<script>", "AAAAAAAAAAAAAAAAAAAAAA", "é"]
)
def test_a_hand_made_after_starts_a_game_of_its_own_evening(client, after):
    shown = client.get("/parties/nouvelle", query_string={"after": after})
    assert shown.status_code == 200
    data = {"players-0": "Alice", "players-1": "Bruno", "after": after}

    started = client.post("/parties", data=data)

    assert started.status_code == 303
    assert link(parse(client.get(started.headers["Location"]).data), "La soirée") is None


def test_another_phones_game_is_not_joined(app, client):
    theirs = finished_game(new_device_with_game := new_device(app))
    assert new_device_with_game.get(game_url(theirs)).status_code == 200
    shown = parse(client.get(f"/parties/nouvelle?after={theirs}").data)
    assert field_labelled(shown, "Joueur 1").get("value") == ""  # nothing of theirs shown

    started = client.post("/parties", data={"players-0": "A", "players-1": "B", "after": theirs})

    assert started.status_code == 303
    assert new_device_with_game.get(f"{game_url(theirs)}/soiree").status_code == 404


def test_a_refused_form_keeps_the_game_it_follows(client):
    first = finished_game(client)
    form_page = other_game_form(client, first)

    refused = start_from(client, form_page, **{"players-1": ""})  # one name only

    assert refused.status_code == 422
    form = form_of(parse(refused.data), "Commencer la partie")
    assert hidden_value(form, "after") == first
    assert field_labelled(form, "Joueur 1").get("value") == "Alice"


def test_the_big_screen_shows_the_evening_between_two_games(app, client):
    first = start_game(client, NAMES)
    shared = client.post(f"{game_url(first)}/partage")
    share_page = parse(client.get(shared.headers["Location"]).data)
    address = next(a.get("href") for a in share_page.find_all("a") if "/suivre/" in a.get("href"))
    screen = new_device(app)
    play_round(client, first, 1, [70, 3])
    assert table_named(parse(screen.get(address).data), "Classement de la soirée") is None

    tap(client, parse(client.get(game_url(first)).data), "Rejouer avec les mêmes joueurs")
    between = parse(screen.get(address).data)
    assert evening_rows(between)[0][:4] == ["1", "Bruno", "2", "1"]
    evening = screen.get(link(between, "La soirée").get("href"))
    assert evening.status_code == 200 and screen.get_cookie("appareil") is None
    assert evening.headers["Referrer-Policy"] == "no-referrer"
    assert "La soirée" in parse(evening.data).find("h1").text

    second = client.get(game_url(first)).data  # the old page links where the table went on
    second_id = link(parse(second), "Aller à la nouvelle partie").get("href").rsplit("/", 1)[-1]
    play_round(client, second_id, 1, [3, 5])
    after_first_round = parse(screen.get(address).data)
    assert table_named(after_first_round, "Classement de la soirée") is None
    assert link(after_first_round, "La soirée") is not None
