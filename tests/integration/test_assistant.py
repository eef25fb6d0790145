"""The round assistant through its forms: the rows and turns as pages show them, the player's
choice offered without a preselection, refusals shown with what was typed, repeats answered with
the round as it stands, htmx parts, and its heads landing in the game's round form.

Where cards go is app.rules' (tests/unit/test_placement.py); what a step may do — once, and not
after the end — is the service's (tests/unit/services/test_round_assistant.py)."""

from __future__ import annotations

import re

import pytest

from .actions import HTMX, dump, game_page, game_url, play_round, start_game, tap, version_of
from .html import Element, button, field_labelled, form_of, hidden_value, link, parse, totals

NAMES = ["Alice", "Bruno", "Chloé"]


def assistant_url(public_id: str) -> str:
    return f"{game_url(public_id)}/assistant"


def assistant_page(client, public_id: str) -> Element:
    response = client.get(assistant_url(public_id))
    assert response.status_code == 200
    return parse(response.data)


def lay_rows(client, public_id, cards, number=1, **headers):
    data = {"number": str(number), **{f"row-{row}": str(card) for row, card in enumerate(cards)}}
    data["version"] = version_of(client, public_id)
    return client.post(f"{assistant_url(public_id)}/rangees", data=data, headers=headers)


def place(client, public_id, turn, cards, **headers):
    data = {"turn": str(turn), **{f"card-{seat}": str(card) for seat, card in enumerate(cards)}}
    data["version"] = version_of(client, public_id)
    return client.post(f"{assistant_url(public_id)}/tours", data=data, headers=headers)


def choose(client, public_id, turn, row):
    data = {"turn": turn, "row": row, "version": version_of(client, public_id)}
    return client.post(f"{assistant_url(public_id)}/choix", data=data)


def take_back(client, public_id, turn):
    data = {"turn": str(turn), "version": version_of(client, public_id)}
    return client.post(f"{assistant_url(public_id)}/annuler", data=data)


def rows_of(page: Element) -> list[list[int]]:
    """Return the cards of the lists named « Rangée 1 … » … « Rangée 4 … », in order."""
    rows = []
    for number in range(1, 5):
        title = page.by_id(f"row-title-{number}")
        assert title is not None and title.text.startswith(f"Rangée {number} ")
        (row,) = page.find_all("ol", aria_labelledby=f"row-title-{number}")
        rows.append([int(item.find("span").text) for item in row.find_all("li")])
    return rows


def heads_this_round(page: Element) -> dict[str, int]:
    table = next(t for t in page.find_all("table") if t.find("caption").text.startswith("Têtes"))
    return {row.find("th").text: int(row.find("td").text) for row in table.find_all("tr")[1:]}


@pytest.fixture
def public_id(client):
    return start_game(client, NAMES)


@pytest.fixture
def laid(client, public_id):
    """A game whose assistant rows end with 18, 31, 47 and 72 (rules.md's example)."""
    assert lay_rows(client, public_id, [18, 31, 47, 72]).status_code == 303
    return public_id


def test_the_game_page_links_the_assistant_counting_and_the_rules(client, public_id):
    page = game_page(client, public_id)
    assert link(page, "Assistant de manche").get("href") == assistant_url(public_id)
    assert link(page, "Compter les têtes") is not None
    assert link(page, "Règles du jeu").get("href") == "/regles"


def test_the_rows_are_laid_then_shown_as_four_named_lists(client, public_id):
    page = assistant_page(client, public_id)
    assert [field_labelled(page, f"Rangée {n}") is not None for n in range(1, 5)] == [True] * 4
    assert button(page, "Valider la manche") is None  # the game's entry form is not on it

    response = lay_rows(client, public_id, [18, 31, 47, 72])

    assert response.status_code == 303
    assert response.headers["Location"] == assistant_url(public_id)
    page = assistant_page(client, public_id)
    assert rows_of(page) == [[18], [31], [47], [72]]
    assert [field_labelled(page, name) is not None for name in NAMES] == [True] * 3
    assert button(page, "Placer les cartes") is not None


def test_a_sixth_card_makes_its_player_take_the_five(client, laid):
    for turn, cards in enumerate([[73, 74, 76], [77, 20, 19]], start=1):
        assert place(client, laid, turn, cards).status_code == 303
    assert rows_of(assistant_page(client, laid))[3] == [72, 73, 74, 76, 77]

    place(client, laid, 3, [79, 21, 22])

    page = assistant_page(client, laid)
    assert rows_of(page) == [[18, 19, 20, 21, 22], [31], [47], [79]]
    assert heads_this_round(page) == {
        "Alice": 9,
        "Bruno": 0,
        "Chloé": 0,
    }  # 72 73 74 76 77 → 1+1+1+1+5
    assert "6e carte" in page.text
    assert "tour 4 sur 10" in page.text


def test_a_too_low_card_waits_for_its_player_who_chooses_the_row(client, laid):
    assert place(client, laid, 1, [50, 9, 75]).status_code == 303
    page = assistant_page(client, laid)
    assert "Bruno, à vous de choisir" in page.text
    assert rows_of(page) == [[18], [31], [47], [72]]  # nothing placed until Bruno chooses
    assert button(page, "Placer les cartes") is None
    for row in range(1, 5):
        choice = button(page, f"Ramasser la rangée {row}")
        assert choice is not None and "autofocus" not in choice.attrs
        row_said = page.by_id(choice.get("aria-describedby"))  # the row's cards, then its cost
        assert re.fullmatch(r"\d+ \d+ têtes?", " ".join(row_said.text.split())), row_said.text
    assert page.find("input", checked=True) is None  # nothing pre-selected

    assert choose(client, laid, "1", "3").status_code == 303

    page = assistant_page(client, laid)
    assert rows_of(page) == [[18], [31, 50], [9], [72, 75]]
    assert heads_this_round(page) == {"Alice": 0, "Bruno": 1, "Chloé": 0}


# One refusal of the rules (through the service) and one of the form's reading; which cards are
# refused is tested in tests/unit (test_placement.py, test_assistant_forms.py).
@pytest.mark.parametrize(
    ("cards", "field", "words"),
    [
        ([47, 50, 75], "Alice", "déjà"),
        (["abc", 50, 75], "Alice", "pas un numéro de carte"),
    ],
)
def test_a_card_that_cannot_be_played_is_refused_and_nothing_is_placed(
    client, app, laid, cards, field, words
):
    before = dump(app)

    response = place(client, laid, 1, cards)

    assert response.status_code == 422
    page = parse(response.data)
    assert page.find(role="alert") is not None
    invalid = field_labelled(page, field)
    assert invalid.get("aria-invalid") == "true"
    assert re.search(words, page.by_id(invalid.get("aria-describedby")).text)
    for name, typed in zip(NAMES, cards):
        assert field_labelled(page, name).get("value") == str(typed)
    assert dump(app) == before


def test_a_turn_sent_twice_is_answered_with_the_round_as_it_stands(client, laid):
    assert place(client, laid, 1, [50, 75, 19]).status_code == 303
    again = place(client, laid, 1, [50, 75, 19])
    assert again.status_code == 303
    page = assistant_page(client, laid)
    assert rows_of(page) == [[18, 19], [31], [47, 50], [72, 75]]
    assert "déjà placé" in page.text


def test_turns_are_taken_back_one_by_one_down_to_the_rows(client, laid):
    place(client, laid, 1, [50, 75, 19])
    place(client, laid, 2, [9, 51, 76])  # Alice's 9 waits for her choice
    page = assistant_page(client, laid)
    assert hidden_value(form_of(page, "Annuler le tour"), "turn") == "2"

    response = take_back(client, laid, 2)  # the turn waiting for its choice
    assert response.status_code == 303
    page = parse(client.get(response.headers["Location"]).data)
    assert button(page, "Ramasser la rangée 1") is None
    assert rows_of(page) == [[18, 19], [31], [47, 50], [72, 75]]
    assert [field_labelled(page, name).get("value") for name in NAMES] == ["9", "51", "76"]

    assert take_back(client, laid, 1).status_code == 303
    page = assistant_page(client, laid)
    assert rows_of(page) == [[18], [31], [47], [72]]
    assert button(page, "Annuler le tour") is None
    assert hidden_value(form_of(page, "Placer les cartes"), "turn") == "1"


def test_rows_mistyped_are_picked_up_again_before_the_first_turn(client, laid):
    assert tap(client, assistant_page(client, laid), "Reprendre les rangées").status_code == 303
    assert field_labelled(assistant_page(client, laid), "Rangée 1") is not None  # to lay again
    assert lay_rows(client, laid, [1, 2, 3, 4]).status_code == 303

    place(client, laid, 1, [50, 75, 19])
    assert button(assistant_page(client, laid), "Reprendre les rangées") is None


# A whole round of 3 players: 4 row starts and 30 cards, with sixth cards and too-low cards.
ROUND_STARTS = [10, 20, 30, 40]
ROUND_TURNS = [
    [41, 42, 43],
    [44, 45, 46],  # 45 is a sixth card: Bruno takes 40 to 44
    [5, 47, 48],  # 5 is too low: Alice chooses
    [49, 50, 51],  # 50 is a sixth card: Bruno takes 45 to 49
    [52, 53, 54],
    [1, 2, 3],  # 1 is too low: Alice chooses
    [55, 56, 57],
    [58, 59, 60],
    [61, 62, 63],
    [64, 65, 66],
]


def play_whole_round(client, public_id):
    assert lay_rows(client, public_id, ROUND_STARTS).status_code == 303
    for turn, cards in enumerate(ROUND_TURNS, start=1):
        assert place(client, public_id, turn, cards).status_code == 303
        page = assistant_page(client, public_id)
        if button(page, "Ramasser la rangée 1") is not None:
            assert choose(client, public_id, str(turn), "1").status_code == 303
    return assistant_page(client, public_id)


def test_a_whole_round_fills_the_round_form_then_the_totals(client, public_id):
    page = play_whole_round(client, public_id)
    taken = heads_this_round(page)
    assert sum(taken.values()) > 0
    assert link(page, "Reporter dans la feuille") is not None

    game = game_page(client, public_id)
    assert [field_labelled(game, name).get("value") for name in NAMES] == [
        str(taken[name]) for name in NAMES
    ]
    assert "L’assistant de manche a rempli la manche 1" in game.text
    response = play_round(client, public_id, 1, [taken[name] for name in NAMES])
    assert response.status_code == 303
    assert totals(game_page(client, public_id)) == taken
    assert field_labelled(game_page(client, public_id), "Alice").get("value") == ""

    page = assistant_page(client, public_id)  # round 2 starts afresh, without a word
    assert field_labelled(page, "Rangée 1") is not None
    assert "saisie à la main" not in page.text


def test_a_round_recorded_by_hand_drops_the_assistants_round_with_a_word(client, laid):
    place(client, laid, 1, [50, 75, 19])
    assert "L’assistant de manche a placé 1 tour" in game_page(client, laid).text

    assert play_round(client, laid, 1, [5, 6, 7]).status_code == 303

    page = assistant_page(client, laid)
    assert "manche 1 a été saisie à la main" in page.text
    assert "Manche 2" in page.text
    assert field_labelled(page, "Rangée 1") is not None


def test_htmx_gets_the_assistant_part_in_place_with_focus_on_the_first_card(client, laid):
    response = place(client, laid, 1, [50, 75, 19], **HTMX)
    assert response.status_code == 200
    part = parse(response.data)
    assert part.find("div", id="assistant") is not None
    assert part.find("html") is None
    assert "autofocus" in field_labelled(part, "Alice").attrs
    assert part.find_all("input", data_card=True)

    refused = place(client, laid, 2, [50, 1, 2], **HTMX)
    assert refused.status_code == 422
    assert "autofocus" in field_labelled(parse(refused.data), "Alice").attrs


def test_a_finished_game_has_no_assistant_round(client, public_id):
    play_round(client, public_id, 1, [70, 1, 1])
    assert link(game_page(client, public_id), "Assistant de manche") is None
    response = lay_rows(client, public_id, [1, 2, 3, 4], number=2)
    assert response.status_code == 422
    assert "terminée" in parse(response.data).text
