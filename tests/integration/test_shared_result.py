"""Sharing a finished game's result: the image and the text on the game page and the follow page,
the image's address (private, PNG, revalidated by the game's version), the BG Stats link."""

from __future__ import annotations

import io
import json
from urllib.parse import unquote

import pytest
from PIL import Image

from app.web.result.picture import HEIGHT, WIDTH

from .actions import cancel_round, game_url, play_round, play_rounds, start_game
from .html import link, parse
from .test_follow import share, stop

NAMES = ["Brice", "Chloé", "Aube"]
TEXT = "Brice gagne avec 15 têtes\u202f! — Chloé 19, Aube 70 — 2 manches"
SHOWN = " ".join(TEXT.split())  # as the page's text reads, its narrow space a space


@pytest.fixture
def game(client) -> str:
    public_id = start_game(client, NAMES)
    play_rounds(client, public_id, [5, 9, 30], [10, 10, 40])
    return public_id


def shared(page):
    """Return the shared result's image, its text and the BG Stats link of a page."""
    section = page.find("section", **{"data-share-result": True})
    assert section is not None, "no shared result on the page"
    return (
        section.find("img"),
        section.find("p", **{"data-share-text": True}).text,
        link(section, "Enregistrer dans BG Stats"),
    )


def decoded(response) -> Image.Image:
    assert response.status_code == 200
    assert response.mimetype == "image/png"
    return Image.open(io.BytesIO(response.data))


def test_a_finished_game_shows_its_result_as_an_image_and_as_text(client, game):
    image, text, bgstats = shared(parse(client.get(game_url(game)).data))

    assert text == SHOWN
    assert "Brice" in image.get("alt") and TEXT in image.get("alt")
    assert decoded(client.get(image.get("src"))).size == (WIDTH, HEIGHT)
    assert link(parse(client.get(game_url(game)).data), "Télécharger l’image").get("download")
    play = json.loads(unquote(bgstats.get("href").split("?data=", 1)[1]))
    assert [(p["name"], p["score"], p["rank"]) for p in play["players"]] == [
        ("Brice", 15, 1),
        ("Chloé", 19, 2),
        ("Aube", 70, 3),
    ]
    assert play["sourcePlayId"] == game
    assert isinstance(play["durationMin"], int)  # its rounds were dated as they were recorded


def test_a_game_in_progress_offers_no_result_and_no_image(client):
    public_id = start_game(client, NAMES)
    play_rounds(client, public_id, [5, 9, 30])

    assert (
        parse(client.get(game_url(public_id)).data).find("section", **{"data-share-result": True})
        is None
    )
    assert client.get(f"{game_url(public_id)}/resultat.png").status_code == 404


def test_the_image_is_asked_again_and_changes_with_the_game(client, game):
    image_url = f"{game_url(game)}/resultat.png"
    first = client.get(image_url)
    assert first.headers["Cache-Control"] == "private, no-cache"

    again = client.get(image_url, headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304 and not again.data

    cancel_round(client, game, 2)  # the game is open again: no result to show
    assert client.get(image_url).status_code == 404
    play_round(client, game, 2, [10, 10, 41])
    changed = client.get(image_url, headers={"If-None-Match": first.headers["ETag"]})
    assert changed.status_code == 200 and changed.headers["ETag"] != first.headers["ETag"]


def test_the_result_speaks_the_persons_language(client, game):
    page = parse(client.get(game_url(game), headers={"Accept-Language": "de"}).data)
    _image, text, _bgstats = shared(page)
    assert text == "Brice gewinnt mit 15 Hornochsen! — Chloé 19, Aube 70 — 2 Runden"

    german = client.get(f"{game_url(game)}/resultat.png", headers={"Accept-Language": "de"})
    french = client.get(f"{game_url(game)}/resultat.png")
    assert german.headers["ETag"] != french.headers["ETag"]  # a cache keeps each language apart
    assert german.data != french.data


def test_a_follower_gets_the_follow_addresss_own_image_without_a_cookie(app, client, game):
    address = share(client, game).removeprefix("http://localhost")
    follower = app.test_client()

    answer = follower.get(address)
    image, text, _bgstats = shared(parse(answer.data))
    assert text == SHOWN
    assert image.get("src") == f"{address}/resultat.png"
    drawn = follower.get(image.get("src"))
    assert decoded(drawn).size == (WIDTH, HEIGHT)
    assert "Set-Cookie" not in drawn.headers
    assert drawn.headers["Referrer-Policy"] == "no-referrer"

    stop(client, game)
    assert follower.get(image.get("src")).status_code == 404
