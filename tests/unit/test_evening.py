"""Unit tests of app.rules.evening: the evening's ranking (« Classement de la soirée »).

Each game below is a free game of one round (lowest total wins) unless said otherwise, so that
its places read straight from its scores; the expected lines are worked out by hand.
"""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from app.rules import GAMES, Best, EndRule, GameRules, Scoresheet, name_key
from app.rules.evening import evening_ranking, first_seen_names
from app.rules.games.six_nimmt import SIX_NIMMT

ONE_ROUND = GameRules.of(GAMES["libre"], end=EndRule.ROUNDS, round_count=1, title="Dés")
TWO_ROUNDS = GameRules.of(GAMES["libre"], end=EndRule.ROUNDS, round_count=2, title="Dés")


def finished(scores: dict[str, int]) -> Scoresheet:
    return Scoresheet(tuple(scores), (tuple(scores.values()),), ONE_ROUND)


def in_progress(scores: dict[str, int]) -> Scoresheet:
    return Scoresheet(tuple(scores), (tuple(scores.values()),), TWO_ROUNDS)


def lines_of(sheets):
    return [(line.name, line.games, line.wins, line.rank) for line in evening_ranking(sheets)]


def test_most_wins_first():
    sheets = [finished({"Anna": 1, "Ben": 5}), finished({"Anna": 2, "Ben": 9})]
    assert lines_of(sheets) == [("Anna", 2, 2, 1), ("Ben", 2, 0, 2)]


def test_a_shared_win_counts_for_each_winner():
    sheets = [finished({"Anna": 3, "Ben": 3, "Chloé": 8})]
    assert lines_of(sheets) == [("Anna", 1, 1, 1), ("Ben", 1, 1, 1), ("Chloé", 1, 0, 3)]


def test_equal_wins_are_told_apart_by_the_mean_place():
    # Anna: 1st, 3rd → 2; Ben: 2nd, 1st → 1.5; Chloé: 3rd, 2nd → 2.5.
    sheets = [
        finished({"Anna": 1, "Ben": 2, "Chloé": 3}),
        finished({"Anna": 9, "Ben": 1, "Chloé": 5}),
    ]
    assert lines_of(sheets) == [("Ben", 2, 1, 1), ("Anna", 2, 1, 2), ("Chloé", 2, 0, 3)]
    assert [line.mean_place for line in evening_ranking(sheets)] == [
        Fraction(3, 2),
        Fraction(2),
        Fraction(5, 2),
    ]


def test_a_player_who_sat_out_a_game_is_neither_helped_nor_hurt_by_it():
    # Dora sat out the first game, Ben the second. Chloé: 2nd, 2nd (a tie) → 2; Dora: 2nd → 2
    # (a sum would put her ahead for the game she missed); Ben: 3rd → 3.
    sheets = [
        finished({"Anna": 1, "Chloé": 2, "Ben": 3}),
        finished({"Anna": 1, "Chloé": 5, "Dora": 5}),
    ]
    assert lines_of(sheets) == [
        ("Anna", 2, 2, 1),
        ("Chloé", 2, 0, 2),
        ("Dora", 1, 0, 2),
        ("Ben", 1, 0, 4),
    ]


def test_equal_wins_and_mean_share_a_rank_in_first_seen_order():
    sheets = [finished({"Anna": 1, "Ben": 2}), finished({"Anna": 2, "Ben": 1})]
    assert lines_of(sheets) == [("Anna", 2, 1, 1), ("Ben", 2, 1, 1)]


def test_a_game_in_progress_counts_as_played_with_no_win_nor_place():
    sheets = [finished({"Anna": 1, "Ben": 2}), in_progress({"Ben": 0, "Chloé": 9})]
    ranking = {line.name: line for line in evening_ranking(sheets)}
    assert (ranking["Ben"].games, ranking["Ben"].wins, ranking["Ben"].places) == (2, 0, (2,))
    # Chloé has no finished game: after everyone a finished game placed.
    assert (ranking["Chloé"].games, ranking["Chloé"].places, ranking["Chloé"].rank) == (1, (), 3)
    assert ranking["Chloé"].mean_place is None


def test_names_are_one_player_whatever_their_case_and_spaces():
    sheets = [finished({"Anna": 1, "Ben": 2}), finished({" anna ": 1, "BEN": 2})]
    assert lines_of(sheets) == [("Anna", 2, 2, 1), ("Ben", 2, 0, 2)]


def test_names_come_in_the_order_they_first_sat_down():
    sheets = [finished({"Ben": 1, "Anna": 2}), finished({"Chloé": 1, "anna": 2, "Dora": 3})]
    assert first_seen_names(sheets) == ("Ben", "Anna", "Chloé", "Dora")


def test_each_game_counts_its_own_winner_rule():
    # 6 qui prend: Anna passes 66 and Ben wins; a free game where the highest wins: Anna wins.
    six = Scoresheet(("Anna", "Ben"), ((70, 3),), GameRules.of(SIX_NIMMT))
    highest = GameRules.of(
        GAMES["libre"], end=EndRule.ROUNDS, round_count=1, chosen_best=Best.HIGHEST, title="Quiz"
    )
    quiz = Scoresheet(("Anna", "Ben"), ((12, 4),), highest)
    assert lines_of([six, quiz]) == [("Anna", 2, 1, 1), ("Ben", 2, 1, 1)]


NAMES = st.sampled_from(["Anna", "anna ", "Ben", "Chloé", "Dora", "Émile"])


@st.composite
def evenings(draw):
    """An evening of games, each a few of the names (no two alike) with one round, finished or
    not."""
    sheets = []
    for _ in range(draw(st.integers(1, 5))):
        names = draw(st.lists(NAMES, min_size=2, max_size=5, unique_by=name_key))
        scores = draw(st.lists(st.integers(0, 20), min_size=len(names), max_size=len(names)))
        made = finished if draw(st.booleans()) else in_progress
        sheets.append(made(dict(zip(names, scores, strict=True))))
    return sheets


@given(evenings())
def test_every_seat_is_a_game_played_and_every_winner_a_win(sheets):
    ranking = evening_ranking(sheets)
    assert sum(line.games for line in ranking) == sum(len(sheet.players) for sheet in sheets)
    assert sum(line.wins for line in ranking) == sum(len(sheet.winners) for sheet in sheets)
    assert len({name_key(line.name) for line in ranking}) == len(ranking)


@given(evenings())
def test_more_wins_never_rank_lower_and_ranks_go_up_in_order(sheets):
    ranking = evening_ranking(sheets)
    assert [line.rank for line in ranking] == sorted(line.rank for line in ranking)
    assert ranking[0].rank == 1
    for better, worse in zip(ranking, ranking[1:]):
        assert better.wins >= worse.wins


@given(evenings(), st.randoms())
def test_the_order_of_the_games_does_not_change_the_ranking(sheets, random):
    shuffled = list(sheets)
    random.shuffle(shuffled)

    def by_key(ranking):
        return {name_key(line.name): (line.games, line.wins, line.rank) for line in ranking}

    assert by_key(evening_ranking(shuffled)) == by_key(evening_ranking(sheets))
