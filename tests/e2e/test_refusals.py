"""A refusal for too many requests, on a server whose limits are on: said in the page's own place,
in the person's language; never « Offline », never a page inside the page."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import expect

from scripts.lib.servers import running

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def limited_server(tmp_path_factory) -> Iterator[str]:
    folder: Path = tmp_path_factory.mktemp("limited")
    with running(
        f"sqlite:///{folder / 'limited.sqlite'}",
        folder,
        workers=1,
        FLASK_RATELIMIT_ENABLED="true",
        FLASK_RATELIMIT_GAME_CREATION="1 per hour",
    ) as server:
        yield server.url


def test_a_game_refused_for_too_many_requests_is_said_in_the_form_s_place(
    new_context, limited_server
):
    context = new_context()
    context.add_cookies([{"name": "lang", "value": "en", "url": limited_server}])  # « English »
    page = context.new_page()
    for attempt in range(2):  # the second game is one more than this device may start
        page.goto(limited_server + "/parties/nouvelle")
        page.get_by_label("Player 1", exact=True).fill("Ana")
        page.get_by_label("Player 2", exact=True).fill("Bob")
        page.get_by_role("button", name="Start the game").click()
        if not attempt:
            expect(page.get_by_role("button", name="Record round")).to_be_visible()

    refusal = page.get_by_role("alert")
    expect(refusal).to_contain_text("Too many requests")
    expect(refusal).to_contain_text("nothing was recorded")
    expect(refusal).to_be_in_viewport()
    expect(page.locator("main")).to_have_count(1)  # not the refusal's page inside this one
    expect(page.get_by_text(re.compile("Offline|Hors ligne")).filter(visible=True)).to_have_count(0)
    expect(page.get_by_label("Player 1", exact=True)).to_have_value("Ana")  # the form stays
