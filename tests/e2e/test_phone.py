"""Phone first: 360 px wide with 10 players and no sideways scroll, big targets, nothing from elsewhere."""

from __future__ import annotations

import pytest
from playwright.sync_api import Locator, Page, expect

from .pages import HistoryPage, HomePage, NewGamePage

pytestmark = pytest.mark.e2e

MIN_TARGET_PX = 44
# Ten players with long names, the longest the counter accepts (30 characters) among them.
TEN_PLAYERS = [
    "Jean-Christophe de la Fontaine",
    "Marie-Antoinette",
    "Bartholomé",
    "Anne-Sophie",
    "Maximilien",
    "Clémentine",
    "Guillaume",
    "Éléonore",
    "Zoé",
    "Théo",
]


def too_small_targets(page: Page) -> list[str]:
    """Describe every visible button, link and text or number field less than 44 px tall."""
    small = []
    for role in ("button", "link", "textbox", "spinbutton"):
        controls: Locator = page.get_by_role(role)
        for index in range(controls.count()):
            control = controls.nth(index)
            box = control.bounding_box()
            if box is None or not control.is_visible():
                continue
            if box["height"] < MIN_TARGET_PX:
                name = control.get_attribute("aria-label") or control.inner_text() or "(no text)"
                small.append(f"{role} « {name.strip()} »: {box['height']:.0f} px tall")
    return small


def expect_fits_the_phone(screen, where: str) -> None:
    assert screen.has_no_sideways_scroll(), f"{where}: the page scrolls sideways at 360 px"


def test_ten_players_and_ten_rounds_fit_a_360_px_phone(page: Page):
    form = NewGamePage(page).open()
    form.type_names(TEN_PLAYERS)
    expect_fits_the_phone(form, "new game with 10 players")
    game = form.start_game(TEN_PLAYERS)
    expect_fits_the_phone(game, "game with 10 players and no round")

    for number in range(1, 11):
        game.play_round(TEN_PLAYERS, [6] * 10, number)  # 60 each after 10 rounds: not over

    game.expect_totals(dict.fromkeys(TEN_PLAYERS, 60))
    expect(game.validate).to_be_visible()
    expect_fits_the_phone(game, "game with 10 players and 10 rounds")
    box = game.sheet_box.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 360, (
        f"the round sheet's box overflows the phone: {box}"
    )
    page.reload()
    expect_fits_the_phone(game, "game page loaded afresh with 10 players and 10 rounds")


def test_every_button_link_and_field_is_at_least_44_px_tall(page: Page):
    home = HomePage(page).open()
    problems = {"home": too_small_targets(page)}
    form = home.start_new_game()
    form.type_names(TEN_PLAYERS[:3])
    problems["new game"] = too_small_targets(page)
    game = form.start_game(TEN_PLAYERS[:3])
    game.play_round(TEN_PLAYERS[:3], [5, 6, 7], 1)
    problems["game in progress"] = too_small_targets(page)
    game.play_round(TEN_PLAYERS[:3], [70, 1, 2], 2)
    expect(game.result).to_be_visible()
    problems["finished game"] = too_small_targets(page)
    HistoryPage(page).open()
    problems["history"] = too_small_targets(page)

    assert not any(problems.values()), "\n".join(
        f"{where}: {item}" for where, items in problems.items() for item in items
    )


def test_nothing_is_requested_from_another_site(page: Page, live_server):
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))

    game = HomePage(page).open().start_new_game().start_game(["Alice", "Bruno"])
    game.play_round_with_keyboard(["Alice", "Bruno"], [3, 4], 1)
    game.type_round_with_keyboard(["Alice", "Bruno"], [80, 1])
    expect(game.alert).to_be_visible()
    game.enter_round(["Alice", "Bruno"], [70, 1])
    expect(game.result).to_be_visible()
    HomePage(page).open().open_history()

    assert requested, "no request was recorded"
    elsewhere = [url for url in requested if not url.startswith(live_server.url + "/")]
    assert not elsewhere, f"requests to other origins: {elsewhere}"
