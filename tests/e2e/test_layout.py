"""What a person sees, at every size (ui-contract « What a person sees, at every size »): every
screen whole at five sizes in two languages, the sheet's columns, the big screen, and where
the eyes land after an action.

The light and the dark theme share every size and rule of the layout (app.css changes colours
only): each language is looked at in one of them, both themes at every size.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from scripts.lib.layout import problems
from scripts.lib.showcase import LAST_ROUND, NAMES, ROUNDS

from .pages import GamePage, NewGamePage, control, game_started

SIZES = {
    "phone": (360, 640),
    "phone-on-its-side": (640, 360),
    "tablet": (768, 1024),
    "laptop": (1280, 800),
    "tv": (1920, 1080),
}
NEW_PHONE = {"cookies": [], "origins": []}
# English words are shorter than French and German ones: fr and de are the ones that could not fit.
LANGUAGES = {"fr": ("fr-FR", "light"), "de": ("de-DE", "dark")}


@pytest.fixture(scope="module")
def phone(evening_phone) -> tuple[dict, dict[str, str]]:
    """The evening played once on one phone (tests/e2e/conftest.py, shared with axe's test)."""
    return evening_phone


def _at(
    browser: Browser, base_url: str, state: dict, size: str | tuple[int, int], language: str = "fr"
) -> Page:
    width, height = SIZES[size] if isinstance(size, str) else size
    locale, theme = LANGUAGES[language]
    context = browser.new_context(
        storage_state=state,
        base_url=base_url,
        viewport={"width": width, "height": height},
        is_mobile=width < 1000,
        has_touch=width < 1000,
        locale=locale,
        color_scheme=theme,
    )
    context.set_default_timeout(15_000)
    return context.new_page()


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("size", SIZES)
def test_every_screen_is_whole(browser, base_url, phone, size, language):
    state, screens = phone
    page = _at(browser, base_url, state, size, language)
    broken = {}
    for name, path in screens.items():
        page.goto(path)
        if found := problems(page):
            broken[name] = found
    page.context.close()
    assert broken == {}


@pytest.mark.parametrize("size", ["phone-on-its-side", "tablet", "laptop", "tv"])
def test_the_sheet_shows_four_players_columns_where_it_has_the_room(browser, base_url, phone, size):
    state, screens = phone
    page = _at(browser, base_url, state, size)
    page.goto(screens["game"])
    sheet = GamePage(page).sheet_box
    box = sheet.bounding_box()
    fourth = sheet.get_by_role("columnheader", name=NAMES[3], exact=True).bounding_box()
    assert box and fourth and fourth["x"] + fourth["width"] <= box["x"] + box["width"]
    page.context.close()


@pytest.mark.parametrize(("size", "total_px"), [("laptop", 28), ("tv", 40)])
def test_the_follow_page_is_the_tables_big_screen(browser, base_url, phone, size, total_px):
    state, screens = phone
    page = _at(browser, base_url, NEW_PHONE, size)  # a TV, which never scored
    page.goto(screens["follow"])
    board = GamePage(page)
    for name in NAMES:
        expect(board.player_heading(name)).to_be_in_viewport(ratio=1)
        total = board.total_of(name)
        size_px = total.evaluate("cell => parseFloat(getComputedStyle(cell).fontSize)")
        assert size_px >= total_px, (name, size_px)
    page.context.close()


def test_ten_long_names_close_to_the_end_all_stay_in_view_on_the_big_screen(browser, base_url):
    """The screens' report: at 1280 × 800 in French the tenth row was below the fold, the
    long names on two lines and three rows warning of the end under their names."""
    names = ["Schwarzwaldkirschtortenbäckeri", "Marie-Charlotte de Montmorency", "Zoë Brontë"]
    names += ["Éléonore", "Jean-Baptiste", "Ærøskøbing", "Inès", "Bruno", "Chloé", "Damien"]
    phone = _at(browser, base_url, NEW_PHONE, "phone")
    game_started(phone, names, *[[20, 13, 6, 20, 13, 6, 20, 13, 6, 13]] * 3)  # 60, 39, 18…
    phone.get_by_role("button", name="Partager la partie").click()
    follow_address = phone.get_by_role("link", name=re.compile("suivre")).get_attribute("href")
    phone.context.close()

    screen = _at(browser, base_url, NEW_PHONE, "laptop")  # a TV, which never scored
    screen.goto(follow_address or "")

    board = GamePage(screen)
    expect(board.player_row(names[0])).to_contain_text("Marge avant la fin")
    for name in names:
        expect(board.player_heading(name)).to_be_in_viewport(ratio=1)
    screen.context.close()


@pytest.mark.parametrize(("size", "small_px"), [("laptop", 17), ("tv", 24)])
def test_the_big_screen_at_the_end_shows_the_result_and_the_standings_large(
    browser, base_url, phone, size, small_px
):
    state, screens = phone
    page = _at(browser, base_url, NEW_PHONE, size)  # a TV, which never scored
    page.goto(screens["follow-result"])
    board = GamePage(page)

    expect(board.result).to_contain_text("Marie-Christine gagne")
    expect(board.result).to_be_in_viewport(ratio=1)
    for name in NAMES:
        expect(board.player_heading(name)).to_be_in_viewport(ratio=1)
    # Ranks and warnings read across the room; the result to send waits below, for a phone.
    last = board.player_heading(NAMES[0])  # Éléonore, who went above 66: 10th
    for small in (last.get_by_text("10e", exact=True), last.get_by_text("A dépassé 66")):
        size_px = small.evaluate("text => parseFloat(getComputedStyle(text).fontSize)")
        assert size_px >= small_px, size_px
    expect(page.get_by_role("heading", name="Le résultat à envoyer")).not_to_be_in_viewport()
    page.context.close()


@pytest.mark.parametrize("size", ["phone", "phone-on-its-side"])
def test_the_result_is_in_view_and_focused_when_a_round_ends_the_game(browser, base_url, size):
    page = _at(browser, base_url, NEW_PHONE, size)
    game = game_started(page, NAMES, *ROUNDS)
    game.play_round_with_keyboard(NAMES, LAST_ROUND, len(ROUNDS) + 1)

    expect(game.result).to_contain_text("Marie-Christine gagne")
    expect(game.result).to_be_in_viewport()
    expect(game.result).to_be_focused()
    page.context.close()


def test_a_name_of_one_thirty_letter_word_never_pushes_a_page_sideways(browser, base_url):
    """The last resort: a word wider than all the room a name has on a phone breaks there."""
    names = ["Donaudampfschifffahrtskapitäne", "Marie-Charlotte de Montmorency"]
    page = _at(browser, base_url, NEW_PHONE, "phone")
    game = game_started(page, names, [25, 25], [25, 25])
    wide = "document.documentElement.scrollWidth - document.documentElement.clientWidth"
    assert page.evaluate(wide) <= 0
    page.goto(f"{page.url}/manches/1")  # each label over its own field (it overlapped the next)
    assert [found for found in problems(page) if "cut across lines" not in found] == []
    page.go_back()
    game.play_round(names, [25, 25], 3)  # both above 66, a shared win: the result says both
    expect(game.result).to_contain_text("Victoire partagée")
    assert page.evaluate(wide) <= 0
    for path in ("/historique", "/statistiques"):
        page.goto(path)
        assert page.evaluate(wide) <= 0, path
    # The statistics' figures beside the name kept in view (it took all but 21 px of the width).
    row = page.get_by_role("row", name=re.compile(names[0]))
    expect(row.get_by_role("cell").nth(1)).to_be_in_viewport(ratio=1)
    page.context.close()


@pytest.fixture(scope="module")
def long_word_evening(browser, base_url) -> tuple[dict, str, str]:
    """An evening of two games, a player's name one word of thirty letters: the phone's cookies,
    the evening's page, and the first game's follow address (its big screen between the games)."""
    page = _at(browser, base_url, NEW_PHONE, "phone")
    game = game_started(page, ["Alice", LONG_WORD, "Chloé"], [70, 3, 10])
    played = page.url
    page.get_by_role("button", name="Partager la partie").click()
    follow = page.get_by_role("link", name=re.compile("suivre")).get_attribute("href") or ""
    page.goto(played)
    game.rematch.click()
    expect(game.scoreboard).to_be_visible()
    control(page, "La soirée").click()
    evening = page.url
    state = page.context.storage_state()
    page.context.close()
    return state, evening, follow


LONG_WORD = "Abcdefghijklmnopqrstuvwxyzabcd"
# Every phone and screen the evening is looked at on, the tallest phone of the QA's report too.
EVENING_SIZES = [(360, 640), (390, 844), (640, 360), (768, 1024), (1280, 800)]


def _ranking_whole(page: Page) -> None:
    """Every column of « Classement de la soirée » in its box (QA: « Victoires » off a phone's
    screen, « Place moyenne » cut on the TV), the page whole; the long name alone may break."""
    ranking = page.get_by_role("region", name="Classement de la soirée")
    expect(ranking.get_by_role("columnheader", name="Place moyenne")).to_be_attached()
    assert ranking.evaluate("box => box.scrollWidth - box.clientWidth") <= 0
    assert [found for found in problems(page) if f"« {LONG_WORD} »" not in found] == []


@pytest.mark.parametrize(("width", "height"), EVENING_SIZES)
def test_the_evenings_ranking_shows_every_column_beside_a_thirty_letter_name(
    browser, base_url, long_word_evening, width, height
):
    state, evening, _follow = long_word_evening
    page = _at(browser, base_url, state, (width, height))
    page.goto(evening)
    _ranking_whole(page)
    page.context.close()


def test_the_big_screens_evening_ranking_shows_every_column_beside_a_thirty_letter_name(
    browser, base_url, long_word_evening
):
    _state, _evening, follow = long_word_evening
    page = _at(browser, base_url, NEW_PHONE, "laptop")  # a TV, which never scored
    page.goto(follow)
    _ranking_whole(page)
    page.context.close()


def test_a_thirty_letter_word_leaves_four_players_columns_in_sight_where_there_is_room(
    browser, base_url
):
    names = [
        "Donaudampfschifffahrtskapitäne",
        "Marie-Christine",
        "Jean-Baptiste",
        "Élodie",
        "Damien",
    ]
    page = _at(browser, base_url, NEW_PHONE, "phone-on-its-side")
    game_started(page, names, [1, 2, 3, 4, 5])
    sheet = GamePage(page).sheet_box
    box = sheet.bounding_box()
    fourth = sheet.get_by_role("columnheader", name=names[3], exact=True).bounding_box()
    assert box and fourth and fourth["x"] + fourth["width"] <= box["x"] + box["width"]
    page.context.close()


def test_a_game_and_a_rounds_edit_open_with_the_first_players_field_focused(page: Page):
    game = game_started(page, NAMES[:3], [1, 2, 3])
    expect(game.heads_field(NAMES[0])).to_be_focused()

    page.goto(f"{page.url}/manches/1")
    expect(page.get_by_role("spinbutton", name=NAMES[0], exact=True)).to_be_focused()


def test_a_refused_new_game_shows_its_reasons_where_the_person_looks(browser, base_url):
    page = _at(browser, base_url, NEW_PHONE, "phone-on-its-side")
    form = NewGamePage(page).open()
    form.type_names(["Alice", "Alice", "Bruno", "Chloé", "Damien", "Inès"])
    form.start.click()

    expect(form.alert).to_contain_text("Alice")
    expect(form.alert).to_be_in_viewport()
    expect(form.alert).to_be_focused()
    page.context.close()


def test_a_refused_import_is_said_in_view_at_the_foot_of_a_long_history(browser, base_url, phone):
    state, _screens = phone
    page = _at(browser, base_url, state, "phone")
    page.goto("/historique")
    page.get_by_label("Fichier de parties").set_input_files(
        {"name": "parties.json", "mimeType": "application/json", "buffer": b"\xff not json"}
    )
    page.get_by_role("button", name="Importer", exact=True).click()

    alert = page.get_by_role("alert").filter(has_text=re.compile("Rien n’a été importé"))
    expect(alert).to_be_in_viewport()
    expect(alert).to_be_focused()
    page.context.close()


def test_each_rows_cost_sits_with_its_own_button_on_a_phone(browser, base_url, phone):
    state, screens = phone
    page = _at(browser, base_url, state, "phone")
    page.goto(screens["assistant"])
    buttons = [page.get_by_role("button", name=f"Ramasser la rangée {n}") for n in (1, 2, 3, 4)]

    for button, following in zip(buttons, buttons[1:], strict=False):
        row = page.get_by_role("listitem").filter(has=button)
        cost = row.get_by_text(re.compile(r"^\d+ têtes?$"))
        mine, its, next_one = (x.bounding_box() for x in (button, cost, following))
        assert mine and its and next_one
        to_mine = its["y"] - (mine["y"] + mine["height"])
        to_next = next_one["y"] - (its["y"] + its["height"])
        # Read as a pair: the cost at least twice as near its button as the next one.
        assert to_next >= 2 * max(to_mine, 1), (to_mine, to_next)
    page.context.close()


@pytest.mark.parametrize("size", ["phone", "laptop"])
def test_the_charts_labels_are_whole_whatever_the_names_letters(browser, base_url, size):
    """Each line's label holds the whole name and the total (QA: thirty capitals ran past the
    chart's edge, the total with them)."""
    names = [
        "MAXIMILIANSTRASSENMEISTERINNEN",
        "WWWWWWWWWWWWWWWWWWWWWWWWWWWWWW",
        "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
    ]
    page = _at(browser, base_url, NEW_PHONE, size)
    game_started(page, names, [25, 3, 9], [12, 30, 0])

    assert [found for found in problems(page) if "chart" in found] == []
    page.context.close()


def test_a_free_games_name_of_one_forty_letter_word_stays_on_the_phones_screen(browser, base_url):
    """QA: « Rindfleischetikettierungsüberwachungsauf » ran off the game page and the history's
    card at 390 px (the last resort, as for a player's name: it breaks where it must)."""
    title = "Rindfleischetikettierungsüberwachungsauf"
    page = _at(browser, base_url, NEW_PHONE, "phone")
    rules = {"game": "libre", "title": title, "end": "rounds", "round_count": "1"}
    game_started(page, ["Ann", "Ben"], [12, 30], **rules)

    for path in (page.url, "/historique", "/statistiques"):
        page.goto(path)
        expect(page.get_by_text(title).first).to_be_visible()
        assert [found for found in problems(page) if "cut across lines" not in found] == [], path
    page.context.close()
