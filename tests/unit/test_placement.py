"""Unit tests of card placement (app.rules): the examples of rules.md, and Hypothesis properties
of whole rounds checked against a brute-force simulation written here, independently of app.rules.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app import rules
from app.rules import Refusal, RoundScores
from app.rules.games.six_nimmt import MIN_HEADS_FOR_ROUND, SIX_NIMMT
from app.rules.games.six_nimmt.cards import (
    check_cards,
    check_pile,
    deck_size,
    max_heads_for_player,
    max_heads_for_round,
)
from app.rules.games.six_nimmt.placement import (
    Placed,
    PlayedTurn,
    RowChoice,
    RowChosen,
    RowsRound,
    SixthCard,
    place_turn,
)

# rules.md's example: rows ending with 18, 31, 47, 72.
ROWS = ((3, 18), (31,), (40, 47), (60, 65, 72))
FULL_LAST_ROW = ((3, 18), (31,), (40, 47), (60, 65, 70, 71, 72))


def test_a_50_goes_after_47():
    turn = place_turn(ROWS, {0: 50})
    assert turn.placements == (Placed(0, 50, 2),)
    assert turn.rows[2] == (40, 47, 50)
    assert turn.waiting is None


def test_a_75_goes_after_72():
    turn = place_turn(ROWS, {1: 75})
    assert turn.placements == (Placed(1, 75, 3),)
    assert turn.rows[3] == (60, 65, 72, 75)


def test_a_75_on_a_full_row_takes_its_five_cards():
    turn = place_turn(FULL_LAST_ROW, {1: 75})
    assert turn.placements == (SixthCard(1, 75, 3, (60, 65, 70, 71, 72)),)
    assert turn.rows[3] == (75,)


def test_a_9_makes_its_player_choose_and_places_nothing_until_then():
    turn = place_turn(ROWS, {0: 50, 1: 9, 2: 75})
    assert turn.waiting == RowChoice(
        1, 9, (2, 1, 4, 6)
    )  # 3 18 → 1+1, 31 → 1, 40 47 → 3+1, 60 65 72 → 3+2+1
    assert turn.placements == ()
    assert turn.rows == ROWS


def test_the_chosen_row_is_taken_and_the_turn_goes_on():
    turn = place_turn(ROWS, {0: 50, 1: 9, 2: 75}, chosen_row=3)
    assert turn.placements == (
        RowChosen(1, 9, 3, (60, 65, 72)),
        Placed(0, 50, 2),
        Placed(2, 75, 2),  # row 4 now ends with 9: 75 follows 50
    )
    assert turn.rows == ((3, 18), (31,), (40, 47, 50, 75), (9,))
    assert turn.waiting is None


def test_a_choice_when_no_card_is_too_low_is_a_mistake():
    with pytest.raises(ValueError):
        place_turn(ROWS, {0: 50}, chosen_row=0)


def test_a_round_counts_the_heads_each_player_took():
    game = RowsRound(2, (18, 31, 47, 72), (PlayedTurn((9, 50)),))
    assert game.waiting == RowChoice(0, 9, (1, 1, 1, 1))
    game = game.with_choice(1)
    assert game.waiting is None
    assert game.piles == ((31,), ())
    assert game.heads_taken == (1, 0)
    assert game.turns_placed == 1
    assert game.without_last_turn().turns == ()


def test_cards_already_seen_or_given_twice_are_refused_by_field():
    with pytest.raises(Refusal) as refused:
        check_cards([18, 18, 105, None, 0], ["A", "B", "C", "D", "E"], players=3)
    errors = {index: str(message) for index, message in refused.value.fields.items()}
    assert set(errors) == {0, 1, 2, 3, 4}
    assert "deux fois" in errors[1] and "105" in errors[2] and "Tapez le numéro" in errors[3]
    with pytest.raises(Refusal) as refused:
        check_cards([47], ["A"], players=3, seen=frozenset({47}))
    assert "déjà" in str(refused.value.fields[0])


def test_the_pro_deck_stops_at_10n_plus_4():
    assert check_cards([34], ["A"], players=3, pro=True) == (34,)
    with pytest.raises(Refusal) as refused:
        check_cards([35], ["A"], players=3, pro=True)
    assert "1 à 34" in str(refused.value.fields[0])


@pytest.mark.parametrize(
    ("pile", "named"), [([12, 0], "«\u202f0\u202f»"), ([105], "«\u202f105\u202f»"), ([7, 7], "7")]
)
def test_counting_names_the_number_that_is_not_a_card(pile, named):
    with pytest.raises(Refusal) as refused:
        check_pile(pile, 3)
    assert named in str(refused.value.whole[0])


@pytest.mark.parametrize("players, most", [(3, 30), (10, 50)])  # 10n cards leave; a row a turn
def test_a_pile_holds_at_most_the_cards_one_player_can_take(players, most):
    assert len(check_pile(list(range(1, most + 1)), players)) == most
    with pytest.raises(Refusal) as refused:
        check_pile(list(range(1, most + 2)), players)
    assert f"au plus {most} cartes" in str(refused.value.whole[0])


def test_a_pro_pile_stops_at_10n_plus_4():
    assert check_pile([34], 3, pro=True) == (34,)
    with pytest.raises(Refusal):
        check_pile([35], 3, pro=True)


# --- Whole rounds against a brute-force simulation -------------------------------------------


def heads_of(card: int) -> int:
    if card == 55:
        return 7
    return 5 if card % 11 == 0 else 3 if card % 10 == 0 else 2 if card % 5 == 0 else 1


def brute_force_turn(rows, cards, choose):
    """Place a turn the slow, obvious way; `choose(seat, rows)` picks a row for a too-low card."""
    rows = [list(row) for row in rows]
    taken = {}
    for seat, card in sorted(cards.items(), key=lambda item: item[1]):
        gaps = [(card - row[-1], index) for index, row in enumerate(rows) if row[-1] < card]
        if gaps:
            _, index = min(gaps)
            if len(rows[index]) == 5:
                taken.setdefault(seat, []).extend(rows[index])
                rows[index] = [card]
            else:
                rows[index].append(card)
        else:
            index = choose(seat, rows)
            taken.setdefault(seat, []).extend(rows[index])
            rows[index] = [card]
    return rows, taken


@st.composite
def rounds(draw):
    """A dealt round: players, pro deck or not, row starts, ten turns, and a row choice per turn."""
    players = draw(st.integers(rules.MIN_PLAYERS, rules.MAX_PLAYERS))
    pro = draw(st.booleans())
    deck = draw(st.permutations(range(1, deck_size(players, pro) + 1)))
    used = deck[: 4 + 10 * players]
    starts = tuple(used[:4])
    turns = [tuple(used[4 + turn * players : 4 + (turn + 1) * players]) for turn in range(10)]
    choices = draw(st.lists(st.integers(0, 3), min_size=10, max_size=10))
    return players, pro, starts, turns, choices


@given(rounds())
def test_a_whole_round_matches_the_brute_force_simulation(dealt):
    players, pro, starts, turns, choices = dealt
    game = RowsRound(players, starts)
    expected_rows = [[card] for card in starts]
    expected_piles = [[] for _ in range(players)]
    for number, cards in enumerate(turns):
        game = game.with_turn(cards)
        by_seat = dict(enumerate(cards))
        if game.waiting is not None:
            # Only the lowest card of a turn can be too low, and the software never chooses.
            assert game.waiting.card == min(cards)
            assert game.waiting.card < min(row[-1] for row in expected_rows)
            assert game.waiting.costs == tuple(sum(map(heads_of, r)) for r in expected_rows)
            assert game.turns_placed == number
            game = game.with_choice(choices[number])
        else:
            assert min(cards) > min(row[-1] for row in expected_rows)
        expected_rows, taken = brute_force_turn(
            expected_rows, by_seat, lambda _seat, _rows, n=number: choices[n]
        )
        for seat, cards_taken in taken.items():
            expected_piles[seat].extend(cards_taken)
        assert [list(row) for row in game.rows] == expected_rows
        assert all(1 <= len(row) <= 5 for row in game.rows)
        for placement in game.placed[-1].placements:
            if isinstance(placement, SixthCard):
                assert len(placement.taken) == 5
            if isinstance(placement, RowChosen):
                assert placement is game.placed[-1].placements[0]
    assert game.is_complete
    assert [list(pile) for pile in game.piles] == expected_piles

    on_table = [card for row in game.rows for card in row]
    in_piles = [card for pile in game.piles for card in pile]
    every_card = [*starts, *(card for cards in turns for card in cards)]
    assert sorted(on_table + in_piles) == sorted(every_card)  # each exactly once
    left_the_table = set(every_card) - set(on_table)
    assert sum(game.heads_taken) == sum(map(heads_of, left_the_table))
    assert max(game.heads_taken) <= max_heads_for_player(players, pro)
    assert sum(game.heads_taken) >= MIN_HEADS_FOR_ROUND
    assert sum(game.heads_taken) <= max_heads_for_round(players, pro)
    variants = frozenset({"pro"} if pro else ())
    assert SIX_NIMMT.check_round(RoundScores(game.heads_taken), ["x"] * players, variants)


@given(rounds(), st.integers(0, 9))
def test_taking_back_turns_returns_to_the_earlier_table(dealt, keep):
    players, _pro, starts, turns, choices = dealt
    game = RowsRound(players, starts)
    states = [game]
    for number, cards in enumerate(turns):
        game = game.with_turn(cards)
        if game.waiting is not None:
            game = game.with_choice(choices[number])
        states.append(game)
    for _ in range(10 - keep):
        game = game.without_last_turn()
    assert game.rows == states[keep].rows
    assert game.piles == states[keep].piles
