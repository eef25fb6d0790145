"""A game at the table, on a phone, with JavaScript: from « Nouvelle partie » to the winner."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .pages import GamePage, HomePage, NewGamePage

pytestmark = pytest.mark.e2e


def start(page: Page, names: list[str]) -> GamePage:
    return NewGamePage(page).open().start_game(names)


def test_a_whole_game_to_a_single_winner_typed_with_the_keyboard_only(page: Page):
    names = ["Alice", "Bruno", "Chloé"]
    rounds = [[10, 20, 5], [12, 30, 8], [20, 20, 10]]  # Bruno reaches 70 in round 3

    game = HomePage(page).open().start_new_game().start_game(names)
    expect(game.scoreboard).not_to_contain_text("en tête")  # no crown before the first round
    game.mark_no_reload()

    totals = dict.fromkeys(names, 0)
    for number, heads in enumerate(rounds[:-1], start=1):
        game.play_round_with_keyboard(names, heads, number)
        for name, value in zip(names, heads):
            totals[name] += value
        expect(game.heads_field(names[0])).to_be_focused()
        expect(game.heads_field(names[0])).to_have_value("")
        assert game.was_not_reloaded(), f"round {number} reloaded the page instead of swapping it"
        game.expect_totals(totals)
        lowest = min(totals.values())
        game.expect_leaders(
            [n for n in names if totals[n] == lowest], [n for n in names if totals[n] != lowest]
        )
        expect(game.result).to_have_count(0)

    game.play_round_with_keyboard(names, rounds[-1], len(rounds))

    assert game.was_not_reloaded(), "the last round reloaded the page instead of swapping it"
    game.expect_totals({"Alice": 42, "Bruno": 70, "Chloé": 23})
    expect(game.result).to_contain_text("Chloé")
    expect(game.result).to_contain_text("gagne")
    expect(game.result).to_contain_text("23")
    expect(game.result).to_contain_text(re.compile(r"Bruno.*dépassé"))
    expect(game.validate).to_have_count(0)
    expect(game.heads_fields).to_have_count(0)
    expect(game.new_game).to_be_visible()
    expect(game.rematch).to_be_visible()


def test_exactly_66_plays_on(page: Page):
    names = ["Alice", "Bruno"]
    game = start(page, names)

    game.play_round_with_keyboard(names, [40, 1], 1)
    game.play_round_with_keyboard(names, [26, 1], 2)

    game.expect_totals({"Alice": 66, "Bruno": 2})
    expect(game.result).to_have_count(0)
    expect(game.validate).to_be_visible()
    expect(game.heads_field("Alice")).to_be_focused()

    game.play_round_with_keyboard(names, [1, 0], 3)

    expect(game.result).to_contain_text("Bruno")
    expect(game.result).to_contain_text("gagne")
    expect(game.validate).to_have_count(0)


def test_a_tie_for_the_lowest_total_is_a_shared_win(page: Page):
    names = ["Alice", "Bruno", "Chloé"]
    game = start(page, names)

    game.play_round_with_keyboard(names, [30, 10, 10], 1)
    game.play_round_with_keyboard(names, [40, 5, 5], 2)

    expect(game.result).to_contain_text("Victoire partagée")
    expect(game.result).to_contain_text("Bruno")
    expect(game.result).to_contain_text("Chloé")
    expect(game.result).to_contain_text("15")
    expect(game.result).not_to_contain_text("gagne avec")
    game.expect_leaders(["Bruno", "Chloé"], ["Alice"])


def test_cancelling_the_last_round_after_the_end_reopens_the_game(page: Page):
    names = ["Alice", "Bruno"]
    game = start(page, names)
    game.play_round_with_keyboard(names, [30, 2], 1)
    game.play_round_with_keyboard(names, [40, 3], 2)
    expect(game.result).to_be_visible()
    game.mark_no_reload()

    game.cancel_last_round()

    expect(game.result).to_have_count(0)
    expect(game.round_line(2)).to_have_count(0)
    expect(game.round_line(1)).to_be_visible()
    expect(game.validate).to_be_visible()
    game.expect_totals({"Alice": 30, "Bruno": 2})
    expect(game.heads_field("Alice")).to_be_focused()
    assert game.was_not_reloaded(), "cancelling reloaded the page instead of swapping it"

    game.play_round_with_keyboard(names, [5, 6], 2)  # the reopened game goes on
    game.expect_totals({"Alice": 35, "Bruno": 8})
    expect(game.result).to_have_count(0)


def test_a_refused_round_keeps_what_was_typed_and_says_why(page: Page):
    names = ["Alice", "Bruno", "Chloé"]
    game = start(page, names)
    game.mark_no_reload()

    game.type_round_with_keyboard(names, [98, 5, 3])  # 3 players: at most 97 for one player

    alice = game.heads_field("Alice")
    expect(game.alert).to_be_visible()
    expect(alice).to_have_attribute("aria-invalid", "true")
    expect(alice).to_have_accessible_description(re.compile(r"au plus 97"))
    expect(alice).to_be_focused()  # straight back to the value to fix
    for name, typed in zip(names, ["98", "5", "3"]):
        expect(game.heads_field(name)).to_have_value(typed)
    for name in ["Bruno", "Chloé"]:
        expect(game.heads_field(name)).not_to_have_attribute("aria-invalid", "true")
    expect(game.round_line(1)).to_have_count(0)
    game.expect_totals(dict.fromkeys(names, 0))
    assert game.was_not_reloaded(), "the refused round reloaded the page instead of swapping it"

    alice.fill("9")
    game.validate.click()

    expect(game.round_line(1)).to_be_visible()
    expect(game.alert).to_have_count(0)
    game.expect_totals({"Alice": 9, "Bruno": 5, "Chloé": 3})


def test_a_round_above_the_most_heads_in_play_is_refused_as_a_whole(page: Page):
    names = ["Alice", "Bruno", "Chloé"]
    game = start(page, names)

    game.type_round_with_keyboard(names, [50, 40, 10])  # 100 heads: at most 97 in a round

    expect(game.alert).to_contain_text("97")
    for name, typed in zip(names, ["50", "40", "10"]):
        expect(game.heads_field(name)).to_have_value(typed)
    expect(game.round_line(1)).to_have_count(0)
    game.expect_totals(dict.fromkeys(names, 0))


def test_a_double_tap_on_valider_records_the_round_once(page: Page):
    names = ["Alice", "Bruno"]
    game = start(page, names)
    for name, value in zip(names, [3, 4]):
        game.heads_field(name).fill(str(value))

    game.validate.dblclick()

    expect(game.round_line(1)).to_be_visible()
    page.wait_for_load_state("networkidle")  # let the second tap's request finish too
    page.reload()
    expect(game.round_line(1)).to_be_visible()
    expect(game.round_line(2)).to_have_count(0)
    game.expect_totals({"Alice": 3, "Bruno": 4})


def test_another_device_gets_404_on_a_game_address(page: Page, new_context):
    game = start(page, ["Alice", "Bruno"])
    game.play_round(["Alice", "Bruno"], [3, 4], 1)
    address = page.url

    stranger = new_context().new_page()
    response = stranger.goto(address)

    assert response is not None and response.status == 404
    expect(stranger.get_by_role("heading", level=1)).to_have_text("Page introuvable")
    expect(stranger.get_by_text("Alice")).to_have_count(0)
