"""Unit tests of app.web.sheet_view: the round sheet's rows and the scoreboard's lines, their words
in the page's language and their addresses as url_for makes them."""

from __future__ import annotations

import pytest
from flask import url_for
from markupsafe import Markup

from app import rules
from app.rules import GAMES, GameRules, Scoresheet
from app.rules.games.six_nimmt import SIX_NIMMT
from app.web.sheet_view import score_lines, sheet_rows

N = "\u202f"  # French puts a narrow no-break space before a colon


@pytest.fixture
def speaking(app):
    """Enter a request in a language, as the game page's request would."""

    def enter(language: str):
        return app.test_request_context(headers={"Accept-Language": language})

    return enter


def test_each_round_edit_link_is_the_address_url_for_makes(speaking):
    played = Scoresheet(
        ("Alice", "Bruno"), tuple((n % 5, 1) for n in range(12)), GameRules.of(SIX_NIMMT)
    )

    with speaking("fr"):
        rows = sheet_rows(played, "abc_-9")
        expected = [
            url_for("rounds.edit_round_form", public_id="abc_-9", number=n) for n in range(1, 13)
        ]

    assert [row.edit_url for row in rows] == expected
    assert rows[10].label == "Manche 11"
    assert rows[10].edit_label == "Modifier la manche 11"


def test_a_read_only_sheet_has_no_edit_links_and_its_words_in_the_page_language(speaking):
    with speaking("en"):
        rows = sheet_rows(
            Scoresheet(("Alice", "Bruno"), ((3, 1), (0, 2)), GameRules.of(SIX_NIMMT)), None
        )

    assert [(row.label, row.edit_url, row.cells) for row in rows] == [
        ("Round 1", None, ((3, False), (1, False))),
        ("Round 2", None, ((0, False), (2, False))),
    ]


def test_the_doubled_score_is_marked_in_its_cell(speaking):
    skyjo = GameRules.of(rules.game_of("skyjo"))
    played = Scoresheet(("Alice", "Bruno", "Chloé"), ((20, 3, 5),), skyjo, (0,))

    with speaking("fr"):
        (row,) = sheet_rows(played, None)

    assert row.cells == ((40, True), (3, False), (5, False))


def test_score_lines_say_rank_gauge_and_last_round_in_the_page_language(speaking):
    played = Scoresheet(("Alice", "<Bruno>"), ((3, 60), (2, -1)), GameRules.of(SIX_NIMMT))

    with speaking("fr"):
        alice, bruno = score_lines(played)
    with speaking("en"):
        _, bruno_en = score_lines(played)

    assert (alice.leads, alice.rank, alice.last) == (True, None, "+2")
    assert bruno.rank == Markup("2<sup>e</sup>")
    assert bruno_en.rank == "#2"
    assert bruno.last == "-1"
    assert bruno.gauge_label == f"\u2068<Bruno>\u2069{N}: 59 sur 66"
    assert (bruno.limit, bruno.gauge, bruno.low) == (66, 59, 56)
    assert bruno.warning == f"Marge avant la fin{N}: 7"


def test_only_a_name_with_a_word_no_phone_has_the_room_for_may_break_inside(speaking):
    names = ("Donaudampfschifffahrtskapitäne", "Éléonore Wolfeschlegelstein", "Jean-Baptiste")
    played = Scoresheet(names, ((1, 2, 3),), GameRules.of(SIX_NIMMT))

    with speaking("fr"):
        lines = score_lines(played)

    assert [line.long_word for line in lines] == [True, False, False]


def test_a_game_won_by_the_highest_keeps_its_gauge_s_good_colour_and_its_words_calm(speaking):
    """Issue 43: Flip 7's leader near 200 is about to win, not in danger."""
    played = Scoresheet(("Alice", "Bruno"), ((100, 20), (95, 20)), GameRules.of(GAMES["flip-7"]))

    with speaking("en"):
        alice, _ = score_lines(played)

    assert (alice.limit, alice.low, alice.danger) == (200, None, False)
    assert alice.warning == "5 points from victory"


def test_a_skyjo_gauge_turns_at_its_own_margin(speaking):
    played = Scoresheet(("Alice", "Bruno"), ((80, 20),), GameRules.of(GAMES["skyjo"]))

    with speaking("fr"):
        alice, _ = score_lines(played)

    assert (alice.low, alice.danger) == (75, True)  # 100 − 25
