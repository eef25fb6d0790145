"""Sharing the result of a finished game: its image and text, « Copier », the phone's share sheet,
the BG Stats link; without JavaScript, and on the follow page."""

from __future__ import annotations

import io
import json
import re
from urllib.parse import unquote, urlsplit

import pytest
from PIL import Image
from playwright.sync_api import Page, expect

from .pages import GamePage, control, game_started
from .test_follow import share_and_return

pytestmark = pytest.mark.e2e

NAMES = ["Brice", "Chloé", "Aube"]
TEXT = "Brice gagne avec 15 têtes\u202f! — Chloé 19, Aube 70 — 2 manches"


def finished(page: Page) -> GamePage:
    """A game whose second round, entered on the page, ends it."""
    game = game_started(page, NAMES, [5, 9, 30])
    game.play_round(NAMES, [10, 10, 40], 2)
    return game


def image_of(page: Page):
    # Its name says the result, winner first (the chart's names every player too).
    return page.get_by_role("img", name=re.compile(r"^Image du résultat\W+Brice gagne"))


def expect_drawn(page: Page) -> None:
    """The result's image is shown, and its address answers a PNG at least 600 px wide."""
    image = image_of(page)
    expect(image).to_be_visible()
    answer = page.request.get(image.get_attribute("src"))
    assert answer.headers["content-type"] == "image/png"
    assert Image.open(io.BytesIO(answer.body())).size[0] >= 600
    expect(page.get_by_text(TEXT, exact=True)).to_be_visible()


def test_the_round_that_ends_the_game_brings_its_image_text_and_bgstats_link(new_context):
    page = new_context().new_page()
    finished(page)

    expect(control(page, "Partager le résultat")).to_be_visible()
    expect_drawn(page)
    bgstats = page.get_by_role("link", name="Enregistrer dans BG Stats", exact=True)
    href = bgstats.get_attribute("href")
    assert href.startswith("https://app.bgstatsapp.com/createPlay.html?data=")
    play = json.loads(unquote(href.split("?data=", 1)[1]))
    assert play["game"]["name"] == "6 nimmt!" and play["game"]["bggId"] == 432
    assert [(p["name"], p["score"], p["rank"], p["winner"]) for p in play["players"]] == [
        ("Brice", 15, 1, True),
        ("Chloé", 19, 2, False),
        ("Aube", 70, 3, False),
    ]
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", play["playDate"])


def test_copier_puts_the_result_text_on_the_clipboard(new_context):
    context = new_context(permissions=["clipboard-read", "clipboard-write"])
    page = context.new_page()
    finished(page)

    control(page, "Copier").click()

    expect(page.get_by_role("status").filter(has_text="Résultat copié")).to_be_visible()
    assert page.evaluate("navigator.clipboard.readText()") == TEXT


# This Chromium (Linux, headless) has no share sheet: a phone's is stood in for, to check what
# the page hands it — the image as a PNG file, and the text.
PHONE_SHARE_SHEET = """
navigator.canShare = (data) => Boolean(data && data.files);
navigator.share = async (data) => {
  const file = data.files[0];
  const bytes = new Uint8Array(await file.arrayBuffer());
  window.__shared = { name: file.name, type: file.type, text: data.text, png: bytes[1] === 0x50 };
};
"""


def test_a_phone_with_a_share_sheet_gets_the_image_as_a_file(new_context):
    context = new_context()
    context.add_init_script(PHONE_SHARE_SHEET)
    page = context.new_page()
    finished(page)

    expect(control(page, "Copier")).to_be_hidden()  # the share sheet does it all
    control(page, "Partager le résultat").click()

    page.wait_for_function("() => window.__shared !== undefined")
    shared = page.evaluate("window.__shared")
    assert shared["type"] == "image/png" and shared["png"]
    assert re.fullmatch(r"6-qui-prend-\d{4}-\d\d-\d\d\.png", shared["name"])
    assert shared["text"] == TEXT


def test_without_a_share_sheet_partager_keeps_the_image_and_its_download_in_view(new_context):
    page = new_context().new_page()  # Chromium on Linux: no share sheet, as a laptop
    finished(page)
    result_page = page.url

    control(page, "Partager le résultat").click()

    expect(page.get_by_role("status").filter(has_text="Télécharger l’image")).to_be_visible()
    assert page.url == result_page
    expect(image_of(page)).to_be_in_viewport()
    expect(control(page, "Télécharger l’image")).to_be_focused()
    expect(control(page, "Télécharger l’image")).to_be_in_viewport()


def test_without_javascript_the_image_its_download_and_the_text_are_there(new_context):
    scoring = new_context()
    page = scoring.new_page()
    finished(page)
    result_page = page.url
    still = new_context(java_script_enabled=False, storage_state=scoring.storage_state())
    page = still.new_page()
    page.goto(result_page)

    expect_drawn(page)
    expect(control(page, "Télécharger l’image")).to_be_visible()
    expect(control(page, "Copier")).to_be_hidden()
    control(page, "Partager le résultat").click()  # the image itself, to keep or send
    expect(page).to_have_url(re.compile(r"/resultat\.png$"))


def test_a_follower_sees_the_result_drawn_for_the_follow_address(new_context):
    scorer = game_started(new_context().new_page(), NAMES, [5, 9, 30])
    address = share_and_return(scorer)
    follower = new_context().new_page()
    follower.goto(address)
    scorer.play_round(NAMES, [10, 10, 40], 2)

    image = image_of(follower)
    expect(image).to_be_visible()  # live: the result arrives without a reload
    assert image.get_attribute("src") == f"{urlsplit(address).path}/resultat.png"
    expect_drawn(follower)
