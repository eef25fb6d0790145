"""« Compter les cartes » (issue 46): a Flip 7 or Skyjo round counted from the cards, without
JavaScript (a POST form), and « Reporter dans la manche » into the game's round form."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from werkzeug.datastructures import MultiDict

from app.rules.games.flip7 import FLIP7_CARDS
from app.rules.games.skyjo import SKYJO_CARDS

from .actions import (
    dump,
    game_page,
    game_url,
    new_device,
    play_round,
    play_rounds,
    start_game,
    version_of,
)
from .html import Element, button, field_labelled, link, parse, round_lines

FLIP_7_NAMES = ["0", *map(str, range(1, 13)), "+2", "+4", "+6", "+8", "+10", "×2", "Perdu"]
TRIO = ["Alice", "Bruno", "Chloé"]


def cards_url(public_id: str) -> str:
    return f"{game_url(public_id)}/cartes"


def count(client, public_id, hands, *, report=False):
    """Send the count's form: `hands` by seat, a list of boxes' values or a text."""
    data = MultiDict()
    for seat, hand in enumerate(hands):
        for value in [hand] if isinstance(hand, str) else hand:
            data.add(f"hand-{seat}", value)
    if report:
        data.add("report", "1")
    return client.post(cards_url(public_id), data=data)


def group(page: Element, name: str) -> Element:
    """The fieldset whose legend (its accessible name) is this player's name."""
    for fieldset in page.find_all("fieldset"):
        legend = fieldset.find("legend")
        if legend is not None and legend.text == name:
            return fieldset
    raise AssertionError(f"no group named {name}")


def boxes(fieldset: Element) -> dict[str, bool]:
    """Each checkbox of a group by its accessible name (its label's text): ticked or not."""
    return {
        label.text: "checked" in label.find("input").attrs
        for label in fieldset.find_all("label")
        if label.find("input", type="checkbox") is not None
    }


def score_of(page: Element, seat: int) -> str:
    return page.by_id(f"hand-{seat}-score").text


@pytest.fixture
def flip_7(client):
    return start_game(client, TRIO, game="flip-7")


@pytest.fixture
def skyjo(client):
    return start_game(client, TRIO, game="skyjo")


def test_skyjo_and_flip_7_games_link_the_count_6_qui_prend_does_not(client, flip_7, skyjo):
    assert link(game_page(client, flip_7), "Compter les cartes") is not None
    assert link(game_page(client, skyjo), "Compter les cartes") is not None
    six = start_game(client, TRIO)
    assert link(game_page(client, six), "Compter les cartes") is None
    assert client.get(cards_url(six)).status_code == 404


def test_a_phone_not_at_the_table_gets_404(app, client, flip_7):
    stranger = new_device(app)
    before = dump(app)
    assert stranger.get(cards_url(flip_7)).status_code == 404
    assert stranger.post(cards_url(flip_7), data={"hand-0": "3", "report": "1"}).status_code == 404
    assert dump(app) == before


def test_a_flip_7_player_s_group_is_named_by_the_player_and_holds_the_deck_s_cards(client, flip_7):
    page = parse(client.get(cards_url(flip_7)).data)
    for name in TRIO:
        assert boxes(group(page, name)) == dict.fromkeys(FLIP_7_NAMES, False)
    assert button(page, "Compter") is not None
    assert button(page, "Reporter dans la manche") is not None
    assert page.find(role="alert") is None


def test_counting_shows_each_flip_7_score_and_how_it_was_made_ticks_kept(client, flip_7):
    seven = [str(number) for number in range(1, 8)]
    response = count(client, flip_7, [["3", "5", "12", "x2", "+4"], [*seven, "+10"], ["perdu"]])
    assert response.status_code == 200
    page = parse(response.data)
    assert score_of(page, 0) == "(3 + 5 + 12) × 2 + 4 = 44"
    assert score_of(page, 1) == "Flip 7 : +15 1 + 2 + 3 + 4 + 5 + 6 + 7 + 10 + 15 = 53"
    assert score_of(page, 2) == "Perdu 0"
    ticked = [name for name, on in boxes(group(page, "Alice")).items() if on]
    assert ticked == ["3", "5", "12", "+4", "×2"]


def test_a_round_the_deck_cannot_make_is_refused_naming_card_and_players_every_tick_kept(
    client, flip_7
):
    response = count(client, flip_7, [["12", "x2"], ["2"], ["11", "x2"]])
    assert response.status_code == 422
    page = parse(response.data)
    alert = page.find(role="alert")
    assert "Le paquet n’a qu’une carte ×2, cochée ici pour Alice et Chloé." in alert.text
    assert boxes(group(page, "Chloé"))["11"] and boxes(group(page, "Chloé"))["×2"]
    assert score_of(page, 1) == "2"  # a hand fine on its own still says its score


def test_more_than_seven_numbers_are_refused_in_the_player_s_group(client, flip_7):
    page = parse(count(client, flip_7, [[], [str(n) for n in range(8)], []]).data)
    assert "Bruno" in page.find(role="alert").text
    assert "Plus de sept nombres" in page.by_id("hand-1-error").text
    assert "hand-1-error" in group(page, "Bruno").get("aria-describedby")


def test_reporting_fills_the_round_form_of_the_game_to_validate_there(client, flip_7):
    response = count(client, flip_7, [["3", "5", "12", "x2", "+4"], [], ["7", "+2"]], report=True)
    assert response.status_code == 303
    carried = client.get(response.location)
    game = parse(client.get(carried.location).data)
    scores = [field_labelled(game, name).get("value") for name in TRIO]
    assert scores == ["44", "0", "9"]
    assert round_lines(game) == []  # to check and validate there


def test_a_refused_round_is_not_reported(client, flip_7):
    response = count(client, flip_7, [["2"], ["2"], ["2"]], report=True)
    assert response.status_code == 422
    assert "Le paquet n’a que 2 cartes 2" in parse(response.data).find(role="alert").text


def test_a_round_recorded_meanwhile_sends_the_count_to_the_next_round(app, client, flip_7):
    drawn = version_of(client, flip_7)  # the count is begun while round 1 is the next
    assert play_round(client, flip_7, 1, [10, 20, 30], version=drawn).status_code == 303
    response = count(client, flip_7, [["12"], ["11"], ["10"]], report=True)
    game = parse(client.get(client.get(response.location).location).data)
    form = game.by_id("round-form")
    assert form.find("input", name="number").get("value") == "2"
    assert [field_labelled(game, name).get("value") for name in TRIO] == ["12", "11", "10"]
    assert round_lines(game) == [[10, 20, 30]]


def test_a_skyjo_field_is_labelled_by_the_player_and_described_as_cards_by_one_hint(client, skyjo):
    page = parse(client.get(cards_url(skyjo)).data)
    hints = set()
    for seat, name in enumerate(TRIO):
        field = field_labelled(page, name)
        assert field.get("type") == "text" and field.get("name") == f"hand-{seat}"
        described = [page.by_id(id_) for id_ in field.get("aria-describedby").split()]
        hints |= {id(element) for element in described if element.text.startswith("Cartes")}
    # Said once on the page, not under each of the players' fields.
    assert len(hints) == 1
    assert page.text.count("Cartes, séparées") == 1


def test_a_skyjo_count_shows_each_sum_and_keeps_what_was_typed(client, skyjo):
    page = parse(count(client, skyjo, ["12 −2 0 5,5", "-1 -2", ""]).data)
    assert [score_of(page, seat) for seat in range(3)] == [
        "12 − 2 + 0 + 5 + 5 = 20",
        "−1 − 2 = −3",
        "0",
    ]
    assert field_labelled(page, "Alice").get("value") == "12 −2 0 5,5"


def test_a_skyjo_card_over_the_deck_is_named_the_values_kept(client, skyjo):
    response = count(client, skyjo, ["-2 -2 -2", "-2 -2 -2", "4"])
    assert response.status_code == 422
    page = parse(response.data)
    assert "Le paquet n’a que 5 cartes −2, il y en a 6 ici (Alice et Bruno)." in (
        page.find(role="alert").text
    )
    assert field_labelled(page, "Bruno").get("value") == "-2 -2 -2"


def test_a_skyjo_word_that_is_no_card_marks_its_field(client, skyjo):
    page = parse(count(client, skyjo, ["3", "13 4", ""]).data)
    field = field_labelled(page, "Bruno")
    assert field.get("aria-invalid") == "true" and field.get("value") == "13 4"
    assert "« 13 » n’est pas une carte du Skyjo" in page.by_id("hand-1-error").text


def test_a_skyjo_count_is_reported_below_zero_too_who_ended_it_chosen_in_the_form(client, skyjo):
    response = count(client, skyjo, ["12 −2 0 5 5", "-1 -2", "1"], report=True)
    game = parse(client.get(client.get(response.location).location).data)
    assert [field_labelled(game, name).get("value") for name in TRIO] == ["20", "-3", "1"]
    assert not any(radio.get("checked") is not None for radio in game.find_all(type="radio"))


@pytest.mark.parametrize("game", ["flip-7", "skyjo"])
def test_hostile_forms_never_break_the_count(app, client, game):
    public_id = start_game(client, TRIO, game=game)
    before = dump(app)
    names = st.sampled_from(["hand-0", "hand-1", "hand-2", "hand-9", "hand--1", "report", "x"])
    values = st.one_of(
        st.sampled_from(["x2", "perdu", "+10", "12", "-2", "−2", "0" * 50]),
        st.text(max_size=30),
        st.text(max_size=3000),
    )

    @given(st.lists(st.tuples(names, values), max_size=60))
    def check(body):
        response = client.post(cards_url(public_id), data=MultiDict(body))
        assert response.status_code in (200, 303, 422), response.status_code

    check()
    assert dump(app) == before


def test_the_count_needs_the_page_s_csrf_token(app, client, flip_7):
    app.config["WTF_CSRF_ENABLED"] = True
    assert client.post(cards_url(flip_7), data={"hand-0": "3"}).status_code == 400
    token = parse(client.get(cards_url(flip_7)).data).find("input", name="csrf_token").get("value")
    assert (
        client.post(cards_url(flip_7), data={"hand-0": "3", "csrf_token": token}).status_code == 200
    )


def test_the_rules_page_explains_each_count_with_examples_the_count_gives(client):
    text = parse(client.get("/regles").data).text
    examples = [
        FLIP7_CARDS.count_hand(("3", "5", "12", "x2", "+4")).sum,
        FLIP7_CARDS.count_hand((*map(str, range(1, 8)), "+10")).sum,
        SKYJO_CARDS.count_hand(("12 −2 0 5 5",)).sum,
    ]
    for example in examples:
        assert example in text


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", ["Count the cards", "Count", "Bust", "Put into the round"]),
        ("de", ["Karten zählen", "Zählen", "Raus", "In die Runde übernehmen"]),
    ],
)
def test_the_count_speaks_the_language_chosen(client, flip_7, language, words):
    title, count_button, bust, report_button = words
    client.get(f"/langue/{language}?next=/")
    assert link(game_page(client, flip_7), title) is not None
    page = parse(count(client, flip_7, [["9", "x2"], [], ["3", "x2"]]).data)
    assert page.find("h1").text == title
    assert button(page, count_button) is not None and button(page, report_button) is not None
    assert bust in boxes(group(page, "Bruno"))
    assert "Alice" in page.find(role="alert").text and "Chloé" in page.find(role="alert").text
    assert "paquet" not in page.find(role="alert").text  # the refusal is translated too


def test_a_finished_game_counts_but_has_no_round_to_report_into(client, flip_7):
    play_rounds(client, flip_7, [171, 0, 0], [29, 0, 0])  # Alice reaches 200
    assert link(game_page(client, flip_7), "Compter les cartes") is None
    response = count(client, flip_7, [["12"], [], []], report=True)
    assert response.status_code == 200
    page = parse(response.data)
    assert score_of(page, 0) == "12" and button(page, "Reporter dans la manche") is None
