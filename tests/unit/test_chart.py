"""Unit tests of app.web.chart: the geometry of the score chart drawn from a scoresheet."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.rules import (
    GAMES,
    EndRule,
    GameRules,
    RoundScores,
    Scoresheet,
)
from app.rules.games.six_nimmt import SIX_NIMMT
from app.rules.games.six_nimmt.cards import max_heads_for_player, max_heads_for_round
from app.web.chart import WIDEST, score_chart

TEN = ("Alice", "Bruno", "Chloé", "David", "Emma", "Farid", "Gaëlle", "Hugo", "Inès", "Jules")


def sheet(players, *rounds, game_rules=GameRules.of(SIX_NIMMT)):
    return Scoresheet(tuple(players), tuple(tuple(r) for r in rounds), game_rules)


def scale(chart):
    """Return the function total → y read off the chart's own y axis (its first and last ticks)."""
    (y_low, low), (y_top, top) = chart.y_ticks[0], chart.y_ticks[-1]
    assert low <= 0 < top
    return lambda total: y_low + (y_top - y_low) * (total - low) / (top - low)


def test_no_chart_before_the_first_round():
    assert score_chart(sheet(["Alice", "Bruno"])) is None


def test_one_line_per_player_in_seat_order():
    chart = score_chart(sheet(["Chloé", "Alice", "Bruno"], [5, 6, 7]))

    assert [line.name for line in chart.lines] == ["Chloé", "Alice", "Bruno"]


def test_every_line_starts_at_zero_on_the_left_and_ends_on_the_right():
    chart = score_chart(sheet(["Alice", "Bruno"], [5, 6], [7, 8], [1, 0]))
    left, top, right, bottom = chart.plot
    y = scale(chart)

    for line in chart.lines:
        assert line.points[0] == (pytest.approx(left), pytest.approx(y(0)))
        assert line.points[-1][0] == pytest.approx(right)
    assert y(0) == pytest.approx(bottom)


def test_points_follow_the_running_totals():
    game = sheet(["Alice", "Bruno"], [5, 20], [30, 1], [0, 44])
    chart = score_chart(game)
    y = scale(chart)

    for seat, line in enumerate(chart.lines):
        expected = [0] + [running[seat] for running in game.running_totals]
        assert [py for _, py in line.points] == pytest.approx([y(total) for total in expected])
        xs = [px for px, _ in line.points]
        assert xs == sorted(xs) and len(set(xs)) == len(xs)


def test_totals_below_zero_are_drawn_on_the_axis_above_its_lowest_tick():
    from app.rules import game_of

    skyjo = GameRules.of(game_of("skyjo"))
    chart = score_chart(Scoresheet(("Alice", "Bruno"), ((-17, 12), (-10, 5)), skyjo, (0, 0)))

    assert chart.y_ticks[0][1] <= -27
    alice = chart.lines[0]
    assert alice.points[-1][1] == pytest.approx(scale(chart)(-27))
    assert all(y <= chart.y_ticks[0][0] for _, y in alice.points)  # never under the axis


def test_a_higher_total_is_drawn_higher():
    chart = score_chart(sheet(["Alice", "Bruno"], [40, 2]))

    alice, bruno = chart.lines
    assert alice.points[-1][1] < bruno.points[-1][1]  # SVG y grows downwards


def test_the_limit_line_is_where_a_total_equal_to_the_limit_is_drawn():
    # Bruno sits exactly at 66, which plays on under the default rule.
    game = sheet(["Alice", "Bruno"], [30, 33], [30, 33])
    chart = score_chart(game)

    assert chart.limit == 66
    assert chart.lines[1].points[-1][1] == pytest.approx(chart.limit_y)
    assert chart.limit_y == pytest.approx(scale(chart)(66))


@pytest.mark.parametrize(
    "game_rules, limit",
    [
        (
            GameRules.of(SIX_NIMMT, end=EndRule.AT_OR_ABOVE),
            66,
        ),  # the default rule's 66: the test above
        (GameRules.of(SIX_NIMMT, limit=100), 100),
        (GameRules.of(SIX_NIMMT, limit=10), 10),
        (GameRules.of(SIX_NIMMT, limit=500), 500),
    ],
)
def test_the_limit_line_follows_the_rule_in_force(game_rules, limit):
    chart = score_chart(sheet(["Alice", "Bruno"], [5, 3], game_rules=game_rules))
    left, top, right, bottom = chart.plot

    assert chart.limit == limit
    assert chart.limit_y == pytest.approx(scale(chart)(limit))
    assert top <= chart.limit_y < bottom


def test_a_game_of_a_fixed_number_of_rounds_has_no_limit_line():
    game = sheet(
        ["Alice", "Bruno"],
        [70, 1],
        game_rules=GameRules.of(SIX_NIMMT, end=EndRule.ROUNDS, round_count=3),
    )

    chart = score_chart(game)

    assert chart.limit is None and chart.limit_y is None
    assert "limite" not in chart.description


def test_totals_far_above_the_limit_stay_inside_the_plot():
    game = sheet(["Alice", "Bruno"], *[[79, 0]] * 5)  # Alice at 395
    chart = score_chart(game)
    left, top, right, bottom = chart.plot

    for line in chart.lines:
        for px, py in line.points:
            assert left <= px <= right and top <= py <= bottom
    assert chart.y_ticks[-1][1] >= 395


def test_ten_players_each_get_their_own_colour_and_their_own_marker():
    game = sheet(TEN, [1] * 10)

    chart = score_chart(game)

    assert len({line.colour for line in chart.lines}) == 10
    assert len({line.marker for line in chart.lines}) == 10


def _luminance(colour: str) -> float:
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def test_every_line_colour_contrasts_with_the_white_chart_at_least_3_to_1():
    chart = score_chart(sheet(TEN, [1] * 10))

    for line in chart.lines:
        assert re.fullmatch(r"#[0-9a-fA-F]{6}", line.colour), line.colour
        ratio = 1.05 / (_luminance(line.colour) + 0.05)  # WCAG 1.4.11 non-text contrast
        assert ratio >= 3, f"{line.name}: {line.colour} is {ratio:.2f}:1 on white"


def test_the_description_states_each_players_total_and_the_rounds():
    game = sheet(["Alice", "Bruno", "Chloé"], [5, 20, 1], [12, 0, 3])

    chart = score_chart(game)

    assert "Alice 17" in chart.description
    assert "Bruno 20" in chart.description
    assert "Chloé 4" in chart.description
    assert re.search(r"(?<!\d)2 manches", chart.description)
    assert "66" in chart.description


def test_the_path_visits_every_point_in_order():
    chart = score_chart(sheet(["Alice", "Bruno"], [5, 6], [7, 8]))

    for line in chart.lines:
        commands = re.findall(r"([ML])(-?[\d.]+),(-?[\d.]+)", line.path)
        assert [c for c, _, _ in commands] == ["M"] + ["L"] * (len(line.points) - 1)
        for (_, x, y), (px, py) in zip(commands, line.points, strict=True):
            assert float(x) == pytest.approx(px, abs=0.5)  # whole units, about a pixel
            assert float(y) == pytest.approx(py, abs=0.5)


def test_at_most_about_ten_round_labels_on_a_long_game():
    chart = score_chart(sheet(["Alice", "Bruno"], *[[1, 0]] * 45))

    numbers = [number for _, number in chart.x_ticks]
    assert numbers[0] == 0 and len(numbers) <= 11
    assert numbers == sorted(numbers)


@st.composite
def legal_games(draw) -> Scoresheet:
    """A game as the counter can hold it: legal rounds under some rule, none after the end."""
    n = draw(st.integers(2, 10))
    game_rules = draw(
        st.one_of(
            st.builds(
                GameRules.of,
                st.just(SIX_NIMMT),
                end=st.sampled_from([EndRule.ABOVE, EndRule.AT_OR_ABOVE]),
                limit=st.integers(10, 500),
            ),
            # Up to 25 rounds here; the longest, heaviest games have their own test below.
            st.builds(
                GameRules.of,
                st.just(SIX_NIMMT),
                end=st.just(EndRule.ROUNDS),
                round_count=st.integers(1, 25),
            ),
        )
    )
    game = sheet(TEN[:n], game_rules=game_rules)
    most_for_player, most_for_round = max_heads_for_player(n), max_heads_for_round(n)
    while not game.is_over and len(game.rounds) < 50:
        left = draw(st.integers(1, most_for_round))
        heads = []
        for _ in range(n):
            value = draw(st.integers(0, min(left, most_for_player)))
            heads.append(value)
            left -= value
        if sum(heads) == 0:
            heads[0] = 1
        game = game.with_round(RoundScores(tuple(heads)))
    return game


@given(legal_games())
def test_any_game_fits_in_the_drawing_with_readable_labels(game):
    chart = score_chart(game)

    left, top, right, bottom = chart.plot
    assert 0 <= left < right <= chart.width and 0 <= top < bottom <= chart.height
    assert len(chart.lines) == len(game.players)
    for line in chart.lines:  # a point per round plus the start
        assert len(line.points) == len(game.rounds) + 1
        assert all(left <= x <= right + 1e-9 and top - 1e-9 <= y <= bottom for x, y in line.points)
    if chart.limit_y is not None:
        assert top - 1e-9 <= chart.limit_y <= bottom
    # Axis labels are drawn 11 units high: closer ticks would print over one another.
    ys = [y for y, _ in chart.y_ticks]
    assert all(upper - lower >= 11 for upper, lower in zip(ys, ys[1:])), chart.y_ticks
    xs = [x for x, _ in chart.x_ticks]
    assert all(b - a >= 20 for a, b in zip(xs, xs[1:])), chart.x_ticks


def test_axis_labels_do_not_overlap_in_the_longest_heaviest_game():
    game = sheet(
        ["Alice", "Bruno"],
        *[[79, 0]] * 50,
        game_rules=GameRules.of(SIX_NIMMT, end=EndRule.ROUNDS, round_count=50),
    )

    chart = score_chart(game)

    ys = [y for y, _ in chart.y_ticks]
    assert all(upper - lower >= 11 for upper, lower in zip(ys, ys[1:])), chart.y_ticks


def test_ten_end_labels_never_overlap_and_stay_in_the_chart():
    chart = score_chart(sheet(TEN, [5] * 10, [1] * 10))  # ten lines ending at the same total

    ys = sorted(line.label_y for line in chart.lines)
    assert all(b - a >= 11 - 1e-9 for a, b in zip(ys, ys[1:]))
    assert ys[0] > 0 and ys[-1] <= chart.height


def test_an_end_label_names_the_player_whole_and_the_total_at_the_line_end():
    short = score_chart(sheet(["Alice", "Bob"], [40, 2]))
    chart = score_chart(sheet(["Alice", "Maximilien"], [40, 2]))

    alice, other = chart.lines
    assert alice.label_lines == ("\u2068Alice\u2069 40",)
    assert other.label_lines == ("\u2068Maximilien\u2069 2",)
    assert chart.width > short.width  # room for the long name beside the plot
    assert alice.label_y == pytest.approx(alice.points[-1][1] + 3.5)


def test_end_labels_pushed_apart_stay_in_the_chart_and_near_their_lines():
    """The evening's report (Flip 7): one line at the top, nine near the bottom; shifting every
    label up to make room below took the winner's label out of the chart."""
    flip_7 = GameRules.of(GAMES["flip-7"])
    chart = score_chart(
        sheet(
            TEN,
            [171, 20, 0, 45, 3, 4, 5, 6, 7, 8],
            [29, 88, 13, 60, 1, 2, 3, 4, 5, 6],
            game_rules=flip_7,
        )
    )

    _, top, _, bottom = chart.plot
    ys = sorted(line.label_y for line in chart.lines)
    assert all(b - a >= 11 - 1e-9 for a, b in zip(ys, ys[1:]))
    assert top + 6 <= ys[0] and ys[-1] <= bottom  # a 10-unit text's baseline: whole inside
    winner = chart.lines[0]
    assert winner.label_y - winner.points[-1][1] <= 11  # beside its line's end


@pytest.mark.parametrize(("game", "totals"), [("flip-7", [171, 20]), ("skyjo", [99, 3])])
def test_the_limits_label_stays_whole_in_the_chart_where_the_limit_is_its_top(game, totals):
    chart = score_chart(sheet(["Alice", "Bruno"], totals, game_rules=GameRules.of(GAMES[game])))

    assert chart.limit_y == chart.plot[1]  # the limit is the axis' top
    assert chart.limit_label_y - 9 >= 0  # its letters (font 11) below the SVG's edge


def label_text(line) -> str:
    """The label's letters, its lines put end to end (isolating marks and spaces aside)."""
    return "".join(line.label_lines).translate({0x2068: None, 0x2069: None, 0x20: None})


def test_a_long_name_goes_on_more_lines_where_the_chart_would_grow_wider_than_ten_short_names():
    """The screens' report: « Marie-Charlotte de Montmorency 9 » made the chart's text 5 px on a
    phone, the SVG scaled down to its longest label."""
    chart = score_chart(sheet(["Marie-Charlotte de Montmorency", "Bruno"], [9, 3], [0, 1]))

    marie, bruno = chart.lines
    assert marie.label_lines == ("\u2068Marie-Charlotte de\u2069", "\u2068Montmorency\u2069 9")
    assert bruno.label_lines == ("\u2068Bruno\u2069 4",)
    assert chart.width <= WIDEST  # its text as large as ten short names'
    upper, lower = sorted((marie, bruno), key=lambda line: line.label_y)
    assert lower.label_y - upper.label_y >= 11 * len(upper.label_lines) + 3 - 1e-9  # apart


def test_a_name_of_one_long_word_goes_on_after_a_hyphen_else_within_the_word():
    chart = score_chart(
        sheet(["Wolfeschlegelsteinhausenberger", "Jean-Christophe-Maximilien", "Bo"], [5, 6, 7])
    )

    one_word, hyphens, _ = chart.lines
    assert len(one_word.label_lines) == 2
    assert label_text(one_word) == "Wolfeschlegelsteinhausenberger5"
    assert hyphens.label_lines[0].endswith("-\u2069")  # cut after a hyphen
    assert label_text(hyphens) == "Jean-Christophe-Maximilien6"
    assert chart.width <= WIDEST


def test_ten_players_with_long_names_make_the_chart_taller_not_its_text_smaller():
    """Ten players and a thirty-letter name: the labels were drawn 6.7 px high on a phone."""
    names = [f"Joueuse numéro {n} de la table" for n in range(9)]
    names.append("Marie-Charlotte de Montmorency")
    short = score_chart(sheet(TEN, list(range(10))))

    chart = score_chart(sheet(names, list(range(10))))

    assert all(len(line.label_lines) == 2 for line in chart.lines)
    assert chart.width <= WIDEST and chart.height > short.height
    assert_labels_apart_inside_the_plot(chart)


def assert_labels_apart_inside_the_plot(chart):
    _, top, _, bottom = chart.plot
    placed = sorted(chart.lines, key=lambda line: line.label_y)
    for above, below in zip(placed, placed[1:]):  # the last line of one above the next's first
        assert below.label_y - above.label_y >= 11 * len(above.label_lines) - 1e-9
    last = placed[-1]
    assert top + 6 <= placed[0].label_y
    assert last.label_y + 11 * (len(last.label_lines) - 1) <= bottom


NAME_LETTERS = st.sampled_from("aeilmnorstuéWMAÉ-")


@given(
    st.lists(
        st.text(NAME_LETTERS, min_size=1, max_size=14).map(str.strip).filter(bool)
        | st.lists(st.text(NAME_LETTERS, min_size=1, max_size=14), min_size=2, max_size=4)
        .map(" ".join)
        .map(lambda name: name[:30]),
        min_size=2,
        max_size=10,
        unique=True,
    ),
    st.integers(0, 500),
)
def test_any_names_keep_the_charts_width_their_letters_and_their_labels_apart(names, total):
    chart = score_chart(sheet(names, [total] + [1] * (len(names) - 1)))

    assert chart.width <= WIDEST
    for line, name in zip(chart.lines, names, strict=True):
        assert label_text(line) == name.replace(" ", "") + str(line.total)  # every letter
        assert chart.plot[2] + 6 + line.label_width <= chart.width
    assert_labels_apart_inside_the_plot(chart)


@pytest.mark.parametrize("rounds", [([3000, 2500], [4000, 3500], [3500, 2000]), ([-2000, 30],)])
def test_the_axis_has_room_for_its_longest_figure(rounds):
    """A free game to 10,000 (Farkle): « 12000 » was drawn past the chart's left edge."""
    farkle = GameRules.of(GAMES["libre"], limit=10_000, chosen_best="highest", title="Farkle")
    chart = score_chart(sheet(["Ann", "Ben"], *rounds, game_rules=farkle))

    left = chart.plot[0]
    longest = max(len(str(value)) for _, value in chart.y_ticks)
    assert left - 5 - 7 * longest >= 0  # right-aligned 5 units left of the plot, 7 a figure
    assert chart.width >= left + 228  # the plot as wide as ever
