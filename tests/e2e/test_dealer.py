"""Who deals, on a phone with JavaScript and on the follow page: the marker of « Scores » moves
round by round by the game's rule, by hand, and back on « Annuler la manche »."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .pages import GamePage, NewGamePage, game_started
from .test_follow import share_and_return

pytestmark = pytest.mark.e2e

NAMES = ["Alice", "Bruno", "Chloé"]


def expect_deals(game: GamePage, name: str, word: str = "donne") -> None:
    """Exactly one row of « Scores » says `word`: the player's."""
    says = re.compile(rf"\b{word}\b")
    expect(game.scoreboard.get_by_role("rowheader", name=says)).to_have_count(1)
    expect(game.player_heading(name)).to_have_accessible_name(says)


def test_the_deal_goes_round_the_table_by_hand_and_back_on_a_cancel(page: Page):
    game = game_started(page, NAMES)
    expect_deals(game, "Alice")

    game.play_round(NAMES, [1, 2, 3], 1)
    expect_deals(game, "Bruno")
    game.play_round(NAMES, [1, 2, 3], 2)
    expect_deals(game, "Chloé")

    game.cancel_last_round()
    expect(game.round_line(2)).to_have_count(0)
    expect_deals(game, "Bruno")

    page.get_by_label("Qui donne ?").select_option(label="Alice")
    page.get_by_role("button", name="Changer", exact=True).click()
    expect_deals(game, "Alice")
    game.play_round(NAMES, [1, 2, 3], 2)
    expect_deals(game, "Bruno")


def test_lots_are_drawn_before_the_first_round_only(page: Page):
    game = game_started(page, NAMES)
    draw = page.get_by_role("button", name="Tirer au sort", exact=True)

    # Lots may draw Alice, who deals already: the page looks the same, so wait for the answer
    # before the round (a round sent while the draw is on its way is from an older page).
    with page.expect_response("**/donneur"):
        draw.click()
    expect(game.scoreboard.get_by_role("rowheader", name=re.compile(r"\bdonne\b"))).to_have_count(1)

    game.play_round(NAMES, [1, 2, 3], 1)
    expect(draw).to_have_count(0)


def test_in_skyjo_whoever_ended_the_round_starts_the_next(page: Page):
    form = NewGamePage(page).open()
    form.page.get_by_role("group", name="Jeu").get_by_role("radio", name="Skyjo").check()
    form.type_names(NAMES)
    form.start.click()
    game = GamePage(page)
    expect_deals(game, "Alice", "commence")
    expect(page.get_by_label("Qui commence ?")).to_be_visible()

    page.get_by_role("group", name="A fini la manche").get_by_role("radio", name="Chloé").check()
    game.play_round(NAMES, [10, 4, 3], 1)

    expect_deals(game, "Chloé", "commence")


def test_the_follow_page_shows_who_deals(new_context):
    scorer = game_started(new_context().new_page(), NAMES, [5, 6, 7])
    address = share_and_return(scorer)
    follower = new_context().new_page()
    follower.goto(address)
    watched = GamePage(follower)
    expect_deals(watched, "Bruno")

    scorer.play_round(NAMES, [1, 2, 3], 2)

    expect_deals(watched, "Chloé")


def test_a_round_waiting_for_the_network_passes_the_deal_as_the_server_will(
    browser, browser_context_args, live_server
):
    context = browser.new_context(**browser_context_args)
    game = game_started(context.new_page(), NAMES, [1, 2, 3])
    expect_deals(game, "Bruno")
    game.mark_no_reload()

    context.set_offline(True)
    game.enter_round(NAMES, [5, 2, 0])

    expect(game.sheet.get_by_role("rowheader", name="Manche 2 — en attente")).to_be_visible()
    expect_deals(game, "Chloé")
    # Set by hand it would act on the game before the round waiting: back with the answer.
    change = game.page.get_by_role("button", name="Changer", exact=True)
    expect(change).to_have_count(0)
    context.set_offline(False)
    expect(game.sheet.get_by_role("link", name="Modifier la manche 2")).to_be_visible()
    expect_deals(game, "Chloé")
    expect(change).to_be_visible()
    assert game.was_not_reloaded()
    context.close()
