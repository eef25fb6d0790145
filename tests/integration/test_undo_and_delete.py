"""« Rétablir la manche N » puts a cancelled round back exactly once; « Supprimer la partie »
deletes a game for good, after a confirmation that works without JavaScript."""

from __future__ import annotations

import pytest

from .actions import (
    cancel_round,
    dump,
    game_page,
    game_url,
    play_rounds,
    start_game,
    tap,
)
from .html import button, form_of, hidden_value, parse, round_lines, totals

NAMES = ["Alice", "Bob", "Carla"]


def test_a_cancelled_round_is_offered_back_and_restored_as_it_was(client):
    public_id = start_game(client, NAMES)
    play_rounds(client, public_id, [5, 6, 7], [10, 3, 2])
    assert cancel_round(client, public_id, 2).status_code == 303

    page = game_page(client, public_id)
    assert round_lines(page) == [[5, 6, 7]]
    form = form_of(page, "Rétablir la manche 2")
    assert form is not None and hidden_value(form, "number") == "2"

    response = tap(client, page, "Rétablir la manche 2")

    assert response.status_code == 303
    page = game_page(client, public_id)
    assert round_lines(page) == [[5, 6, 7], [10, 3, 2]]
    assert totals(page) == {"Alice": 15, "Bob": 9, "Carla": 9}
    assert button(page, "Rétablir la manche 2") is None


@pytest.mark.parametrize(
    "restored, says",
    [
        pytest.param(False, "La manche 1 était déjà annulée", id="cancel"),
        pytest.param(True, "déjà rétablie", id="restore"),
    ],
)
def test_a_repeated_cancel_or_restore_says_it_was_already_done(client, app, restored, says):
    public_id = start_game(client, NAMES)
    play_rounds(client, public_id, [5, 6, 7])
    page = game_page(client, public_id)
    tap(client, page, "Annuler la manche")
    if restored:
        page = game_page(client, public_id)
        tap(client, page, "Rétablir la manche 1")
    after_first = dump(app)

    again = tap(
        client, page, "Rétablir la manche 1" if restored else "Annuler la manche", htmx=True
    )

    assert again.status_code == 200
    assert says in parse(again.data).text
    assert dump(app) == after_first


def test_deleting_asks_first_on_a_page_of_its_own(client, app):
    public_id = start_game(client, NAMES)
    play_rounds(client, public_id, [5, 6, 7])
    link = next(
        a for a in game_page(client, public_id).find_all("a") if a.text == "Supprimer la partie"
    )
    before = dump(app)

    confirm = client.get(link.get("href"))

    assert confirm.status_code == 200
    assert dump(app) == before  # asking deletes nothing
    form = form_of(parse(confirm.data), "Supprimer définitivement")
    assert form.get("method") == "post" and form.get("action") == f"{game_url(public_id)}/supprimer"


def test_a_deleted_game_is_gone_from_its_address_history_and_statistics(client, app):
    kept = start_game(client, ["Dan", "Eve"])
    play_rounds(client, kept, [70, 1])
    public_id = start_game(client, NAMES)
    play_rounds(client, public_id, [70, 1, 2])

    asked = parse(client.get(f"{game_url(public_id)}/supprimer").data)
    response = tap(client, asked, "Supprimer définitivement")

    assert response.status_code == 303 and response.headers["Location"] == "/historique"
    assert client.get(game_url(public_id)).status_code == 404
    history = client.get("/historique").get_data(as_text=True)
    assert game_url(kept) in history and game_url(public_id) not in history
    statistics = parse(client.get("/statistiques").data).text
    assert "Dan" in statistics and "Alice" not in statistics
    assert len(dump(app)["game"]) == 1 and len(dump(app)["round"]) == 1


def test_a_delete_asked_before_rounds_written_elsewhere_asks_again_and_deletes_nothing(client, app):
    public_id = start_game(client, NAMES)
    play_rounds(client, public_id, [5, 6, 7])
    asked = parse(client.get(f"{game_url(public_id)}/supprimer").data)  # « 1 manche »
    play_rounds(client, public_id, [1, 2, 3])  # another phone of the table, meanwhile
    before = dump(app)

    response = tap(client, asked, "Supprimer définitivement")

    assert response.status_code == 409
    assert dump(app) == before
    page = parse(response.data)
    assert "rien n’a été supprimé" in page.find(role="alert").text
    assert "2 manches" in page.text  # asked again, about the game as it now stands
