"""Typed text becomes numbers in app/web/forms.py: what is read, what is refused, and how."""

import pytest
from hypothesis import given
from hypothesis import strategies as st
from werkzeug.datastructures import MultiDict

from app.rules import GameRules, Refusal, RoundScores
from app.rules.games.six_nimmt import SIX_NIMMT
from app.web.forms import EditRoundForm, NewGameForm, RoundForm, carried_scores, whole_number


def round_form(*typed: str, **extra: str) -> RoundForm:
    data = MultiDict({f"score-{seat}": text for seat, text in enumerate(typed)})
    data.update(extra)
    return RoundForm(data)


def test_typed_scores_are_read_in_seat_order():
    assert round_form("12", "0", "7").round().scores == (12, 0, 7)


def test_the_round_comes_as_one_value_with_who_ended_it():
    assert round_form("12", "-3", ended_by="1").round() == RoundScores((12, -3), 1)


def test_surrounding_spaces_are_accepted():
    assert round_form(" 12 ", "\t3", "0\n").round().scores == (12, 3, 0)


@pytest.mark.parametrize("blank", ["", "   ", "\t"])
def test_a_blank_field_counts_as_zero(blank):
    assert round_form("3", blank, "4").round().scores == (3, 0, 4)


# Anything but ASCII digits, after a minus at most: a sign after the number (« 5- », a phone's
# number pad has « - » beside the digits), a sign alone, a decimal, other scripts' digits.
UNREADABLE = ["1.5", "5-", "-", "\u2212", "--3", "+-3", "abc", "١٢", "１２", "1e2", "0x1f"]


@pytest.mark.parametrize("typed", [*UNREADABLE, "1 2", "½", "²", "12a", "3,0"])
def test_anything_but_ascii_digits_is_refused_at_its_seat(typed):
    with pytest.raises(Refusal) as refused:
        round_form("3", typed, "4").round()

    assert set(refused.value.fields) == {1}
    assert "nombre entier" in str(refused.value.fields[1])


@pytest.mark.parametrize("typed", ["-5", "\u22125", "- 5", "\u20135"])
def test_a_minus_as_phones_type_it_makes_a_negative_score(typed):
    # The rules then say which scores the game allows (Skyjo's −17 to 140, not 6 qui prend's).
    assert round_form("3", typed, "4").round().scores == (3, -5, 4)


def test_every_unreadable_field_gets_its_own_message():
    with pytest.raises(Refusal) as refused:
        round_form("abc", "x", "4").round()

    assert set(refused.value.fields) == {0, 1}


def test_a_form_that_skips_a_seat_is_refused_rather_than_guessed():
    data = MultiDict({"score-0": "4", "score-7": "9"})

    with pytest.raises(Refusal) as refused:
        RoundForm(data).round()

    assert refused.value.whole


@pytest.mark.parametrize("digits", [7, 5000])
def test_a_number_too_long_to_be_heads_is_read_as_too_big(digits):
    # 5000 digits is past Python's int() conversion limit: it must not raise.
    assert whole_number("1" * digits) >= 10**6


def test_the_round_number_is_read_like_heads():
    assert round_form("1", number="4").round_number() == 4
    assert round_form("1", number="٤").round_number() is None
    assert round_form("1").round_number() is None


def test_the_version_of_an_edit_form_is_read_like_a_round_number():
    assert EditRoundForm(MultiDict({"version": "3"})).game_version() == 3
    assert EditRoundForm(MultiDict({"version": "-1"})).game_version() is None
    assert EditRoundForm(MultiDict()).game_version() is None


@given(st.text())
def test_whole_number_reads_exactly_ascii_digits(text):
    value = whole_number(text)

    stripped = text.strip()
    if stripped.isascii() and stripped.isdigit():
        assert value == min(int(stripped), 10**6) or value == 10**6
    else:
        assert value is None


@pytest.mark.parametrize(
    "fields, field, says",
    [
        ({"end": "above", "limit": "80"}, "limit", "80"),
        ({"end": "at_or_above", "round_count": "5"}, "round_count", "5"),
        ({"end": "rounds", "round_count": "5", "limit": "80"}, "limit", "80"),
        ({"end": "other_limit", "limit": "80", "round_count": "3"}, "round_count", "3"),
    ],
)
def test_a_number_typed_under_another_option_is_a_question_not_ignored(fields, field, says):
    with pytest.raises(Refusal) as refused:
        NewGameForm(MultiDict(fields)).game_rules()

    errors = refused.value.fields
    assert says in str(errors[field]) and "cochez l’option de ce champ" in str(errors[field])


def test_a_number_under_its_own_option_is_taken():
    rules_chosen = NewGameForm(MultiDict({"end": "other_limit", "limit": "80"})).game_rules()

    assert rules_chosen.limit == 80


@pytest.mark.parametrize(
    "fields, field, says",
    [
        ({"end": "other_limit", "limit": "9"}, "limit", "de 10 à 500"),
        ({"end": "other_limit", "limit": "501"}, "limit", "de 10 à 500"),
        ({"end": "other_limit", "limit": ""}, "limit", "de 10 à 500"),
        ({"end": "other_limit", "limit": "soixante"}, "limit", "de 10 à 500"),
        ({"end": "other_limit", "limit": "70.5"}, "limit", "de 10 à 500"),
        ({"end": "rounds", "round_count": "0"}, "round_count", "de 1 à 50"),
        ({"end": "rounds", "round_count": "51"}, "round_count", "de 1 à 50"),
        ({"end": "rounds", "round_count": "deux"}, "round_count", "de 1 à 50"),
    ],
)
def test_a_limit_or_a_round_count_out_of_range_or_not_a_number_is_refused(fields, field, says):
    with pytest.raises(Refusal) as refused:
        NewGameForm(MultiDict(fields)).game_rules()

    assert set(refused.value.fields) == {field}
    assert says in str(refused.value.fields[field])


def test_an_unknown_end_rule_is_the_rule_books():
    assert NewGameForm(MultiDict({"end": "jamais"})).game_rules() == GameRules.of(SIX_NIMMT)


def test_an_address_carries_whole_numbers_a_free_games_score_signed():
    address = {"score-0": "5", "score-1": "-2", "score-2": "--1", "score-3": "1200", "score-4": "²"}
    address |= {"score-5": "-", "score-6": " 4", "score-7": "-99999", "score-8": "1234567"}
    address |= {"score-9": "\u22123", "score-11": "7"}

    assert carried_scores(address, 10) == {0: 5, 1: -2, 3: 1200, 7: -99999, 9: -3}


@pytest.mark.parametrize("limit", ["1", "1000", "999999"])
def test_a_free_game_goes_to_any_limit_its_scores_reach(limit):
    """Belote is played to 1,000 or 2,000 and Mille Bornes to 5,000: not 6 qui prend's 10 to 500."""
    fields = {"game": "libre", "title": "Belote", "end": "other_limit", "limit": limit}

    assert NewGameForm(MultiDict(fields)).game_rules().limit == int(limit)


@pytest.mark.parametrize("limit", ["0", "1000000"])
def test_a_free_games_limit_stays_within_what_a_field_holds(limit):
    fields = {"game": "libre", "title": "Belote", "end": "other_limit", "limit": limit}

    with pytest.raises(Refusal) as refused:
        NewGameForm(MultiDict(fields)).game_rules()

    assert "de 1 à 999999" in str(refused.value.fields["limit"])
