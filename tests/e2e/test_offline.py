"""The phone at the table with a weak network: nothing typed is lost, the page reads offline, the
service worker controls it, the screen can be kept on. Offline is Playwright's `set_offline`."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from .pages import GamePage, HomePage, game_started

pytestmark = pytest.mark.e2e

NAMES = ["Alice", "Bruno"]


def start(page: Page) -> GamePage:
    return game_started(page, NAMES)


def network_status(page: Page):
    return page.get_by_role("status").filter(has_text="réseau")


def round_lines(game: GamePage):
    return game.sheet.get_by_role("rowheader", name=re.compile(r"^Manche \d+"))


def controlled_by_the_service_worker(page: Page) -> GamePage:
    """Wait for the worker, then reload: from now on it answers this page (and keeps a copy)."""
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.reload()
    assert page.evaluate("navigator.serviceWorker.controller !== null")
    return GamePage(page)


def expect_recorded_once(game: GamePage, totals: dict[str, int], rounds: int) -> None:
    """What the server holds: the page as loaded afresh, its sheet and totals."""
    game.page.reload()
    game.expect_totals(totals)
    expect(round_lines(game)).to_have_count(rounds)


def test_a_round_sent_offline_is_announced_kept_and_sent_once_the_network_is_back(
    page: Page, context: BrowserContext
):
    game = start(page)
    game.play_round(NAMES, [3, 1], 1)

    context.set_offline(True)
    game.enter_round(NAMES, [5, 2])

    expect(network_status(page)).to_contain_text("manche 2")
    expect(game.heads_field("Alice")).to_have_value("5")
    expect(game.heads_field("Bruno")).to_have_value("2")
    expect(game.round_line(2)).to_have_count(0)

    context.set_offline(False)

    expect(game.round_line(2)).to_be_visible()
    game.expect_totals({"Alice": 8, "Bruno": 3})
    expect(game.heads_field("Alice")).to_have_value("")  # the form is now round 3's
    expect_recorded_once(game, {"Alice": 8, "Bruno": 3}, rounds=2)


def test_two_rounds_queued_offline_survive_a_reload_and_are_each_recorded_once(
    page: Page, context: BrowserContext
):
    game = start(page)
    game.play_round(NAMES, [3, 1], 1)
    game = controlled_by_the_service_worker(page)

    context.set_offline(True)
    game.enter_round(NAMES, [5, 2])
    expect(network_status(page)).to_contain_text("manche 2")
    game.enter_round(NAMES, [1, 4])  # typing again starts round 3
    expect(network_status(page)).to_contain_text("manche 3")

    page.reload()

    expect(game.scoreboard).to_be_visible()
    expect(network_status(page)).to_contain_text("la manche 2 et la manche 3")
    expect(game.heads_field("Alice")).to_have_value("1")  # the last round typed, still there
    expect(game.heads_field("Bruno")).to_have_value("4")

    context.set_offline(False)

    expect(game.round_line(3)).to_be_visible()
    game.expect_totals({"Alice": 9, "Bruno": 7})
    expect_recorded_once(game, {"Alice": 9, "Bruno": 7}, rounds=3)


def test_a_round_kept_offline_goes_when_the_phone_opens_the_game_again_online(
    page: Page, context: BrowserContext
):
    game = start(page)
    url = page.url
    context.set_offline(True)
    game.enter_round(NAMES, [2, 6])
    expect(network_status(page)).to_contain_text("manche 1")
    page.close()  # the tab is closed while still offline

    context.set_offline(False)
    again = GamePage(context.new_page())
    again.page.goto(url)

    expect(again.round_line(1)).to_be_visible()
    expect_recorded_once(again, {"Alice": 2, "Bruno": 6}, rounds=1)


def test_a_waiting_round_refused_once_sent_holds_the_next_one_until_it_is_corrected(
    page: Page, context: BrowserContext
):
    game = start(page)
    context.set_offline(True)
    game.enter_round(NAMES, [100, 2])  # more heads than one player can take in a round
    expect(network_status(page)).to_contain_text("manche 1")
    game.enter_round(NAMES, [1, 4])
    expect(network_status(page)).to_contain_text("manche 2")

    context.set_offline(False)

    expect(game.alert).to_be_visible()
    expect(game.heads_field("Alice")).to_have_value("100")
    expect(page.get_by_role("status").filter(has_text="attend")).to_contain_text("manche 2")
    game.heads_field("Alice").fill("10")
    game.validate.click()
    expect(game.round_line(2)).to_be_visible()
    expect_recorded_once(game, {"Alice": 11, "Bruno": 6}, rounds=2)


def test_cancelling_while_a_round_waits_takes_that_round_back_unsent(
    page: Page, context: BrowserContext
):
    game = start(page)
    game.play_round(NAMES, [3, 1], 1)
    context.set_offline(True)
    game.enter_round(NAMES, [5, 2])
    expect(network_status(page)).to_contain_text("manche 2")

    game.cancel_last_round()

    expect(page.get_by_role("status").filter(has_text="plus en attente")).to_be_visible()
    context.set_offline(False)
    expect_recorded_once(game, {"Alice": 3, "Bruno": 1}, rounds=1)


def test_a_game_page_already_opened_reloads_offline_with_its_last_scores(
    page: Page, context: BrowserContext
):
    game = start(page)
    game.play_round(NAMES, [4, 9], 1)
    game = controlled_by_the_service_worker(page)

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


def test_a_form_that_cannot_wait_says_so_offline_and_keeps_what_was_typed(
    page: Page, context: BrowserContext
):
    game = start(page)
    game.play_round(NAMES, [4, 9], 1)
    page.get_by_role("link", name="Modifier la manche 1").click()
    context.set_offline(True)

    page.get_by_role("spinbutton", name="Alice", exact=True).fill("6")
    page.get_by_role("button", name="Enregistrer la manche", exact=True).click()

    expect(network_status(page)).to_contain_text("rien n’a été envoyé")
    expect(page.get_by_role("spinbutton", name="Alice", exact=True)).to_have_value("6")


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
