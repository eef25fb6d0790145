"""« Le fil de la partie » (issue 45.3) through the pages: the game page links it, it lists each
change newest first with its phone, only the table's phones see it, and it goes with the game's
export and import."""

from __future__ import annotations

import io
import json

import pytest

from .actions import cancel_round, game_page, game_url, new_device, play_round, play_rounds
from .actions import start_game
from .html import Element, link, parse
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
    data = {"file": (io.BytesIO(json.dumps(document).encode()), "export.json")}
    return client.post("/historique/import", data=data, content_type="multipart/form-data")
