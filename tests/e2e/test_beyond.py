"""Beyond a paper sheet, in a phone-sized Chromium: one journey each for an end-rule variant,
correcting a round, statistics, the score chart, export and import; axe-core on each new screen.

These screens have no script of their own (edit, statistics, history and import are plain forms
and links; the round form is the game's): they run once, JavaScript on. Playing without
JavaScript is test_without_javascript.py's; what each screen refuses, and how, is in
tests/integration.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Locator, Page, expect

from .axe import expect_accessible
from .pages import GamePage, HistoryPage, HomePage, NewGamePage, control, game_started

pytestmark = pytest.mark.e2e

NAMES = ["Alice", "Bruno", "Chloé"]


# --- Screens not in pages.py ----------------------------------------------------------------------


def end_rules(page: Page) -> Locator:
    return page.get_by_role("group", name="Fin de partie", exact=True)


def rule_in_force(page: Page, words: str) -> Locator:
    return page.get_by_text(re.compile(words))


def edit_link(page: Page, number: int) -> Locator:
    return page.get_by_role("link", name=f"Modifier la manche {number}", exact=True)


def save_round(page: Page) -> Locator:
    return page.get_by_role("button", name="Enregistrer la manche", exact=True)


def stats_table(page: Page) -> Locator:
    return page.get_by_role("table", name="Statistiques", exact=True)


def column(page: Page, starts: str) -> Locator:
    return stats_table(page).get_by_role("columnheader", name=re.compile(rf"^{re.escape(starts)}"))


def chart(page: Page) -> Locator:
    return page.get_by_role("img", name=re.compile("Évolution des scores"))


def file_field(page: Page) -> Locator:
    return page.get_by_label("Fichier de parties", exact=True)


def import_button(page: Page) -> Locator:
    return page.get_by_role("button", name="Importer", exact=True)


# --- Variants -------------------------------------------------------------------------------------


def test_a_fixed_number_of_rounds_is_stated_and_ends_the_game(page: Page):
    form = NewGamePage(page).open()
    form.type_names(NAMES)
    end_rules(page).get_by_role("radio", name="Nombre de manches", exact=True).check()
    end_rules(page).get_by_role("spinbutton", name="Manches", exact=True).fill("2")
    page.get_by_role("checkbox", name="Variante pro", exact=True).check()

    game = form.start_game([])  # names already typed
    expect(rule_in_force(page, "2 manches")).to_be_visible()
    expect(rule_in_force(page, "pro")).to_be_visible()

    game.play_round(NAMES, [30, 5, 3], 1)
    expect(game.result).to_have_count(0)
    game.play_round(NAMES, [4, 2, 3], 2)
    expect(game.result).to_contain_text("Chloé")
    expect(game.result).to_contain_text("gagne")
    expect(game.validate).to_have_count(0)


# --- Editing a round ------------------------------------------------------------------------------


def test_a_round_is_corrected_from_the_round_sheet(page: Page):
    game = game_started(page, NAMES, [5, 6, 7], [1, 2, 3])

    edit_link(page, 1).click()
    expect(save_round(page)).to_be_visible()
    expect(game.heads_field("Alice")).to_have_value("5")
    game.heads_field("Alice").fill("15")
    save_round(page).click()

    expect(game.scoreboard).to_be_visible()
    game.expect_totals({"Alice": 16, "Bruno": 8, "Chloé": 10})
    game.expect_leaders(["Bruno"], ["Alice", "Chloé"])
    expect(page.get_by_role("status")).to_contain_text("Manche 1 modifiée")


# --- Statistics -----------------------------------------------------------------------------------


def test_statistics_open_from_home_and_sort_by_a_column(page: Page):
    game_started(page, NAMES, [30, 10, 5], [40, 10, 5])  # Chloé wins
    game_started(page, ["chloé", "Bruno", "Alice"], [5, 1, 70])  # Bruno wins

    control(HomePage(page).open().page, "Statistiques").click()

    table = stats_table(page)
    expect(table).to_be_visible()
    expect(column(page, "Parties")).to_be_visible()
    expect(column(page, "Victoires")).to_have_attribute("aria-sort", "descending")
    expect(table.get_by_role("rowheader")).to_have_count(3)  # « chloé » is Chloé
    expect(table.get_by_role("rowheader").nth(2)).to_have_text("Alice")  # no win

    column(page, "Joueur").get_by_role("link").click()

    expect(column(page, "Joueur")).to_have_attribute("aria-sort", "ascending")
    expect(column(page, "Victoires")).not_to_have_attribute("aria-sort", re.compile("."))
    expect(stats_table(page).get_by_role("rowheader")).to_have_text(
        ["Alice", "Bruno", re.compile("^chloé$", re.IGNORECASE)]
    )
    assert "tri=" in page.url

    column(page, "Joueur").get_by_role("link").click()

    expect(column(page, "Joueur")).to_have_attribute("aria-sort", "descending")
    expect(stats_table(page).get_by_role("rowheader").first).to_have_text(
        re.compile("^chloé$", re.IGNORECASE)
    )
    assert HomePage(page).has_no_sideways_scroll()


# --- Chart ----------------------------------------------------------------------------------------


# --- Export and import ----------------------------------------------------------------------------


def test_a_game_exported_as_json_is_imported_on_another_phone(page: Page, new_context, tmp_path):
    game = game_started(page, NAMES, [30, 10, 5], [40, 10, 5])
    expect(game.result).to_be_visible()

    with page.expect_download() as download:
        control(page, "Exporter en JSON").click()
    saved = tmp_path / download.value.suggested_filename
    download.value.save_as(saved)
    assert saved.suffix == ".json"
    assert json.loads(saved.read_text())["games"][0]["players"] == NAMES

    other = new_context().new_page()
    history = HistoryPage(other).open()
    expect(history.games).to_have_count(0)
    file_field(other).set_input_files(saved)
    import_button(other).click()

    expect(history.heading).to_be_visible()
    expect(other.get_by_role("status")).to_contain_text("1 partie importée")
    expect(history.games).to_have_count(1)
    history.games.first.click()
    copied = GamePage(other)
    copied.expect_totals({"Alice": 70, "Bruno": 20, "Chloé": 10})
    expect(copied.result).to_contain_text("Chloé")


# --- axe-core on the new screens ------------------------------------------------------------------


def new_game_with_variants(page: Page) -> None:
    form = NewGamePage(page).open()
    form.type_names(NAMES)
    end_rules(page).get_by_role("radio", name="Nombre de manches", exact=True).check()
    end_rules(page).get_by_role("spinbutton", name="Manches", exact=True).fill("5")
    page.get_by_role("checkbox", name="Variante pro", exact=True).check()


def new_game_with_an_invalid_limit(page: Page) -> None:
    form = NewGamePage(page).open()
    form.type_names(NAMES)
    end_rules(page).get_by_role("radio", name="Autre limite", exact=True).check()
    end_rules(page).get_by_role("spinbutton", name="Limite", exact=True).fill("9")
    form.start.click()
    expect(form.alert).to_be_visible()


def edit_round(page: Page) -> None:
    game_started(page, NAMES, [5, 6, 7])
    edit_link(page, 1).click()
    expect(save_round(page)).to_be_visible()


def edit_round_with_errors(page: Page) -> None:
    edit_round(page)
    GamePage(page).heads_field("Alice").fill("98")
    save_round(page).click()
    expect(page.get_by_role("alert")).to_be_visible()


def edit_round_from_a_stale_page(page: Page) -> None:
    game_started(page, NAMES, [5, 6, 7])
    other_tab = page.context.new_page()
    other_tab.goto(page.url)
    edit_link(page, 1).click()
    GamePage(other_tab).play_round(NAMES, [1, 1, 1], 2)
    save_round(page).click()
    expect(page.get_by_role("alert")).to_contain_text("a changé")


def statistics(page: Page) -> None:
    game_started(page, NAMES, [30, 10, 5], [40, 10, 5])
    page.goto("/statistiques?tri=nom")
    expect(stats_table(page)).to_be_visible()


def history_with_the_import_form(page: Page) -> None:
    game_started(page, NAMES, [1, 2, 3])
    expect(file_field(HistoryPage(page).open().page)).to_be_visible()


def history_with_an_import_error(page: Page) -> None:
    HistoryPage(page).open()
    file_field(page).set_input_files(
        files=[{"name": "x.json", "mimeType": "application/json", "buffer": b"{}"}]
    )
    import_button(page).click()
    expect(page.get_by_role("alert")).to_be_visible()


def game_with_the_chart(page: Page) -> None:
    game_started(page, NAMES, [5, 6, 7], [10, 0, 3], [20, 30, 1])
    expect(chart(page)).to_be_visible()


def finished_game_with_the_chart(page: Page) -> None:
    game_started(page, NAMES, [30, 10, 5], [40, 10, 5])
    expect(chart(page)).to_be_visible()


SCREENS: dict[str, Callable[[Page], None]] = {
    screen.__name__: screen
    for screen in (
        new_game_with_variants,
        new_game_with_an_invalid_limit,
        edit_round,
        edit_round_with_errors,
        edit_round_from_a_stale_page,
        statistics,
        history_with_the_import_form,
        history_with_an_import_error,
        game_with_the_chart,
        finished_game_with_the_chart,
    )
}


@pytest.mark.parametrize("screen", SCREENS)
def test_no_wcag_22_aa_violation_on_the_new_screens(page: Page, screen: str):
    SCREENS[screen](page)

    expect_accessible(page, screen)
