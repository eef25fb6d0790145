"""A whole round placed by the round assistant on a phone, with and without JavaScript: the
rows, a sixth card, too-low cards chosen by their players, the heads in the round form, then in
the totals."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

import pytest
from playwright.sync_api import Page, expect

from app.rules.games.six_nimmt import placement
from app.rules.games.six_nimmt.cards import DECK_SIZE

from .assistant_pages import AssistantPage, CountPage
from .pages import GamePage, control, game_started

pytestmark = pytest.mark.e2e

NAMES = ["Alice", "Bruno", "Chloé"]


@dataclass(frozen=True)
class Deal:
    """A round as dealt: the players, the row starts, each turn's cards, who chose which row."""

    names: list[str]
    starts: list[int]
    turns: list[list[int]]
    choices: dict[int, tuple[str, int]]  # turn → (the player who must choose, the row they take)

    @property
    def heads(self) -> tuple[int, ...]:
        """The heads each player takes, as app.rules places the cards (tested on its own)."""
        game = placement.RowsRound(len(self.names), tuple(self.starts))
        for turn, cards in enumerate(self.turns, start=1):
            game = game.with_turn(cards)
            if turn in self.choices:
                game = game.with_choice(self.choices[turn][1] - 1)
        assert game.is_complete and game.waiting is None
        return game.heads_taken


THREE_PLAYERS = Deal(
    NAMES,
    [10, 20, 30, 40],
    [
        [41, 42, 43],
        [44, 45, 46],  # 45 would be the sixth card after 40: Bruno takes 40 to 44
        [47, 5, 48],  # Bruno's 5 is lower than every row's end: Bruno chooses
        [49, 50, 51],  # 50 is a sixth card: Bruno takes 45 to 49
        [52, 53, 54],
        [55, 56, 2],  # Chloé's 2 is too low: she chooses
        [57, 58, 59],
        [60, 61, 62],
        [63, 64, 65],
        [66, 67, 68],
    ],
    {3: ("Bruno", 2), 6: ("Chloé", 4)},
)


def ten_players() -> Deal:
    """The whole deck shuffled once (a fixed seed) for ten players; each chooser takes a row."""
    names = [f"Joueuse {letter}" for letter in "ABCDEFGHIJ"]
    deck = list(range(1, DECK_SIZE + 1))
    random.Random(0).shuffle(deck)
    starts, turns = deck[:4], [deck[4 + 10 * turn : 14 + 10 * turn] for turn in range(10)]
    game, choices, sixth_cards = placement.RowsRound(10, tuple(starts)), {}, 0
    for turn, cards in enumerate(turns, start=1):
        game = game.with_turn(cards)
        if game.waiting is not None:
            row = turn % 4 + 1
            choices[turn] = (names[game.waiting.seat], row)
            game = game.with_choice(row - 1)
        sixth_cards += sum(isinstance(p, placement.SixthCard) for p in game.placed[-1].placements)
    assert choices and sixth_cards  # the deal holds both ways to take cards
    return Deal(names, starts, turns, choices)


def play_the_round(assistant: AssistantPage, deal: Deal, *, keyboard: bool, after_each_step):
    assistant.type_rows(deal.starts)
    assistant.lay_rows.click()
    after_each_step()
    for number in range(1, 5):
        assistant.expect_row(number, [deal.starts[number - 1]])
    for turn, cards in enumerate(deal.turns, start=1):
        if keyboard:
            assistant.type_cards_with_keyboard(deal.names, cards)
        else:
            assistant.type_cards(deal.names, cards)
            assistant.place.click()
        after_each_step()
        if turn in deal.choices:
            name, row = deal.choices[turn]
            expect(
                assistant.page.get_by_role("heading", name=f"{name}, à vous de choisir")
            ).to_be_visible()
            expect(assistant.place).to_have_count(0)
            assistant.take(row).click()
            after_each_step()
        if deal is THREE_PLAYERS and turn == 2:  # Bruno's 45 started row 4 anew, 46 follows it
            assistant.expect_row(4, [45, 46])


def check_the_heads_land_in_the_totals(game: GamePage, deal: Deal) -> None:
    control(game.page, "Reporter dans la feuille").click()
    for name, value in zip(deal.names, deal.heads):
        expect(game.heads_field(name)).to_have_value(str(value))
    game.validate.click()
    expect(game.round_line(1)).to_be_visible()
    game.expect_totals(dict(zip(deal.names, deal.heads)))


# Where the cards go is app.rules' (tests/unit/test_placement.py): each deal is played once, the
# ten players with JavaScript (ten card fields, no sideways scroll), the three without.
def test_a_whole_round_of_ten_placed_with_javascript_lands_in_the_totals(page: Page):
    dealt = ten_players()
    game = game_started(page, dealt.names)
    assistant = AssistantPage.open_from(game)
    assistant.mark_no_reload()
    expect(assistant.row_field(1)).to_be_focused()

    def swapped_in_place():
        assert assistant.was_not_reloaded()

    play_the_round(assistant, dealt, keyboard=True, after_each_step=swapped_in_place)

    assert assistant.has_no_sideways_scroll()
    check_the_heads_land_in_the_totals(game, dealt)


def test_a_whole_round_of_three_placed_without_javascript_lands_in_the_totals(new_context):
    dealt = THREE_PLAYERS
    page = new_context(java_script_enabled=False).new_page()
    game = game_started(page, dealt.names)
    assistant = AssistantPage.open_from(game)

    play_the_round(assistant, dealt, keyboard=False, after_each_step=lambda: None)

    check_the_heads_land_in_the_totals(game, dealt)


def test_a_refused_card_keeps_what_was_typed_and_a_turn_can_be_taken_back(page: Page):
    game = game_started(page, NAMES)
    assistant = AssistantPage.open_from(game)
    assistant.type_rows([18, 31, 47, 72])
    assistant.lay_rows.click()

    assistant.type_cards(NAMES, [50, 50, 105])
    assistant.place.click()
    expect(assistant.alert).to_contain_text("deux fois")
    expect(assistant.card_field("Chloé")).to_have_accessible_description(re.compile("1 à 104"))
    expect(assistant.card_field("Chloé")).to_have_value("105")
    assistant.expect_row(3, [47])

    assistant.type_cards(NAMES, [50, 9, 75])
    assistant.place.click()
    expect(assistant.take(1)).to_be_visible()
    assistant.take_back.click()
    expect(assistant.take(1)).to_have_count(0)
    expect(assistant.card_field("Alice")).to_be_focused()
    expect(assistant.card_field("Bruno")).to_have_value("9")  # its cards, to place again
    expect(assistant.take_back).to_have_count(0)


def test_counting_a_pile_fills_that_players_field_and_keeps_those_typed(page: Page):
    game = game_started(page, NAMES)
    game.heads_field("Alice").fill("5")  # typed before counting Bruno's pile
    counter = CountPage.open_from(game)
    counter.cards.fill("55 10 23 11")
    page.get_by_role("combobox", name="Pour qui ?").select_option(label="Bruno")
    counter.count.click()
    expect(counter.answer).to_contain_text("55 → 7, 10 → 3, 23 → 1, 11 → 5 : 16 têtes")
    expect(counter.cards).to_have_value("55 10 23 11")
    control(page, "Reporter 16 pour Bruno").click()
    expect(GamePage(page).heads_field("Bruno")).to_have_value("16")
    expect(GamePage(page).heads_field("Alice")).to_have_value("5")
