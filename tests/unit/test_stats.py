"""Unit tests of app.services.statistics: per-player figures over finished games, grouping of names, sorting.

Expected figures are worked out by hand from the small games written in each test; a Hypothesis
property compares the whole computation with a plain model written here.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app import rules
from app.rules import GAMES, Best, EndRule, GameRules, Scoresheet
from app.rules.games.six_nimmt import SIX_NIMMT
from app.services.statistics import (
    DEFAULT_SORT,
    SORTS,
    PlayerStats,
    chosen_game,
    game_stats,
    player_stats,
    sorted_stats,
)


def sheet(players, *rounds, game_rules=GameRules.of(SIX_NIMMT), enders=()):
    return Scoresheet(tuple(players), tuple(tuple(r) for r in rounds), game_rules, enders)


SKYJO = GameRules.of(GAMES["skyjo"])
FLIP_7 = GameRules.of(GAMES["flip-7"])


def free(title, best=Best.LOWEST):
    return GameRules.of(
        GAMES["libre"], end=EndRule.ROUNDS, round_count=1, chosen_best=best, title=title
    )


def by_name(lines: list[PlayerStats]) -> dict[str, PlayerStats]:
    return {line.name: line for line in lines}


# Two finished games and one in progress, at the same table.
# Game 1: Alice 70 (crossed), Bruno 12 (wins), Chloé 30.
GAME_1 = sheet(["Alice", "Bruno", "Chloé"], [30, 12, 0], [40, 0, 30])
# Game 2: a shared win for Bruno and Chloé at 20; Alice goes to 68 and crosses.
GAME_2 = sheet(["Alice", "Bruno", "Chloé"], [8, 10, 20], [60, 10, 0])
# In progress: must not count at all.
IN_PROGRESS = sheet(["Alice", "Bruno", "Chloé"], [0, 50, 1])


def test_only_finished_games_count():
    assert not IN_PROGRESS.is_over

    lines = by_name(player_stats([GAME_1, IN_PROGRESS, GAME_2]))

    games = {name: line.games for name, line in lines.items()}
    assert games == {"Alice": 2, "Bruno": 2, "Chloé": 2}
    assert lines["Bruno"].points == 12 + 20  # the 50 of the game in progress is not there


def test_a_player_seen_only_in_unfinished_games_has_no_line():
    lines = player_stats([IN_PROGRESS, sheet(["Zoé", "Yann"], [3, 4])])

    assert lines == []


def test_a_shared_win_counts_as_a_win_for_each_winner():
    lines = by_name(player_stats([GAME_1, GAME_2]))

    assert {name: line.wins for name, line in lines.items()} == {"Alice": 0, "Bruno": 2, "Chloé": 1}


def test_crossings_count_the_games_a_player_ended_by_going_past_the_limit():
    both_cross = sheet(["Alice", "Bruno", "Chloé"], [40, 40, 1], [30, 30, 1])

    lines = by_name(player_stats([GAME_1, GAME_2, both_cross]))

    assert {name: line.crossings for name, line in lines.items()} == {
        "Alice": 3,
        "Bruno": 1,
        "Chloé": 0,
    }


def test_exactly_the_limit_is_not_a_crossing_when_the_rule_is_above():
    # Bruno sits at exactly 66 when Alice ends the game with 67.
    game = sheet(["Alice", "Bruno"], [33, 33], [34, 33])

    lines = by_name(player_stats([game]))

    assert (lines["Alice"].crossings, lines["Bruno"].crossings) == (1, 0)


def test_reaching_the_limit_is_a_crossing_under_66_or_more():
    game = sheet(
        ["Alice", "Bruno"],
        [60, 1],
        [6, 1],
        game_rules=GameRules.of(SIX_NIMMT, end=EndRule.AT_OR_ABOVE),
    )

    lines = by_name(player_stats([game]))

    assert lines["Alice"].crossings == 1


def test_a_game_of_a_fixed_number_of_rounds_has_no_crossing():
    game = sheet(
        ["Alice", "Bruno"],
        [70, 1],
        [70, 1],
        game_rules=GameRules.of(SIX_NIMMT, end=EndRule.ROUNDS, round_count=2),
    )

    lines = by_name(player_stats([game]))

    assert lines["Bruno"].wins == 1
    assert (lines["Alice"].crossings, lines["Bruno"].crossings) == (0, 0)


def test_names_are_grouped_ignoring_case_and_surrounding_spaces():
    games = [
        sheet(["alice", "Bruno"], [67, 1]),
        sheet(["  ALICE ", "bruno"], [1, 67]),
        sheet(["Alice", "BRUNO  "], [2, 67]),
    ]

    lines = player_stats(games)

    assert len(lines) == 2
    alice = next(line for line in lines if rules.name_key(line.name) == "alice")
    assert (alice.games, alice.wins, alice.points) == (3, 2, 70)


def test_accented_names_typed_two_ways_are_one_player():
    composed, decomposed = "Chlo\u00e9", "Chloe\u0301"  # « Chloé » from two keyboards
    games = [sheet([composed, "Bruno"], [67, 1]), sheet([decomposed, "Bruno"], [1, 67])]

    lines = player_stats(games)

    assert len(lines) == 2
    assert sorted(line.games for line in lines) == [2, 2]


def test_a_grouped_player_is_shown_under_the_latest_spelling():
    games = [sheet(["alice", "Bruno"], [67, 1]), sheet(["Alice", "Bruno"], [1, 67])]

    names = {line.name for line in player_stats(games)}

    assert names == {"Alice", "Bruno"}


def test_different_names_stay_apart():
    games = [sheet(["Ann", "Anna"], [67, 1])]

    assert len(player_stats(games)) == 2


# --- Each game apart ------------------------------------------------------------------------------


def test_each_game_is_counted_apart_the_most_played_first():
    games = game_stats(
        [
            sheet(["Alice", "Bruno"], [60, 40], [45, 2], game_rules=SKYJO, enders=(0, 1)),
            GAME_1,
            sheet(["Alice", "Bruno"], [10, 80], [5, 20], game_rules=SKYJO, enders=(0, 1)),
            sheet(["Alice", "Bruno"], [60, 20], game_rules=SKYJO, enders=(0,)),
            GAME_2,
            sheet(["Alice", "Bruno"], [0, 20], [0, 180], game_rules=FLIP_7),
            sheet(["Alice", "Bruno"], [0, 20], game_rules=FLIP_7),  # in progress
        ]
    )

    assert [(game.game_id, game.games) for game in games] == [
        ("skyjo", 3),
        ("6-qui-prend", 2),
        ("flip-7", 1),
    ]
    alice = {game.game_id: by_name(game.lines)["Alice"] for game in games}
    assert {game: line.wins for game, line in alice.items()} == {
        "6-qui-prend": 0,
        "skyjo": 1,  # 165 against 42; 15 against 120; 120 (doubled) against 20
        "flip-7": 0,
    }
    assert [game.best for game in games] == [Best.LOWEST, Best.LOWEST, Best.HIGHEST]
    assert chosen_game(games, "flip-7") is games[2]
    assert chosen_game(games, "inconnu") is chosen_game(games, None) is games[0]
    assert chosen_game([], None) is None


def test_skyjo_counts_the_points_as_doubled():
    # Round 2: Bruno ended it with 20, not strictly the lowest: 40 (Skyjo's rule, app/rules).
    game = sheet(["Alice", "Bruno"], [10, 80], [5, 20], game_rules=SKYJO, enders=(0, 1))

    (stats,) = game_stats([game])

    bruno = by_name(stats.lines)["Bruno"]
    assert (bruno.points, bruno.best_total, bruno.worst_round) == (120, 120, 80)


def test_where_the_highest_total_wins_the_best_figures_are_the_highest():
    games = [
        sheet(["Alice", "Bruno"], [0, 20], [90, 180], game_rules=FLIP_7),  # Bruno 200 wins
        sheet(["Alice", "Bruno"], [120, 30], [101, 0], game_rules=FLIP_7),  # Alice 221 wins
    ]

    (stats,) = game_stats(games)

    bruno = by_name(stats.lines)["Bruno"]
    assert stats.best is Best.HIGHEST
    assert (bruno.wins, bruno.crossings) == (1, 1)
    assert (bruno.best_total, bruno.worst_total, bruno.worst_round) == (200, 30, 0)
    assert (bruno.zero_rounds, bruno.points_per_round) == (1, 57.5)
    for key in ("moyenne", "meilleur", "manche-max"):
        assert sorted_stats(stats.lines, key, None, stats.best)[2] == "desc"  # the best first
    assert sorted_stats(stats.lines, "taux", None, stats.best)[2] == "desc"


def test_a_free_game_is_counted_by_its_name_whatever_its_case():
    games = game_stats(
        [
            sheet(["A", "B"], [10, 5], game_rules=free("Yams", Best.HIGHEST)),
            sheet(["A", "B"], [3, 5], game_rules=free("YAMS ", Best.HIGHEST)),
            sheet(["A", "B"], [3, 5], game_rules=free("Belote")),
        ]
    )

    assert [(game.game_id, game.games) for game in games] == [
        ("libre:yams:highest", 2),
        ("libre:belote:lowest", 1),
    ]
    assert games[0].rules.title == "YAMS "  # as last played
    assert {line.name: line.wins for line in games[0].lines} == {"A": 1, "B": 1}


def test_two_free_games_of_one_name_and_opposite_winner_rules_are_two_games():
    """QA: « Rami » won by the highest total, then « Rami » won by the lowest: one table, the
    winner's 80 read as her worst total."""
    games = game_stats(
        [
            sheet(["Anne", "Bruno"], [80, 10], game_rules=free("Rami", Best.HIGHEST)),
            sheet(["Anne", "Bruno"], [5, 30], game_rules=free("rami", Best.LOWEST)),
        ]
    )

    assert sorted((game.game_id, game.games) for game in games) == [
        ("libre:rami:highest", 1),
        ("libre:rami:lowest", 1),
    ]
    for game in games:
        assert {line.name: line.wins for line in game.lines} == {"Anne": 1, "Bruno": 0}
    anne = {game.game_id: by_name(game.lines)["Anne"] for game in games}
    assert anne["libre:rami:highest"].best_total == 80  # her best, where the highest wins
    assert anne["libre:rami:lowest"].best_total == 5


def test_on_a_tie_the_game_played_last_comes_first():
    games = game_stats([GAME_1, sheet(["A", "B"], [0, 20], [0, 180], game_rules=FLIP_7)])

    assert [game.game_id for game in games] == ["flip-7", "6-qui-prend"]


# --- Sorting --------------------------------------------------------------------------------------


def lines_for_sorting() -> list[PlayerStats]:
    return player_stats(
        [
            GAME_1,
            GAME_2,
            sheet(["Alice", "David"], [1, 67]),
            sheet(["David", "Emma"], [67, 1]),
        ]
    )


def names(lines: list[PlayerStats]) -> list[str]:
    return [line.name for line in lines]


def test_default_sort_is_most_wins_first():
    lines, key, order = sorted_stats(lines_for_sorting(), "", None)

    assert (key, order) == (DEFAULT_SORT, "desc") == ("victoires", "desc")
    wins = [line.wins for line in lines]
    assert wins == sorted(wins, reverse=True)
    assert names(lines)[0] == "Bruno"


@pytest.mark.parametrize("key", ["inconnu", "NOM", "__class__", "victoires;drop"])
def test_an_unknown_column_falls_back_to_the_default_sort(key):
    default = sorted_stats(lines_for_sorting(), DEFAULT_SORT, None)

    assert sorted_stats(lines_for_sorting(), key, None) == default


@pytest.mark.parametrize("order", [None, "", "up", "DESC", "asc "])
def test_an_unknown_order_falls_back_to_the_columns_natural_order(order):
    lines, _, used = sorted_stats(lines_for_sorting(), "nom", order)

    assert used == "asc"
    assert names(lines) == ["Alice", "Bruno", "Chloé", "David", "Emma"]


@pytest.mark.parametrize(
    "key, natural", [("taux", "desc"), ("moyenne", "asc")], ids=["best rate", "fewest heads"]
)
def test_a_column_without_an_order_sorts_the_best_first(key, natural):
    lines, _, order = sorted_stats(lines_for_sorting(), key, None)

    assert order == natural
    assert lines == sorted_stats(lines_for_sorting(), key, natural)[0]


def test_name_sort_ignores_case():
    stats = player_stats([sheet(["bob", "Alice", "carla"], [67, 1, 2])])

    lines, _, _ = sorted_stats(stats, "nom", "asc")

    assert names(lines) == ["Alice", "bob", "carla"]


def test_names_sort_as_people_read_accents_after_their_letter():
    stats = player_stats([sheet(["Zoé", "Éléonore", "eve", "Émile", "Bruno"], [67, 1, 2, 3, 4])])

    lines, _, _ = sorted_stats(stats, "nom", "asc")

    assert names(lines) == ["Bruno", "Éléonore", "Émile", "eve", "Zoé"]


@pytest.mark.parametrize("key", sorted(SORTS))
@pytest.mark.parametrize("order", ["asc", "desc"])
def test_every_column_sorts_both_ways(key, order):
    by, _ = SORTS[key]

    lines, used_key, used_order = sorted_stats(lines_for_sorting(), key, order)

    assert (used_key, used_order) == (key, order)
    values = [by(line) for line in lines]
    assert values == sorted(values, reverse=order == "desc")


def test_equal_values_are_listed_alphabetically_whatever_the_order():
    # Everybody has played exactly one game.
    stats = player_stats([sheet(["Chloé", "alice", "Bruno"], [67, 1, 2])])

    for order in ("asc", "desc"):
        lines, _, _ = sorted_stats(stats, "parties", order)
        assert names(lines) == ["alice", "Bruno", "Chloé"]


# --- Property: the same figures as a plain model ----------------------------------------------
# It checks every figure (wins, rates, averages, best and worst totals, heaviest round, rounds at
# zero), so the examples above keep only the cases worth reading: shared wins, crossings, names.

NAMES = ["Alice", "alice ", "Bruno", "BRUNO", "Chloé", "David"]


RULES = [
    GameRules.of(SIX_NIMMT),
    GameRules.of(SIX_NIMMT, end=EndRule.AT_OR_ABOVE),
    GameRules.of(SIX_NIMMT, limit=30),
    GameRules.of(SIX_NIMMT, end=EndRule.ROUNDS, round_count=3),
    SKYJO,
    FLIP_7,
    free("Yams", Best.HIGHEST),
    free("yams", Best.HIGHEST),
    GameRules.of(GAMES["libre"], limit=40, chosen_best=Best.LOWEST, title="Belote"),
]


# Scores drawn per game: enough to end a game in a few rounds, mostly rounds its rules take.
SCORES = {"6-qui-prend": (0, 20), "skyjo": (-5, 60), "flip-7": (0, 90), "libre": (-5, 60)}


@st.composite
def finished_or_not_games(draw) -> Scoresheet:
    """A game of any kind, its rounds within what its rules take (each game's own bounds are
    its tests': test_games.py), finished or not."""
    players = draw(
        st.lists(st.sampled_from(NAMES), min_size=2, max_size=4, unique_by=rules.name_key)
    )
    n = len(players)
    game_rules = draw(st.sampled_from(RULES))
    game = Scoresheet(tuple(players), (), game_rules)
    for _ in range(draw(st.integers(1, 6))):
        if game.is_over:
            break
        low, high = SCORES[game_rules.game.key]
        scores = [draw(st.integers(low, high)) for _ in range(n)]
        typed = rules.RoundScores(tuple(scores), draw(st.integers(0, n - 1)))
        try:
            checked = game_rules.game.check_round(typed, players)
        except rules.Refusal:
            continue
        game = game.with_round(checked)
    return game


@given(st.lists(finished_or_not_games(), max_size=6))
def test_figures_match_a_plain_model(games):
    model: dict[tuple[str, str], dict] = {}
    for game in games:
        if not game.is_over:
            continue
        points = game.points  # Skyjo's doubling: test_games.py
        totals = [sum(r[seat] for r in points) for seat in range(len(game.players))]
        better, worse = (min, max) if game.rules.best is Best.LOWEST else (max, min)
        best = better(totals)
        for seat, name in enumerate(game.players):
            row = model.setdefault(
                (game.rules.counted_as, name.strip().casefold()),
                {"games": 0, "wins": 0, "points": [], "totals": [], "crossings": 0},
            )
            row["games"] += 1
            row["wins"] += totals[seat] == best
            row["points"] += [r[seat] for r in points]
            row["totals"].append(totals[seat])
            row["better"], row["worse"] = better, worse
            limit, end = game.rules.limit, game.rules.end
            row["crossings"] += (end is EndRule.ABOVE and totals[seat] > limit) or (
                end is EndRule.AT_OR_ABOVE and totals[seat] >= limit
            )

    lines = {
        (stats.game_id, line.name.strip().casefold()): line
        for stats in game_stats(games)
        for line in stats.lines
    }

    assert lines.keys() == model.keys()
    for key, row in model.items():
        line = lines[key]
        better, worse = row["better"], row["worse"]
        assert (line.games, line.wins) == (row["games"], row["wins"])
        assert line.crossings == row["crossings"]
        assert line.win_rate == pytest.approx(row["wins"] / row["games"])
        assert line.points_per_round == pytest.approx(sum(row["points"]) / len(row["points"]))
        assert (line.best_total, line.worst_total) == (better(row["totals"]), worse(row["totals"]))
        assert line.worst_round == worse(row["points"])
        assert line.zero_rounds == row["points"].count(0)
