"""An offline copy belongs to the device that made it: once the browser's cookies are cleared
(the server then sees a new device), the service worker shows none of the old device's pages."""

from __future__ import annotations

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from .pages import GamePage, game_started

pytestmark = pytest.mark.e2e

NAMES = ["Alice", "Bruno"]


def test_cleared_cookies_leave_no_offline_copy_of_the_old_device_s_game(
    page: Page, context: BrowserContext
):
    game = game_started(page, NAMES)
    game.play_round(NAMES, [4, 9], 1)
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.reload()  # the worker answers this page now, and keeps its copy
    assert page.evaluate("navigator.serviceWorker.controller !== null")
    GamePage(page).expect_totals({"Alice": 4, "Bruno": 9})

    context.clear_cookies()  # the device token goes with them
    context.set_offline(True)
    page.reload()

    expect(page.get_by_role("heading", name="Hors ligne", exact=True)).to_be_visible()  # no copy
    expect(page.get_by_text("Alice")).to_have_count(0)  # nor a link to it
    context.set_offline(False)
