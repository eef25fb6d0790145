"""Seating the players: up to 10 names, blanks ignored, wrong names refused with the names kept."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .pages import GamePage, NewGamePage

pytestmark = pytest.mark.e2e


def expect_no_more_players_can_be_added(form: NewGamePage) -> None:
    """« Ajouter un joueur » is gone or disabled (the contract allows either)."""
    if form.add_player.count():
        expect(form.add_player).to_be_disabled()


def test_two_name_fields_at_first_and_ajouter_un_joueur_up_to_ten(page: Page):
    form = NewGamePage(page).open()
    expect(form.name_fields).to_have_count(2)
    form.name_field(1).fill("Alice")
    form.name_field(2).fill("Bruno")
    form.mark_no_reload()

    for count in range(3, 11):
        form.add_player.click()
        expect(form.name_field(count)).to_be_visible()
        expect(form.name_field(count)).to_be_focused()

    expect(form.name_fields).to_have_count(10)
    expect_no_more_players_can_be_added(form)
    expect(form.name_field(1)).to_have_value("Alice")
    expect(form.name_field(2)).to_have_value("Bruno")
    assert form.was_not_reloaded(), (
        "« Ajouter un joueur » reloaded the page instead of swapping the form"
    )


def test_enter_in_a_name_field_moves_to_the_next_one(page: Page):
    form = NewGamePage(page).open()
    form.name_field(1).fill("Alice")

    page.keyboard.press("Enter")

    expect(form.name_field(2)).to_be_focused()
    expect(form.start).to_be_visible()  # Enter did not submit the form


def test_a_name_stops_at_30_characters_as_it_is_typed(page: Page):
    form = NewGamePage(page).open()

    form.name_field(1).press_sequentially("Éléonore Wolfeschlegelsteinhausen")

    expect(form.name_field(1)).to_have_value("Éléonore Wolfeschlegelsteinhau")


def test_blank_name_fields_are_ignored(page: Page):
    form = NewGamePage(page).open()
    form.add_player.click()
    expect(form.name_fields).to_have_count(3)
    form.name_field(1).fill("Alice")
    form.name_field(3).fill("Chloé")

    form.start.click()

    game = GamePage(page)
    game.expect_players(["Alice", "Chloé"])


@pytest.mark.parametrize(
    ("names", "refused_seat", "message"),
    [
        # the other refusals: tests/integration/test_new_game.py and tests/unit/test_rules.py
        (["Alice", " alice "], 2, "déjà à la table"),
    ],
    ids=["duplicate-ignoring-case-and-spaces"],
)
def test_names_that_cannot_start_a_game_are_refused_and_kept(
    page: Page, names, refused_seat, message
):
    form = NewGamePage(page).open()
    form.type_names(names)
    form.mark_no_reload()

    form.start.click()

    expect(form.alert).to_contain_text(message)
    for seat, name in enumerate(names, start=1):
        expect(form.name_field(seat)).to_have_value(name)
    if refused_seat is not None:
        refused = form.name_field(refused_seat)
        expect(refused).to_have_attribute("aria-invalid", "true")
        expect(refused).to_have_accessible_description(re.compile(re.escape(message)))
        expect(form.name_field(1)).not_to_have_attribute("aria-invalid", "true")
    expect(GamePage(page).scoreboard).to_have_count(0)
    assert form.was_not_reloaded(), (
        "the refused names reloaded the page instead of swapping the form"
    )


def test_a_tap_anywhere_on_a_choices_row_chooses_it(page: Page):
    NewGamePage(page).open()
    skyjo = page.get_by_role("radio", name="Skyjo", exact=True)
    label = page.locator("label[for='game-skyjo']")
    box = label.bounding_box()
    assert box is not None and box["height"] >= 44  # a finger's height, not the text's

    page.mouse.click(box["x"] + box["width"] - 5, box["y"] + 3)  # the row's far corner

    expect(skyjo).to_be_checked()


def test_a_table_full_for_skyjo_still_seats_ten_for_another_game(page: Page):
    """The evening's report: eight names for Skyjo, then Flip 7 chosen: no « Ajouter un
    joueur » any more, and the legend saying « de 2 à 10 »."""
    form = NewGamePage(page).open()
    page.get_by_role("radio", name="Skyjo", exact=True).check()
    for count in range(3, 9):
        form.add_player.click()
        expect(form.name_field(count)).to_be_visible()
    expect_no_more_players_can_be_added(form)
    expect(page.get_by_text("8 joueurs\u202f: la table est complète")).to_be_visible()

    page.get_by_role("radio", name="Flip 7", exact=True).check()
    form.add_player.click()

    expect(form.name_field(9)).to_be_focused()
    expect(page.get_by_text("la table est complète").locator("visible=true")).to_have_count(0)


def test_ajouter_un_joueur_adds_the_field_at_once_keeping_what_is_typed(page: Page):
    """QA on a slow network: the form came back from the server 1.5 s later without the name
    typed meanwhile in the field below, and the focus under the typing thumb moved."""
    form = NewGamePage(page).open()
    asked = []
    page.on(
        "request", lambda request: asked.append(request.url) if request.method == "POST" else None
    )

    form.name_field(1).fill("Ann")
    form.add_player.click()
    form.add_player.click()  # two taps, two fields
    form.name_field(2).press_sequentially("Ben")

    expect(form.name_fields).to_have_count(4)
    expect(form.name_field(2)).to_have_value("Ben")
    expect(form.name_field(2)).to_be_focused()
    assert asked == []
    form.name_field(4).fill("Dee")
    form.start.click()
    game = GamePage(page)
    game.expect_players(["Ann", "Ben", "Dee"])
