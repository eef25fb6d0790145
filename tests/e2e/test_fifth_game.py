"""A fifth game, defined in the tests (tests/fifth_game.py) and shipped nowhere, played on a
phone through the new-game form to its end, online and with a round waiting offline (issue 44):
its server is the real app under gunicorn with the game registered (`tests.fifth_game:serve()`),
and no file of the app changed for it."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from scripts.lib.servers import Gunicorn, migrate, server_env

from .conftest import ACTION_TIMEOUT_MS, STARTUP_SECONDS
from .pages import NewGamePage
from .test_waiting_rounds import recorded_line, waiting_line

pytestmark = pytest.mark.e2e

NAMES = ["Alice", "Bruno"]


@pytest.fixture(scope="module")
def fifth_game_server() -> Iterator[str]:
    """Yield the address of the app served as `make run` does, the fifth game registered."""
    workdir = Path(tempfile.mkdtemp(prefix="sqp-e2e-fifth-"))
    env = server_env(f"sqlite:///{workdir / 'e2e.sqlite'}", workdir / "instance")
    log = workdir / "gunicorn.log"
    server = Gunicorn(env, log, workers=1)
    server.command[-1] = "tests.fifth_game:serve()"  # rather than app:create_app(…)
    try:
        migrate(env, log)
        server.start(ready_within=STARTUP_SECONDS)
        yield server.url
    finally:
        server.stop()
        shutil.rmtree(workdir, ignore_errors=True)


@pytest.fixture
def phone(
    browser, browser_context_args, fifth_game_server
) -> Iterator[tuple[BrowserContext, Page]]:
    context = browser.new_context(**{**browser_context_args, "base_url": fifth_game_server})
    context.set_default_timeout(ACTION_TIMEOUT_MS)
    yield context, context.new_page()
    context.close()


def test_the_fifth_game_is_played_to_its_end_online_and_offline(phone):
    context, page = phone
    form = NewGamePage(page).open()
    page.get_by_role("group", name="Jeu").get_by_role("radio", name="Cinq cents").check()
    # What it declares, and no other game's choices.
    expect(page.get_by_text("De 2 à 6 joueurs ; le plus petit total gagne")).to_be_visible()
    expect(page.get_by_text("Par la règle du jeu, ci-dessus")).to_be_visible()
    expect(page.get_by_label("Autre limite")).to_be_hidden()
    expect(page.get_by_label("Variante pro")).to_be_hidden()
    game = form.start_game(NAMES)
    ended = page.get_by_role("group", name="A fini la manche")

    # Alice ends the round, positive and not the lowest: not doubled (Skyjo's rule would).
    ended.get_by_role("radio", name="Alice").check()
    game.play_round(NAMES, [150, 100], 1)
    game.expect_totals({"Alice": 150, "Bruno": 100})
    ended.get_by_role("radio", name="Bruno").check()
    game.play_round(NAMES, [200, 100], 2)
    game.expect_totals({"Alice": 350, "Bruno": 200})

    # Offline, the page counts the waiting round by the game's points rule: none, so 450 (a
    # doubling would make 550, and the end).
    context.set_offline(True)
    ended.get_by_role("radio", name="Alice").check()
    game.enter_round(NAMES, [100, 50])
    expect(waiting_line(game, 3)).to_be_visible()
    game.expect_totals({"Alice": 450, "Bruno": 250})
    expect(game.result).to_have_count(0)

    context.set_offline(False)
    expect(recorded_line(game, 3)).to_be_visible()
    game.expect_totals({"Alice": 450, "Bruno": 250})

    ended.get_by_role("radio", name="Bruno").check()
    game.enter_round(NAMES, [60, 0])  # Alice reaches 510: the end
    expect(game.result).to_contain_text("Bruno gagne avec 250 points")
