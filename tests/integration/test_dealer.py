"""Who deals, through the forms without JavaScript: the scoreboard's marker (« donne »,
Skyjo's « commence »), « Tirer au sort » before the first round, « Qui donne ? » and « Changer »,
the follow page's marker, export and import, and each name's colour and marker shape."""

from __future__ import annotations

import json

import pytest

from .actions import (
    game_page,
    game_url,
    new_device,
    play_round,
    round_data,
    start_game,
    tap,
    version_of,
)
from .html import accessible_text, button, form_of, parse, table_named
from .test_export_import import export_game, history_links, import_file
from .test_follow import share

NAMES = ["Alice", "Bruno", "Chloé"]


def marked(page, word="donne") -> list[str]:
    """Return the names of the « Scores » rows whose header says `word` (in any language)."""
    table = page.by_id("scores")
    assert table is not None
    names = []
    for row in table.find("tbody").find_all("tr"):
        header = row.find("th")
        if header is not None and word in accessible_text(header).split():
            names.append((header.find("label") or header.find("span", class_="name")).text)
    return names


def change(client, public_id, seat, *, version=None):
    """Choose a player in « Qui donne ? » and tap « Changer », as a browser sends that form."""
    page = game_page(client, public_id)
    form = form_of(page, "Changer")
    assert form is not None and form.find("select", id="dealer") is not None
    label = page.find("label", **{"for": "dealer"})
    assert label is not None and label.text in ("Qui donne ?", "Qui commence ?")
    data = {"csrf_token": "", "version": version or version_of(client, public_id)}
    return client.post(form.get("action"), data=data | {"dealer": str(seat)})


def test_the_first_player_deals_then_the_next_after_each_round(client):
    public_id = start_game(client, NAMES)
    assert marked(game_page(client, public_id)) == ["Alice"]

    play_round(client, public_id, 1, [1, 2, 3])

    assert marked(game_page(client, public_id)) == ["Bruno"]


def test_lots_drawn_before_the_first_round_mark_one_player(client):
    public_id = start_game(client, NAMES)

    response = tap(client, game_page(client, public_id), "Tirer au sort")

    assert response.status_code == 303
    page = game_page(client, public_id)
    assert len(marked(page)) == 1 and marked(page)[0] in NAMES
    play_round(client, public_id, 1, [1, 2, 3])
    assert button(game_page(client, public_id), "Tirer au sort") is None


def test_changed_by_hand_that_player_deals_and_the_turn_goes_on_from_them(client):
    public_id = start_game(client, NAMES)
    play_round(client, public_id, 1, [1, 2, 3])

    assert change(client, public_id, 2).status_code == 303
    assert marked(game_page(client, public_id)) == ["Chloé"]
    play_round(client, public_id, 2, [1, 2, 3])
    assert marked(game_page(client, public_id)) == ["Alice"]


def test_a_change_from_a_page_drawn_before_a_round_changes_nothing(client):
    public_id = start_game(client, NAMES)
    drawn = version_of(client, public_id)
    play_round(client, public_id, 1, [1, 2, 3])

    response = change(client, public_id, 2, version=drawn)

    assert response.status_code == 409
    assert marked(game_page(client, public_id)) == ["Bruno"]


def test_in_skyjo_whoever_ended_the_round_starts_the_next(client):
    public_id = start_game(client, NAMES, game="skyjo")
    assert marked(game_page(client, public_id), "commence") == ["Alice"]
    data = round_data(1, ["10", "4", "30"], version_of(client, public_id)) | {"ended_by": "2"}

    client.post(f"{game_url(public_id)}/manches", data=data)

    page = game_page(client, public_id)
    assert marked(page, "commence") == ["Chloé"]
    assert marked(page) == []


def test_the_follow_page_marks_who_deals(client):
    public_id = start_game(client, NAMES)
    play_round(client, public_id, 1, [1, 2, 3])

    page = parse(client.get(share(client, public_id)).data)

    assert marked(page) == ["Bruno"]


def test_no_one_deals_once_the_game_is_over(client):
    public_id = start_game(client, ["Alice", "Bruno"])

    play_round(client, public_id, 1, [70, 2])

    page = game_page(client, public_id)
    assert marked(page) == []
    assert form_of(page, "Changer") is None


def test_each_name_has_its_colour_and_marker_in_scores_and_in_the_round_columns(client):
    public_id = start_game(client, NAMES)
    play_round(client, public_id, 1, [1, 2, 3])
    page = game_page(client, public_id)

    for caption in ("Scores", "Manches"):
        marks = [mark.get("class") for mark in table_named(page, caption).find_all("i")]
        assert marks == ["mk mk0", "mk mk1", "mk mk2"], caption


def test_an_exported_game_keeps_who_dealt_and_who_deals_next_on_another_phone(app, client):
    public_id = start_game(client, NAMES)
    change(client, public_id, 2)
    play_round(client, public_id, 1, [1, 2, 3])
    exported = export_game(client, public_id, "json")
    assert json.loads(exported.data)["games"][0]["dealers"] == [2]
    phone = new_device(app)

    import_file(phone, exported.data)

    imported = history_links(phone)[0]
    assert marked(parse(phone.get(imported).data)) == ["Alice"]


def test_a_file_from_before_dealers_were_kept_imports_with_nobody_marked(app, client):
    public_id = start_game(client, NAMES)
    play_round(client, public_id, 1, [1, 2, 3])
    old = json.loads(export_game(client, public_id, "json").data)
    for game in old["games"]:
        del game["dealers"], game["dealer"]
    phone = new_device(app)

    import_file(phone, json.dumps(old).encode())

    assert marked(parse(phone.get(history_links(phone)[0]).data)) == []


@pytest.mark.parametrize(
    "language, game, question, word, change, lots",
    [
        ("en", "6-qui-prend", "Who deals?", "deals", "Change", "Draw lots"),
        ("de", "6-qui-prend", "Wer gibt?", "gibt", "Ändern", "Auslosen"),
        ("en", "skyjo", "Who starts?", "starts", "Change", "Draw lots"),
        ("de", "skyjo", "Wer beginnt?", "beginnt", "Ändern", "Auslosen"),
    ],
)
def test_who_deals_in_english_and_german(client, language, game, question, word, change, lots):
    public_id = start_game(client, NAMES, game=game)

    page = parse(client.get(game_url(public_id), headers={"Accept-Language": language}).data)

    assert page.find("label", **{"for": "dealer"}).text == question
    assert marked(page, word) == ["Alice"]
    assert button(page, change) is not None and button(page, lots) is not None
