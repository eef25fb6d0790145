"""Totals at the tap (ui-contract « Totals at the tap », issue 47): with JavaScript, « Valider la
manche » draws the round and its totals before the server answers, marked « envoi… »; the
answer confirms it, or puts the sheet back as it stands with its message and the values kept.

Each request is held (page.route) until the test has seen what the page drew without it."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Page, Route, expect

from .pages import GamePage
from .test_waiting_rounds import NAMES, another_phone, form_for, phone, recorded_line, start

__all__ = ["phone"]  # the fixture: a phone with a service worker, and one on a LAN without

pytestmark = pytest.mark.e2e


ROUNDS = re.compile(r"/manches$")


def hold_rounds(page: Page) -> list[Route]:
    """Hold every round sent until the test lets it go (`route.continue_()`)."""
    held: list[Route] = []
    page.route(ROUNDS, lambda route: held.append(route))
    return held


def tap(game: GamePage, heads: list[int]) -> None:
    """Enter a round and tap « Valider la manche »; back once its request has gone."""
    with game.page.expect_request(ROUNDS):
        game.enter_round(NAMES, heads)


def being_sent(game: GamePage, number: int):
    return game.sheet.get_by_role("rowheader", name=f"Manche {number} — envoi…", exact=True)


def test_a_round_is_drawn_at_the_tap_and_confirmed_by_the_answer(phone):
    _, page = phone
    game = start(page)
    held = hold_rounds(page)

    tap(game, [5, 2, 0])

    # Drawn while its request is held: the totals, the crown, the round « envoi… ».
    game.expect_totals({"Alice": 5, "Bruno": 2, "Chloé": 0})
    game.expect_leaders(["Chloé"], ["Alice", "Bruno"])
    expect(being_sent(game, 1)).to_be_visible()
    expect(page.get_by_role("status").filter(has_text="Envoi de la manche 1")).to_be_visible()
    expect(form_for(game, 2)).to_be_visible()  # the form is for the next round already
    expect(game.heads_field("Alice")).to_be_focused()
    expect(recorded_line(game, 1)).to_have_count(0)  # nothing shown as recorded yet
    assert len(held) == 1

    held[0].continue_()

    expect(recorded_line(game, 1)).to_be_visible()
    expect(being_sent(game, 1)).to_have_count(0)
    game.expect_totals({"Alice": 5, "Bruno": 2, "Chloé": 0})
    page.reload()
    expect(recorded_line(game, 1)).to_be_visible()
    game.expect_totals({"Alice": 5, "Bruno": 2, "Chloé": 0})


def test_a_round_the_server_refuses_puts_the_sheet_back_with_the_values_typed(phone):
    """Each score within a player's range, the round's sum is more than the deck holds: only
    the server tells."""
    _, page = phone
    game = start(page)
    game.play_round(NAMES, [1, 2, 3], 1)
    held = hold_rounds(page)

    tap(game, [90, 90, 0])

    game.expect_totals({"Alice": 91, "Bruno": 92, "Chloé": 3})  # drawn, « envoi… »
    expect(being_sent(game, 2)).to_be_visible()
    held[0].continue_()

    expect(game.alert).to_contain_text("c’est trop")
    game.expect_totals({"Alice": 1, "Bruno": 2, "Chloé": 3})  # as recorded
    expect(game.round_line(2)).to_have_count(0)
    expect(form_for(game, 2)).to_be_visible()
    for name, value in zip(NAMES, ["90", "90", "0"], strict=True):
        expect(game.heads_field(name)).to_have_value(value)
    page.reload()
    expect(game.round_line(2)).to_have_count(0)


def test_a_round_sent_after_another_phone_recorded_it_comes_back_for_the_next(phone, live_server):
    context, page = phone
    game = start(page)
    token = page.locator("#round-form [name=csrf_token]").input_value()
    held = hold_rounds(page)

    tap(game, [5, 2, 0])  # round 1, drawn here while its request is held…
    expect(being_sent(game, 1)).to_be_visible()
    other = another_phone(context, live_server.url).post(  # …the other phone records its own
        f"{live_server.url}{urlsplit(page.url).path}/manches",
        data={
            **{"csrf_token": token, "number": "1", "version": "1"},
            **{"score-0": "1", "score-1": "1", "score-2": "1"},
        },
        allow_redirects=False,
    )
    assert other.status_code == 303
    held[0].continue_()

    expect(game.alert).to_contain_text("La partie a changé sur un autre téléphone")
    game.expect_totals({"Alice": 1, "Bruno": 1, "Chloé": 1})  # the other phone's round 1
    expect(being_sent(game, 1)).to_have_count(0)
    expect(form_for(game, 2)).to_be_visible()
    for name, value in zip(NAMES, ["5", "2", "0"], strict=True):  # to check and send again
        expect(game.heads_field(name)).to_have_value(value)


def test_a_round_one_tab_sends_leaves_what_another_tab_of_the_phone_types(phone):
    """Two tabs of one phone on a game: the round on its way from the first is the first's to
    draw and send; the second learns it from the server, as another phone would, and the round
    it has typed stays, form and values, even where the first's round ends the game."""
    context, page = phone
    game = start(page)
    game.play_round(NAMES, [60, 1, 2], 1)
    second = GamePage(context.new_page())
    second.page.goto(page.url)
    second.heads_field("Alice").fill("7")
    held = hold_rounds(page)

    tap(game, [10, 0, 1])  # Alice past 66: the game ends

    expect(being_sent(game, 2)).to_be_visible()
    expect(game.player_row("Alice")).to_contain_text("A dépassé 66")
    held[0].continue_()
    expect(game.result).to_contain_text("Bruno gagne")
    # The second tab says the game changed and keeps its round: form, value, no drawing of the
    # first tab's round.
    expect(second.page.get_by_role("status").filter(has_text="a changé la partie")).to_be_visible()
    expect(second.heads_field("Alice")).to_have_value("7")
    expect(second.validate).to_be_visible()
    expect(being_sent(second, 2)).to_have_count(0)

    second.heads_field("Alice").fill("")  # nothing typed any more: it catches up

    expect(second.result).to_contain_text("Bruno gagne")
