"""End-rule variants on the new-game form, editing any round, and the score chart, over HTTP."""

from __future__ import annotations

import re

import pytest

from .actions import (
    HTMX,
    dump,
    game_page,
    game_url,
    play_round,
    play_rounds,
    start_game,
)
from .html import (
    Element,
    accessible_text,
    button,
    field_labelled,
    form_of,
    has_word,
    hidden_value,
    link,
    parse,
    round_lines,
    status_text,
    totals,
)

OTHER_LIMIT = {"end": "other_limit"}
ROUNDS = {"end": "rounds"}


def rule_in_force(page: Element) -> str:
    found = page.find(class_="rule-in-force")
    assert found is not None, "the game page does not state the rule in force"
    return found.text


def is_over(page: Element) -> bool:
    """The game is over when the entry form is gone and the result is announced."""
    ended = form_of(page, "Valider la manche") is None
    announced = re.search("gagne|Victoire partagée", status_text(page)) is not None
    assert ended == announced, "the entry form and the result disagree"
    return ended


def fieldset_named(page: Element, legend: str) -> Element | None:
    for fieldset in page.find_all("fieldset"):
        found = fieldset.find("legend")
        if found is not None and found.text == legend:
            return fieldset
    return None


def link_named(page: Element, name: str) -> Element | None:
    """Return the link whose accessible name is exactly this."""
    found = [a for a in page.find_all("a") if accessible_text(a) == name]
    assert len(found) <= 1, f"several links named « {name} »"
    return found[0] if found else None


def is_checked(field: Element) -> bool:
    return "checked" in field.attrs


# --- The new-game form ----------------------------------------------------------------------------


def test_new_game_form_offers_the_end_rules_with_more_than_66_checked(client):
    page = parse(client.get("/parties/nouvelle").data)

    group = fieldset_named(page, "Fin de partie")
    assert group is not None
    radios = {
        label: field_labelled(group, label)
        for label in ("Plus de 66", "66 ou plus", "Autre limite", "Nombre de manches")
    }
    assert all(r is not None and r.get("type") == "radio" for r in radios.values()), radios
    assert len({r.get("name") for r in radios.values()}) == 1  # one choice among them
    assert [is_checked(r) for r in radios.values()] == [True, False, False, False]
    limit, rounds = field_labelled(group, "Limite"), field_labelled(group, "Manches")
    assert limit.get("type") == "number" and rounds.get("type") == "number"
    pro = field_labelled(page, "Variante pro")
    assert pro.get("type") == "checkbox" and not is_checked(pro)
    assert form_of(page, "Commencer la partie").find("input", name=pro.get("name")) is not None


@pytest.mark.parametrize(
    "fields, says",
    [
        ({}, ["dépasse 66"]),
        ({"end": "at_or_above"}, ["atteint 66"]),
        ({**OTHER_LIMIT, "limit": "100"}, ["dépasse 100"]),
        ({**ROUNDS, "round_count": "2"}, ["2 manches"]),
        ({**ROUNDS, "round_count": "1"}, ["1 manche"]),
        ({"pro": "y"}, ["dépasse 66", "pro"]),
    ],
    ids=["default", "66 ou plus", "autre limite", "2 manches", "1 manche", "pro"],
)
def test_the_game_page_states_the_rule_in_force(client, fields, says):
    public_id = start_game(client, ["Alice", "Bob"], **fields)

    text = rule_in_force(game_page(client, public_id))
    # and in the htmx answer to a round (after which the « 1 manche » game is over)
    partial = rule_in_force(parse(play_round(client, public_id, 1, [3, 4], htmx=True).data))

    for words in says:
        assert words in text and words in partial, (text, partial)


def test_the_pro_variant_is_not_mentioned_when_not_chosen(client):
    public_id = start_game(client, ["Alice", "Bob"])

    assert "pro" not in rule_in_force(game_page(client, public_id))


# --- The result in each variant's words -----------------------------------------------------------


def test_the_result_names_the_limit_that_was_passed(client):
    public_id = start_game(client, ["Alice", "Bob"], **OTHER_LIMIT, limit="30")

    play_rounds(client, public_id, [31, 1])

    text = status_text(game_page(client, public_id))
    assert "Alice" in text and "dépassé" in text and has_word(text, 30)


def test_66_or_more_does_not_say_a_player_at_66_went_past_it(client):
    public_id = start_game(client, ["Alice", "Bob"], end="at_or_above")

    play_rounds(client, public_id, [66, 1])

    text = status_text(game_page(client, public_id))
    assert "Alice" in text and has_word(text, 66)  # who ended the game, and at what
    assert "dépassé" not in text


# --- Refused variant settings ---------------------------------------------------------------------


# Which limits and round counts are refused is the form's (tests/unit/test_forms.py); here, how a
# refusal of each field comes back.
@pytest.mark.parametrize(
    "fields, field, says",
    [
        ({**OTHER_LIMIT, "limit": "9"}, "Limite", ["10", "500"]),
        ({**ROUNDS, "round_count": "deux"}, "Manches", ["1", "50"]),
    ],
    ids=["limit 9", "round count in words"],
)
@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
def test_an_invalid_limit_or_round_count_is_refused_in_french_with_the_values_kept(
    client, app, fields, field, says, htmx
):
    before = dump(app)
    data = {"players-0": "Alice", "players-1": "Bob", "pro": "y", **fields}

    response = client.post("/parties", data=data, headers=HTMX if htmx else {})

    assert response.status_code == 422
    page = parse(response.data)
    alert = page.find(role="alert")
    assert alert is not None and "choisissez" in alert.text  # after « Limite : »
    for number in says:
        assert has_word(alert.text, int(number)), alert.text
    wrong = field_labelled(page, field)
    assert wrong.get("aria-invalid") == "true"
    message = page.by_id(wrong.get("aria-describedby"))
    assert message is not None and "Choisissez" in message.text
    typed = fields.get("limit", fields.get("round_count"))
    assert (wrong.get("value") or "") == typed
    assert [field_labelled(page, f"Joueur {i}").get("value") for i in (1, 2)] == ["Alice", "Bob"]
    chosen = "Autre limite" if field == "Limite" else "Nombre de manches"
    assert is_checked(field_labelled(page, chosen))
    assert not is_checked(field_labelled(page, "Plus de 66"))
    assert is_checked(field_labelled(page, "Variante pro"))
    assert dump(app) == before


def test_adding_a_player_keeps_the_chosen_variant(client):
    response = client.post(
        "/parties",
        data={
            "players-0": "Alice",
            "players-1": "Bob",
            "ajouter": "1",
            **OTHER_LIMIT,
            "limit": "120",
            "pro": "y",
        },
    )

    assert response.status_code == 200
    page = parse(response.data)
    assert field_labelled(page, "Joueur 3") is not None
    assert is_checked(field_labelled(page, "Autre limite"))
    assert field_labelled(page, "Limite").get("value") == "120"
    assert is_checked(field_labelled(page, "Variante pro"))


# --- Editing a round ------------------------------------------------------------------------------


def edit_url(public_id: str, number: int | str) -> str:
    return f"{game_url(public_id)}/manches/{number}"


def open_edit(client, public_id: str, number: int) -> Element:
    response = client.get(edit_url(public_id, number))
    assert response.status_code == 200
    return parse(response.data)


def edit_data(version: str | int | None, heads) -> dict[str, str]:
    data = {f"score-{seat}": str(value) for seat, value in enumerate(heads)}
    if version is not None:
        data["version"] = str(version)
    return data


def save_edit(client, public_id: str, number: int, heads, *, page: Element | None = None):
    """Open the edit form (or use the one given), then send it with these heads."""
    page = page or open_edit(client, public_id, number)
    version = hidden_value(form_of(page, "Enregistrer la manche"), "version")
    return client.post(edit_url(public_id, number), data=edit_data(version, heads))


def current_version(client, public_id: str) -> str:
    form = form_of(open_edit(client, public_id, 1), "Enregistrer la manche")
    return hidden_value(form, "version")


def test_each_line_of_the_round_sheet_links_to_its_edit_form(client):
    public_id = start_game(client, ["Alice", "Bob"])
    play_rounds(client, public_id, [1, 2], [3, 4], [5, 6])

    page = game_page(client, public_id)

    for number in (1, 2, 3):
        found = link_named(page, f"Modifier la manche {number}")
        assert found is not None and found.get("href") == edit_url(public_id, number)
    assert link_named(page, "Modifier la manche 4") is None


def test_a_finished_game_can_still_be_edited(client):
    public_id = start_game(client, ["Alice", "Bob"])
    play_rounds(client, public_id, [70, 1])

    assert link_named(game_page(client, public_id), "Modifier la manche 1") is not None


def test_the_edit_form_shows_the_round_in_fields_labelled_with_the_names(client):
    public_id = start_game(client, ["Alice", "Bob", "Carla"])
    play_rounds(client, public_id, [1, 2, 3], [10, 0, 7])

    page = open_edit(client, public_id, 2)

    form = form_of(page, "Enregistrer la manche")
    assert form is not None
    assert form.get("method") == "post" and form.get("action") == edit_url(public_id, 2)
    assert [field_labelled(form, name).get("value") for name in ("Alice", "Bob", "Carla")] == [
        "10",
        "0",
        "7",
    ]
    assert hidden_value(form, "version")
    assert form.find("input", name="version").get("type") == "hidden"
    assert "Modifier la manche 2" in page.find("h1").text


def test_saving_an_edit_changes_the_round_and_the_totals(client):
    public_id = start_game(client, ["Alice", "Bob", "Carla"])
    play_rounds(client, public_id, [1, 2, 3], [10, 0, 7], [4, 4, 4])

    response = save_edit(client, public_id, 2, [0, 12, 5])

    assert response.status_code == 303
    assert response.headers["Location"] == game_url(public_id)
    page = game_page(client, public_id)
    assert round_lines(page) == [[1, 2, 3], [0, 12, 5], [4, 4, 4]]
    assert totals(page) == {"Alice": 5, "Bob": 18, "Carla": 12}
    assert "Manche 2 modifiée" in status_text(page)


@pytest.mark.parametrize(
    "heads, wrong, says",
    [
        # which values are refused: test_games.py::test_impossible_heads_in_an_edit_raise_…
        ([98, 1, 1], ["Alice"], "au plus 97"),
        (["5-", 1, 1], ["Alice"], "« 5- » n’est pas un nombre entier"),
    ],
    ids=["over the player bound", "not a whole number"],
)
def test_an_invalid_edit_is_refused_like_a_new_round_and_nothing_is_saved(
    client, app, heads, wrong, says
):
    names = ["Alice", "Bob", "Carla"]
    public_id = start_game(client, names)
    play_rounds(client, public_id, [1, 2, 3], [4, 5, 6])
    page = open_edit(client, public_id, 1)
    before = dump(app)

    response = save_edit(client, public_id, 1, heads, page=page)

    assert response.status_code == 422
    refused = parse(response.data)
    alert = refused.find(role="alert")
    assert alert is not None
    assert says in alert.text  # a player's refusal also next to the field, which the alert links
    form = form_of(refused, "Enregistrer la manche")
    for name, typed in zip(names, heads, strict=True):
        field = field_labelled(form, name)
        assert field.get("value") == str(typed)
        if name in wrong:
            assert field.get("aria-invalid") == "true"
            assert says in refused.by_id(field.get("aria-describedby")).text
            assert name in alert.find("a", href=f"#{field.get('id')}").text
        else:
            assert field.get("aria-invalid") is None
    assert dump(app) == before
    assert round_lines(game_page(client, public_id)) == [[1, 2, 3], [4, 5, 6]]


def test_a_refused_edit_can_be_corrected_from_the_form_it_returns(client):
    public_id = start_game(client, ["Alice", "Bob"])
    play_rounds(client, public_id, [1, 2])
    refused = parse(save_edit(client, public_id, 1, [80, 0]).data)

    response = save_edit(client, public_id, 1, [8, 0], page=refused)

    assert response.status_code == 303
    assert round_lines(game_page(client, public_id)) == [[8, 0]]


def test_an_edit_from_a_page_opened_before_a_new_round_is_refused_with_a_fresh_form(client, app):
    public_id = start_game(client, ["Alice", "Bob"])
    play_rounds(client, public_id, [1, 2])
    stale = open_edit(client, public_id, 1)
    play_rounds(client, public_id, [3, 4])  # another tab adds a round
    before = dump(app)

    response = save_edit(client, public_id, 1, [9, 9], page=stale)

    assert response.status_code == 409
    refused = parse(response.data)
    alert = refused.find(role="alert")
    assert alert is not None and "a changé" in alert.text
    assert "rien n’a été enregistré" in alert.text
    assert dump(app) == before
    assert round_lines(refused) == [[1, 2], [3, 4]]  # the current sheet
    assert [field_labelled(refused, n).get("value") for n in ("Alice", "Bob")] == ["9", "9"]
    response = save_edit(client, public_id, 1, [9, 9], page=refused)  # now up to date
    assert response.status_code == 303
    assert round_lines(game_page(client, public_id)) == [[9, 9], [3, 4]]


@pytest.mark.parametrize("number", ["0", "2", "abc"])  # no such round; not a round number
def test_editing_a_round_that_does_not_exist_is_not_found(client, app, number):
    public_id = start_game(client, ["Alice", "Bob"])
    play_rounds(client, public_id, [1, 2])
    version = current_version(client, public_id)
    before = dump(app)

    assert client.get(edit_url(public_id, number)).status_code == 404
    response = client.post(edit_url(public_id, number), data=edit_data(version, [9, 9]))

    assert response.status_code == 404
    assert dump(app) == before


def test_the_edit_page_links_back_to_the_game(client):
    public_id = start_game(client, ["Alice", "Bob"])
    play_rounds(client, public_id, [1, 2])

    page = open_edit(client, public_id, 1)

    assert link(page, "Retour à la partie").get("href") == game_url(public_id)
    assert button(page, "Valider la manche") is None


# --- The score chart on the game page -------------------------------------------------------------


def chart_of(page: Element) -> Element | None:
    found = [svg for svg in page.find_all("svg") if svg.get("role") == "img"]
    assert len(found) <= 1
    return found[0] if found else None


def chart_name(page: Element, svg: Element) -> str:
    """The accessible name of the chart: the text of the elements it is labelled by."""
    return " ".join(page.by_id(ref).text for ref in svg.get("aria-labelledby").split())


def player_lines(svg: Element) -> list[Element]:
    """The players' lines: the paths that carry a marker on each of their points."""
    return [path for path in svg.find_all("path") if path.get("marker-end")]


def test_the_chart_is_an_image_named_with_a_description_of_the_totals(client):
    public_id = start_game(client, ["Alice", "Bob", "Carla"])
    play_rounds(client, public_id, [5, 20, 1], [12, 0, 3])

    page = game_page(client, public_id)

    svg = chart_of(page)
    assert svg is not None
    name = chart_name(page, svg)
    assert name.startswith("Évolution des scores")
    assert svg.find("title").text == "Évolution des scores"
    description = svg.find("desc").text
    assert description in name
    for player_total in ("Alice 17", "Bob 20", "Carla 4"):
        assert player_total in description


def dashed_lines(svg: Element) -> list[Element]:
    return [e for e in svg.iter() if e.get("stroke-dasharray")]


def test_the_limit_is_drawn_as_a_dashed_line_and_labelled(client):
    # Where the limit line goes for each rule is app.web.chart's (tests/unit/test_chart.py).
    limit = 150
    public_id = start_game(client, ["Alice", "Bob"], **OTHER_LIMIT, limit=str(limit))
    play_rounds(client, public_id, [5, 20])

    svg = chart_of(game_page(client, public_id))

    assert len(dashed_lines(svg)) == 1
    assert any(text.text == f"limite {limit}" for text in svg.find_all("text"))
    assert f"limite de {limit}" in svg.find("desc").text


def test_the_chart_follows_each_round_in_the_htmx_answer(client):
    public_id = start_game(client, ["Alice", "Bob"])
    play_rounds(client, public_id, [5, 20])

    response = play_round(client, public_id, 2, [1, 1], htmx=True)

    page = parse(response.data)
    svg = chart_of(page)
    assert "Alice 6" in svg.find("desc").text
    assert all(len(re.findall(r"[ML]", line.get("d"))) == 3 for line in player_lines(svg))
