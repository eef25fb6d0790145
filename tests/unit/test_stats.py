"""Unit tests of app.services.statistics: per-player figures over finished games, grouping of names, sorting.

Expected figures are worked out by hand from the small games written in each test; a Hypothesis
property compares the whole computation with a plain model written here.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app import rules
from app.rules import EndRule, GameRules, Scoresheet
from app.services.statistics import DEFAULT_SORT, SORTS, PlayerStats, player_stats, sorted_stats


def sheet(players, *rounds, game_rules=GameRules()):
    return Scoresheet(tuple(players), tuple(tuple(r) for r in rounds), game_rules)


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
    assert lines["Bruno"].heads == 12 + 20  # the 50 of the game in progress is not there


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
    game = sheet(["Alice", "Bruno"], [60, 1], [6, 1], game_rules=GameRules(end=EndRule.AT_OR_ABOVE))

    lines = by_name(player_stats([game]))

    assert lines["Alice"].crossings == 1


def test_a_game_of_a_fixed_number_of_rounds_has_no_crossing():
    game = sheet(
        ["Alice", "Bruno"],
        [70, 1],
        [70, 1],
        game_rules=GameRules(end=EndRule.ROUNDS, round_count=2),
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
    assert (alice.games, alice.wins, alice.heads) == (3, 2, 70)


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


@st.composite
def finished_or_not_games(draw) -> Scoresheet:
    players = draw(
        st.lists(st.sampled_from(NAMES), min_size=2, max_size=4, unique_by=rules.name_key)
    )
    n = len(players)
    game_rules = draw(
        st.sampled_from(
            [
                GameRules(),
                GameRules(end=EndRule.AT_OR_ABOVE),
                GameRules(limit=30),
                GameRules(end=EndRule.ROUNDS, round_count=3),
            ]
        )
    )
    game = Scoresheet(tuple(players), (), game_rules)
    for _ in range(draw(st.integers(1, 6))):
        if game.is_over:
            break
        taker = draw(st.integers(0, n - 1))
        heads = [draw(st.integers(0, 20)) for _ in range(n)]
        heads[taker] += 1  # someone always takes something
        game = game.with_round(heads)
    return game


@given(st.lists(finished_or_not_games(), max_size=6))
def test_figures_match_a_plain_model(games):
    model: dict[str, dict] = {}
    for game in games:
        if not game.is_over:
            continue
        totals = [sum(r[seat] for r in game.rounds) for seat in range(len(game.players))]
        best = min(totals)
        for seat, name in enumerate(game.players):
            row = model.setdefault(
                name.strip().casefold(),
                {
                    "games": 0,
                    "wins": 0,
                    "heads": [],
                    "totals": [],
                    "crossings": 0,
                },
            )
            row["games"] += 1
            row["wins"] += totals[seat] == best
            row["heads"] += [r[seat] for r in game.rounds]
            row["totals"].append(totals[seat])
            limit, end = game.rules.limit, game.rules.end
            row["crossings"] += (end is EndRule.ABOVE and totals[seat] > limit) or (
                end is EndRule.AT_OR_ABOVE and totals[seat] >= limit
            )

    lines = {line.name.strip().casefold(): line for line in player_stats(games)}

    assert lines.keys() == model.keys()
    for key, row in model.items():
        line = lines[key]
        assert (line.games, line.wins) == (row["games"], row["wins"])
        assert line.crossings == row["crossings"]
        assert line.win_rate == pytest.approx(row["wins"] / row["games"])
        assert line.heads_per_round == pytest.approx(sum(row["heads"]) / len(row["heads"]))
        assert (line.best_total, line.worst_total) == (min(row["totals"]), max(row["totals"]))
        assert line.heaviest_round == max(row["heads"])
        assert line.zero_rounds == row["heads"].count(0)
