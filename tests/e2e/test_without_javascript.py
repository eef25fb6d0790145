"""Everything works with JavaScript switched off: plain forms, POST → 303 → GET."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from .assistant_pages import AssistantPage
from .pages import GamePage, HomePage, NewGamePage

pytestmark = pytest.mark.e2e


@pytest.fixture
def page(new_context) -> Page:
    """A phone with JavaScript switched off."""
    return new_context(java_script_enabled=False).new_page()


def submit(page: Page, button) -> int:
    """Press a form's button and return the status of the answer to its POST."""
    with page.expect_response(lambda response: response.request.method == "POST") as answer:
        button.click()
    return answer.value.status


def test_a_whole_game_without_javascript(page: Page):
    form = HomePage(page).open().start_new_game()
    assert submit(page, form.add_player) == 200
    expect(form.name_fields).to_have_count(3)
    form.type_names(["Alice", "Bruno", "Chloé"])
    names = ["Alice", "Bruno", "Chloé"]

    assert submit(page, form.start) == 303
    game = GamePage(page)
    expect(game.scoreboard).to_be_visible()
    first_game = page.url

    # Each real form once, each a 303 that only a browser follows. What the answers hold (totals,
    # refusals, leaders) is tests/integration/test_game_flow.py's.
    game.play_round(names, [10, 20, 5], 1)
    game.expect_totals({"Alice": 10, "Bruno": 20, "Chloé": 5})
    game.play_round(names, [8, 1, 1], 2)
    assert submit(page, game.cancel) == 303
    expect(game.round_line(2)).to_have_count(0)

    game.play_round(names, [60, 3, 2], 2)  # Alice reaches 70
    expect(game.result).to_contain_text("Chloé")

    assert submit(page, game.rematch) == 303
    # The names, each with its colour mark and the one who deals with « donne »: contained.
    expect(game.scoreboard.get_by_role("rowheader")).to_contain_text(names)
    expect(game.round_line(1)).to_have_count(0)
    assert page.url != first_game


def test_ten_players_can_be_seated_without_javascript(page: Page):
    form = NewGamePage(page).open()
    names = [f"Joueuse {letter}" for letter in "ABCDEFGHIJ"]

    form.type_names(names)

    expect(form.name_fields).to_have_count(10)
    if form.add_player.count():
        expect(form.add_player).to_be_disabled()
    assert submit(page, form.start) == 303
    expect(GamePage(page).scoreboard.get_by_role("rowheader")).to_contain_text(names)


def test_a_score_that_is_no_whole_number_is_refused_beside_its_field_without_javascript(
    page: Page,
):
    """A number field hands the server "" for « 5- » (a phone's number pad has « - » beside the
    digits), which counted 0 without a word, and Chromium's drops the sign of « −5 »."""
    game = NewGamePage(page).open().start_game(["Alice", "Bruno"])
    game.heads_field("Alice").press_sequentially("5-")  # keys, as a person types them
    game.heads_field("Bruno").press_sequentially("\u22125")

    assert submit(page, game.validate) == 422

    alice, bruno = game.heads_field("Alice"), game.heads_field("Bruno")
    expect(alice).to_have_accessible_description(re.compile("« 5- » n’est pas un nombre entier"))
    expect(alice).to_have_value("5-")
    expect(bruno).to_have_value("\u22125")
    expect(game.round_line(1)).to_have_count(0)
    alice.fill("5")
    assert submit(page, game.validate) == 422  # −5 is read, and 6 qui prend has no negative
    expect(bruno).to_have_accessible_description(re.compile("de 0 à 79 têtes"))
    expect(game.round_line(1)).to_have_count(0)


def test_a_typographic_minus_is_a_minus_in_skyjo_without_javascript(page: Page):
    form = NewGamePage(page).open()
    page.get_by_role("group", name="Jeu").get_by_role("radio", name="Skyjo").check()
    game = form.start_game(["Alice", "Bruno"])
    game.heads_field("Alice").press_sequentially("\u22125")
    game.heads_field("Bruno").press_sequentially("12")
    enders = page.get_by_role("group", name="A fini la manche")
    enders.get_by_role("radio", name="Bruno").check()

    assert submit(page, game.validate) == 303

    game.expect_totals({"Alice": -5, "Bruno": 24})


def test_a_card_that_is_no_number_is_refused_and_kept_by_the_assistant_without_javascript(
    page: Page,
):
    """A number field sent "" for « 5- »: the assistant asked for a card, the text typed gone."""
    game = NewGamePage(page).open().start_game(["Alice", "Bruno"])
    assistant = AssistantPage.open_from(game)
    assistant.type_rows([18, 31, 47])
    assistant.row_field(4).press_sequentially("5-")

    assert submit(page, assistant.lay_rows) == 422

    expect(assistant.row_field(4)).to_have_accessible_description(
        re.compile("« 5- » n’est pas un numéro de carte")
    )
    expect(assistant.row_field(4)).to_have_value("5-")
    expect(assistant.row_field(1)).to_have_value("18")
