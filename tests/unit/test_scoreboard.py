"""The scoreboard's lines: last round, rank (ties shared), the margin before the limit."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.rules import GAMES, Best, EndRule, GameRules, Scoresheet, placings
from app.rules.games.six_nimmt import SIX_NIMMT
from app.rules.scoreboard import offline_warnings
from app.rules.scoring import ranks

NAMES = ("Alice", "Bruno", "Chloé")


def test_before_the_first_round_nobody_has_a_rank_or_a_last_round():
    lines = Scoresheet(NAMES, (), GameRules.of(SIX_NIMMT)).standings

    assert [(line.total, line.last, line.rank, line.leads) for line in lines] == [
        (0, None, None, False)
    ] * 3


def test_each_line_shows_the_total_and_the_last_rounds_heads():
    lines = Scoresheet(NAMES, ((5, 6, 7), (10, 0, 2)), GameRules.of(SIX_NIMMT)).standings

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
    lines = Scoresheet(NAMES, ((5, 3, 3),), GameRules.of(SIX_NIMMT)).standings

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
    line = Scoresheet(("Alice", "Bruno"), ((total, 1),), GameRules.of(SIX_NIMMT)).standings[0]

    assert (line.spare, warning and str(line.warning)) == (spare, warning)
    assert (line.warning is None) is (warning is None)


def test_once_the_game_is_over_only_who_ended_it_is_warned():
    lines = Scoresheet(
        NAMES, ((67, 60, 66),), GameRules.of(SIX_NIMMT)
    ).standings  # Bruno 6 and Chloé 0 from the limit

    assert [line.warning and str(line.warning) for line in lines] == ["A dépassé 66", None, None]


def test_with_66_or_more_the_last_safe_total_is_65():
    sheet = Scoresheet(
        ("Alice", "Bruno"), ((65, 1),), GameRules.of(SIX_NIMMT, end=EndRule.AT_OR_ABOVE)
    )

    assert sheet.standings[0].spare == 0
    assert str(sheet.standings[0].warning) == "À la limite\u202f: la moindre tête finit la partie"


def test_a_game_scored_in_points_warns_in_points():
    """The evening's report: a game in points at its limit said « la moindre tête »."""
    skyjo = GameRules.of(GAMES["skyjo"])
    sheet = Scoresheet(("Alice", "Bruno"), ((99, 1),), skyjo)

    said = "À la limite\u202f: le moindre point finit la partie"
    assert sheet.totals[0] == skyjo.last_allowed and str(sheet.standings[0].warning) == said
    assert said in map(str, offline_warnings(skyjo))  # the same words offline (tally.js)


@pytest.mark.parametrize(
    "game_rules, margin",
    [
        (GameRules.of(SIX_NIMMT), 10),
        (GameRules.of(SIX_NIMMT, limit=200), 10),  # 6 qui prend's heads, whatever the limit
        (GameRules.of(GAMES["skyjo"]), 25),
        (GameRules.of(GAMES["flip-7"]), 30),
        (GameRules.of(GAMES["libre"], limit=300), 30),  # a tenth of the table's limit
        (GameRules.of(GAMES["libre"], limit=5), 1),
        (GameRules.of(GAMES["libre"], limit=5000), 50),  # the page carries one word a margin
    ],
)
def test_the_margin_that_warns_is_the_game_s_own(game_rules, margin):
    assert game_rules.margin == margin
    assert len(offline_warnings(game_rules)) == margin + 2  # from -1 to the margin


@pytest.mark.parametrize("key, margin", [("skyjo", 25), ("flip-7", 30)])
def test_a_player_just_within_the_game_s_margin_has_words_and_just_past_it_none(key, margin):
    game_rules = GameRules.of(GAMES[key])
    assert game_rules.last_allowed is not None
    total = game_rules.last_allowed - margin
    near = Scoresheet(("Alice", "Bruno"), ((total, 0),), game_rules).standings[0]
    far = Scoresheet(("Alice", "Bruno"), ((total - 1, 0),), game_rules).standings[0]

    assert near.warning is not None and far.warning is None


@pytest.mark.parametrize(
    "total, said",
    [
        (170, "À 30 points de la victoire"),
        (195, "À 5 points de la victoire"),
        (199, "À 1 point de la victoire"),
    ],
)
def test_a_flip_7_player_near_200_is_told_how_far_victory_is_not_warned(total, said):
    """Issue 43: Flip 7 at 195 read « Marge avant la fin : 4 » in red, for who was about to win."""
    sheet = Scoresheet(("Alice", "Bruno"), ((total, 0),), GameRules.of(GAMES["flip-7"]))

    line = sheet.standings[0]
    assert (str(line.warning), line.danger) == (said, False)


def test_a_free_game_won_by_the_highest_total_speaks_of_victory_too():
    game_rules = GameRules.of(GAMES["libre"], limit=100, chosen_best=Best.HIGHEST)
    line = Scoresheet(("Alice", "Bruno"), ((97, 0),), game_rules).standings[0]

    assert (str(line.warning), line.danger) == ("À 3 points de la victoire", False)


def test_a_game_won_by_the_lowest_total_still_warns_of_danger():
    line = Scoresheet(("Alice", "Bruno"), ((60, 0),), GameRules.of(SIX_NIMMT)).standings[0]

    assert line.danger and str(line.warning) == "Marge avant la fin\u202f: 6"


def test_who_reached_the_end_of_a_game_won_by_the_highest_is_not_noted_as_crossing():
    """No « A atteint 200 » in red on the winner's line of the result and its image."""
    sheet = Scoresheet(("Alice", "Bruno"), ((171, 20), (29, 20)), GameRules.of(GAMES["flip-7"]))

    assert sheet.is_over and [line.note for line in placings(sheet)] == [None, None]
    assert [line.warning for line in sheet.standings] == [None, None]


def test_who_passed_the_end_of_a_game_won_by_the_lowest_is_still_noted():
    sheet = Scoresheet(("Alice", "Bruno"), ((70, 20),), GameRules.of(SIX_NIMMT))

    assert [line.note and str(line.note) for line in placings(sheet)] == [None, "A dépassé 66"]


@given(
    st.sampled_from(
        [
            GameRules.of(GAMES["flip-7"]),
            GameRules.of(GAMES["libre"], limit=150, chosen_best=Best.HIGHEST),
            GameRules.of(GAMES["libre"], limit=20, chosen_best=Best.HIGHEST),
        ]
    ),
    st.lists(st.integers(0, 400), min_size=2, max_size=10),
)
def test_where_the_highest_wins_no_row_warns_of_danger_and_words_say_the_way_to_victory(
    game_rules, totals
):
    players = tuple(f"P{seat}" for seat in range(len(totals)))
    sheet = Scoresheet(players, (tuple(totals),), game_rules)

    for line in sheet.standings:
        assert not line.danger
        if line.warning is not None:
            assert line.warning.values["num"] == game_rules.limit - line.total
            assert "victoire" in str(line.warning)
    assert None in offline_warnings(game_rules)[:1]  # past the end: the status speaks


def test_the_gauge_goes_to_the_limit_and_stops_there():
    sheet = Scoresheet(("Alice", "Bruno"), ((80, 30),), GameRules.of(SIX_NIMMT, limit=70))

    assert [(line.gauge, line.limit) for line in sheet.standings] == [(70, 70), (30, 70)]


def test_with_66_or_more_a_player_at_66_has_reached_it():
    sheet = Scoresheet(
        ("Alice", "Bruno"), ((66, 1),), GameRules.of(SIX_NIMMT, end=EndRule.AT_OR_ABOVE)
    )

    assert str(sheet.standings[0].warning) == "A atteint 66"


def test_a_game_of_a_number_of_rounds_has_no_gauge_and_no_warning():
    sheet = Scoresheet(
        ("Alice", "Bruno"), ((90, 1),), GameRules.of(SIX_NIMMT, end=EndRule.ROUNDS, round_count=3)
    )

    line = sheet.standings[0]
    assert (line.limit, line.gauge, line.spare, line.warning) == (None, None, None, None)
