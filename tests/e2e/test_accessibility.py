"""axe-core finds no WCAG 2.2 AA violation on any screen, in any state a table goes through, in
the light and the dark theme."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from .axe import expect_accessible
from .pages import GamePage, HistoryPage, HomePage, NewGamePage, game_started

pytestmark = pytest.mark.e2e

NAMES = ["Alice", "Bruno", "Chloé"]


def _game(page: Page, *rounds: list[int]) -> GamePage:
    return game_started(page, NAMES, *rounds)


def home_empty(page: Page) -> None:
    expect(HomePage(page).open().new_game).to_be_visible()


def home_with_a_game_in_progress(page: Page) -> None:
    _game(page, [5, 6, 7])
    expect(HomePage(page).open().resume).to_be_visible()


def new_game_empty(page: Page) -> None:
    expect(NewGamePage(page).open().name_field(1)).to_be_visible()


def new_game_with_errors(page: Page) -> None:
    form = NewGamePage(page).open()
    form.type_names(["Alice", " alice "])
    form.start.click()
    expect(form.alert).to_be_visible()


def game_without_rounds(page: Page) -> None:
    expect(_game(page).validate).to_be_visible()


def game_in_progress(page: Page) -> None:
    game = _game(page, [5, 6, 7], [10, 3, 2])
    game.expect_leaders(["Bruno", "Chloé"], ["Alice"])


def game_with_a_refused_round(page: Page) -> None:
    game = _game(page, [5, 6, 7])
    game.enter_round(NAMES, [98, 1, 1])
    expect(game.alert).to_be_visible()


def game_with_a_shared_win(page: Page) -> None:  # a single winner: test_languages.py checks it
    expect(_game(page, [30, 10, 10], [40, 5, 5]).result).to_contain_text("Victoire partagée")


def game_close_to_the_limit(page: Page) -> None:
    game = _game(page, [60, 2, 3], [6, 1, 1])
    expect(game.player_row("Alice")).to_contain_text("la moindre tête")


def game_after_a_cancelled_round(page: Page) -> None:
    game = _game(page, [5, 6, 7], [10, 3, 2])
    game.cancel_last_round()
    expect(game.restore).to_be_visible()


def delete_confirmation(page: Page) -> None:
    _game(page, [5, 6, 7]).delete.click()
    expect(page.get_by_role("button", name="Supprimer définitivement")).to_be_visible()


def statistics_with_games(page: Page) -> None:
    _game(page, [30, 10, 5], [40, 10, 5])
    page.goto("/statistiques")
    expect(page.get_by_role("table", name="Statistiques")).to_be_visible()


def history_with_games(page: Page) -> None:
    _game(page, [30, 10, 5], [40, 10, 5])
    _game(page, [1, 2, 3])
    expect(HistoryPage(page).open().games).to_have_count(2)


def page_not_found(page: Page) -> None:
    response = page.goto("/parties/cette-partie-n-existe-pas")
    assert response is not None and response.status == 404


SCREENS: dict[str, Callable[[Page], None]] = {
    screen.__name__: screen
    for screen in (
        home_empty,
        home_with_a_game_in_progress,
        new_game_empty,
        new_game_with_errors,
        game_without_rounds,
        game_in_progress,
        game_with_a_refused_round,
        game_with_a_shared_win,
        game_close_to_the_limit,
        game_after_a_cancelled_round,
        delete_confirmation,
        statistics_with_games,
        history_with_games,
        page_not_found,
    )
}


@pytest.mark.parametrize("screen", SCREENS)
def test_no_wcag_22_aa_violation(page: Page, screen: str):
    SCREENS[screen](page)

    expect_accessible(page, screen)
