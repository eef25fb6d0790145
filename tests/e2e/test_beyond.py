"""Beyond a paper sheet, in a phone-sized Chromium, with and without JavaScript: end-rule variants,
editing a round, statistics, the score chart, export and import; axe-core on each new screen.
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


@pytest.fixture(params=["js", "no-js"])
def phone(request, new_context) -> Page:
    """A phone (360 px) with JavaScript on, then off."""
    return new_context(java_script_enabled=request.param == "js").new_page()


@pytest.fixture
def another_phone(request, new_context) -> Callable[[], Page]:
    """Another phone, JavaScript on or off like the first one."""
    javascript = "no-js" not in request.node.callspec.id

    def make() -> Page:
        return new_context(java_script_enabled=javascript).new_page()

    return make


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


def test_the_default_end_rule_is_checked_and_stated(phone: Page):
    form = NewGamePage(phone).open()

    group = end_rules(phone)
    expect(group.get_by_role("radio", name="Plus de 66", exact=True)).to_be_checked()
    for other in ("66 ou plus", "Autre limite", "Nombre de manches"):
        expect(group.get_by_role("radio", name=other, exact=True)).not_to_be_checked()
    expect(phone.get_by_role("checkbox", name="Variante pro", exact=True)).not_to_be_checked()

    form.start_game(NAMES)
    expect(rule_in_force(phone, "dépasse 66")).to_be_visible()


def test_a_fixed_number_of_rounds_is_stated_and_ends_the_game(phone: Page):
    form = NewGamePage(phone).open()
    form.type_names(NAMES)
    end_rules(phone).get_by_role("radio", name="Nombre de manches", exact=True).check()
    end_rules(phone).get_by_role("spinbutton", name="Manches", exact=True).fill("2")
    phone.get_by_role("checkbox", name="Variante pro", exact=True).check()

    game = form.start_game([])  # names already typed
    expect(rule_in_force(phone, "2 manches")).to_be_visible()
    expect(rule_in_force(phone, "pro")).to_be_visible()

    game.play_round(NAMES, [30, 5, 3], 1)
    expect(game.result).to_have_count(0)
    game.play_round(NAMES, [4, 2, 3], 2)
    expect(game.result).to_contain_text("Chloé")
    expect(game.result).to_contain_text("gagne")
    expect(game.validate).to_have_count(0)


def test_another_limit_is_stated_and_plays_past_66(phone: Page):
    form = NewGamePage(phone).open()
    form.type_names(["Alice", "Bruno"])
    end_rules(phone).get_by_role("radio", name="Autre limite", exact=True).check()
    end_rules(phone).get_by_role("spinbutton", name="Limite", exact=True).fill("100")

    game = form.start_game([])
    expect(rule_in_force(phone, "dépasse 100")).to_be_visible()
    game.play_round(["Alice", "Bruno"], [70, 1], 1)
    expect(game.result).to_have_count(0)
    expect(game.validate).to_be_visible()


def test_an_invalid_limit_is_explained_and_what_was_typed_kept(phone: Page):
    form = NewGamePage(phone).open()
    form.type_names(["Alice", "Bruno"])
    end_rules(phone).get_by_role("radio", name="Autre limite", exact=True).check()
    limit = end_rules(phone).get_by_role("spinbutton", name="Limite", exact=True)
    limit.fill("5")

    form.start.click()

    expect(form.alert).to_contain_text("10 à 500")
    expect(limit).to_have_value("5")
    expect(limit).to_have_attribute("aria-invalid", "true")
    expect(limit).to_have_accessible_description(re.compile("10 à 500"))
    expect(form.name_field(1)).to_have_value("Alice")
    expect(end_rules(phone).get_by_role("radio", name="Autre limite", exact=True)).to_be_checked()


# --- Editing a round ------------------------------------------------------------------------------


def test_a_round_is_corrected_from_the_round_sheet(phone: Page):
    game = game_started(phone, NAMES, [5, 6, 7], [1, 2, 3])

    edit_link(phone, 1).click()
    expect(save_round(phone)).to_be_visible()
    expect(game.heads_field("Alice")).to_have_value("5")
    game.heads_field("Alice").fill("15")
    save_round(phone).click()

    expect(game.scoreboard).to_be_visible()
    game.expect_totals({"Alice": 16, "Bruno": 8, "Chloé": 10})
    game.expect_leaders(["Bruno"], ["Alice", "Chloé"])
    expect(phone.get_by_role("status")).to_contain_text("Manche 1 modifiée")


def test_a_correction_can_end_the_game(phone: Page):
    game = game_started(phone, NAMES, [5, 6, 7], [1, 2, 3])

    edit_link(phone, 2).click()
    game.heads_field("Bruno").fill("62")
    save_round(phone).click()

    expect(game.result).to_contain_text("Alice")  # 6, while Bruno reached 68
    expect(game.result).to_contain_text("gagne")
    expect(game.validate).to_have_count(0)


def test_a_refused_correction_is_explained_and_changes_nothing(phone: Page):
    game = game_started(phone, NAMES, [5, 6, 7])

    edit_link(phone, 1).click()
    game.heads_field("Alice").fill("98")
    save_round(phone).click()

    expect(game.alert).to_be_visible()
    expect(game.heads_field("Alice")).to_have_attribute("aria-invalid", "true")
    expect(game.heads_field("Alice")).to_have_accessible_description(re.compile("au plus 97"))
    expect(game.heads_field("Alice")).to_have_value("98")
    phone.get_by_role("link", name="Retour à la partie", exact=True).click()
    game.expect_totals({"Alice": 5, "Bruno": 6, "Chloé": 7})


def test_a_correction_from_a_stale_tab_is_refused(phone: Page):
    game = game_started(phone, NAMES, [5, 6, 7])
    game_url = phone.url
    edit_link(phone, 1).click()
    expect(save_round(phone)).to_be_visible()
    other_tab = phone.context.new_page()
    other_tab.goto(game_url)
    GamePage(other_tab).play_round(NAMES, [1, 1, 1], 2)

    game.heads_field("Alice").fill("9")
    save_round(phone).click()

    expect(game.alert).to_contain_text("a changé")
    phone.get_by_role("link", name="Retour à la partie", exact=True).click()
    game.expect_totals({"Alice": 6, "Bruno": 7, "Chloé": 8})


# --- Statistics -----------------------------------------------------------------------------------


def test_statistics_open_from_home_and_sort_by_a_column(phone: Page):
    game_started(phone, NAMES, [30, 10, 5], [40, 10, 5])  # Chloé wins
    game_started(phone, ["chloé", "Bruno", "Alice"], [5, 1, 70])  # Bruno wins

    control(HomePage(phone).open().page, "Statistiques").click()

    table = stats_table(phone)
    expect(table).to_be_visible()
    expect(column(phone, "Parties")).to_be_visible()
    expect(column(phone, "Victoires")).to_have_attribute("aria-sort", "descending")
    expect(table.get_by_role("rowheader")).to_have_count(3)  # « chloé » is Chloé
    expect(table.get_by_role("rowheader").nth(2)).to_have_text("Alice")  # no win

    column(phone, "Joueur").get_by_role("link").click()

    expect(column(phone, "Joueur")).to_have_attribute("aria-sort", "ascending")
    expect(column(phone, "Victoires")).not_to_have_attribute("aria-sort", re.compile("."))
    expect(stats_table(phone).get_by_role("rowheader")).to_have_text(
        ["Alice", "Bruno", re.compile("^chloé$", re.IGNORECASE)]
    )
    assert "tri=" in phone.url

    column(phone, "Joueur").get_by_role("link").click()

    expect(column(phone, "Joueur")).to_have_attribute("aria-sort", "descending")
    expect(stats_table(phone).get_by_role("rowheader").first).to_have_text(
        re.compile("^chloé$", re.IGNORECASE)
    )
    assert HomePage(phone).has_no_sideways_scroll()


# --- Chart ----------------------------------------------------------------------------------------


def test_the_chart_is_drawn_with_its_accessible_name_and_fits_the_phone(phone: Page):
    game = game_started(phone, NAMES, [5, 6, 7])
    expect(chart(phone)).to_have_count(1)

    game.play_round(NAMES, [10, 0, 3], 2)

    drawing = chart(phone)
    expect(drawing).to_be_visible()
    expect(drawing).to_have_accessible_name(re.compile("Alice 15.*Bruno 6.*Chloé 10"))
    box = drawing.bounding_box()
    assert box is not None and 0 < box["width"] <= 360
    assert game.has_no_sideways_scroll()


def test_no_chart_before_the_first_round(page: Page):
    game_started(page, NAMES)

    expect(chart(page)).to_have_count(0)


# --- Export and import ----------------------------------------------------------------------------


def test_a_game_exported_as_json_is_imported_on_another_phone(phone: Page, another_phone, tmp_path):
    game = game_started(phone, NAMES, [30, 10, 5], [40, 10, 5])
    expect(game.result).to_be_visible()

    with phone.expect_download() as download:
        control(phone, "Exporter en JSON").click()
    saved = tmp_path / download.value.suggested_filename
    download.value.save_as(saved)
    assert saved.suffix == ".json"
    assert json.loads(saved.read_text())["games"][0]["players"] == NAMES

    other = another_phone()
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


def test_importing_the_same_file_twice_adds_nothing(page: Page, new_context, tmp_path):
    phone = page
    game_started(phone, NAMES, [1, 2, 3])
    game_started(phone, ["Alice", "Bruno"], [67, 1])
    history = HistoryPage(phone).open()
    with phone.expect_download() as download:
        control(phone, "Exporter toutes les parties").click()
    saved = tmp_path / "toutes.json"
    download.value.save_as(saved)

    other = new_context().new_page()
    HistoryPage(other).open()
    for _ in range(2):
        file_field(other).set_input_files(saved)
        import_button(other).click()
        expect(other.get_by_role("status")).to_be_visible()

    expect(other.get_by_role("status")).to_contain_text("2 déjà présentes")
    expect(HistoryPage(other).games).to_have_count(2)
    expect(history.games).to_have_count(2)


def test_a_game_exports_as_csv(page: Page, tmp_path):
    game_started(page, NAMES, [1, 2, 3])

    with page.expect_download() as download:
        control(page, "Exporter en CSV").click()

    saved = tmp_path / "partie.csv"
    download.value.save_as(saved)
    assert download.value.suggested_filename.endswith(".csv")
    assert saved.read_text(encoding="utf-8-sig").splitlines() == [
        "Manche,Alice,Bruno,Chloé",
        "1,1,2,3",
    ]


def test_a_wrong_file_is_refused_naming_the_game_and_round(phone: Page, tmp_path):
    bad = tmp_path / "parties.json"
    bad.write_text(
        json.dumps(
            {
                "format": "six-qui-prend",
                "version": 1,
                "games": [
                    {
                        "id": "x1",
                        "created_at": "2026-11-29T19:05:00Z",
                        "finished_at": None,
                        "rules": {"end": "above", "limit": 66, "round_count": None, "pro": False},
                        "players": ["Alice", "Bruno"],
                        "rounds": [[1, 2], [80, 0]],
                    }
                ],
            }
        )
    )
    history = HistoryPage(phone).open()

    file_field(phone).set_input_files(bad)
    import_button(phone).click()

    alert = phone.get_by_role("alert")
    expect(alert).to_contain_text("Partie 1")
    expect(alert).to_contain_text("manche 2")
    expect(file_field(phone)).to_have_attribute("aria-invalid", "true")
    expect(history.games).to_have_count(0)


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
