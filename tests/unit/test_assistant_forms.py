"""Typed card numbers read by the assistant's and the counter's forms (app/web/forms.py)."""

import pytest

from app.rules import Refusal
from app.web.forms import cards_typed, pile_typed, typed_fields


def test_fields_are_read_by_position_and_a_blank_one_is_none():
    typed = typed_fields({"card-0": " 50 ", "card-2": "7"}, "card", 3)
    assert typed == [" 50 ", "", "7"]
    assert cards_typed(typed) == [50, None, 7]


def test_a_field_that_holds_no_number_is_named():
    with pytest.raises(Refusal) as refused:
        cards_typed(["50", "abc", "-3"])
    assert set(refused.value.fields) == {1, 2}
    assert "«\u202fabc\u202f»" in str(refused.value.fields[1])


def test_a_pile_is_split_on_spaces_and_commas():
    assert pile_typed(" 55 10,23 ,, 11;4 ") == [55, 10, 23, 11, 4]


def test_a_word_of_a_pile_that_is_no_number_is_named():
    with pytest.raises(Refusal) as refused:
        pile_typed("12 douze 3")
    assert list(map(str, refused.value.whole)) == [
        "«\u202fdouze\u202f» n’est pas un numéro de carte."
    ]
