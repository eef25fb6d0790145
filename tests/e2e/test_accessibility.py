"""axe-core finds no WCAG 2.2 AA violation on any screen, in the light and the dark theme: every
screen of the evening (scripts/lib/showcase.py, played once by requests), then the states the
evening does not go through (refusals, a shared win, a stale page…), each set up by requests."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Browser, Page, expect

from .assistant_pages import AssistantPage, CountPage
from .axe import expect_accessible
from .pages import GamePage, HistoryPage, NewGamePage, game_started

pytestmark = pytest.mark.e2e

NAMES = ["Alice", "Bruno", "Chloé"]


def test_every_screen_of_the_evening_is_accessible(browser: Browser, base_url, evening_phone):
    state, screens = evening_phone
    context = browser.new_context(storage_state=state, base_url=base_url, locale="fr-FR")
    page = context.new_page()
    try:
        for screen, path in screens.items():
            response = page.goto(path)
            assert response is not None and response.ok, (screen, path)
            expect_accessible(page, screen)
    finally:
        context.close()


def _game(page: Page, *rounds: list[int]) -> GamePage:
    return game_started(page, NAMES, *rounds)


def new_game_with_errors(page: Page) -> None:
    form = NewGamePage(page).open()
    form.type_names(["Alice", " alice "])
    form.start.click()
    expect(form.alert).to_be_visible()


def new_game_with_an_invalid_limit(page: Page) -> None:
    form = NewGamePage(page).open()
    form.type_names(NAMES)
    end_rules = page.get_by_role("group", name="Fin de partie", exact=True)
    end_rules.get_by_role("radio", name="Autre limite", exact=True).check()
    end_rules.get_by_role("spinbutton", name="Limite", exact=True).fill("9")
    form.start.click()
    expect(form.alert).to_be_visible()


def game_with_a_refused_round(page: Page) -> None:
    game = _game(page, [5, 6, 7])
    game.enter_round(NAMES, [90, 5, 5])  # each score possible, their sum not: the server says
    expect(game.alert).to_be_visible()


def game_with_a_shared_win(page: Page) -> None:  # a single winner: the evening's result
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


def edit_round_with_errors(page: Page) -> None:
    _game(page, [5, 6, 7])
    page.goto(f"{page.url}/manches/1")
    GamePage(page).heads_field("Alice").fill("98")
    page.get_by_role("button", name="Enregistrer la manche").click()
    expect(page.get_by_role("alert")).to_be_visible()


def edit_round_from_a_stale_page(page: Page) -> None:
    _game(page, [5, 6, 7])
    other_tab = page.context.new_page()
    other_tab.goto(page.url)
    page.goto(f"{page.url}/manches/1")
    GamePage(other_tab).play_round(NAMES, [1, 1, 1], 2)
    page.get_by_role("spinbutton", name="Alice", exact=True).fill("9")
    page.get_by_role("button", name="Enregistrer la manche").click()
    expect(page.get_by_role("alert")).to_contain_text("a changé")


def history_with_an_import_error(page: Page) -> None:
    HistoryPage(page).open()
    page.get_by_label("Fichier de parties").set_input_files(
        files=[{"name": "x.json", "mimeType": "application/json", "buffer": b"{}"}]
    )
    page.get_by_role("button", name="Importer", exact=True).click()
    expect(page.get_by_role("alert")).to_be_visible()


def assistant_with_a_refused_card(page: Page) -> None:
    assistant = AssistantPage.open_from(_game(page))
    assistant.type_rows([18, 31, 47, 72])
    assistant.lay_rows.click()
    assistant.type_cards(NAMES, [50, 50, 0])
    assistant.place.click()
    expect(assistant.alert).to_be_visible()


def count_with_a_wrong_number(page: Page) -> None:
    counter = CountPage.open_from(_game(page))
    counter.cards.fill("55 105")
    counter.count.click()
    expect(counter.alert).to_contain_text("105")


def evening_of_two_games(page: Page) -> None:
    game = _game(page, [70, 3, 10])
    game.rematch.click()
    expect(game.scoreboard).to_be_visible()
    page.goto(f"{page.url}/soiree")
    expect(page.get_by_role("table", name="Classement de la soirée")).to_be_visible()


def page_not_found(page: Page) -> None:
    response = page.goto("/parties/cette-partie-n-existe-pas")
    assert response is not None and response.status == 404


STATES: dict[str, Callable[[Page], None]] = {
    state.__name__: state
    for state in (
        new_game_with_errors,
        new_game_with_an_invalid_limit,
        game_with_a_refused_round,
        game_with_a_shared_win,
        game_close_to_the_limit,
        game_after_a_cancelled_round,
        delete_confirmation,
        edit_round_with_errors,
        edit_round_from_a_stale_page,
        history_with_an_import_error,
        assistant_with_a_refused_card,
        count_with_a_wrong_number,
        evening_of_two_games,
        page_not_found,
    )
}


@pytest.mark.parametrize("state", STATES)
def test_no_wcag_22_aa_violation(page: Page, state: str):
    STATES[state](page)

    expect_accessible(page, state)


# The focus ring's colour against the ground it is drawn on (the nearest ancestor's background).
FOCUS_CONTRAST = """(element) => {
  const rgb = (colour) => colour.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const light = (colour) => {
    const [r, g, b] = rgb(colour).map((c) => (c /= 255) <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  let ground = element.parentElement;
  while (getComputedStyle(ground).backgroundColor.endsWith(", 0)") || getComputedStyle(ground).backgroundColor === "transparent") ground = ground.parentElement;
  const [a, b] = [light(getComputedStyle(element).outlineColor), light(getComputedStyle(ground).backgroundColor)];
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}"""


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_keyboard_focus_ring_stands_out_on_the_header_and_the_page(new_context, theme: str):
    page = new_context(color_scheme=theme).new_page()
    game = _game(page, [5, 6, 7])
    for control in (
        page.get_by_role("link", name="English"),  # on the header's red
        game.page.get_by_role("button", name="Valider la manche"),  # on the page's ground
    ):
        control.focus()
        page.keyboard.press("Shift+Tab")
        page.keyboard.press("Tab")  # reached by the keyboard: :focus-visible
        assert control.evaluate(FOCUS_CONTRAST) >= 3  # WCAG 2.2, 1.4.11 non-text contrast
