"""Unit tests of who deals (or starts) the next round, as each game declares it, and of each
player's colour and marker (app.rules)."""

from __future__ import annotations

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from app.rules import (
    COLOUR_COUNT,
    GAMES,
    DealRule,
    GameRules,
    RoundScores,
    Scoresheet,
    name_key,
    player_colours,
)

ROUND_THE_TABLE = ["6-qui-prend", "flip-7", "libre"]


@pytest.mark.parametrize("key", ROUND_THE_TABLE)
def test_the_deal_goes_round_the_table_after_the_last_the_first(key):
    game = GAMES[key]

    assert game.deal_rule is DealRule.NEXT_SEAT
    assert [game.next_dealer(seat, RoundScores((0, 0, 0)), 3) for seat in range(3)] == [1, 2, 0]
    assert str(game.deals) == "donne"
    assert str(game.who_deals) == "Qui donne ?"


def test_in_skyjo_whoever_ended_the_round_starts_the_next():
    skyjo = GAMES["skyjo"]

    assert skyjo.next_dealer(0, RoundScores((10, 4, 30), ended_by=2), 3) == 2
    assert skyjo.next_dealer(2, RoundScores((10, 4, 30), ended_by=2), 3) == 2
    assert (str(skyjo.deals), str(skyjo.who_deals)) == ("commence", "Qui commence ?")


def test_a_skyjo_round_that_names_no_ender_passes_to_the_next_seat():
    assert GAMES["skyjo"].next_dealer(1, RoundScores((10, 4, 30)), 3) == 2


@given(st.integers(2, 10), st.data())
def test_round_the_table_every_player_deals_once_in_as_many_rounds(seats, data):
    game = GAMES[data.draw(st.sampled_from(ROUND_THE_TABLE))]
    dealer = data.draw(st.integers(0, seats - 1))
    dealt = []
    for _ in range(seats):
        dealt.append(dealer)
        dealer = game.next_dealer(dealer, RoundScores((0,) * seats), seats)

    assert sorted(dealt) == list(range(seats))
    assert dealer == dealt[0]


def test_no_one_is_marked_once_the_game_is_over():
    playing = Scoresheet(
        ("Ana", "Ben"), ((10, 20),), GameRules.of(GAMES["6-qui-prend"]), (), (0,), 1
    )
    over = Scoresheet(("Ana", "Ben"), ((10, 70),), GameRules.of(GAMES["6-qui-prend"]), (), (0,), 1)

    assert playing.deals_next == 1
    assert over.deals_next is None
    assert over.start_player == 0


def test_a_sheet_whose_dealer_was_not_kept_marks_no_one_and_passes_nothing():
    sheet = Scoresheet(("Ana", "Ben"), ((10, 20),), GameRules.of(GAMES["6-qui-prend"]))

    assert sheet.deals_next is None
    assert sheet.start_player is None
    assert sheet.dealer_after(None, RoundScores((1, 2))) is None


def test_colours_follow_the_seats_by_default():
    assert player_colours(["Ana", "Ben", "Cléo"]) == (0, 1, 2)


def test_a_name_seen_earlier_keeps_its_colour_and_the_others_take_those_no_one_had():
    earlier = [("Ana", 0), ("Ben", 1), ("Cléo", 2)]

    # Ben's stays his, should he come back: Dan and Eve take 3 and 4.
    assert player_colours(["cléo ", "Dan", "ANA", "Eve"], earlier) == (2, 3, 0, 4)


def test_once_the_evening_has_had_every_colour_a_new_name_takes_one_free_at_its_table():
    earlier = [(f"P{index}", index) for index in range(10)]

    assert player_colours(["P3", "Zoé", "P0"], earlier) == (3, 1, 0)


@given(st.lists(st.text(min_size=1), max_size=COLOUR_COUNT, unique_by=lambda n: n.casefold()))
def test_up_to_ten_players_never_share_a_colour(names):
    assume(len({name_key(name) for name in names}) == len(names))  # never at one table
    earlier = [(name, index) for index, name in enumerate(reversed(names))]
    assert len(set(player_colours(names, earlier))) == len(names)
    assert len(set(player_colours(names))) == len(names)
