"""Unit tests of app.rules: the examples of rules.md, and Hypothesis properties over every variant.

The bounds are checked twice: against the table printed in rules.md, and against a brute-force
sum over the heaviest cards computed here from the heads table, independently of app.rules.
"""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app import rules
from app.rules import (
    EndRule,
    GameRules,
    Refusal,
    RoundScores,
    Scoresheet,
    seat_players,
)
from app.rules.games.six_nimmt import SIX_NIMMT, cards
from app.rules.sheet import MAX_ROUNDS

# Hypothesis: default number of examples, but no per-example deadline (shared 2-core CI machine).

NAMES = ("Alice", "Bruno", "Chloé", "David", "Emma", "Farid", "Gaëlle", "Hugo", "Inès", "Jules")

# rules.md, "What a round can contain": players -> (most for one player, most for the round).
RULES_MD_BOUNDS = {
    2: (79, 79),
    3: (97, 97),
    4: (107, 107),
    5: (117, 117),
    6: (117, 127),
    7: (117, 137),
    8: (117, 147),
    9: (117, 157),
    10: (117, 167),
}

ELEVENS_BUT_55 = {11, 22, 33, 44, 66, 77, 88, 99}


def heads_from_the_table(card: int) -> int:
    """The heads table of rules.md, written out again here so the tests do not trust app.rules."""
    if card == 55:
        return 7
    if card in ELEVENS_BUT_55:
        return 5
    if card in range(10, 101, 10):
        return 3
    if card in range(5, 100, 10):
        return 2
    return 1


def check_round(heads_taken, players, pro=False):
    """Return the heads of a round of 6 qui prend as its game checks them, as a list."""
    variants = frozenset({"pro"} if pro else ())
    return list(SIX_NIMMT.check_round(RoundScores(tuple(heads_taken)), players, variants).scores)


def brute_force_bounds(players: int, pro: bool = False) -> tuple[int, int]:
    """Build the deck, sort it by heads and sum the heaviest cards (rules.md's derivation)."""
    last_card = 10 * players + 4 if pro else 104
    deck = [heads_from_the_table(card) for card in range(1, last_card + 1)]
    heaviest_first = sorted(deck, reverse=True)
    for_player = sum(heaviest_first[: min(50, 10 * players)])
    for_round = sum(heaviest_first[: 10 * players])
    return for_player, for_round


def names(players: int) -> tuple[str, ...]:
    return NAMES[:players]


# --- Heads per card ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("card", "expected"),
    [
        (55, 7),
        (11, 5),
        (22, 5),
        (33, 5),
        (44, 5),
        (66, 5),
        (77, 5),
        (88, 5),
        (99, 5),
        (10, 3),
        (50, 3),
        (100, 3),
        (5, 2),
        (15, 2),
        (95, 2),
        (1, 1),
        (2, 1),
        (54, 1),
        (56, 1),
        (101, 1),
        (104, 1),
    ],
)
def test_heads_per_card_follow_the_rule_book_table(card, expected):
    assert cards.heads(card) == expected


def test_every_card_carries_the_heads_of_the_table():
    for card in range(1, 105):
        assert cards.heads(card) == heads_from_the_table(card), card


def test_the_whole_deck_carries_171_heads():
    assert sum(cards.heads(card) for card in range(1, 105)) == 171


def test_the_deck_holds_one_7_eight_5_ten_3_nine_2_and_76_single_heads():
    counts = Counter(cards.heads(card) for card in range(1, 105))

    assert counts == {7: 1, 5: 8, 3: 10, 2: 9, 1: 76}


@pytest.mark.parametrize("card", [0, -1, 105, 200])
def test_a_card_outside_1_to_104_has_no_heads(card):
    with pytest.raises(ValueError):
        cards.heads(card)


# --- Bounds of a round ------------------------------------------------------------------------


@pytest.mark.parametrize("players", range(2, 11))
def test_bounds_match_the_rules_md_table_and_a_brute_force_over_the_full_deck(players):
    # The brute force is the oracle of the pro bounds and the properties below: over the full
    # deck it gives the table printed in rules.md.
    assert cards.deck_size(players) == 104
    assert brute_force_bounds(players) == RULES_MD_BOUNDS[players]
    assert (cards.max_heads_for_player(players), cards.max_heads_for_round(players)) == (
        RULES_MD_BOUNDS[players]
    )


@pytest.mark.parametrize("players", range(2, 11))
def test_pro_bounds_are_a_brute_force_over_cards_1_to_10n_plus_4_never_looser(players):
    for_player, for_round = brute_force_bounds(players, pro=True)

    assert cards.deck_size(players, pro=True) == 10 * players + 4
    assert cards.max_heads_for_player(players, pro=True) == for_player
    assert cards.max_heads_for_round(players, pro=True) == for_round
    assert for_player <= cards.max_heads_for_player(players)
    assert for_round <= cards.max_heads_for_round(players)


def test_pro_deck_allows_at_most_51_heads_in_a_round_with_3_players():
    assert cards.max_heads_for_round(3, pro=True) == 51
    assert cards.max_heads_for_player(3, pro=True) == 51


# --- check_round: examples --------------------------------------------------------------------


def test_a_valid_round_gives_the_heads_in_seat_order():
    assert check_round([12, 0, 7], names(3)) == [12, 0, 7]


@pytest.mark.parametrize("players", range(2, 11))
def test_exactly_the_player_maximum_is_accepted(players):
    most, _ = RULES_MD_BOUNDS[players]
    typed = [most] + [0] * (players - 1)

    assert check_round(typed, names(players)) == [most] + [0] * (players - 1)


def test_a_value_over_the_player_maximum_says_at_most_97_for_3_players():
    with pytest.raises(Refusal) as refused:
        check_round([0, 98, 0], names(3))

    assert set(refused.value.fields) == {1}
    assert "au plus 97" in str(refused.value.fields[1])
    assert "3 joueurs" in str(refused.value.fields[1])


def test_a_value_over_the_pro_player_maximum_says_at_most_51_for_3_players():
    assert check_round([51, 0, 0], names(3), pro=True) == [51, 0, 0]

    with pytest.raises(Refusal) as refused:
        check_round([52, 0, 0], names(3), pro=True)

    assert "au plus 51" in str(refused.value.fields[0])


def test_a_round_summing_over_the_round_maximum_is_refused():
    # 6 players: each value is allowed (<= 117) but together they exceed 127.
    typed = [117, 11, 0, 0, 0, 0]

    with pytest.raises(Refusal) as refused:
        check_round(typed, names(6))

    assert refused.value.fields == {}
    assert len(refused.value.whole) == 1
    assert "au plus 127" in str(refused.value.whole[0])


def test_a_round_summing_exactly_the_round_maximum_is_accepted():
    typed = [117, 10, 0, 0, 0, 0]

    assert check_round(typed, names(6)) == [117, 10, 0, 0, 0, 0]


@pytest.mark.parametrize(
    "typed, fields, whole",
    [
        pytest.param([40, 40], set(), "au plus 79", id="2 players over 79 together"),
        pytest.param([0, 0, 0], set(), "", id="nobody took a head"),
        pytest.param([3], set(), "", id="a player missing"),
        pytest.param([3, -1, 4], {1}, None, id="negative, at its seat"),
        pytest.param([98, -1, 200], {0, 1, 2}, None, id="each bad value its message"),
    ],
)
def test_a_round_is_refused_at_the_seats_or_as_a_whole(typed, fields, whole):
    with pytest.raises(Refusal) as refused:
        check_round(typed, names(len(typed) if len(typed) > 1 else 3))

    assert set(refused.value.fields) == fields
    if whole is not None:
        assert refused.value.whole and whole in str(refused.value.whole[0])


# --- seat_players -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "typed, seated",
    [
        pytest.param(["Alice", "Bruno", "Chloé"], ["Alice", "Bruno", "Chloé"], id="in order"),
        pytest.param(["", "Alice", "  ", "Bruno", "\t"], ["Alice", "Bruno"], id="blanks ignored"),
        pytest.param(["  Anne   Marie ", "Jean\t Luc"], ["Anne Marie", "Jean Luc"], id="spaces"),
        pytest.param(["A" * 30, "Bruno"], ["A" * 30, "Bruno"], id="30 characters"),
        pytest.param(
            ["   " + "A" * 30 + "   ", "Bruno"], ["A" * 30, "Bruno"], id="30 once trimmed"
        ),
        pytest.param([*NAMES, "", ""], list(NAMES), id="10 players"),
    ],
)
def test_names_are_seated_in_the_order_typed_trimmed_without_blanks(typed, seated):
    assert seat_players(typed) == seated


@pytest.mark.parametrize(
    "typed, seat",
    [
        *(
            pytest.param(["Alice", "Bruno", again], 2, id=f"again {again!r}")
            for again in ["alice", "ALICE", "  Alice  ", " aLiCe"]
        ),
        pytest.param(["Anne Marie", "anne   marie"], 1, id="inner spaces"),
        pytest.param(["Alice", "", "Bruno", "", "alice"], 4, id="the field as typed"),
    ],
)
def test_a_duplicate_name_is_refused_ignoring_case_and_spaces_at_its_field(typed, seat):
    with pytest.raises(Refusal) as refused:
        seat_players(typed)

    assert set(refused.value.fields) == {seat}
    assert refused.value.whole == []


def test_a_name_over_30_characters_is_refused():
    with pytest.raises(Refusal) as refused:
        seat_players(["Alice", "B" * 31])

    assert set(refused.value.fields) == {1}
    assert "30" in str(refused.value.fields[1])


@pytest.mark.parametrize("typed", [[], ["Alice"], ["Alice", "", "  "]])
def test_fewer_than_2_players_are_refused(typed):
    with pytest.raises(Refusal) as refused:
        seat_players(typed)

    assert refused.value.whole


@pytest.mark.parametrize("most", [10, 8])  # 8: Skyjo's most
def test_more_players_than_the_game_takes_are_refused(most):
    seat_players(NAMES[:most], most)
    with pytest.raises(Refusal) as refused:
        seat_players([*NAMES[:most], "Karim"], most)

    assert refused.value.whole
    assert refused.value.fields == {}


# --- GameRules --------------------------------------------------------------------------------


def sheet_after(rounds, game_rules=None, players=2):
    sheet = Scoresheet(names(players), (), game_rules or GameRules.of(SIX_NIMMT))
    for scores in rounds:
        sheet = sheet.with_round(rules.RoundScores(tuple(scores)))
    return sheet


def test_the_default_rules_end_above_66():
    assert GameRules.of(SIX_NIMMT) == GameRules(SIX_NIMMT, EndRule.ABOVE, 66, None, frozenset())


ABOVE_66, AT_66 = GameRules.of(SIX_NIMMT), GameRules.of(SIX_NIMMT, end=EndRule.AT_OR_ABOVE)


@pytest.mark.parametrize(
    ("game_rules", "rounds", "over"),
    [
        pytest.param(ABOVE_66, [(40, 1), (26, 2)], False, id="66 plays on"),
        pytest.param(ABOVE_66, [(40, 1), (26, 2), (1, 0)], True, id="67 ends"),
        pytest.param(AT_66, [(40, 1), (26, 2)], True, id="66 ends with 66 or more"),
        pytest.param(AT_66, [(40, 1), (25, 2)], False, id="65 plays on with 66 or more"),
        pytest.param(
            GameRules.of(SIX_NIMMT, limit=100), [(79, 0), (21, 0)], False, id="100 plays on"
        ),
        pytest.param(GameRules.of(SIX_NIMMT, limit=100), [(79, 0), (22, 0)], True, id="101 ends"),
        pytest.param(GameRules.of(SIX_NIMMT, limit=10), [(10, 0)], False, id="10 plays on"),
        pytest.param(GameRules.of(SIX_NIMMT, limit=10), [(11, 0)], True, id="11 ends"),
        pytest.param(
            GameRules.of(SIX_NIMMT, limit=500), [(79, 0)] * 6 + [(26, 0)], False, id="500 plays on"
        ),
        pytest.param(
            GameRules.of(SIX_NIMMT, limit=500), [(79, 0)] * 6 + [(27, 0)], True, id="501 ends"
        ),
    ],
)
def test_a_limit_ends_the_game_once_passed_or_reached_as_chosen(game_rules, rounds, over):
    sheet = sheet_after(rounds, game_rules)

    assert sheet.is_over is over
    assert sheet.winners == (frozenset({1}) if over else frozenset())
    assert sheet.crossers == (frozenset({0}) if over else frozenset())


def test_a_game_of_3_rounds_ends_after_the_third_round_whatever_the_totals():
    game_rules = GameRules.of(SIX_NIMMT, end=EndRule.ROUNDS, round_count=3)

    two_rounds = sheet_after([(79, 0), (79, 0)], game_rules)
    three_rounds = two_rounds.with_round(rules.RoundScores((0, 1)))

    assert two_rounds.totals == [158, 0]
    assert not two_rounds.is_over
    assert three_rounds.is_over
    assert three_rounds.winners == frozenset({1})
    assert three_rounds.crossers == frozenset()


@pytest.mark.parametrize("limit", [9, 501, 0, -66])
@pytest.mark.parametrize("end", [EndRule.ABOVE, EndRule.AT_OR_ABOVE])
def test_a_limit_outside_10_to_500_is_refused(end, limit):
    with pytest.raises(Refusal):
        GameRules.of(SIX_NIMMT, end=end, limit=limit)


@pytest.mark.parametrize("limit", [10, 500])
@pytest.mark.parametrize("end", [EndRule.ABOVE, EndRule.AT_OR_ABOVE])
def test_limits_10_and_500_are_allowed(end, limit):
    assert GameRules.of(SIX_NIMMT, end=end, limit=limit).limit == limit


@pytest.mark.parametrize("round_count", [None, 0, 51, -1])
def test_a_round_count_outside_1_to_50_is_refused(round_count):
    with pytest.raises(Refusal):
        GameRules.of(SIX_NIMMT, end=EndRule.ROUNDS, round_count=round_count)


@pytest.mark.parametrize("round_count", [1, 50])
def test_round_counts_1_and_50_are_allowed(round_count):
    assert (
        GameRules.of(SIX_NIMMT, end=EndRule.ROUNDS, round_count=round_count).round_count
        == round_count
    )


# --- Scoresheet -------------------------------------------------------------------------------


def test_nobody_leads_before_the_first_round():
    sheet = Scoresheet(names(3), (), GameRules.of(SIX_NIMMT))

    assert sheet.totals == [0, 0, 0]
    assert sheet.leaders == frozenset()
    assert sheet.winners == frozenset()
    assert not sheet.is_over
    assert sheet.next_round == 1


def test_nobody_wins_while_the_game_goes_on():
    sheet = sheet_after([(60, 5, 9)], players=3)

    assert sheet.leaders == frozenset({1})
    assert sheet.winners == frozenset()
    assert sheet.crossers == frozenset()


def test_a_shared_win_when_several_end_at_the_lowest_total():
    sheet = sheet_after([(50, 4, 4), (20, 0, 0)], players=3)

    assert sheet.is_over
    assert sheet.winners == frozenset({1, 2})


def test_everyone_who_went_past_the_limit_is_a_crosser():
    sheet = sheet_after([(60, 60, 1), (7, 7, 5)], players=3)

    assert sheet.is_over
    assert sheet.crossers == frozenset({0, 1})
    assert sheet.winners == frozenset({2})


def test_with_round_adds_a_round_and_leaves_the_sheet_unchanged():
    before = sheet_after([(3, 4)])

    after = before.with_round(rules.RoundScores((5, 6)))

    assert before.rounds == ((3, 4),)
    assert after.rounds == ((3, 4), (5, 6))
    assert after.next_round == 3
    assert after.rules == before.rules
    assert after.players == before.players


def test_a_sheet_checks_the_next_round_with_its_players_and_deck():
    sheet = Scoresheet(names(3), (), GameRules.of(SIX_NIMMT, variants={"pro"}))

    assert sheet.check_round(rules.RoundScores((51, 0, 0))).scores == (51, 0, 0)
    with pytest.raises(Refusal):
        sheet.check_round(rules.RoundScores((52, 0, 0)))


def test_a_round_after_the_end_raises_game_over():
    sheet = sheet_after([(67, 1)])

    with pytest.raises(Refusal):
        sheet.check_round(rules.RoundScores((1, 0)))


def test_cancelling_the_round_that_ended_the_game_reopens_it():
    ended = sheet_after([(40, 1), (27, 2)])
    reopened = Scoresheet(ended.players, ended.rounds[:-1], ended.rules)

    assert ended.is_over
    assert not reopened.is_over
    assert reopened.check_round(rules.RoundScores((1, 0))).scores == (1, 0)


def test_a_correction_that_would_have_ended_the_game_earlier_is_refused():
    sheet = sheet_after([(10, 5), (20, 5), (1, 1)])

    with pytest.raises(Refusal) as refused:
        sheet.with_round_replaced(
            1, rules.RoundScores((60, 5))
        )  # 60 + 20 > 66 after round 2, before round 3

    assert "Avec ces têtes, la partie se serait terminée après la manche 2" in str(
        refused.value.whole[0]
    )


def test_a_correction_may_end_the_game_at_its_last_round():
    sheet = sheet_after([(10, 5), (20, 5), (1, 1)])

    corrected = sheet.with_round_replaced(
        1, rules.RoundScores((46, 5))
    )  # 66 after round 2 plays on, 67 after 3

    assert corrected.rounds == ((46, 5), (20, 5), (1, 1))
    assert corrected.is_over


FREE_TO_A_MILLION = GameRules.of(
    rules.game_of("libre"), limit=999_999, title="Yams", chosen_best=rules.Best.HIGHEST
)


def test_a_game_may_hold_500_rounds_and_no_more():
    rounds = [rules.RoundScores((1, 2))] * MAX_ROUNDS

    sheet = Scoresheet.played(names(2), FREE_TO_A_MILLION, rounds)
    with pytest.raises(Refusal) as refused:
        Scoresheet.played(names(2), FREE_TO_A_MILLION, [*rounds, rules.RoundScores((1, 2))])

    assert len(sheet.rounds) == 500
    assert not isinstance(refused.value, rules.WrongRound)  # the game, not its 501st round
    assert str(refused.value.whole[0]) == "trop de manches (501\u202f: 500 au plus)"


def test_a_table_cannot_type_a_501st_round():
    sheet = Scoresheet(names(2), ((1, 2),) * MAX_ROUNDS, FREE_TO_A_MILLION)

    with pytest.raises(Refusal) as refused:
        sheet.check_round(rules.RoundScores((1, 2)))

    assert "500 manches" in str(refused.value.whole[0])


def test_a_correction_does_not_end_a_game_of_a_number_of_rounds_early():
    sheet = sheet_after(
        [(1, 1), (1, 1)], GameRules.of(SIX_NIMMT, end=EndRule.ROUNDS, round_count=3)
    )

    corrected = sheet.with_round_replaced(1, rules.RoundScores((79, 0)))

    assert not corrected.is_over


# --- Hypothesis properties --------------------------------------------------------------------

PRO_OR_NOT = st.sampled_from([frozenset(), frozenset({"pro"})])
end_rules = st.one_of(
    st.builds(
        GameRules.of,
        st.just(SIX_NIMMT),
        end=st.sampled_from([EndRule.ABOVE, EndRule.AT_OR_ABOVE]),
        limit=st.integers(10, 500),
        variants=PRO_OR_NOT,
    ),
    st.builds(
        GameRules.of,
        st.just(SIX_NIMMT),
        end=st.just(EndRule.ROUNDS),
        round_count=st.integers(1, 50),
        variants=PRO_OR_NOT,
    ),
)


@st.composite
def scoresheets(draw, max_rounds=20):
    """Any table of 2 to 10 players under any rules, with rounds of plausible sizes."""
    players = draw(st.integers(2, 10))
    game_rules = draw(end_rules)
    one_round = st.lists(st.integers(0, 120), min_size=players, max_size=players).map(tuple)
    rounds = draw(st.lists(one_round, max_size=max_rounds))
    return Scoresheet(names(players), tuple(rounds), game_rules)


def expected_over(sheet: Scoresheet) -> bool:
    game_rules, totals = sheet.rules, [sum(column) for column in zip(*sheet.rounds)]
    if game_rules.end is EndRule.ROUNDS:
        return len(sheet.rounds) >= game_rules.round_count
    if game_rules.end is EndRule.AT_OR_ABOVE:
        return any(total >= game_rules.limit for total in totals)
    return any(total > game_rules.limit for total in totals)


@given(scoresheets())
def test_totals_are_the_column_sums(sheet):
    expected = [sum(r[seat] for r in sheet.rounds) for seat in range(len(sheet.players))]

    assert sheet.totals == expected
    if sheet.rounds:
        assert sheet.running_totals[-1] == expected


@given(scoresheets())
def test_running_totals_are_the_sums_of_the_rounds_so_far(sheet):
    for played, running in enumerate(sheet.running_totals, start=1):
        assert running == [sum(column) for column in zip(*sheet.rounds[:played])]
    assert len(sheet.running_totals) == len(sheet.rounds)


@given(scoresheets())
def test_leaders_are_exactly_the_seats_at_the_minimum_total(sheet):
    if not sheet.rounds:
        assert sheet.leaders == frozenset()
        return
    totals = [sum(column) for column in zip(*sheet.rounds)]
    lowest = min(totals)

    assert sheet.leaders == {seat for seat, total in enumerate(totals) if total == lowest}


@given(scoresheets())
def test_the_game_ends_exactly_when_its_end_rule_is_met(sheet):
    assert sheet.is_over == expected_over(sheet)


@given(scoresheets())
def test_winners_are_leaders_and_exist_exactly_when_the_game_is_over(sheet):
    assert sheet.winners <= sheet.leaders
    assert bool(sheet.winners) == sheet.is_over
    if sheet.is_over:
        assert sheet.winners == sheet.leaders


@given(scoresheets())
def test_crossers_are_the_seats_past_the_limit_once_the_game_is_over(sheet):
    game_rules = sheet.rules
    if not sheet.is_over or game_rules.end is EndRule.ROUNDS:
        assert sheet.crossers == frozenset()
        return
    if game_rules.end is EndRule.AT_OR_ABOVE:
        expected = {s for s, total in enumerate(sheet.totals) if total >= game_rules.limit}
    else:
        expected = {s for s, total in enumerate(sheet.totals) if total > game_rules.limit}

    assert sheet.crossers == expected
    assert sheet.crossers  # a limit game only ends because someone crossed it


@given(scoresheets(max_rounds=8), st.data())
def test_with_round_equals_a_sheet_built_with_all_rounds(sheet, data):
    scores = data.draw(
        st.lists(st.integers(0, 120), min_size=len(sheet.players), max_size=len(sheet.players))
    )

    after = sheet.with_round(rules.RoundScores(tuple(scores)))

    assert after == Scoresheet(sheet.players, (*sheet.rounds, tuple(scores)), sheet.rules)
    assert after.next_round == sheet.next_round + 1


def played_one_by_one(players, game_rules, rounds):
    """Return the sheet of these rounds as a table types them, or the number of the first one
    it refuses."""
    sheet = Scoresheet(players, (), game_rules)
    for number, scores in enumerate(rounds, start=1):
        try:
            checked = sheet.check_round(rules.RoundScores(tuple(scores)))
        except Refusal:
            return number
        sheet = sheet.with_round(checked)
    return sheet


@st.composite
def games_typed(draw):
    """A table, its rules, and rounds as typed: most within the bounds, some not (a round of
    no heads, a player's 200), some typed after the game has ended."""
    players = draw(st.integers(2, 10))
    limits = st.builds(
        GameRules.of,
        st.just(SIX_NIMMT),
        end=st.sampled_from([EndRule.ABOVE, EndRule.AT_OR_ABOVE]),
        limit=st.integers(10, 60),
    )
    rounds = st.builds(
        GameRules.of,
        st.just(SIX_NIMMT),
        end=st.just(EndRule.ROUNDS),
        round_count=st.integers(1, 20),
    )
    game_rules = draw(limits | rounds)
    scores = st.lists(st.integers(0, 9), min_size=players, max_size=players)
    # One round in twenty of no heads (refused), one in twenty of a 200 (refused).
    spoil = {0: lambda r: [0] * players, 1: lambda r: [200, *r[1:]]}
    one_round = st.tuples(st.integers(0, 19), scores).map(
        lambda drawn: tuple(spoil.get(drawn[0], lambda r: r)(drawn[1]))
    )
    return names(players), game_rules, draw(st.lists(one_round, max_size=25))


@given(games_typed())
def test_a_game_played_from_its_rounds_is_the_game_typed_round_by_round(game):
    players, game_rules, rounds = game
    typed = [rules.RoundScores(scores) for scores in rounds]

    expected = played_one_by_one(players, game_rules, rounds)

    if isinstance(expected, int):
        with pytest.raises(rules.WrongRound) as wrong:
            Scoresheet.played(players, game_rules, typed)
        assert wrong.value.number == expected
    else:
        assert Scoresheet.played(players, game_rules, typed) == expected


@st.composite
def typed_rounds(draw):
    """A table, the pro flag, and a round typed as strings: each value 0 to the player max + 20.

    A per-round scale keeps some rounds small, so both accepted and refused rounds show up even
    at 10 players where uniformly drawn values almost always sum past the round maximum.
    """
    players = draw(st.integers(2, 10))
    pro = draw(st.booleans())
    most_for_player, _ = brute_force_bounds(players, pro)
    scale = draw(st.integers(0, most_for_player + 20))
    values = draw(st.lists(st.integers(0, scale), min_size=players, max_size=players))
    return players, pro, values


@given(typed_rounds())
def test_a_round_is_accepted_exactly_when_it_is_within_the_bounds(table):
    players, pro, values = table
    most_for_player, most_for_round = brute_force_bounds(players, pro)
    within = all(v <= most_for_player for v in values) and 1 <= sum(values) <= most_for_round

    try:
        accepted = check_round(values, names(players), pro=pro)
    except Refusal:
        assert not within, values
    else:
        assert within, values
        assert accepted == values


@given(st.integers(2, 10), st.booleans(), st.data())
def test_check_round_raises_nothing_but_invalid_round_for_any_numbers(players, pro, data):
    values = data.draw(st.lists(st.integers(-(10**6), 10**6), max_size=players + 2))

    try:
        accepted = check_round(values, names(players), pro=pro)
    except Refusal as refused:
        assert refused.fields or refused.whole
        assert set(refused.fields) <= set(range(players))
    else:
        assert accepted == values


@given(st.lists(st.text(max_size=40), max_size=14))
def test_seated_names_are_trimmed_distinct_and_between_2_and_10(typed):
    try:
        seated = seat_players(typed)
    except Refusal as refused:
        assert refused.fields or refused.whole
        return

    assert 2 <= len(seated) <= 10
    assert all(name == " ".join(name.split()) and 0 < len(name) <= 30 for name in seated)
    assert len({rules.name_key(name) for name in seated}) == len(seated)
    assert seated == [" ".join(t.split()) for t in typed if t.strip()]


# --- Names that hide text -------------------------------------------------------------------------

FORMAT_CHARACTERS = st.sampled_from(["\u200b", "\u200c", "\u200d", "\u2060", "\u202e", "\u2066"])


@given(st.text(st.characters(categories=["L", "N"]), min_size=1, max_size=10), st.data())
def test_a_name_key_ignores_invisible_format_characters(name, data):
    at = data.draw(st.integers(0, len(name)))
    hidden = name[:at] + data.draw(FORMAT_CHARACTERS) + name[at:]

    assert rules.name_key(hidden) == rules.name_key(name)


@pytest.mark.parametrize("name", ["\u200b", "\u0301", "\u3164", "\ufe0f\u2060"], ids=repr)
def test_a_name_of_invisible_characters_only_is_refused(name):
    with pytest.raises(rules.Refusal) as refused:
        rules.seat_players(["Alice", name])

    assert "invisibles" in str(refused.value.fields[1])


def test_a_name_with_a_joiner_inside_is_kept_as_typed():
    # Persian and Hindi names use joiners (U+200C, U+200D): kept as typed, compared without.
    assert rules.seat_players(["Alice", "می\u200cرود"]) == ["Alice", "می\u200cرود"]


@pytest.mark.parametrize(
    "name",
    ["\u202eaéL", "Bob\u202e", "\u202dBob", "\u2067علي\u2069", "Léa\u200f", "\u061cAli"],
    ids=repr,
)
def test_a_name_holding_a_direction_control_is_refused(name):
    # « \u202eaéL » is drawn « Léa »: beside a real Léa, two players looking alike.
    with pytest.raises(rules.Refusal) as refused:
        rules.seat_players(["Léa", name])

    assert set(refused.value.fields) == {1}
    assert "change le sens de l’écriture" in str(refused.value.fields[1])


def test_a_name_in_right_to_left_letters_sits_as_typed():
    assert rules.seat_players(["Alice", "علي", "שרה"]) == ["Alice", "علي", "שרה"]


@pytest.mark.parametrize(
    "first, again",
    [
        ("BOB", "ＢＯＢ"),  # fullwidth letters
        ("Fiona", "ﬁona"),  # the ligature ﬁ
        ("Straße", "STRASSE"),  # case as Unicode folds it
        ("Léa", "Le\u0301a"),  # é typed as e and an accent
        ("Zoé ♥", "zoé ♥\ufe0f"),  # a variation selector
        ("Bob", "B\u034fob"),  # the combining grapheme joiner
        ("Anne Marie", "Anne\u00a0Marie"),  # a no-break space
    ],
    ids=repr,
)
def test_names_that_read_alike_are_one_name(first, again):
    with pytest.raises(rules.Refusal) as refused:
        rules.seat_players([first, again])

    assert set(refused.value.fields) == {1}
    assert "déjà à la table" in str(refused.value.fields[1])


@pytest.mark.parametrize("title", ["\u202esmaY", "Yams\u2066", "\u3164", "Ya\x00ms"], ids=repr)
def test_a_free_games_name_that_cannot_be_shown_as_typed_is_refused_at_its_field(title):
    with pytest.raises(rules.Refusal) as refused:
        GameRules.of(rules.game_of("libre"), limit=100, title=title)

    assert set(refused.value.fields) == {"title"}
