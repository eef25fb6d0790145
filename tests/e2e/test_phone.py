"""Phone first: big targets, nothing from elsewhere. (Ten long names at 360 px and four more sizes:
test_layout.py::test_every_screen_is_whole.)"""

from __future__ import annotations

import pytest
from playwright.sync_api import Locator, Page, expect

from .pages import HistoryPage, HomePage

pytestmark = pytest.mark.e2e

MIN_TARGET_PX = 44
PLAYERS = ["Jean-Christophe de la Fontaine", "Marie-Antoinette", "Bartholomé"]


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


def test_every_button_link_and_field_is_at_least_44_px_tall(page: Page):
    home = HomePage(page).open()
    problems = {"home": too_small_targets(page)}
    form = home.start_new_game()
    form.type_names(PLAYERS)
    problems["new game"] = too_small_targets(page)
    game = form.start_game(PLAYERS)
    game.play_round(PLAYERS, [5, 6, 7], 1)
    problems["game in progress"] = too_small_targets(page)
    game.play_round(PLAYERS, [70, 1, 2], 2)
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
    game.type_round_with_keyboard(
        ["Alice", "Bruno"], [79, 1]
    )  # each score possible, their sum not: the server refuses it
    expect(game.alert).to_be_visible()
    game.enter_round(["Alice", "Bruno"], [70, 1])
    expect(game.result).to_be_visible()
    HomePage(page).open().open_history()

    assert requested, "no request was recorded"
    elsewhere = [url for url in requested if not url.startswith(live_server.url + "/")]
    assert not elsewhere, f"requests to other origins: {elsewhere}"
