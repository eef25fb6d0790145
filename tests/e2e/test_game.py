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


def test_what_is_typed_while_a_cancel_is_on_its_way_stays_in_the_reopened_round(page: Page):
    names = ["Alice", "Bruno"]
    game = start(page, names)
    game.play_round_with_keyboard(names, [3, 4], 1)
    game.play_round_with_keyboard(names, [5, 6], 2)
    held = []
    page.route("**/annuler", lambda route: held.append(route))  # its answer comes later: slow
    with page.expect_request("**/annuler"):
        game.cancel_last_round()

    game.heads_field("Alice").fill("7")  # round 2 typed again, at once
    game.heads_field("Bruno").fill("8")
    held[0].continue_()

    expect(game.round_line(2)).to_have_count(0)
    game.expect_totals({"Alice": 3, "Bruno": 4})
    expect(game.heads_field("Alice")).to_have_value("7")
    expect(game.heads_field("Bruno")).to_have_value("8")


def test_a_refused_round_keeps_what_was_typed_and_says_why(page: Page):
    names = ["Alice", "Bruno", "Chloé"]
    game = start(page, names)
    game.mark_no_reload()

    game.type_round_with_keyboard(names, [98, 5, 3])  # 3 players: at most 97 for one player

    # Refused by the page itself, before the round is drawn (static/waiting.js, issue 47): a
    # player's range is a bound the page knows (data-rules); the server's words say « au plus 97 ».
    alice = game.heads_field("Alice")
    expect(alice).to_have_attribute("aria-invalid", "true")
    expect(alice).to_have_accessible_description(re.compile(r"De 0 à 97"))
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


def test_a_score_that_is_no_number_is_refused_beside_its_field_not_sent_as_a_zero(page: Page):
    """« 5- » (a phone's number pad has « - » beside the digits) was left out by the number
    field, and an empty field counts 0: the round went with 0 for that player."""
    names = ["Alice", "Bruno"]
    game = start(page, names)
    alice = game.heads_field("Alice")
    alice.focus()
    page.keyboard.type("5-")
    game.heads_field("Bruno").fill("7")

    game.validate.click()

    expect(alice).to_have_accessible_description(re.compile("« 5- » n’est pas un nombre entier"))
    expect(alice).to_be_focused()
    expect(alice).to_have_value("5-")
    expect(game.heads_field("Bruno")).to_have_value("7")
    expect(game.round_line(1)).to_have_count(0)
    alice.fill("5")
    game.validate.click()
    expect(game.round_line(1)).to_be_visible()
    game.expect_totals({"Alice": 5, "Bruno": 7})


def test_a_field_of_another_game_holding_no_number_does_not_hold_back_the_form(page: Page):
    """A limit typed « - » under « Autre limite », then Skyjo chosen: the field is hidden, and
    the form must still go (the check on numbers looked at it and said nothing)."""
    form = NewGamePage(page).open()
    page.get_by_role("radio", name="Autre limite").check()
    page.get_by_role("spinbutton", name="Limite").focus()
    page.keyboard.type("-")
    page.get_by_role("radio", name="Skyjo", exact=True).check()

    game = form.start_game(["Ann", "Ben"])

    expect(game.scoreboard).to_be_visible()


def test_a_rounds_swap_breaks_no_rule_of_the_content_security_policy(page: Page):
    """The CSP allows no inline style: a swap that wrote one would log an error at every round."""
    errors: list[str] = []
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    names = ["Alice", "Bruno"]
    game = start(page, names)
    # A style set by script, as the browser allows and extensions do (a dark theme, a password
    # manager): htmx's settle copied it to the new field by setAttribute, which the CSP refuses.
    for name in names:
        game.heads_field(name).evaluate("field => { field.style.outlineColor = 'teal'; }")

    game.play_round_with_keyboard(names, [3, 4], 1)

    game.expect_totals({"Alice": 3, "Bruno": 4})
    expect(game.heads_field("Alice")).to_be_focused()
    assert [error for error in errors if "Content Security Policy" in error] == []
