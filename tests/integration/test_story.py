"""« Le fil de la partie » (issue 45.3) through the pages: the game page links it, it lists each
change newest first with its phone, only the table's phones see it, and it goes with the game's
export and import."""

from __future__ import annotations

import io
import json

import pytest

from .actions import (
    cancel_round,
    game_page,
    game_url,
    new_device,
    play_round,
    play_rounds,
    start_game,
)
from .html import Element, link, parse
from .test_dealer import change
from .test_table import invite, join

NAMES = ["Alice", "Bruno", "Chloé"]


def story_page(client, public_id: str) -> Element:
    found = link(game_page(client, public_id), "Le fil de la partie")
    assert found is not None, "no « Le fil de la partie » on the game page"
    response = client.get(found.get("href"))
    assert response.status_code == 200
    return parse(response.data)


def entries(page: Element) -> list[str]:
    """The story's entries, newest first, each as its text reads."""
    told = page.find("ol", **{"aria-labelledby": "story-title"})
    assert told is not None and page.by_id("story-title").text == "Le fil de la partie"
    said = []
    for item in (li for li in told.find_all("li") if li.parent is told):
        parts = [item.find("p").text, *(li.text for li in item.find_all("li"))]
        parts.append(item.find_all("p")[-1].text)
        said.append(" ".join(" ".join(parts).split()))
    return said


def test_the_story_tells_each_change_newest_first_with_its_phone(client):
    public_id = start_game(client, NAMES)
    play_rounds(client, public_id, [1, 2, 3], [4, 5, 6])
    cancel_round(client, public_id, 2)

    told = entries(story_page(client, public_id))

    assert len(told) == 3
    assert told[0].startswith("Manche 2 annulée Alice : 4 Bruno : 5 Chloé : 6")
    assert told[1].startswith("Manche 2 enregistrée")
    assert told[2].startswith("Manche 1 enregistrée Alice : 1 Bruno : 2 Chloé : 3")
    assert all(entry.endswith("· ce téléphone") for entry in told)


def test_a_correction_says_what_it_was_and_what_it_became_for_each_phone(app, client):
    public_id = start_game(client, NAMES)
    other = new_device(app)
    join(other, invite(client, public_id))
    play_round(client, public_id, 1, [5, 2, 3])
    page = parse(other.get(f"{game_url(public_id)}/manches/1").data)
    form = next(f for f in page.find_all("form") if f.find("input", name="score-0") is not None)
    data = {
        field.get("name"): field.get("value") or ""
        for field in form.find_all("input")
        if field.get("name")
    }
    data["score-0"] = "7"
    assert other.post(form.get("action"), data=data).status_code == 303

    mine, theirs = entries(story_page(client, public_id)), entries(story_page(other, public_id))

    assert mine[0].startswith("Manche 1 modifiée Alice : 5 → 7 ")
    assert "Bruno" not in mine[0]  # only what changed
    assert mine[0].endswith("· téléphone 2") and mine[1].endswith("· ce téléphone")
    assert theirs[0].endswith("· ce téléphone") and theirs[1].endswith("· téléphone 1")


def test_a_game_with_no_change_yet_says_so(client):
    public_id = start_game(client, NAMES)

    page = story_page(client, public_id)

    assert "Rien n’a encore changé sur la feuille" in page.text


def test_only_the_phones_of_the_table_see_the_story(app, client):
    public_id = start_game(client, NAMES)
    play_round(client, public_id, 1, [1, 2, 3])

    assert new_device(app).get(f"{game_url(public_id)}/fil").status_code == 404
    assert client.get("/parties/no-such-game/fil").status_code == 404


def test_a_finished_game_links_its_story_and_its_rematch_is_told(client):
    public_id = start_game(client, NAMES)
    play_rounds(client, public_id, [67, 1, 1])
    page = game_page(client, public_id)
    rematch = next(f for f in page.find_all("form") if f.get("action", "").endswith("/revanche"))
    version = rematch.find("input", name="version").get("value")
    client.post(rematch.get("action"), data={"version": version})

    told = entries(story_page(client, public_id))

    assert told[0].startswith("Revanche : une nouvelle partie avec les mêmes joueurs")


@pytest.mark.parametrize("language, words", [("en", "Round 1 recorded"), ("de", "Runde 1")])
def test_the_story_speaks_the_readers_language(client, language, words):
    public_id = start_game(client, NAMES)
    play_round(client, public_id, 1, [1, 2, 3])
    client.set_cookie("lang", language)

    page = parse(client.get(f"{game_url(public_id)}/fil").data)

    assert words in page.text
    assert ("this phone" if language == "en" else "dieses Telefon") in page.text


def exported(client, public_id: str) -> dict:
    response = client.get(f"{game_url(public_id)}/export.json")
    assert response.status_code == 200
    return json.loads(response.data)


def import_file(client, document: dict):
    data = {"fichier": (io.BytesIO(json.dumps(document).encode()), "parties.json")}
    return client.post("/historique/import", data=data, content_type="multipart/form-data")


def imported_game(client) -> str:
    """The public id of the one game this phone has (its history's first link to a game)."""
    history = parse(client.get("/historique").data)
    links = [a.get("href") for a in history.find_all("a") if (a.get("href") or "").count("/") == 2]
    games = [href for href in links if href.startswith("/parties/") and href != "/parties/nouvelle"]
    assert games, history.text
    return games[0].removeprefix("/parties/")


@pytest.mark.storage  # stored in bulk, by COPY on PostgreSQL
def test_the_story_goes_with_the_game_to_another_phone(app, client):
    public_id = start_game(client, NAMES)
    play_rounds(client, public_id, [1, 2, 3], [4, 5, 6])
    cancel_round(client, public_id, 2)
    document = exported(client, public_id)
    other = new_device(app)

    assert import_file(other, document).status_code == 303
    told = entries(story_page(other, imported_game(other)))

    assert [entry["kind"] for entry in document["games"][0]["story"]] == [
        "recorded",
        "recorded",
        "cancelled",
    ]
    assert "device" not in json.dumps(document)  # phones by number only
    assert told[0].startswith("Partie importée") and told[0].endswith("· ce téléphone")
    assert told[1].startswith("Manche 2 annulée")
    assert all(entry.endswith("· téléphone 1, avant l’import") for entry in told[1:])
    assert len(told) == 4


@pytest.mark.storage
def test_rounds_played_on_elsewhere_and_imported_are_told(app, client):
    public_id = start_game(client, NAMES)
    play_rounds(client, public_id, [1, 2, 3])
    other = new_device(app)
    import_file(other, exported(client, public_id))
    play_rounds(client, public_id, [4, 5, 6], [7, 8, 9])

    assert import_file(other, exported(client, public_id)).status_code == 303
    told = entries(story_page(other, imported_game(other)))

    assert told[0].startswith("Manches importées, jusqu’à la manche 3")
    assert told[0].endswith("· ce téléphone") and len(told) == 3


def test_a_file_from_before_stories_imports_with_its_import_told(app, client):
    public_id = start_game(client, NAMES)
    play_rounds(client, public_id, [1, 2, 3])
    document = exported(client, public_id)
    del document["games"][0]["story"]
    other = new_device(app)

    assert import_file(other, document).status_code == 303
    told = entries(story_page(other, imported_game(other)))

    assert len(told) == 1 and told[0].startswith("Partie importée")


HOSTILE = {
    "not a list": "everything",
    "not an entry": [42],
    "an unknown kind": [{"at": "2026-11-29T19:05:00Z", "phone": 1, "kind": "<script>"}],
    "a phone by device": [{"at": "2026-11-29T19:05:00Z", "phone": "abc", "kind": "recorded"}],
    "a date from the future": [{"at": "2999-01-01T00:00:00Z", "phone": 1, "kind": "recorded"}],
    "a round out of bounds": [
        {"at": "2026-11-29T19:05:00Z", "phone": 1, "kind": "recorded", "round": 10**6}
    ],
    "a seat nobody sits in": [
        {"at": "2026-11-29T19:05:00Z", "phone": 1, "kind": "dealer", "change": {"seat": 7}}
    ],
    "scores of text": [
        {
            "at": "2026-11-29T19:05:00Z",
            "phone": 1,
            "kind": "edited",
            "change": {"scores": ["a", "b", "c"]},
        }
    ],
    "an unknown key": [
        {"at": "2026-11-29T19:05:00Z", "phone": 1, "kind": "edited", "change": {"x": [1]}}
    ],
    "too many entries": [{"at": "2026-11-29T19:05:00Z", "phone": 1, "kind": "rematch"}] * 2001,
}


@pytest.mark.parametrize("story", HOSTILE.values(), ids=HOSTILE)
def test_a_hostile_story_is_refused_and_stores_nothing(app, client, story):
    public_id = start_game(client, NAMES)
    document = exported(client, public_id)
    document["games"][0]["story"] = story
    other = new_device(app)

    response = import_file(other, document)

    assert response.status_code == 422
    assert "story" in parse(response.data).find(role="alert").text
    assert other.get("/historique").status_code == 200


def test_a_story_entry_dated_in_the_future_is_named_for_what_it_is(app, client):
    document = exported(client, start_game(client, NAMES))
    document["games"][0]["story"] = HOSTILE["a date from the future"]

    said = parse(import_file(new_device(app), document).data).find(role="alert").text

    assert "« story », changement 1 :" in said
    assert "date impossible (2999-01-01T00:00:00Z)" in said


@pytest.mark.parametrize(("game", "word"), [("6-qui-prend", "donne"), ("skyjo", "commence")])
def test_a_change_of_dealer_reads_from_whom_to_whom_in_the_game_s_own_word(client, game, word):
    public_id = start_game(client, NAMES, game=game)
    change(client, public_id, 2)  # « Qui donne ? » Chloé, « Changer »

    told = entries(story_page(client, public_id))

    assert told[0].startswith(f"Chloé {word} (avant : Alice) ")
    assert told[0].endswith("· ce téléphone")


def test_a_dealer_entry_from_before_to_the_same_seat_reads_with_no_before(app, client):
    document = exported(client, start_game(client, NAMES))
    # Lots that drew Alice, who dealt already, told before they were told without « avant ».
    document["games"][0]["story"] = [
        {
            "at": "2026-11-29T19:05:00Z",
            "phone": 1,
            "kind": "dealer",
            "change": {"seat": 0, "was_seat": 0},
        }
    ]
    other = new_device(app)

    assert import_file(other, document).status_code == 303
    told = entries(story_page(other, imported_game(other)))

    assert told[1].startswith("Alice donne ") and "avant :" not in told[1]
