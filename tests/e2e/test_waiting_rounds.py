"""A round that waits for the network (issue 22): shown where rounds are and counted in the
scores, taken back before it leaves, never one the person did not submit, sent once in order
when the network is back, and a refused one back in the form.

Each test runs on two phones: one on 127.0.0.1 (a secure context: the service worker and Web
Locks), one by plain HTTP on a LAN name (no service worker, no Web Locks: the page's script
alone). Offline is Playwright's `set_offline`; « another phone » writes through the context's
request client, which the offline switch does not cut.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest
import requests
from playwright.sync_api import BrowserContext, Page, expect

from .axe import expect_accessible
from .conftest import ACTION_TIMEOUT_MS, LAN_HOST
from .pages import GamePage, NewGamePage

pytestmark = pytest.mark.e2e

NAMES = ["Alice", "Bruno", "Chloé"]


@pytest.fixture(params=["service-worker", "lan"])
def phone(
    request, browser, browser_context_args, live_server
) -> Iterator[tuple[BrowserContext, Page]]:
    address = live_server.url
    if request.param == "lan":
        address = f"http://{LAN_HOST}:{urlsplit(address).port}"
    context = browser.new_context(**{**browser_context_args, "base_url": address})
    context.set_default_timeout(ACTION_TIMEOUT_MS)
    yield context, phone_page(context, secure=request.param == "service-worker")
    context.close()


def phone_page(context: BrowserContext, *, secure: bool) -> Page:
    page = context.new_page()
    page.goto("/")
    assert page.evaluate("window.isSecureContext") == secure  # the LAN phone really has no worker
    return page


def start(
    page: Page, *, controlled: bool = False, end: str | None = None, game: str | None = None
) -> GamePage:
    # By the form itself: the test's own request client cannot resolve the LAN name.
    form = NewGamePage(page).open()
    if game:
        page.get_by_role("group", name="Jeu").get_by_role("radio", name=game, exact=True).check()
    if end:
        page.get_by_label(end, exact=True).check()
    started = form.start_game(NAMES)
    # The page fetches static/waiting.js once loaded (static/pwa.js): a network cut within that
    # first moment keeps no round (the page says so); the tests cut it after.
    page.wait_for_function("() => window.sqpWaiting !== undefined")
    if controlled and page.evaluate("'serviceWorker' in navigator && window.isSecureContext"):
        page.evaluate("navigator.serviceWorker.ready.then(() => true)")
        page.reload()  # from now on the worker answers this page (and keeps a copy)
        assert page.evaluate("navigator.serviceWorker.controller !== null")
    return started


def another_phone(context: BrowserContext, base_url: str) -> requests.Session:
    """A phone of the same table (the same device cookie), online whatever this one is."""
    session = requests.Session()
    for cookie in context.cookies():
        session.cookies.set(cookie["name"], cookie["value"])
    session.headers["Referer"] = base_url
    return session


def network_line(page: Page):
    return page.get_by_role("status").filter(has_text="réseau")


def waiting_line(game: GamePage, number: int):
    return game.sheet.get_by_role("rowheader", name=f"Manche {number} — en attente", exact=True)


def recorded_line(game: GamePage, number: int):
    """A recorded round has its « Modifier la manche N »; a waiting one cannot be edited."""
    return game.sheet.get_by_role("link", name=f"Modifier la manche {number}", exact=True)


def sheet_cells(game: GamePage, number: int, *, waiting: bool = False):
    """The heads of round `number`'s line in « Manches »."""
    name = f"Manche {number} — en attente" if waiting else re.compile(rf"^Manche {number} Modifier")
    header = game.page.get_by_role("rowheader", name=name)
    return game.sheet.get_by_role("row").filter(has=header).get_by_role("cell")


def form_for(game: GamePage, number: int):
    """The scoreboard's entry column says which round the form is for."""
    return game.scoreboard.get_by_role("columnheader", name=f"Manche {number}", exact=True)


def expect_recorded(game: GamePage, totals: dict[str, int], rounds: int) -> None:
    """What the server holds: the page loaded afresh, twice (a round still waiting in storage
    would be sent by the first load and seen by the second)."""
    for _ in range(2):
        game.page.reload()
        game.expect_totals(totals)
        expect(game.sheet.get_by_role("rowheader", name=re.compile(r"^Manche \d+"))).to_have_count(
            rounds
        )
        expect(game.sheet.get_by_text("en attente")).to_have_count(0)


def test_a_round_sent_offline_is_shown_counted_and_sent_once_when_the_network_is_back(phone):
    context, page = phone
    game = start(page)
    game.play_round(NAMES, [3, 1, 2], 1)
    game.mark_no_reload()

    context.set_offline(True)
    game.enter_round(NAMES, [5, 2, 0])

    expect(network_line(page)).to_contain_text("manche 2")
    expect(waiting_line(game, 2)).to_be_visible()
    expect(sheet_cells(game, 2, waiting=True)).to_have_text(["5", "2", "0"])
    game.expect_totals({"Alice": 8, "Bruno": 3, "Chloé": 2})
    mark = game.scoreboard.get_by_role("cell", name="8", exact=True).evaluate(
        "cell => getComputedStyle(cell, '::after').maskImage"
    )
    assert mark.startswith('url("data:image/svg+xml'), mark  # not an emoji, blank without its font
    expect(game.last_round_of("Alice")).to_have_text("+5")
    game.expect_leaders(["Chloé"], ["Alice", "Bruno"])
    expect(game.gauge_of("Alice")).to_have_attribute("value", "8")
    expect(form_for(game, 3)).to_be_visible()  # the form is for the next round, empty
    expect(game.heads_field("Alice")).to_have_value("")

    context.set_offline(False)

    expect(recorded_line(game, 2)).to_be_visible()
    expect(waiting_line(game, 2)).to_have_count(0)
    expect(network_line(page)).to_contain_text("Réseau revenu")
    assert game.was_not_reloaded()
    expect_recorded(game, {"Alice": 8, "Bruno": 3, "Chloé": 2}, rounds=2)


def test_a_round_the_server_cannot_write_waits_as_offline_and_goes_once_it_can(phone):
    """Issue 30: a database that fails answers 503 (tests/integration/test_never_twice.py);
    the round typed then stays on the phone, counted, and goes once the server takes it."""
    context, page = phone
    game = start(page)
    unavailable = re.compile(r"/manches$")
    page.route(unavailable, lambda route: route.fulfill(status=503, headers={"Retry-After": "1"}))

    game.enter_round(NAMES, [5, 2, 0])

    expect(sheet_cells(game, 1, waiting=True)).to_have_text(["5", "2", "0"])
    game.expect_totals({"Alice": 5, "Bruno": 2, "Chloé": 0})
    page.unroute(unavailable)
    expect(recorded_line(game, 1)).to_be_visible()  # sent again by itself
    expect_recorded(game, {"Alice": 5, "Bruno": 2, "Chloé": 0}, rounds=1)


def test_a_round_kept_before_its_fields_were_renamed_is_counted_and_sent(phone):
    """Until December 2026 a round's fields were `heads-N`, not `score-N`: a round kept waiting
    then is still shown, counted and sent once the server takes it."""
    context, page = phone
    game = start(page)
    form = page.locator("#round-form")
    kept = {
        "page": urlsplit(page.url).path,
        "action": form.evaluate("form => form.action"),
        "number": "1",
        "round": True,
        "fields": [
            ["csrf_token", form.locator("[name=csrf_token]").input_value()],
            ["number", "1"],
            ["version", form.locator("[name=version]").input_value()],
            *([f"heads-{seat}", value] for seat, value in enumerate(["5", "2", "0"])),
        ],
    }
    unavailable = re.compile(r"/manches$")
    page.route(unavailable, lambda route: route.fulfill(status=503, headers={"Retry-After": "1"}))
    page.evaluate("item => localStorage.setItem('sqp-en-attente', JSON.stringify([item]))", kept)

    page.reload()

    expect(sheet_cells(game, 1, waiting=True)).to_have_text(["5", "2", "0"])
    game.expect_totals({"Alice": 5, "Bruno": 2, "Chloé": 0})
    page.unroute(unavailable)
    expect(recorded_line(game, 1)).to_be_visible()
    expect_recorded(game, {"Alice": 5, "Bruno": 2, "Chloé": 0}, rounds=1)


def test_one_line_says_the_state_and_no_stale_notice_stays(phone):
    """The report of issue 22: « Manche 2 annulée ; « Rétablir… » » stayed over a new round 2
    waiting, and « Hors ligne » and « Pas de réseau » stacked up."""
    context, page = phone
    game = start(page)
    game.play_round(NAMES, [3, 1, 2], 1)
    game.play_round(NAMES, [1, 1, 1], 2)
    game.cancel.click()
    expect(page.get_by_role("status").filter(has_text="Manche 2 annulée")).to_be_visible()
    network = page.get_by_role("status").filter(has_text=re.compile("réseau|Hors ligne|Réseau"))

    context.set_offline(True)
    expect(network).to_have_text(re.compile("^Hors ligne"))
    game.enter_round(NAMES, [4, 0, 2])

    expect(network).to_have_count(1)
    expect(network).to_contain_text("manche 2 attend")
    expect(page.get_by_text("Manche 2 annulée")).to_have_count(0)
    expect(game.restore).to_have_count(0)  # it would put a round where one waits
    context.set_offline(False)
    expect(network).to_have_count(1)
    expect(network).to_contain_text("Réseau revenu")


def test_the_first_round_taken_back_before_it_leaves_is_never_sent_and_offered_again(phone):
    context, page = phone
    game = start(page)
    context.set_offline(True)
    game.enter_round(NAMES, [2, 6, 1])
    expect(waiting_line(game, 1)).to_be_visible()
    game.expect_leaders(["Chloé"], ["Alice", "Bruno"])  # a crown before any round is recorded

    game.cancel.click()

    expect(waiting_line(game, 1)).to_have_count(0)
    expect(game.sheet).to_contain_text("Aucune manche")
    game.expect_totals({"Alice": 0, "Bruno": 0, "Chloé": 0})
    expect(form_for(game, 1)).to_be_visible()
    expect(game.heads_field("Alice")).to_have_value("2")  # offered again, as it was
    expect(game.heads_field("Bruno")).to_have_value("6")
    page.keyboard.type("1")  # replaces the value offered again (a caret before it made « 12 »)
    expect(game.heads_field("Alice")).to_have_value("1")
    expect(page.get_by_role("status").filter(has_text="plus en attente")).to_be_visible()
    expect(game.cancel).to_have_count(0)

    context.set_offline(False)
    expect_recorded(game, {"Alice": 0, "Bruno": 0, "Chloé": 0}, rounds=0)


def test_typing_after_an_offline_round_records_nothing_more(phone):
    """The report that opened issue 22: a tap and a value after an offline round became a
    round nobody sent."""
    context, page = phone
    game = start(page)
    game.play_round(NAMES, [3, 1, 2], 1)
    context.set_offline(True)
    game.enter_round(NAMES, [4, 0, 2])
    expect(waiting_line(game, 2)).to_be_visible()

    game.heads_field("Bruno").click()  # meaning to correct round 2
    page.keyboard.type("5")

    expect(form_for(game, 3)).to_be_visible()  # says all along which round it is for
    context.set_offline(False)
    expect(recorded_line(game, 2)).to_be_visible()
    expect(game.heads_field("Bruno")).to_have_value("5")  # still there, for round 3, unsent
    expect(sheet_cells(game, 2)).to_have_text(["4", "0", "2"])
    expect_recorded(game, {"Alice": 7, "Bruno": 1, "Chloé": 4}, rounds=2)


def test_rounds_queued_in_a_row_are_shown_survive_a_reload_and_go_in_order(phone):
    context, page = phone
    game = start(page, controlled=True)
    game.play_round(NAMES, [3, 1, 2], 1)  # after the last full load: the worker's copy lacks it
    secure = page.evaluate("window.isSecureContext")

    context.set_offline(True)
    game.enter_round(NAMES, [5, 2, 0])
    expect(waiting_line(game, 2)).to_be_visible()
    game.enter_round(NAMES, [1, 4, 3])

    expect(waiting_line(game, 3)).to_be_visible()
    expect(network_line(page)).to_contain_text("manches 2 et 3")
    game.expect_totals({"Alice": 9, "Bruno": 7, "Chloé": 5})
    expect(form_for(game, 4)).to_be_visible()
    if secure:  # only the service worker can open a page without network
        page.reload()
        expect(waiting_line(game, 3)).to_be_visible()
        expect(game.round_line(1)).to_be_visible()
        game.expect_totals({"Alice": 9, "Bruno": 7, "Chloé": 5})
        expect(form_for(game, 4)).to_be_visible()

    context.set_offline(False)

    expect(recorded_line(game, 3)).to_be_visible()
    expect(sheet_cells(game, 2)).to_have_text(["5", "2", "0"])
    expect(sheet_cells(game, 3)).to_have_text(["1", "4", "3"])
    expect_recorded(game, {"Alice": 9, "Bruno": 7, "Chloé": 5}, rounds=3)


def test_a_round_typed_in_the_offline_copy_of_the_game_counts_and_goes_with_its_values(phone):
    """The report of issue 29: typed after a reload without network, the round waited empty
    and the server refused « Il faut 3 nombres de têtes »."""
    context, page = phone
    if not page.evaluate("window.isSecureContext"):
        pytest.skip("only the service worker can open a page without network")
    game = start(page, controlled=True)
    game.play_round(NAMES, [3, 1, 2], 1)  # by htmx: the worker's copy is of round 1's form
    context.set_offline(True)
    page.reload()
    expect(page.get_by_role("status").filter(has_text="Hors ligne")).to_be_visible()
    expect(form_for(game, 2)).to_be_visible()  # the last drawing, not the copy's round 1

    game.enter_round(NAMES, [5, 2, 0])

    expect(sheet_cells(game, 2, waiting=True)).to_have_text(["5", "2", "0"])
    game.expect_totals({"Alice": 8, "Bruno": 3, "Chloé": 2})
    context.set_offline(False)
    expect(recorded_line(game, 2)).to_be_visible()
    expect_recorded(game, {"Alice": 8, "Bruno": 3, "Chloé": 2}, rounds=2)


def test_a_round_waiting_in_a_closed_tab_goes_once_the_game_is_opened_again(phone):
    context, page = phone
    game = start(page)
    url = page.url
    context.set_offline(True)
    game.enter_round(NAMES, [2, 6, 1])
    expect(waiting_line(game, 1)).to_be_visible()
    page.close()

    context.set_offline(False)
    again = GamePage(context.new_page())
    again.page.goto(url)

    expect(recorded_line(again, 1)).to_be_visible()
    expect_recorded(again, {"Alice": 2, "Bruno": 6, "Chloé": 1}, rounds=1)


def test_a_second_tab_shows_the_waiting_round_and_it_is_recorded_once(phone):
    context, page = phone
    game = start(page)
    other = GamePage(context.new_page())
    other.page.goto(page.url)
    context.set_offline(True)

    game.enter_round(NAMES, [2, 6, 1])

    expect(waiting_line(other, 1)).to_be_visible()  # shown there too, not sent twice
    other.expect_totals({"Alice": 2, "Bruno": 6, "Chloé": 1})
    context.set_offline(False)
    expect(recorded_line(game, 1)).to_be_visible()
    expect(recorded_line(other, 1)).to_be_visible()
    expect_recorded(game, {"Alice": 2, "Bruno": 6, "Chloé": 1}, rounds=1)


def test_a_waiting_round_that_would_end_the_game_says_so_and_can_be_taken_back(phone):
    """At « 66 ou plus », 66 exactly ends the game offline too: the page counts by the rules it
    carries (app.rules' offline_rules), with their words."""
    context, page = phone
    game = start(page, end="66 ou plus")
    for number in range(1, 4):
        game.play_round(NAMES, [20, 1, 2], number)
    context.set_offline(True)

    game.enter_round(NAMES, [6, 0, 3])

    expect(network_line(page)).to_contain_text("termine la partie")
    expect(network_line(page)).to_contain_text("Bruno gagne avec 3")
    expect(game.player_row("Alice")).to_contain_text("A atteint 66")
    expect(game.validate).to_be_hidden()  # no round after the end
    # Focus on what is said, as for a result online: not on « Annuler la manche », which one
    # more Enter (the one that sent the round, held) would press.
    expect(network_line(page)).to_be_focused()
    page.keyboard.press("Enter")
    expect(network_line(page)).to_contain_text("termine la partie")
    expect(game.gauge_of("Alice")).to_have_attribute("value", "66")
    expect_accessible(page, "a waiting round that would end the game")
    game.cancel.click()
    expect(game.validate).to_be_visible()
    expect(game.heads_field("Alice")).to_have_value("6")


def test_a_waiting_round_refused_once_sent_comes_back_into_the_form(phone, live_server):
    """Meanwhile another phone of the table cancelled round 1: round 2 is no longer next."""
    context, page = phone
    game = start(page)
    game.play_round(NAMES, [3, 1, 2], 1)
    token = page.locator("#round-form [name=csrf_token]").input_value()
    context.set_offline(True)
    game.enter_round(NAMES, [5, 2, 0])
    expect(waiting_line(game, 2)).to_be_visible()

    cancelled = another_phone(context, live_server.url).post(
        f"{live_server.url}{urlsplit(page.url).path}/manches/annuler",
        data={"csrf_token": token, "number": "1", "version": "2"},  # its page, after round 1
        allow_redirects=False,
    )
    assert cancelled.status_code == 303
    context.set_offline(False)

    expect(game.alert).to_contain_text("rien n’a été enregistré")
    expect(form_for(game, 1)).to_be_visible()
    expect(game.heads_field("Alice")).to_have_value("5")  # nothing lost
    expect(game.heads_field("Bruno")).to_have_value("2")
    expect(waiting_line(game, 2)).to_have_count(0)
    game.validate.click()
    expect(recorded_line(game, 1)).to_be_visible()
    expect_recorded(game, {"Alice": 5, "Bruno": 2, "Chloé": 0}, rounds=1)


def test_a_round_refused_once_sent_holds_the_next_one_until_it_is_corrected(phone):
    context, page = phone
    game = start(page)
    context.set_offline(True)
    game.enter_round(NAMES, [0, 0, 0])  # nobody took a head: no round can be that
    expect(waiting_line(game, 1)).to_be_visible()
    game.enter_round(NAMES, [1, 4, 3])
    expect(waiting_line(game, 2)).to_be_visible()

    context.set_offline(False)

    expect(game.alert).to_contain_text("Personne n’a pris de tête")
    expect(form_for(game, 1)).to_be_visible()
    expect(game.heads_field("Bruno")).to_have_value("0")
    expect(waiting_line(game, 2)).to_be_visible()
    expect(page.get_by_role("status").filter(has_text="attend que")).to_contain_text("manche 1")
    game.heads_field("Alice").fill("2")
    game.validate.click()
    expect(recorded_line(game, 2)).to_be_visible()
    expect_recorded(game, {"Alice": 3, "Bruno": 4, "Chloé": 3}, rounds=2)


@pytest.mark.parametrize("after", [[], [[1, 4, 3]]], ids=["alone", "a round after it"])
def test_a_waiting_round_recorded_meanwhile_by_another_phone_comes_back_for_the_next(
    phone, live_server, after
):
    """Another phone of the table records round 1 meanwhile, with other heads: the rounds typed
    after it here are the table's next ones and go; its values come back into the form, for the
    round then open, with the server's words."""
    context, page = phone
    game = start(page)
    token = page.locator("#round-form [name=csrf_token]").input_value()
    context.set_offline(True)
    for number, heads in enumerate([[5, 2, 0], *after], start=1):
        game.enter_round(NAMES, heads)
        expect(waiting_line(game, number)).to_be_visible()

    other = another_phone(context, live_server.url).post(
        f"{live_server.url}{urlsplit(page.url).path}/manches",
        data={
            **{"csrf_token": token, "number": "1", "version": "1"},  # its page, of a new game
            **{"score-0": "1", "score-1": "1", "score-2": "1"},
        },
        allow_redirects=False,
    )
    assert other.status_code == 303
    context.set_offline(False)

    expect(game.alert).to_contain_text("La partie a changé sur un autre téléphone")
    expect(form_for(game, 2 + len(after))).to_be_visible()
    expect(game.heads_field("Alice")).to_have_value("5")  # nothing lost
    expect(game.heads_field("Bruno")).to_have_value("2")
    for number, heads in enumerate(after, start=2):
        expect(sheet_cells(game, number)).to_have_text([str(value) for value in heads])
    expect(game.sheet.get_by_text("en attente")).to_have_count(0)
    totals = {name: 1 + sum(heads[seat] for heads in after) for seat, name in enumerate(NAMES)}
    expect_recorded(game, totals, rounds=1 + len(after))


def test_a_score_that_is_no_whole_number_is_refused_offline_beside_its_field_not_kept(phone):
    """Kept, « 5- » counted 0 in the totals until it was sent, then came back refused."""
    context, page = phone
    game = start(page)
    context.set_offline(True)

    game.enter_round(NAMES, ["5-", 2, 0])

    alice = game.heads_field("Alice")
    expect(alice).to_have_accessible_description(re.compile("« 5- » n’est pas un nombre entier"))
    expect(alice).to_be_focused()
    expect(alice).to_have_value("5-")
    expect(waiting_line(game, 1)).to_have_count(0)
    alice.fill("5")
    game.validate.click()
    expect(waiting_line(game, 1)).to_be_visible()
    expect(game.page.get_by_text("n’est pas un nombre entier")).to_have_count(0)
    context.set_offline(False)
    expect_recorded(game, {"Alice": 5, "Bruno": 2, "Chloé": 0}, rounds=1)


def test_who_ended_a_waiting_skyjo_round_is_not_chosen_for_the_next(phone):
    """The report: « A fini la manche » stayed checked after a round kept offline, and the next
    round went with the old closer, doubled (30 became « 60 ×2 »)."""
    context, page = phone
    game = start(page, game="Skyjo")
    enders = page.get_by_role("group", name="A fini la manche")
    context.set_offline(True)
    enders.get_by_role("radio", name="Bruno").check()
    game.enter_round(NAMES, ["\u22125", 15, 20])  # the typographic minus of a phone's symbols
    expect(waiting_line(game, 1)).to_be_visible()
    game.expect_totals({"Alice": -5, "Bruno": 30, "Chloé": 20})  # Bruno not the lowest: ×2

    for name in NAMES:
        expect(enders.get_by_role("radio", name=name)).not_to_be_checked()
    enders.get_by_role("radio", name="Chloé").check()
    game.enter_round(NAMES, [30, 5, 8])
    expect(waiting_line(game, 2)).to_be_visible()
    game.cancel.click()  # taken back: offered again as it was, closer included
    expect(enders.get_by_role("radio", name="Chloé")).to_be_checked()
    game.validate.click()
    expect(waiting_line(game, 2)).to_be_visible()

    context.set_offline(False)
    expect(recorded_line(game, 2)).to_be_visible()
    expect_recorded(game, {"Alice": 25, "Bruno": 35, "Chloé": 36}, rounds=2)
