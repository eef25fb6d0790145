"""The scoreboard's lines: last round, rank (ties shared), the margin before the limit."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.rules import GAMES, EndRule, GameRules, Scoresheet, ranks
from app.rules.scoreboard import offline_warnings

NAMES = ("Alice", "Bruno", "Chloé")


def test_before_the_first_round_nobody_has_a_rank_or_a_last_round():
    lines = Scoresheet(NAMES).standings

    assert [(line.total, line.last, line.rank, line.leads) for line in lines] == [
        (0, None, None, False)
    ] * 3


def test_each_line_shows_the_total_and_the_last_rounds_heads():
    lines = Scoresheet(NAMES, ((5, 6, 7), (10, 0, 2))).standings

    assert [(line.name, line.total, line.last) for line in lines] == [
        ("Alice", 15, 10),
        ("Bruno", 6, 0),
        ("Chloé", 9, 2),
    ]


def test_ties_share_a_rank_and_the_next_rank_skips():
    assert ranks([10, 4, 4, 7]) == [4, 1, 1, 3]


@given(st.lists(st.integers(0, 200), min_size=2, max_size=10))
def test_a_rank_counts_the_players_strictly_ahead(totals):
    for total, rank in zip(totals, ranks(totals), strict=True):
        assert rank == 1 + len([t for t in totals if t < total])


def test_the_leaders_rank_first_and_lead():
    lines = Scoresheet(NAMES, ((5, 3, 3),)).standings

    assert [(line.rank, line.leads) for line in lines] == [(3, False), (1, True), (1, True)]


@pytest.mark.parametrize(
    "total, spare, warning",
    [
        (55, 11, None),
        (56, 10, "Marge avant la fin\u202f: 10"),
        (65, 1, "Marge avant la fin\u202f: 1"),
        (66, 0, "À la limite\u202f: la moindre tête finit la partie"),
        (67, -1, "A dépassé 66"),
    ],
)
def test_a_player_within_10_heads_of_66_is_warned_in_words(total, spare, warning):
    line = Scoresheet(("Alice", "Bruno"), ((total, 1),)).standings[0]

    assert (line.spare, warning and str(line.warning)) == (spare, warning)
    assert (line.warning is None) is (warning is None)


def test_once_the_game_is_over_only_who_ended_it_is_warned():
    lines = Scoresheet(NAMES, ((67, 60, 66),)).standings  # Bruno 6 and Chloé 0 from the limit

    assert [line.warning and str(line.warning) for line in lines] == ["A dépassé 66", None, None]


def test_with_66_or_more_the_last_safe_total_is_65():
    sheet = Scoresheet(("Alice", "Bruno"), ((65, 1),), GameRules(end=EndRule.AT_OR_ABOVE))

    assert sheet.standings[0].spare == 0
    assert str(sheet.standings[0].warning) == "À la limite\u202f: la moindre tête finit la partie"


def test_a_game_scored_in_points_warns_in_points():
    """The evening's report: Flip 7 at 199 said « la moindre tête finit la partie »."""
    flip_7 = GameRules.of(GAMES["flip-7"])
    sheet = Scoresheet(("Alice", "Bruno"), ((145, 1), (54, 1)), flip_7)

    said = "À la limite\u202f: le moindre point finit la partie"
    assert sheet.totals[0] == flip_7.last_allowed and str(sheet.standings[0].warning) == said
    assert said in map(str, offline_warnings(flip_7))  # the same words offline (tally.js)


def test_the_gauge_goes_to_the_limit_and_stops_there():
    sheet = Scoresheet(("Alice", "Bruno"), ((80, 30),), GameRules(limit=70))

    assert [(line.gauge, line.limit) for line in sheet.standings] == [(70, 70), (30, 70)]


def test_with_66_or_more_a_player_at_66_has_reached_it():
    sheet = Scoresheet(("Alice", "Bruno"), ((66, 1),), GameRules(end=EndRule.AT_OR_ABOVE))

    assert str(sheet.standings[0].warning) == "A atteint 66"


def test_a_game_of_a_number_of_rounds_has_no_gauge_and_no_warning():
    sheet = Scoresheet(("Alice", "Bruno"), ((90, 1),), GameRules(end=EndRule.ROUNDS, round_count=3))

    line = sheet.standings[0]
    assert (line.limit, line.gauge, line.spare, line.warning) == (None, None, None, None)
