"""Following a game on other phones: the scoring phone shares, the others watch it live, read-only."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Locator, Page, expect

from scripts.lib.servers import Gunicorn, free_port, migrate, server_env

from .conftest import STARTUP_SECONDS
from .pages import GamePage, control, game_started

pytestmark = pytest.mark.e2e

NAMES = ["Alice", "Bruno", "Chloé"]
LIVE_MS = 5_000  # « within 5 s » of the scoring phone's answer (ui-contract, Following)


class SharePage:
    def __init__(self, page: Page):
        self.page = page

    @property
    def address(self) -> Locator:
        return self.page.get_by_role("link", name=re.compile(r"^https?:\S+suivre\S+$"))

    @property
    def qr_code(self) -> Locator:
        return self.page.get_by_role("img", name=re.compile("QR"))

    @property
    def stop(self) -> Locator:
        return self.page.get_by_role("button", name="Arrêter le partage", exact=True)

    def follow_address(self) -> str:
        expect(self.address).to_be_visible()
        url = self.address.get_attribute("href")
        expect(self.address).to_have_text(url)  # written out, to read aloud or copy by hand
        return url


def share(game: GamePage) -> SharePage:
    control(game.page, "Partager la partie").click()
    screen = SharePage(game.page)
    expect(screen.qr_code).to_be_visible()
    return screen


@pytest.fixture
def scorer(new_context) -> GamePage:
    """The phone that keeps the score, with a game of one round."""
    return game_started(new_context().new_page(), NAMES, [5, 6, 7])


def share_and_return(game: GamePage) -> str:
    """Share the game, note its follow address, and go back to the game page."""
    game_url = game.page.url
    address = share(game).follow_address()
    game.page.goto(game_url)
    expect(game.validate).to_be_visible()
    return address


def test_a_follower_sees_each_change_live_without_reloading(new_context, scorer: GamePage):
    address = share_and_return(scorer)
    follower = GamePage(new_context().new_page())  # another phone: no cookie of the game's
    follower.page.goto(address)
    follower.expect_totals({"Alice": 5, "Bruno": 6, "Chloé": 7})
    for name in ("Valider la manche", "Annuler la manche", "Rejouer avec les mêmes joueurs"):
        expect(follower.page.get_by_role("button", name=name)).to_have_count(0)
    expect(follower.page.get_by_text("Modifier la manche")).to_have_count(0)
    follower.mark_no_reload()

    scorer.play_round(NAMES, [10, 3, 2], 2)
    expect(follower.total_of("Alice")).to_have_text("15", timeout=LIVE_MS)
    expect(follower.round_line(2)).to_be_visible()

    scorer.cancel_last_round()
    expect(scorer.round_line(2)).to_have_count(0)
    expect(follower.round_line(2)).to_have_count(0, timeout=LIVE_MS)
    follower.expect_totals({"Alice": 5, "Bruno": 6, "Chloé": 7})
    assert follower.was_not_reloaded()


def test_stopping_the_share_tells_the_follower_at_once(new_context, scorer: GamePage):
    screen = share(scorer)
    address = screen.follow_address()
    follower = new_context().new_page()
    follower.goto(address)
    expect(follower.get_by_role("table", name="Scores")).to_be_visible()

    screen.stop.click()
    expect(screen.address).to_have_count(0)
    expect(follower.get_by_role("alert")).to_contain_text("arrêté", timeout=LIVE_MS)


def test_a_follower_gets_no_cookie_but_the_language_it_chooses_and_reads_that_language(
    new_context, scorer: GamePage
):
    address = share_and_return(scorer)
    context = new_context()
    follower = context.new_page()
    follower.goto(address)
    expect(follower.get_by_role("table", name="Manches")).to_be_visible()
    assert context.cookies() == []

    follower.get_by_role("link", name="English", exact=True).click()
    expect(follower.get_by_role("table", name="Rounds")).to_be_visible()
    follower.get_by_role("link", name="Deutsch", exact=True).click()
    expect(follower.get_by_role("table", name="Runden")).to_be_visible()
    assert [(cookie["name"], cookie["value"]) for cookie in context.cookies()] == [("lang", "de")]


def test_a_big_screen_cut_from_the_server_says_so_and_catches_up_when_it_is_back(browser, tmp_path):
    """The host's report: the server stopped, the big screen kept « suivi en direct » over
    scores no longer live. A server of its own, stopped and started again on its port."""
    env = server_env(f"sqlite:///{tmp_path / 'cut.sqlite'}", tmp_path / "instance")
    log, port = tmp_path / "gunicorn.log", free_port()
    migrate(env, log)
    server = Gunicorn(env, log, workers=1, port=port)
    server.start(ready_within=STARTUP_SECONDS)
    phone, screen = (browser.new_context(base_url=server.url).new_page() for _ in range(2))
    try:
        address = share_and_return(game_started(phone, NAMES, [5, 6, 7]))
        screen.goto(address)
        badge = screen.get_by_text("suivi en direct")
        expect(badge).to_be_visible()

        server.stop()  # the café's laptop asleep

        expect(screen.get_by_text("connexion perdue, nouvel essai…")).to_be_visible()
        server = Gunicorn(env, log, workers=1, port=port)
        server.start(ready_within=STARTUP_SECONDS)
        expect(badge).to_be_visible()  # the stream back, within its 2 s retry
    finally:
        server.stop()
        phone.context.close()
        screen.context.close()
