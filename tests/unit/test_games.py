"""Skyjo, Flip 7 and the free game: each game's own rules, pure (issue 32, point 8)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app import rules
from app.rules.games import GAMES
from app.rules.games.flip7 import FLIP7, reachable_scores
from app.rules.games.free import FREE_GAME
from app.rules.games.six_nimmt import SIX_NIMMT
from app.rules.games.skyjo import SKYJO

TRIO = ("Alice", "Bruno", "Chloé")
ROOT = Path(__file__).resolve().parents[2]


def skyjo_sheet(*rounds: tuple[tuple[int, ...], int]) -> rules.Scoresheet:
    sheet = rules.Scoresheet(TRIO, (), rules.GameRules.of(SKYJO))
    for scores, ender in rounds:
        sheet = sheet.with_round(sheet.check_round(rules.RoundScores(scores, ender)))
    return sheet


@pytest.mark.parametrize("score", [-17, 0, 140])
def test_skyjo_takes_every_score_a_hand_can_make(score):
    assert SKYJO.check_round(rules.RoundScores((score, 5, 5), 1), TRIO).scores == (score, 5, 5)


@pytest.mark.parametrize("score", [-18, 141])
def test_skyjo_refuses_a_score_no_hand_makes(score):
    with pytest.raises(rules.Refusal) as refused:
        SKYJO.check_round(rules.RoundScores((score, 5, 5), 1), TRIO)
    assert list(refused.value.fields) == [0]
    assert "de -17 à 140" in str(refused.value)


def test_a_skyjo_round_must_say_who_ended_it():
    with pytest.raises(rules.Refusal) as refused:
        SKYJO.check_round(rules.RoundScores((3, 5, 5)), TRIO)
    assert "qui a fini la manche" in str(refused.value.whole[0])


@pytest.mark.parametrize(
    ("scores", "ender", "points"),
    [
        ((10, 5, 20), 0, (20, 5, 20)),  # positive, not the lowest: doubled
        ((5, 5, 20), 0, (10, 5, 20)),  # a tie for the lowest doubles
        ((4, 5, 20), 0, (4, 5, 20)),  # strictly the lowest: kept
        ((0, 5, 20), 0, (0, 5, 20)),  # 0 never doubles
        ((-3, -5, 20), 0, (-3, -5, 20)),  # a negative score is never doubled
    ],
)
def test_skyjo_doubles_the_ender_only_when_the_rule_book_says(scores, ender, points):
    assert SKYJO.points(rules.RoundScores(scores, ender)) == points


def test_skyjo_ends_when_a_total_reaches_100_and_the_lowest_wins():
    sheet = skyjo_sheet(((50, 10, 30), 1), ((49, 10, 30), 1))
    assert not sheet.is_over  # 99
    sheet = skyjo_sheet(((50, 10, 30), 1), ((50, 10, 30), 1))
    assert sheet.is_over and sheet.winners == {1}
    assert sheet.totals == [100, 20, 60]  # Bruno ended both rounds but was strictly lowest


def test_the_sheet_marks_the_doubled_score_and_an_edit_keeps_who_ended_the_round():
    sheet = skyjo_sheet(((10, 5, 20), 0), ((3, 5, 20), 2))
    assert sheet.doubled == (0, 2)
    assert sheet.totals == [23, 10, 60]
    edited = sheet.with_round_replaced(2, rules.RoundScores((3, 5, 2), 2))
    assert edited.doubled == (0, None) and edited.totals == [23, 10, 22]


def test_flip_7_scores_0_to_171_except_the_even_scores_past_144():
    assert min(reachable_scores()) == 0 and max(reachable_scores()) == 171
    assert set(range(172)) - reachable_scores() == set(range(146, 171, 2))


@pytest.mark.parametrize("score", [146, 170, 172, -1])
def test_flip_7_refuses_what_no_hand_makes_and_says_what_is_allowed(score):
    with pytest.raises(rules.Refusal) as refused:
        FLIP7.check_round(rules.RoundScores((score, 10, 10)), TRIO)
    assert "146, 148 … 170" in str(refused.value.fields[0])


def test_a_correction_of_a_game_in_points_speaks_of_points():
    """The host's report: « Avec ces têtes… » on a Flip 7 round's correction."""
    sheet = rules.Scoresheet(TRIO, ((20, 90, 50), (29, 1, 0), (1, 1, 1)), rules.GameRules.of(FLIP7))

    with pytest.raises(rules.Refusal) as refused:
        sheet.with_round_replaced(
            1, rules.RoundScores((171, 90, 50))
        )  # 200 after round 2, before round 3

    assert "Avec ces points, la partie se serait terminée après la manche 2" in str(
        refused.value.whole[0]
    )


def test_flip_7_ends_at_200_and_the_highest_total_wins_and_leads():
    sheet = rules.Scoresheet(TRIO, ((171, 90, 50), (29, 171, 0)), rules.GameRules.of(FLIP7))
    assert sheet.is_over and sheet.winners == {1}
    early = rules.Scoresheet(TRIO, ((171, 90, 50),), rules.GameRules.of(FLIP7))
    assert early.leaders == {0} and not early.is_over
    assert [line.rank for line in early.standings] == [1, 2, 3]


def test_a_free_game_takes_negative_scores_and_the_highest_can_win():
    game_rules = rules.GameRules.of(
        FREE_GAME, limit=50, chosen_best=rules.Best.HIGHEST, title="Tarot"
    )
    sheet = rules.Scoresheet(TRIO, (), game_rules).with_round(rules.RoundScores((-20, 50, 10)))
    assert sheet.is_over and sheet.winners == {1}
    assert game_rules.title == "Tarot"


def test_a_free_game_ends_after_its_rounds_with_ties_sharing_the_win():
    game_rules = rules.GameRules.of(FREE_GAME, end=rules.EndRule.ROUNDS, round_count=2)
    sheet = rules.Scoresheet(TRIO, ((1, 2, 3), (2, 1, 9)), game_rules)
    assert sheet.is_over and sheet.winners == {0, 1}


def test_pro_and_66_belong_to_6_qui_prend():
    with pytest.raises(rules.Refusal):
        rules.GameRules.of(SKYJO, variants={"pro"})
    with pytest.raises(rules.Refusal):
        rules.GameRules.of(SKYJO, end=rules.EndRule.ABOVE)


def test_the_rule_in_force_says_the_pro_deck_whatever_the_end():
    for game_rules in (
        rules.GameRules.of(SIX_NIMMT, variants={"pro"}),
        rules.GameRules.of(SIX_NIMMT, end=rules.EndRule.ROUNDS, round_count=2, variants={"pro"}),
    ):
        assert "Variante pro" in str(rules.rule_sentence(game_rules))


def test_the_rule_in_force_says_a_tie_plays_on_where_the_game_says_so_whatever_the_end():
    tie = "une manche de plus départage"
    for game_rules in (
        rules.GameRules.of(FLIP7),
        rules.GameRules.of(FLIP7, end=rules.EndRule.ROUNDS, round_count=5),
    ):
        assert tie in str(rules.rule_sentence(game_rules))
    assert tie not in str(rules.rule_sentence(rules.GameRules.of(SKYJO)))


@pytest.mark.parametrize("game", rules.GAMES.values(), ids=rules.GAMES.keys())
def test_a_sheet_takes_the_scores_as_points_only_where_the_game_says_so(game):
    low, high = game.score_range
    rounds = [((low, high, 0), 0), ((high, low, 1), 1), ((5, 5, 5), 2)]
    changed = any(game.points(rules.RoundScores(s, e)) != s for s, e in rounds)

    assert game.scores_are_points is not changed


def test_flip_7_s_best_hand_without_the_x2_makes_108():
    """Seven numbers 6 to 12 (63), +2 … +10 (30), the Flip 7's 15: the deck's one ×2 alone goes
    past it."""
    assert FLIP7.most_without_double == 63 + 30 + 15


def test_flip_7_refuses_two_players_above_108_in_one_round_and_names_them():
    with pytest.raises(rules.Refusal) as refused:
        FLIP7.check_round(rules.RoundScores((109, 40, 171)), TRIO)

    said = str(refused.value.whole[0])
    assert "Une seule carte ×2" in said and "Alice" in said and "Chloé" in said
    assert "Bruno" not in said and "108" in said
    assert not refused.value.fields  # neither score is wrong alone


def test_flip_7_takes_one_player_above_108_and_two_at_108():
    assert FLIP7.check_round(rules.RoundScores((171, 108, 108)), TRIO).scores == (171, 108, 108)


@settings(max_examples=200)
@given(st.lists(st.sampled_from(sorted(reachable_scores())), min_size=2, max_size=10))
def test_a_flip_7_round_of_hands_is_refused_exactly_when_two_go_past_108(scores):
    players = tuple(f"P{seat}" for seat in range(len(scores)))
    doubled = sum(score > 108 for score in scores)
    try:
        FLIP7.check_round(rules.RoundScores(tuple(scores)), players)
    except rules.Refusal:
        assert doubled > 1
    else:
        assert doubled <= 1


def flip_7_sheet(*rounds: tuple[int, ...]) -> rules.Scoresheet:
    return rules.Scoresheet(TRIO, rounds, rules.GameRules.of(FLIP7))


def test_a_flip_7_tie_for_the_highest_total_at_the_end_plays_another_round():
    sheet = flip_7_sheet((106, 106, 20), (106, 106, 0))  # 212, 212, 20

    assert not sheet.is_over and sheet.winners == frozenset()
    assert str(rules.play_on(sheet)) == (
        "Égalité à 212\u202f: une manche de plus, entre Alice, Bruno."
    )
    assert rules.result_of(sheet) is None
    assert [line.warning for line in sheet.standings] == [None] * 3  # no margin, no alarm


def test_the_round_after_a_flip_7_tie_ends_the_game_when_one_is_ahead():
    sheet = flip_7_sheet((106, 106, 20), (106, 106, 0), (5, 0, 0))

    assert sheet.is_over and sheet.winners == {0} and rules.play_on(sheet) is None


def test_a_flip_7_tie_below_the_best_total_does_not_play_on():
    sheet = flip_7_sheet((104, 90, 90), (108, 110, 110))  # 212, 200, 200

    assert sheet.is_over and sheet.winners == {0}


def test_a_flip_7_tie_after_its_number_of_rounds_plays_on_too():
    game_rules = rules.GameRules.of(FLIP7, end=rules.EndRule.ROUNDS, round_count=1)
    sheet = rules.Scoresheet(TRIO, ((40, 40, 3),), game_rules)

    assert not sheet.is_over and "une manche de plus" in str(rules.play_on(sheet))
    assert sheet.with_round(rules.RoundScores((1, 0, 0))).is_over


def test_a_skyjo_tie_still_shares_the_win():
    sheet = rules.Scoresheet(TRIO, ((50, 50, 100),), rules.GameRules.of(SKYJO))

    assert sheet.is_over and sheet.winners == {0, 1} and rules.play_on(sheet) is None


def test_a_free_game_won_by_the_highest_total_shares_a_tie_at_the_end():
    game_rules = rules.GameRules.of(FREE_GAME, limit=50, chosen_best=rules.Best.HIGHEST)
    sheet = rules.Scoresheet(TRIO, ((60, 60, 10),), game_rules)

    assert sheet.is_over and sheet.winners == {0, 1} and rules.play_on(sheet) is None


@settings(max_examples=200)
@given(
    st.lists(
        st.lists(st.sampled_from(sorted(reachable_scores())), min_size=3, max_size=3),
        max_size=8,
    )
)
def test_a_finished_flip_7_game_has_one_winner(rounds):
    sheet = flip_7_sheet(*map(tuple, rounds))

    if sheet.is_over:
        assert len(sheet.winners) == 1
    assert (rules.play_on(sheet) is not None) == (
        not sheet.is_over and sheet.rules.reaches_end(sheet.totals, len(sheet.rounds))
    )


def test_only_the_tied_players_score_in_the_round_that_breaks_a_flip_7_tie():
    sheet = flip_7_sheet((106, 106, 20), (106, 106, 0))

    with pytest.raises(rules.Refusal) as refused:
        sheet.check_round(rules.RoundScores((5, 0, 12)))

    assert list(refused.value.fields) == [2]
    assert "départage Alice, Bruno" in str(refused.value.fields[2])
    assert sheet.check_round(rules.RoundScores((5, 0, 0))).scores == (5, 0, 0)


def test_a_skyjo_game_played_from_its_rounds_counts_the_doubled_score():
    # Alice ended round 1 without the lowest score: her 50 counts 100, and the game is over.
    rounds = [rules.RoundScores((50, 10, 5), 0), rules.RoundScores((1, 1, 1), 1)]

    ended = rules.Scoresheet.played(TRIO, rules.GameRules.of(SKYJO), rounds[:1])
    with pytest.raises(rules.WrongRound) as wrong:
        rules.Scoresheet.played(TRIO, rules.GameRules.of(SKYJO), rounds)

    assert ended.totals == [100, 10, 5] and ended.enders == (0,)
    assert wrong.value.number == 2


# static/tally.js's named points rules: `"name": (scores, ender) => …` in its POINTS table.
TALLY_RULES = re.compile(r'^  "([a-z-]+)": \(scores, ender\) =>', re.MULTILINE)


@pytest.mark.parametrize("game", rules.GAMES.values(), ids=rules.GAMES.keys())
def test_a_game_whose_points_are_not_its_scores_names_a_rule_the_page_script_holds(game):
    named = TALLY_RULES.findall((ROOT / "static" / "tally.js").read_text(encoding="utf-8"))
    assert named  # the pattern still reads the table
    if game.scores_are_points:
        assert game.offline_points is None
    else:
        assert game.offline_points in named


def _field_refused(
    game: rules.RoundGame, score: int, players: int, variants: frozenset[str]
) -> bool:
    seats = tuple(f"P{seat}" for seat in range(players))
    typed = rules.RoundScores((score, *[0] * (players - 1)), 0 if game.round_ender else None)
    try:
        game.check_round(typed, seats, variants)
    except rules.Refusal as refusal:
        return 0 in refusal.fields
    return False


@pytest.mark.parametrize("game", GAMES.values(), ids=GAMES.keys())
@pytest.mark.parametrize("with_variants", [False, True])
def test_the_range_the_page_checks_is_the_one_each_game_refuses_beyond(game, with_variants):
    """static/waiting.js refuses a score out of player_range before it draws a round: never one
    the game takes, and the game refuses each one beyond (with its variants, too: the pro deck)."""
    variants = frozenset(variant.key for variant in game.variants) if with_variants else frozenset()
    for players in range(game.min_players, min(game.max_players, 10) + 1):
        low, high = game.player_range(players, variants)
        assert not _field_refused(game, low, players, variants)
        assert not _field_refused(game, high, players, variants)
        assert _field_refused(game, low - 1, players, variants)
        assert _field_refused(game, high + 1, players, variants)
