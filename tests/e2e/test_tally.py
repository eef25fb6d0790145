"""The page's counting (static/tally.js, fed by app.rules' offline_rules) agrees with app.rules
for every end rule and the pro deck: the same rounds played through both (issue 31, point 2)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from app import rules
from app.rules.games.six_nimmt import SIX_NIMMT, cards
from app.rules.scoreboard import offline_rules, offline_warnings

TALLY = Path(__file__).resolve().parents[2] / "static" / "tally.js"


@pytest.fixture(scope="module")
def tally_page(browser):
    page = browser.new_page()
    page.set_content("<!doctype html><title>tally</title>")
    page.add_script_tag(path=str(TALLY))
    yield page
    page.close()


@st.composite
def games(draw):
    """A sheet of valid rounds under any end rule, and how many of them already reached the
    server (the rest wait)."""
    players = tuple(f"P{seat}" for seat in range(draw(st.integers(2, 10))))
    end = draw(st.sampled_from(list(rules.EndRule)))
    pro = draw(st.booleans())
    if end is rules.EndRule.ROUNDS:
        game_rules = rules.GameRules.of(
            SIX_NIMMT, end=end, round_count=draw(st.integers(1, 6)), variants={"pro"} if pro else ()
        )
    else:
        game_rules = rules.GameRules.of(
            SIX_NIMMT, end=end, limit=draw(st.integers(10, 80)), variants={"pro"} if pro else ()
        )
    most = cards.max_heads_for_player(len(players), pro)
    sheet = rules.Scoresheet(players, (), game_rules)
    for _ in range(draw(st.integers(0, 6))):
        if sheet.is_over:
            break
        heads = draw(st.lists(st.integers(0, most), min_size=len(players), max_size=len(players)))
        try:
            sheet = sheet.with_round(sheet.check_round(rules.RoundScores(tuple(heads))))
        except rules.Refusal:
            continue
    return sheet, draw(st.integers(0, len(sheet.rounds)))


def _sheet(end: str, limit: int, *rounds: tuple[int, ...], count: int | None = None, pro=False):
    game_rules = rules.GameRules.of(
        SIX_NIMMT,
        end=rules.EndRule(end),
        limit=limit,
        round_count=count,
        variants={"pro"} if pro else (),
    )
    return rules.Scoresheet(("Alice", "Bruno", "Chloé"), rounds, game_rules)


@settings(max_examples=150, deadline=None)
@given(games())
@example((_sheet("above", 66, (40, 3, 3), (26, 1, 2)), 1))  # exactly 66 plays on
@example((_sheet("above", 66, (40, 3, 3), (27, 1, 2)), 0))  # 67 ends it
@example((_sheet("above", 66, (40, 30, 33), (27, 30, 33)), 1))  # over: no margin for the others
@example((_sheet("at_or_above", 66, (40, 3, 3), (26, 1, 2)), 1))  # « 66 ou plus »
@example((_sheet("above", 66, (10, 3, 3), (3, 10, 10)), 1))  # a tie for the lead
@example((_sheet("rounds", 66, (10, 3, 3), (1, 10, 10), count=2), 1))
@example((_sheet("above", 30, (20, 3, 30), pro=True), 0))
def test_the_page_counts_waiting_rounds_as_the_rules_do(tally_page, game):
    sheet, sent = game
    before = rules.Scoresheet(sheet.players, sheet.rounds[:sent], sheet.rules)
    # The page's data (app/web/filters.py's offline_counting), its words in French.
    data = offline_rules(sheet.rules, sent) | {
        "warnings": list(map(str, offline_warnings(sheet.rules)))
    }
    counted = tally_page.evaluate(
        "([data, start, rounds]) => window.sqpTally(data, start, rounds)",
        [json.loads(json.dumps(data)), before.totals, [list(r) for r in sheet.rounds[sent:]]],
    )
    lines = sheet.standings
    assert counted["totals"] == sheet.totals
    assert counted["leaders"] == sorted(sheet.leaders)
    assert counted["over"] == sheet.is_over
    assert counted["winners"] == sorted(sheet.winners)
    assert counted["spare"] == [line.spare for line in lines]
    assert counted["close"] == [line.danger for line in lines]
    assert counted["warnings"] == [line.warning and str(line.warning) for line in lines]
    if sheet.rounds:
        assert counted["ranks"] == [line.rank for line in lines]


def _flip_7(*rounds: tuple[int, ...], end: str = "at_or_above"):
    game_rules = rules.GameRules.of(
        rules.game_of("flip-7"), end=rules.EndRule(end), round_count=2 if end == "rounds" else None
    )
    return rules.Scoresheet(("Alice", "Bruno", "Chloé"), rounds, game_rules)


@st.composite
def highest_games(draw):
    """A game won by the highest total (Flip 7, or a free game), its rounds as typed, and how
    many of them reached the server."""
    players = tuple(f"P{seat}" for seat in range(draw(st.integers(2, 6))))
    if draw(st.booleans()):
        game_rules = rules.GameRules.of(rules.game_of("flip-7"))
        scores = st.sampled_from([0, 20, 40, 60, 90, 108, 171])
    else:
        game_rules = rules.GameRules.of(
            rules.game_of("libre"), limit=draw(st.integers(5, 300)), chosen_best=rules.Best.HIGHEST
        )
        scores = st.integers(-20, 150)
    sheet = rules.Scoresheet(players, (), game_rules)
    for _ in range(draw(st.integers(0, 6))):
        if sheet.is_over:
            break
        typed = draw(st.lists(scores, min_size=len(players), max_size=len(players)))
        try:
            sheet = sheet.with_round(sheet.check_round(rules.RoundScores(tuple(typed))))
        except rules.Refusal:  # two hands above 108
            continue
    return sheet, draw(st.integers(0, len(sheet.rounds)))


@settings(max_examples=100, deadline=None)
@given(highest_games())
@example((_flip_7((106, 106, 20), (106, 106, 0)), 1))  # a tie at 212 plays on, offline too
@example((_flip_7((106, 106, 20), (106, 106, 0), (5, 0, 0)), 2))  # then one is ahead
@example((_flip_7((100, 90, 20), (95, 60, 0)), 1))  # 195: 5 points from victory
@example((_flip_7((40, 40, 3), end="rounds"), 0))
def test_the_page_counts_a_game_won_by_the_highest_as_the_rules_do(tally_page, game):
    """Issue 43: no danger where the end is a win, and Flip 7's tie plays on offline as well."""
    sheet, sent = game
    before = rules.Scoresheet(sheet.players, sheet.rounds[:sent], sheet.rules)
    data = offline_rules(sheet.rules, sent) | {
        "warnings": [words and str(words) for words in offline_warnings(sheet.rules)]
    }
    counted = tally_page.evaluate(
        "([data, start, rounds]) => window.sqpTally(data, start, rounds)",
        [json.loads(json.dumps(data)), before.totals, [list(r) for r in sheet.rounds[sent:]]],
    )
    lines = sheet.standings
    assert counted["over"] == sheet.is_over
    assert counted["winners"] == sorted(sheet.winners)
    assert counted["close"] == [False] * len(lines)
    assert counted["warnings"] == [line.warning and str(line.warning) for line in lines]


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_the_page_doubles_skyjo_s_ender_as_the_rules_do(tally_page, data):
    players = tuple(f"P{seat}" for seat in range(data.draw(st.integers(2, 8))))
    game_rules = rules.GameRules.of(rules.game_of("skyjo"))
    sheet = rules.Scoresheet(players, (), game_rules)
    for _ in range(data.draw(st.integers(1, 4))):
        scores = data.draw(
            st.lists(st.integers(-17, 140), min_size=len(players), max_size=len(players))
        )
        ender = data.draw(st.integers(0, len(players) - 1))
        if sheet.is_over:
            break
        sheet = sheet.with_round(rules.RoundScores(tuple(scores), ender))
    counted = tally_page.evaluate(
        "([data, start, rounds, enders]) => window.sqpTally(data, start, rounds, enders)",
        [
            offline_rules(sheet.rules, 0)
            | {"warnings": list(map(str, offline_warnings(sheet.rules)))},
            [0] * len(players),
            [list(r) for r in sheet.rounds],
            list(sheet.enders),
        ],
    )
    assert counted["rounds"] == [list(points) for points in sheet.points]
    assert counted["totals"] == sheet.totals
    assert counted["leaders"] == sorted(sheet.leaders)
    assert counted["over"] == sheet.is_over


@pytest.mark.parametrize(
    ("scores", "ender"), [((5, 5, 9), 0), ((4, 5, 9), 0), ((0, 5, 9), 0), ((-3, 5, 9), 0)]
)
def test_the_page_doubles_skyjo_s_ender_on_a_tie_and_never_a_lowest_or_a_negative_score(
    tally_page, scores, ender
):
    sheet = rules.Scoresheet(
        ("A", "B", "C"), (scores,), rules.GameRules.of(rules.game_of("skyjo")), (ender,)
    )
    data = offline_rules(sheet.rules, 0) | {
        "warnings": list(map(str, offline_warnings(sheet.rules)))
    }
    counted = tally_page.evaluate(
        "([data, rounds, enders]) => window.sqpTally(data, [0, 0, 0], rounds, enders)",
        [data, [list(scores)], [ender]],
    )
    assert counted["totals"] == sheet.totals


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(sorted(rules.GAMES)),
    st.integers(0, 2),
    st.lists(st.integers(0, 2), min_size=1, max_size=5),
)
def test_the_page_passes_the_deal_over_waiting_rounds_as_the_game_does(
    tally_page, key, dealer, enders
):
    """Issue 45: « donne » moves over the rounds that wait as it will once they are recorded."""
    game_rules = rules.GameRules.of(rules.game_of(key), end=rules.EndRule.ROUNDS, round_count=50)
    typed = [rules.RoundScores((1, 2, 3), ender) for ender in enders]
    expected = dealer
    for round_ in typed:
        expected = game_rules.game.next_dealer(expected, round_, 3)
    data = offline_rules(game_rules, 0, dealer) | {"warnings": []}

    counted = tally_page.evaluate(
        "([data, rounds, enders]) => window.sqpTally(data, [0, 0, 0], rounds, enders)",
        [json.loads(json.dumps(data)), [list(r.scores) for r in typed], enders],
    )

    assert counted["dealer"] == expected
