"""The phone at the table with a weak network: nothing typed is lost, the page reads offline, the
service worker controls it, the screen can be kept on. Offline is Playwright's `set_offline`.
Rounds that wait for the network are tests/e2e/test_waiting_rounds.py's."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from .assistant_pages import AssistantPage
from .pages import GamePage, HomePage, NewGamePage, game_started

pytestmark = pytest.mark.e2e

NAMES = ["Alice", "Bruno"]


def start(page: Page) -> GamePage:
    return game_started(page, NAMES)


def network_status(page: Page):
    return page.get_by_role("status").filter(has_text="réseau")


def controlled_by_the_service_worker(page: Page) -> GamePage:
    """Wait for the worker, then reload: from now on it answers this page (and keeps a copy)."""
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.reload()
    assert page.evaluate("navigator.serviceWorker.controller !== null")
    return GamePage(page)


def test_a_game_page_already_opened_reloads_offline_with_its_last_scores(
    page: Page, context: BrowserContext
):
    game = start(page)
    game.play_round(NAMES, [4, 9], 1)
    game = controlled_by_the_service_worker(page)
    # The worker said it holds the stylesheet: the page links it instead of carrying it.
    expect(page.locator("head style")).to_have_count(0)
    expect(page.locator("link[rel=stylesheet]")).to_have_count(1)

    context.set_offline(True)
    page.reload()

    game.expect_totals({"Alice": 4, "Bruno": 9})
    expect(page.get_by_role("status").filter(has_text="Hors ligne")).to_be_visible()
    expect(game.validate).to_be_visible()

    context.set_offline(False)
    expect(page.get_by_role("status").filter(has_text="Hors ligne")).to_be_hidden()


def test_the_installed_app_opens_offline_from_home_to_the_game_in_progress(
    page: Page, context: BrowserContext
):
    game = start(page)
    game.play_round(NAMES, [4, 9], 1)
    controlled_by_the_service_worker(page)
    home = HomePage(page).open()

    context.set_offline(True)
    page.reload()
    game = home.resume_game()

    game.expect_totals({"Alice": 4, "Bruno": 9})
    expect(page.get_by_role("status").filter(has_text="Hors ligne")).to_be_visible()


def test_back_and_forward_show_the_sheet_as_it_stands_and_record_nothing_twice(page: Page):
    """The report of issue 29: Forward brought back the page as it was before the last round."""
    game = start(page)
    game.play_round(NAMES, [4, 9], 1)
    page.get_by_role("link", name="Modifier la manche 1").click()
    page.go_back()
    game.play_round(NAMES, [1, 2], 2)  # by htmx: the address stays the same

    page.go_forward()
    page.go_back()

    expect(game.round_line(2)).to_be_visible()
    game.expect_totals({"Alice": 5, "Bruno": 11})
    expect(page.get_by_text("Têtes prises à la manche 3")).to_be_visible()


@pytest.mark.parametrize("javascript", [True, False], ids=["another language", "a plain form"])
def test_back_to_a_page_left_with_heads_typed_types_none_into_the_next_round(
    new_context, javascript: bool
):
    """The evening's report: the browser put back what a page held when it was left (Chromium's
    form restoration), into the round open by then: one more tap recorded it twice."""
    page = new_context(java_script_enabled=javascript).new_page()
    game = start(page)
    game.play_round(NAMES, [4, 9], 1)
    game.heads_field("Alice").fill("5")
    game.heads_field("Bruno").fill("2")
    if javascript:  # the heads go along to the other language's page, sent there
        page.get_by_role("navigation", name="Langue").get_by_role("link", name="English").click()
        page.get_by_role("button", name="Record round", exact=True).click()
    else:  # sent as they are: POST, 303, the page again
        game.validate.click()
    second_round = page.get_by_role("rowheader", name=re.compile("^(Manche|Round) 2"))
    expect(second_round).to_be_visible()

    page.go_back()

    expect(second_round).to_be_visible()  # the game as it stands, in the language chosen last
    expect(game.heads_field("Alice")).to_have_value("")
    expect(game.heads_field("Bruno")).to_have_value("")


def test_back_to_a_skyjo_page_left_with_who_ended_the_round_chosen_chooses_no_one(new_context):
    """The review: the scores came back empty, but « A fini la manche » still chosen: Enter
    sent the next round at once, with a wrong ×2."""
    page = new_context(java_script_enabled=False).new_page()
    form = NewGamePage(page).open()
    page.get_by_role("group", name="Jeu").get_by_role("radio", name="Skyjo").check()
    form.type_names(NAMES)
    form.start.click()
    game = GamePage(page)
    game.heads_field("Alice").fill("3")
    game.heads_field("Bruno").fill("12")
    enders = page.get_by_role("group", name="A fini la manche")
    enders.get_by_role("radio", name="Alice").check()
    game.validate.click()
    expect(game.round_line(1)).to_be_visible()

    page.go_back()

    expect(game.round_line(1)).to_be_visible()  # the game as it stands
    for name in NAMES:
        expect(enders.get_by_role("radio", name=name)).not_to_be_checked()


@pytest.mark.parametrize("elsewhere", ["a game never opened here", "the rules"])
def test_a_page_without_a_copy_shows_offline_the_app_s_page_with_the_games_it_can_show(
    page: Page, context: BrowserContext, elsewhere: str
):
    game = start(page)
    game.play_round(NAMES, [4, 9], 1)
    controlled_by_the_service_worker(page)  # this game's copy is kept

    context.set_offline(True)
    if elsewhere == "the rules":  # a link of the game page: the app's page, not the browser's
        page.get_by_role("link", name="Règles du jeu").click()
    else:
        page.goto("/parties/jamais-ouverte-ici")

    expect(page.get_by_role("heading", name="Hors ligne", exact=True)).to_be_visible()
    page.get_by_role("link", name=re.compile("Alice.+, .+Bruno")).click()  # names isolated
    GamePage(page).expect_totals({"Alice": 4, "Bruno": 9})


def test_a_form_that_cannot_wait_says_so_offline_and_keeps_what_was_typed(
    page: Page, context: BrowserContext
):
    game = start(page)
    game.play_round(NAMES, [4, 9], 1)
    page.get_by_role("link", name="Modifier la manche 1").click()
    context.set_offline(True)

    expect(network_status(page)).to_contain_text("besoin du réseau")  # before any tap
    page.get_by_role("spinbutton", name="Alice", exact=True).fill("6")
    page.get_by_role("button", name="Enregistrer la manche", exact=True).click()

    expect(network_status(page)).to_contain_text("rien n’a été envoyé")
    expect(page.get_by_role("spinbutton", name="Alice", exact=True)).to_have_value("6")


def test_a_correction_sent_while_the_server_does_not_answer_stays_typed_and_goes_later(
    page: Page, context: BrowserContext
):
    """The host's report: the server stopped, the phone online, « Enregistrer la manche » left
    for Chromium's error page, and the correction typed with it."""
    game = start(page)
    game.play_round(NAMES, [4, 9], 1)
    page.get_by_role("link", name="Modifier la manche 1").click()
    page.get_by_role("spinbutton", name="Alice", exact=True).fill("7")
    context.route("**/*", lambda route: route.abort("connectionrefused"))  # the server down

    page.get_by_role("button", name="Enregistrer la manche", exact=True).click()

    expect(network_status(page)).to_contain_text("rien n’a été envoyé")
    expect(page.get_by_role("spinbutton", name="Alice", exact=True)).to_have_value("7")
    context.unroute("**/*")  # the server back
    page.get_by_role("button", name="Enregistrer la manche", exact=True).click()
    game.expect_totals({"Alice": 7, "Bruno": 9})
    expect(page.get_by_text("Manche 1 modifiée.")).to_be_visible()


def test_the_assistant_says_it_needs_the_network_and_keeps_what_was_typed(
    page: Page, context: BrowserContext
):
    assistant = AssistantPage.open_from(start(page))
    context.set_offline(True)

    expect(network_status(page)).to_contain_text("besoin du réseau")  # before any tap
    assistant.type_rows([3, 17, 42, 88])
    assistant.lay_rows.click()

    expect(network_status(page)).to_contain_text("rien n’a été envoyé")
    expect(assistant.row_field(3)).to_have_value("42")


def test_the_service_worker_controls_pages_with_the_manifest_and_icons_served(page: Page):
    start(page)
    game = controlled_by_the_service_worker(page)
    expect(game.scoreboard).to_be_visible()

    manifest = page.request.get("/manifest.webmanifest")
    assert manifest.ok and manifest.headers["content-type"].startswith("application/manifest+json")
    for icon in manifest.json()["icons"]:
        response = page.request.get(icon["src"])
        assert response.ok and response.headers["content-type"] == "image/png", icon


def test_keep_the_screen_on_is_offered_where_the_browser_can_and_remembered(page: Page):
    start(page)
    switch = page.get_by_role("checkbox", name="Garder l’écran allumé", exact=True)
    if not page.evaluate("'wakeLock' in navigator"):
        expect(switch).to_have_count(0)
        expect(page.get_by_text("garder l’écran allumé")).to_be_visible()
        return

    expect(switch).to_be_checked()  # on by default while a game goes on
    switch.uncheck()
    page.reload()
    expect(switch).not_to_be_checked()


def test_there_is_no_keep_the_screen_on_control_without_javascript(new_context):
    page = new_context(java_script_enabled=False).new_page()
    game = start(page)

    expect(game.scoreboard).to_be_visible()
    expect(page.get_by_role("checkbox", name="Garder l’écran allumé")).to_have_count(0)
