"""Everything works with JavaScript switched off: plain forms, POST → 303 → GET."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from .pages import GamePage, HomePage, NewGamePage

pytestmark = pytest.mark.e2e


@pytest.fixture
def page(new_context) -> Page:
    """A phone with JavaScript switched off."""
    return new_context(java_script_enabled=False).new_page()


def submit(page: Page, button) -> int:
    """Press a form's button and return the status of the answer to its POST."""
    with page.expect_response(lambda response: response.request.method == "POST") as answer:
        button.click()
    return answer.value.status


def test_a_whole_game_without_javascript(page: Page):
    form = HomePage(page).open().start_new_game()
    assert submit(page, form.add_player) == 200
    expect(form.name_fields).to_have_count(3)
    form.type_names(["Alice", "Bruno", "Chloé"])
    names = ["Alice", "Bruno", "Chloé"]

    assert submit(page, form.start) == 303
    game = GamePage(page)
    expect(game.scoreboard).to_be_visible()
    first_game = page.url

    # Each real form once, each a 303 that only a browser follows. What the answers hold (totals,
    # refusals, leaders) is tests/integration/test_game_flow.py's.
    game.play_round(names, [10, 20, 5], 1)
    game.expect_totals({"Alice": 10, "Bruno": 20, "Chloé": 5})
    game.play_round(names, [8, 1, 1], 2)
    assert submit(page, game.cancel) == 303
    expect(game.round_line(2)).to_have_count(0)

    game.play_round(names, [60, 3, 2], 2)  # Alice reaches 70
    expect(game.result).to_contain_text("Chloé")

    assert submit(page, game.rematch) == 303
    expect(game.scoreboard.get_by_role("rowheader")).to_have_text(names)
    expect(game.round_line(1)).to_have_count(0)
    assert page.url != first_game


def test_ten_players_can_be_seated_without_javascript(page: Page):
    form = NewGamePage(page).open()
    names = [f"Joueuse {letter}" for letter in "ABCDEFGHIJ"]

    form.type_names(names)

    expect(form.name_fields).to_have_count(10)
    if form.add_player.count():
        expect(form.add_player).to_be_disabled()
    assert submit(page, form.start) == 303
    expect(GamePage(page).scoreboard.get_by_role("rowheader")).to_have_text(names)
