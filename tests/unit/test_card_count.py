"""« Compter les cartes »: Flip 7's and Skyjo's rounds counted from the cards and checked against
their decks (issue 46), pure: examples, and properties over rounds dealt from the real decks."""

from __future__ import annotations

import random
import re
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app import rules
from app.rules.games import GAMES
from app.rules.games.flip7 import FLIP7, FLIP7_CARDS, reachable_scores
from app.rules.games.skyjo import SKYJO, SKYJO_CARDS

TRIO = ("Alice", "Bruno", "Chloé")
NUMBERS = [str(number) for number in range(13)]
MODIFIERS = ["+2", "+4", "+6", "+8", "+10"]


def flip(*boxes: str) -> rules.CountedHand:
    return FLIP7_CARDS.count_hand(boxes)


def refused_round(picker: rules.CardCount, *hands: tuple[str, ...]) -> str:
    with pytest.raises(rules.Refusal) as refused:
        picker.count_round(hands, TRIO[: len(hands)])
    return str(refused.value)


# Flip 7: a hand.


def test_a_flip_7_hand_doubles_its_numbers_only_then_adds_its_modifiers():
    hand = flip("3", "5", "12", "x2", "+4")
    assert (hand.score, hand.sum, hand.notes) == (44, "(3 + 5 + 12) × 2 + 4 = 44", ())


def test_seven_numbers_are_a_flip_7_worth_15_more_after_the_double():
    hand = flip("1", "2", "3", "4", "5", "6", "7", "x2", "+4")
    assert hand.score == 75
    assert hand.sum == "(1 + 2 + 3 + 4 + 5 + 6 + 7) × 2 + 4 + 15 = 75"
    assert [str(note) for note in hand.notes] == ["Flip 7\u202f: +15"]


@pytest.mark.parametrize(
    ("boxes", "score", "said"),
    [
        ((), 0, "0"),
        (("7",), 7, "7"),
        (("5", "x2"), 10, "5 × 2 = 10"),
        (("x2", "+4"), 4, "0 × 2 + 4 = 4"),
        (("+2", "+10"), 12, "2 + 10 = 12"),
        (("0", "12", "+8"), 20, "0 + 12 + 8 = 20"),
    ],
)
def test_a_flip_7_hand_says_how_its_score_is_made(boxes, score, said):
    hand = flip(*boxes)
    assert (hand.score, hand.sum) == (score, said)


def test_a_bust_scores_0_whatever_else_is_ticked():
    hand = flip("12", "11", "x2", "+10", "perdu")
    assert (hand.score, [str(note) for note in hand.notes]) == (0, ["Perdu"])


def test_more_than_seven_numbers_are_refused():
    with pytest.raises(rules.Refusal, match="Plus de sept nombres"):
        flip(*NUMBERS[:8])


def test_a_box_the_game_does_not_have_is_refused():
    with pytest.raises(rules.Refusal, match="«\u202f13\u202f» n’est pas une carte du Flip 7"):
        flip("3", "13")


def test_the_boxes_are_the_deck_s_cards_in_the_order_shown():
    labels = [str(box.label) for box in FLIP7_CARDS.boxes]
    assert labels == [*NUMBERS, *MODIFIERS, "×2", "Perdu"]


# Flip 7: the round against the deck.


@pytest.mark.parametrize("card", [*MODIFIERS, "x2"])
def test_a_modifier_or_the_x2_ticked_for_two_players_is_refused_naming_them(card):
    said = refused_round(FLIP7_CARDS, ("3", card), ("4",), ("5", card))
    shown = "×2" if card == "x2" else card
    assert said == f"Le paquet n’a qu’une carte {shown}, cochée ici pour Alice, Chloé."


def test_a_number_held_by_more_players_than_the_deck_has_is_refused():
    assert FLIP7_CARDS.count_round([("2",), ("2",), ()], TRIO)  # two 2s in the deck
    said = refused_round(FLIP7_CARDS, ("2",), ("2",), ("2",))
    assert said == "Le paquet n’a que 2 cartes 2, cochées ici pour Alice, Bruno, Chloé."
    assert "une carte 0" in refused_round(FLIP7_CARDS, ("0",), ("0",))
    assert "une carte 1" in refused_round(FLIP7_CARDS, ("1", "perdu"), ("1",))  # a bust's cards too


def test_two_flip_7s_in_one_round_are_refused_a_bust_with_a_flip_7_is_not():
    seven = tuple(NUMBERS[6:])  # 6 to 12: the deck has six 6s and more of the rest
    said = refused_round(FLIP7_CARDS, seven, seven)
    assert said == (
        "Un seul Flip 7 par manche, car il la finit aussitôt\u202f: Alice, Bruno ont chacun sept "
        "nombres."
    )
    scores = FLIP7_CARDS.count_round([seven, (*seven[:6], "perdu"), ()], TRIO)
    assert [hand.score for hand in scores] == [78, 0, 0]


@pytest.mark.parametrize(
    ("picker", "hands", "deck"),
    [
        # Bruno ticked every number; Alice and Chloé both the one ×2.
        (
            FLIP7_CARDS,
            [("x2",), tuple(NUMBERS), ("x2",)],
            "Le paquet n’a qu’une carte ×2, cochée ici pour Alice, Chloé.",
        ),
        # Bruno's « 13 » is no card; Alice and Chloé hold six −2, of five.
        (
            SKYJO_CARDS,
            [("-2 -2 -2",), ("4 13",), ("-2 -2 -2",)],
            "Le paquet n’a que 5 cartes −2, il y en a 6 ici (Alice, Chloé).",
        ),
    ],
)
def test_a_refused_hand_and_what_the_deck_cannot_give_the_others_are_said_together(
    picker, hands, deck
):
    with pytest.raises(rules.Refusal) as refused:
        picker.count_round(hands, TRIO)
    assert list(refused.value.fields) == [1]
    assert [str(reason) for reason in refused.value.whole] == [deck]


def flip_7_score(numbers: set[int], modifiers: set[int], doubled: bool) -> int:
    """The rule book's sum, written again here: numbers (×2), then the +N, then 15 for seven."""
    return sum(numbers) * (2 if doubled else 1) + sum(modifiers) + 15 * (len(numbers) == 7)


@st.composite
def flip_7_deals(draw: st.DrawFn) -> tuple[list[tuple[str, ...]], list[int]]:
    """Deal a Flip 7 round from the deck's 85 number and modifier cards (the actions score
    nothing): players draw in turn until each stops, busts (a number they hold) or flips 7
    (which ends the round for all). Return each hand's boxes as a player ticks them and its score."""
    players = draw(st.integers(min_value=2, max_value=10))
    deck = [str(n) for n in range(13) for _ in range(max(n, 1))] + [*MODIFIERS, "x2"]
    random.Random(draw(st.integers(0, 2**32))).shuffle(deck)
    stops = [draw(st.integers(min_value=0, max_value=12)) for _ in range(players)]
    held: list[list[str]] = [[] for _ in range(players)]
    bust = [False] * players
    playing = [seat for seat in range(players) if stops[seat]]
    while playing and deck:
        for seat in list(playing):
            card = deck.pop()
            if card in held[seat] and card.isdigit():
                bust[seat] = True
                playing.remove(seat)
                continue
            held[seat].append(card)
            if sum(c.isdigit() for c in held[seat]) == 7:
                playing = []
                break
            if len(held[seat]) >= stops[seat]:
                playing.remove(seat)
            if not deck:
                break
    hands, scores = [], []
    for seat in range(players):
        numbers = {int(card) for card in held[seat] if card.isdigit()}
        modifiers = {int(card[1:]) for card in held[seat] if card.startswith("+")}
        hands.append(tuple(held[seat]) + (("perdu",) if bust[seat] else ()))
        scores.append(0 if bust[seat] else flip_7_score(numbers, modifiers, "x2" in held[seat]))
    return hands, scores


@settings(max_examples=300)
@given(flip_7_deals())
def test_every_round_the_deck_deals_is_counted_as_the_rule_book_says_and_check_round_takes_it(
    deal,
):
    hands, scores = deal
    players = tuple(f"P{seat}" for seat in range(len(hands)))
    counted = FLIP7_CARDS.count_round(hands, players)
    assert [hand.score for hand in counted] == scores
    assert FLIP7.check_round(rules.RoundScores(tuple(scores)), players).scores == tuple(scores)


BOXES = [box.value for box in FLIP7_CARDS.boxes]


@settings(max_examples=300)
@given(st.lists(st.sets(st.sampled_from(BOXES), max_size=10), min_size=2, max_size=10))
def test_every_round_the_picker_takes_is_a_round_flip_7_takes(ticked):
    hands = [tuple(hand) for hand in ticked]
    players = tuple(f"P{seat}" for seat in range(len(hands)))
    try:
        counted = FLIP7_CARDS.count_round(hands, players)
    except rules.Refusal:
        return
    scores = tuple(hand.score for hand in counted)
    assert FLIP7.check_round(rules.RoundScores(scores), players).scores == scores


def test_every_score_flip_7_takes_comes_from_a_hand_the_picker_counts():
    hand_for: dict[int, tuple[str, ...]] = {}
    for count in range(8):
        for numbers in combinations(range(13), count):
            for doubled in (False, True):
                for k in range(6):
                    for added in combinations((2, 4, 6, 8, 10), k):
                        score = flip_7_score(set(numbers), set(added), doubled)
                        boxes = (*map(str, numbers), *(f"+{more}" for more in added))
                        hand_for.setdefault(score, (*boxes, *(("x2",) if doubled else ())))
    assert set(hand_for) == set(reachable_scores())
    for score in range(-5, 200):
        try:
            FLIP7.check_round(rules.RoundScores((score, 0)), TRIO[:2])
        except rules.Refusal:
            continue
        assert FLIP7_CARDS.count_hand(hand_for[score]).score == score


# Skyjo.


def sky(text: str) -> rules.CountedHand:
    return SKYJO_CARDS.count_hand((text,))


@pytest.mark.parametrize(
    "typed", ["12 -2 0 5 5", "12, −2, 0, 5, 5", "12 –2,0  5;5", " 12 -2 0 5 5 "]
)
def test_a_skyjo_hand_is_summed_whatever_separates_its_cards_and_however_the_minus_is_typed(
    typed,
):
    hand = sky(typed)
    assert (hand.score, hand.sum) == (20, "12 − 2 + 0 + 5 + 5 = 20")


@pytest.mark.parametrize(
    ("typed", "score", "said"), [("", 0, "0"), ("-2", -2, "−2"), ("-1 -2", -3, "−1 − 2 = −3")]
)
def test_a_skyjo_hand_of_no_card_one_card_or_below_zero(typed, score, said):
    assert (sky(typed).score, sky(typed).sum) == (score, said)


@pytest.mark.parametrize("word", ["13", "-3", "x", "--2", "1.5", "٣"])
def test_a_word_that_is_no_skyjo_card_is_named(word):
    with pytest.raises(
        rules.Refusal, match=re.escape(f"«\u202f{word}\u202f» n’est pas une carte du Skyjo")
    ):
        sky(f"1 {word} 2")


def test_more_than_12_cards_are_refused():
    assert sky(" ".join(["1", "2", "3"] * 4)).score == 24
    with pytest.raises(rules.Refusal, match="13 cartes"):
        sky(" ".join(["1", "2", "3"] * 4 + ["4"]))


def test_nine_alike_are_refused_three_would_share_a_column():
    assert sky("12 " * 8 + "11 11 11 11").score == 140  # the highest hand
    with pytest.raises(rules.Refusal, match="Plus de huit cartes 12"):
        sky("12 " * 9)


def test_a_value_over_the_deck_across_players_is_refused_naming_the_card_and_players():
    assert SKYJO_CARDS.count_round([("-2 -2 -2",), ("-2 -2",), ("3",)], TRIO)  # five −2
    said = refused_round(SKYJO_CARDS, ("-2 -2 -2",), ("5",), ("−2 -2 -2",))
    assert said == "Le paquet n’a que 5 cartes −2, il y en a 6 ici (Alice, Chloé)."
    zeros = ("0 0 0 0 0 0 0 0",)
    assert "15 cartes 0, il y en a 16" in refused_round(SKYJO_CARDS, zeros, zeros)


@st.composite
def skyjo_deals(draw: st.DrawFn) -> list[list[int]]:
    """Deal a Skyjo round: 12 cards a player in 4 columns of 3 from the 150-card deck, each
    column of three equal cards discarded; return the cards left in front of each player."""
    players = draw(st.integers(min_value=2, max_value=8))
    deck = [value for value, copies in {-2: 5, -1: 10, 0: 15}.items() for _ in range(copies)]
    deck += [value for value in range(1, 13) for _ in range(10)]
    random.Random(draw(st.integers(0, 2**32))).shuffle(deck)
    left = []
    for seat in range(players):
        cards = deck[seat * 12 : seat * 12 + 12]
        columns = [cards[at : at + 3] for at in range(0, 12, 3)]
        left.append([card for column in columns if len(set(column)) > 1 for card in column])
    return left


@settings(max_examples=300)
@given(skyjo_deals())
def test_every_skyjo_round_the_deck_deals_is_summed_and_check_round_takes_it(left):
    players = tuple(f"P{seat}" for seat in range(len(left)))
    typed = [(" ".join(map(str, cards)),) for cards in left]
    scores = tuple(hand.score for hand in SKYJO_CARDS.count_round(typed, players))
    assert scores == tuple(sum(cards) for cards in left)
    assert SKYJO.check_round(rules.RoundScores(scores, 0), players).scores == scores


SKYJO_CARD = st.sampled_from(["-2", "−1", "0", *map(str, range(1, 13))])


@settings(max_examples=300)
@given(st.lists(st.lists(SKYJO_CARD, max_size=13).map(" ".join), min_size=2, max_size=8))
def test_every_skyjo_hand_the_picker_takes_is_within_what_skyjo_takes(texts):
    players = tuple(f"P{seat}" for seat in range(len(texts)))
    try:
        counted = SKYJO_CARDS.count_round([(text,) for text in texts], players)
    except rules.Refusal:
        return
    scores = tuple(hand.score for hand in counted)
    assert SKYJO.check_round(rules.RoundScores(scores, 0), players).scores == scores


def test_only_skyjo_and_flip_7_count_a_round_from_the_cards():
    assert {key for key, game in GAMES.items() if game.card_count} == {"skyjo", "flip-7"}
