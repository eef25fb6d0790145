"""Skyjo, Flip 7 and a free game on a phone, with JavaScript: one evening path per game."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from .pages import GamePage, NewGamePage

pytestmark = pytest.mark.e2e


def start(page: Page, game: str, names: list[str]) -> tuple[NewGamePage, GamePage]:
    form = NewGamePage(page).open()
    form.page.get_by_role("group", name="Jeu").get_by_role("radio", name=game).check()
    form.type_names(names)
    return form, GamePage(page)


def test_skyjo_doubles_who_ended_the_round_and_the_lowest_total_wins(page: Page):
    names = ["Alice", "Bruno"]
    form, game = start(page, "Skyjo", names)
    expect(page.get_by_label("Variante pro")).to_be_hidden()  # 6 qui prend's alone
    form.start.click()
    expect(game.scoreboard).to_be_visible()  # the game's page (the form named Skyjo too)
    expect(game.page.get_by_role("main").get_by_text("Skyjo", exact=True)).to_be_visible()

    game.enter_round(names, ["-5", "12"])  # nobody named as ending the round: refused, kept
    expect(game.alert).to_contain_text("qui a fini la manche")
    expect(game.heads_field("Alice")).to_have_value("-5")

    enders = page.get_by_role("group", name="A fini la manche")
    game.type_round_with_keyboard(names, ["-5", "12"])  # at the table: Enter after each score
    expect(enders.get_by_role("radio", name="Alice")).to_be_focused()  # who ended it, not sent
    page.keyboard.press("ArrowDown")  # Bruno
    page.keyboard.press("Enter")
    expect(game.sheet).to_contain_text("24 ×2")  # 12 doubled: Bruno was not the lowest
    game.expect_totals({"Alice": -5, "Bruno": 24})

    enders.get_by_role("radio", name="Alice").check()
    game.enter_round(names, ["40", "80"])  # Bruno reaches 104: the game ends
    expect(game.result).to_contain_text("Alice gagne")
    expect(game.result).to_contain_text("points")


def test_flip_7_refuses_what_no_hand_makes_and_the_highest_total_wears_the_crown(page: Page):
    names = ["Alice", "Bruno", "Chloé"]
    form, game = start(page, "Flip 7", names)
    form.start.click()

    game.enter_round(names, ["146", "20", "0"])
    expect(game.alert).to_contain_text("146, 148 … 170")
    expect(game.heads_field("Alice")).to_have_value("146")

    game.play_round(names, [171, 20, 0], 1)
    game.expect_leaders(["Alice"], ["Bruno", "Chloé"])
    game.play_round(names, [29, 171, 0], 2)  # 200 and 191: the end
    expect(game.result).to_contain_text("Alice gagne avec 200 points")


def test_a_free_game_has_its_name_its_winner_rule_and_negative_scores(page: Page):
    names = ["Alice", "Bruno"]
    form, game = start(page, "Partie libre", names)
    page.get_by_label("Nom du jeu").fill("Tarot")
    page.get_by_role("group", name="Qui gagne ?").get_by_role(
        "radio", name="Le plus grand total"
    ).check()
    page.get_by_label("Autre limite").check()
    page.get_by_label("Limite", exact=True).fill("50")
    form.start.click()
    expect(game.page.get_by_role("main").get_by_text("Tarot", exact=True)).to_be_visible()

    game.play_round(names, [-20, 60], 1)
    expect(game.result).to_contain_text("Bruno gagne avec 60 points")
    game.expect_totals({"Alice": -20, "Bruno": 60})


def test_flip_7_near_200_says_how_far_victory_is_and_a_tie_at_the_end_plays_on(page: Page):
    """Issue 43: no « Marge avant la fin » for who is about to win; a tie is not a shared win."""
    names = ["Alice", "Bruno", "Chloé"]
    form, game = start(page, "Flip 7", names)
    form.start.click()
    game.play_round(names, [106, 106, 20], 1)
    game.play_round(names, [70, 70, 0], 2)  # 176 each

    expect(game.player_row("Alice")).to_contain_text("À 24 points de la victoire")
    expect(game.player_row("Alice")).not_to_contain_text("Marge")

    game.play_round(names, [36, 36, 0], 3)  # 212 each: the end, tied
    expect(page.get_by_role("status").filter(has_text="une manche de plus")).to_contain_text(
        "Égalité à 212"
    )
    expect(game.validate).to_be_visible()

    game.play_round(names, [5, 0, 0], 4)
    expect(game.result).to_contain_text("Alice gagne avec 217 points")
