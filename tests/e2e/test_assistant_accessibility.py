"""axe-core finds no WCAG 2.2 AA violation on the assistant, counting and rules screens, in light
and dark."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from .assistant_pages import AssistantPage, CountPage
from .axe import expect_accessible
from .pages import HomePage, control, game_started

pytestmark = pytest.mark.e2e

NAMES = ["Alice", "Bruno", "Chloé"]


def _assistant(page: Page) -> AssistantPage:
    return AssistantPage.open_from(game_started(page, NAMES))


def _laid(page: Page) -> AssistantPage:
    assistant = _assistant(page)
    assistant.type_rows([18, 31, 47, 72])
    assistant.lay_rows.click()
    expect(assistant.place).to_be_visible()
    return assistant


def assistant_rows_form(page: Page) -> None:
    expect(_assistant(page).lay_rows).to_be_visible()


def assistant_after_a_turn(page: Page) -> None:
    assistant = _laid(page)
    assistant.type_cards(NAMES, [50, 75, 19])
    assistant.place.click()
    assistant.expect_row(3, [47, 50])


def assistant_with_a_refused_card(page: Page) -> None:
    assistant = _laid(page)
    assistant.type_cards(NAMES, [50, 50, 0])
    assistant.place.click()
    expect(assistant.alert).to_be_visible()


def assistant_waiting_for_a_choice(page: Page) -> None:
    assistant = _laid(page)
    assistant.type_cards(NAMES, [50, 9, 75])
    assistant.place.click()
    expect(assistant.take(4)).to_be_visible()


def count_with_an_answer(page: Page) -> None:
    counter = CountPage.open_from(game_started(page, NAMES))
    counter.cards.fill("55 10 23 11")
    counter.count.click()
    expect(counter.answer).to_contain_text("16 têtes")


def count_with_a_wrong_number(page: Page) -> None:
    counter = CountPage.open_from(game_started(page, NAMES))
    counter.cards.fill("55 105")
    counter.count.click()
    expect(counter.alert).to_contain_text("105")


def rules_page(page: Page) -> None:
    control(HomePage(page).open().page, "Règles du jeu").click()
    expect(page.get_by_role("heading", name="Règles du jeu", level=1)).to_be_visible()


SCREENS: dict[str, Callable[[Page], None]] = {
    screen.__name__: screen
    for screen in (
        assistant_rows_form,
        assistant_after_a_turn,
        assistant_with_a_refused_card,
        assistant_waiting_for_a_choice,
        count_with_an_answer,
        count_with_a_wrong_number,
        rules_page,
    )
}


@pytest.mark.parametrize("screen", SCREENS)
def test_no_wcag_22_aa_violation(page: Page, screen: str):
    SCREENS[screen](page)

    expect_accessible(page, screen)
