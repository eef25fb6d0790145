"""Past games of this device open their sheet, and the game in progress can be resumed. (The
list's order and words: tests/integration/test_game_flow.py::test_history_*.)"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from .pages import GamePage, HomePage, game_started

pytestmark = pytest.mark.e2e


def test_a_past_game_opens_its_sheet_and_the_game_in_progress_resumes(page: Page):
    game_started(page, ["Alice", "Bruno"], [70, 1])
    finished_url = page.url
    game_started(page, ["Chloé", "David"], [3, 4])
    ongoing_url = page.url

    history = HomePage(page).open().open_history()
    history.games.nth(1).click()

    assert page.url == finished_url
    expect(GamePage(page).result).to_contain_text("Bruno")

    resumed = HomePage(page).open().resume_game()
    assert page.url == ongoing_url
    resumed.expect_totals({"Chloé": 3, "David": 4})
    expect(resumed.heads_field("Chloé")).to_be_visible()
