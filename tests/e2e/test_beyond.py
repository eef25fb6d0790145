"""Beyond a paper sheet, in a phone-sized Chromium: one journey each for an end-rule variant,
correcting a round, statistics, export and import (axe-core on them: test_accessibility.py).

These screens have no script of their own (edit, statistics, history and import are plain forms
and links; the round form is the game's): they run once, JavaScript on. Playing without
JavaScript is test_without_javascript.py's; what each screen refuses, and how, is in
tests/integration.
"""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Locator, Page, expect

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
    column(page, "Joueur").get_by_role("link").click()  # the orders: tests/unit/test_stats.py

    expect(column(page, "Joueur")).to_have_attribute("aria-sort", "ascending")
    assert HomePage(page).has_no_sideways_scroll()


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
