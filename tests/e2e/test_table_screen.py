"""The game screen at the table: the race to 66 at a glance, a round in seconds, undo, delete,
dark theme, and 10 players on a small phone."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import APIResponse, Page, Route, expect

from .pages import GamePage, HistoryPage, NewGamePage, game_started

pytestmark = pytest.mark.e2e

NAMES = ["Alice", "Bruno", "Chloé"]
TEN = ["Alice", "Bruno", "Chloé", "Dylan", "Élise", "Farid", "Gaëlle", "Hugo", "Inès", "Jules"]


def start(page: Page, names: list[str] = NAMES) -> GamePage:
    return game_started(page, names)


def test_each_row_shows_the_last_round_and_a_gauge_that_warns_in_words(page: Page):
    game = start(page)

    game.play_round(NAMES, [60, 2, 3], 1)

    expect(game.last_round_of("Alice")).to_have_text("+60")
    expect(game.last_round_of("Bruno")).to_have_text("+2")
    gauge = game.gauge_of("Alice")
    expect(gauge).to_have_attribute("value", "60")
    expect(gauge).to_have_attribute("max", "66")
    expect(game.player_row("Alice")).to_contain_text(re.compile(r"Marge avant la fin\s*: 6"))
    expect(game.player_row("Bruno")).not_to_contain_text("Marge")

    game.play_round(NAMES, [6, 0, 1], 2)  # exactly 66: the game goes on, one head ends it

    expect(game.last_round_of("Alice")).to_have_text("+6")
    expect(game.player_row("Alice")).to_contain_text("la moindre tête finit la partie")
    expect(game.validate).to_be_visible()


def test_a_game_of_a_number_of_rounds_has_no_gauge(page: Page):
    form = NewGamePage(page).open()
    form.type_names(NAMES)
    page.get_by_role("radio", name="Nombre de manches").check()
    page.get_by_role("spinbutton", name="Manches").fill("3")
    form.start.click()
    game = GamePage(page)

    game.play_round(NAMES, [1, 2, 3], 1)

    expect(game.last_round_of("Chloé")).to_have_text("+3")
    expect(game.scoreboard.get_by_role("meter")).to_have_count(0)


def test_while_a_round_is_sent_it_is_drawn_as_such_and_the_next_one_can_be_typed(page: Page):
    game = start(page)
    held: list[tuple[Route, APIResponse]] = []
    # The server records the round at once; its answer reaches the page when the test says.
    page.route(re.compile(r"/manches$"), lambda route: held.append((route, route.fetch())))

    game.enter_round(NAMES, [1, 2, 3])

    expect(game.sheet.get_by_role("rowheader", name="Manche 1 — envoi…")).to_be_visible()
    expect(game.heads_field("Alice")).to_be_editable()  # for round 2 already
    expect(game.heads_field("Alice")).to_have_value("")
    # The live stream tells of this very round before its answer: that is no other tab's change.
    page.wait_for_timeout(1500)
    expect(page.get_by_role("status").filter(has_text="a changé la partie")).to_have_count(0)
    route, answer = held[0]
    route.fulfill(response=answer)

    game.expect_round_recorded(1)
    expect(page.get_by_role("status")).to_contain_text("Manche 1 enregistrée")


def test_a_cancelled_round_comes_back_once_with_retablir(page: Page):
    game = start(page)
    game.play_round(NAMES, [5, 6, 7], 1)
    game.play_round(NAMES, [10, 3, 2], 2)

    game.cancel_last_round()

    expect(game.round_line(2)).to_have_count(0)
    game.expect_totals({"Alice": 5, "Bruno": 6, "Chloé": 7})
    restore = page.get_by_role("button", name="Rétablir la manche 2", exact=True)
    expect(restore).to_be_visible()

    restore.click()

    expect(game.round_line(2)).to_be_visible()
    game.expect_totals({"Alice": 15, "Bruno": 9, "Chloé": 9})
    expect(game.restore).to_have_count(0)
    page.reload()
    expect(game.sheet.get_by_role("rowheader", name=re.compile("^Manche"))).to_have_count(2)


def test_a_game_can_be_deleted_from_its_history_entry(page: Page):
    start(page).play_round(NAMES, [5, 6, 7], 1)
    history = HistoryPage(page).open()

    history.entries.first.get_by_role("link", name="Supprimer la partie", exact=True).click()
    page.get_by_role("button", name="Supprimer définitivement", exact=True).click()

    expect(history.heading).to_be_visible()
    expect(history.games).to_have_count(0)


def test_the_dark_theme_is_light_text_on_dark(new_context):
    page = new_context(color_scheme="dark").new_page()
    game = start(page)
    game.play_round(NAMES, [60, 2, 3], 1)
    game.enter_round(NAMES, [90, 5, 5])  # each score possible, their sum not: the server says
    expect(game.alert).to_be_visible()

    text, ground = page.evaluate(
        "[getComputedStyle(document.body).color, getComputedStyle(document.body).backgroundColor]"
    )

    assert luminance(text) > 0.6 > 0.1 > luminance(ground), (text, ground)


def luminance(css_colour: str) -> float:
    """Return the relative luminance (0 black … 1 white) of an rgb(…) colour."""
    red, green, blue = (int(v) / 255 for v in re.findall(r"\d+", css_colour)[:3])
    linear = [
        c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in (red, green, blue)
    ]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def test_ten_players_on_a_small_phone_see_every_total_after_a_round(page: Page):
    page.set_viewport_size({"width": 360, "height": 640})
    game = start(page, TEN)

    for number in (1, 2):
        game.type_round_with_keyboard(TEN, [number + seat for seat in range(10)])
        expect(game.round_line(number)).to_be_attached()

        for name in TEN:
            expect(game.total_of(name)).to_be_in_viewport()
        expect(game.heads_field("Alice")).to_be_focused()
    assert game.has_no_sideways_scroll()


def test_a_typed_limit_or_round_count_selects_its_option(page: Page):
    form = NewGamePage(page).open()

    page.get_by_role("spinbutton", name="Limite", exact=True).fill("80")
    expect(page.get_by_role("radio", name="Autre limite")).to_be_checked()
    page.get_by_role("spinbutton", name="Manches", exact=True).fill("4")
    expect(page.get_by_role("radio", name="Nombre de manches")).to_be_checked()

    page.get_by_role("spinbutton", name="Limite", exact=True).fill("")
    form.type_names(NAMES)
    form.start.click()
    expect(page.get_by_text("La partie dure 4 manches")).to_be_visible()


def _finished_game(page: Page) -> None:
    start(page).play_round(NAMES, [70, 1, 2], 1)


def test_statistics_show_every_column_at_1280_px(page: Page):
    _finished_game(page)
    page.set_viewport_size({"width": 1280, "height": 800})

    page.goto("/statistiques")

    box = page.get_by_role("region", name="Statistiques")
    assert box.evaluate("box => box.scrollWidth <= box.clientWidth"), "the table scrolls sideways"
    expect(page.get_by_text("Faites glisser le tableau")).to_be_hidden()


def test_statistics_on_a_phone_say_there_are_more_columns(page: Page):
    _finished_game(page)

    page.goto("/statistiques")

    expect(page.get_by_text("Faites glisser le tableau")).to_be_visible()
    expect(page.get_by_role("rowheader", name="Alice")).to_be_in_viewport()
    assert HistoryPage(page).has_no_sideways_scroll()
