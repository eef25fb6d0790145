"""Past games of this device: newest first, each with its sheet; the game in progress can be resumed."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .pages import GamePage, HomePage

pytestmark = pytest.mark.e2e


def test_history_lists_this_devices_games_newest_first_and_opens_their_sheet(page: Page):
    finished = HomePage(page).open().start_new_game().start_game(["Alice", "Bruno"])
    finished.play_round(["Alice", "Bruno"], [70, 1], 1)
    expect(finished.result).to_be_visible()
    finished_url = page.url
    ongoing = HomePage(page).open().start_new_game().start_game(["Chloé", "David"])
    ongoing.play_round(["Chloé", "David"], [3, 4], 1)
    ongoing_url = page.url

    history = HomePage(page).open().open_history()

    expect(history.games).to_have_count(2)
    expect(history.games.nth(0)).to_contain_text("Chloé")
    expect(history.games.nth(0)).to_contain_text("en cours")
    expect(history.games.nth(1)).to_contain_text("Alice")
    # Bruno is named twice: among the players, and as the winner.
    expect(history.games.nth(1)).to_contain_text(re.compile(r"Bruno.*Bruno", re.DOTALL))
    expect(history.games.nth(1)).not_to_contain_text("en cours")

    history.games.nth(1).click()

    past = GamePage(page)
    assert page.url == finished_url
    expect(past.round_line(1)).to_be_visible()
    expect(past.result).to_contain_text("Bruno")
    expect(past.result).to_contain_text("gagne")

    home = HomePage(page).open()
    resumed = home.resume_game()
    assert page.url == ongoing_url
    resumed.expect_totals({"Chloé": 3, "David": 4})
    expect(resumed.heads_field("Chloé")).to_be_visible()
