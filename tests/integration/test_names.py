"""Names that would hide or reverse text: refused at the table, and those stored before they
were refused isolated wherever they are shown. (Which names are refused, and names told apart as
people read them: tests/unit/test_rules.py.)"""

from __future__ import annotations

import re

import sqlalchemy as sa

from app.platform.extensions import db
from app.storage.models import Game, Player

from .actions import dump, game_page, game_url, play_rounds, start_game, tap
from .html import field_labelled, parse

OVERRIDE = "\u202e"  # RIGHT-TO-LEFT OVERRIDE: reverses what follows, up to the end of its context


def renamed_in_storage(app, public_id: str, seat: int, name: str) -> None:
    """Give a seated player a name the table no longer takes, as a game stored before it was
    refused holds it (its kept sheet dropped: the pages read the rows)."""
    with app.app_context():
        game_id = db.session.scalar(sa.select(Game.id).where(Game.public_id == public_id))
        db.session.execute(
            sa.update(Player)
            .where(Player.game_id == game_id, Player.seat == seat)
            .values(name=name)
        )
        db.session.execute(sa.update(Game).where(Game.id == game_id).values(kept_sheet=None))
        db.session.commit()


def assert_every_name_isolated(markup: str, name: str) -> None:
    """Each time the name is drawn, it is inside <bdi>, between U+2068 and U+2069 (plain text)
    or in a form field's value or an option of a list (« Qui donne ? »), which the browser draws
    apart, each its own paragraph (and U+2068 there would keep the name from being chosen by its
    label). The chart's <desc> is never drawn:
    screen readers read it in typed order, where a direction override changes nothing."""
    shown = [m.start() for m in re.finditer(re.escape(name), markup)]
    assert shown, "the name is not on the page"
    for at in shown:
        before, after = markup[:at], markup[at + len(name) :]
        if before.rfind("<desc") > before.rfind("</desc>"):
            continue
        assert (
            (before.endswith("<bdi>") and after.startswith("</bdi>"))
            or (before.endswith("\u2068") and after.startswith("\u2069"))
            or before.endswith('value="')
            or (re.search(r"<option[^<>]*>$", before) and after.startswith("</option>"))
        ), markup[max(0, at - 80) : at + 80]


def test_a_stored_name_ending_in_an_override_is_isolated_on_every_page(app, client):
    name = f"Bob{OVERRIDE}"
    finished = start_game(client, ["Alice", "Bob"])
    play_rounds(client, finished, [70, 2])
    playing = start_game(client, ["Bob", "Carla"])
    play_rounds(client, playing, [3, 4])
    renamed_in_storage(app, finished, 1, name)
    renamed_in_storage(app, playing, 0, name)
    pages = [
        game_url(finished),
        game_url(playing),
        f"{game_url(playing)}/manches/1",
        "/",
        "/historique",
        "/statistiques",
    ]

    for path in pages:
        response = client.get(path)
        assert response.status_code == 200, path
        assert_every_name_isolated(response.get_data(as_text=True), name)


def test_a_refused_round_names_the_player_isolated(app, client):
    name = f"Bob{OVERRIDE}"
    public_id = start_game(client, ["Alice", "Bob"])
    renamed_in_storage(app, public_id, 1, name)

    response = client.post(
        f"{game_url(public_id)}/manches", data={"number": "1", "score-0": "1", "score-1": "x"}
    )

    assert response.status_code == 422
    assert_every_name_isolated(response.get_data(as_text=True), name)


def test_a_duplicate_name_is_isolated_in_its_message(client, app):
    name = "علي"  # right-to-left letters: kept apart from the sentence around them

    response = client.post("/parties", data={"players-0": name, "players-1": name})

    assert_every_name_isolated(response.get_data(as_text=True), name)


def test_a_name_that_turns_text_around_is_refused_at_its_field_and_kept(app, client):
    # « \u202eaéL » is drawn « Léa »: two players who look alike at one table.
    before = dump(app)

    response = client.post("/parties", data={"players-0": "Léa", "players-1": "\u202eaéL"})

    assert response.status_code == 422
    assert dump(app) == before
    page = parse(response.data)
    field = field_labelled(page, "Joueur 2")
    assert field.get("aria-invalid") == "true" and field.get("value") == "\u202eaéL"
    message = page.by_id(field.get("aria-describedby")).text.replace("\u202f", " ")
    assert (
        message
        == "Ce nom contient un caractère qui change le sens de l’écriture : retapez-le sans."
    )


def test_a_free_games_name_that_turns_text_around_is_refused_in_the_persons_language(app, client):
    client.set_cookie("lang", "de")
    fields = {"game": "libre", "title": f"{OVERRIDE}smaY", "end": "other_limit", "limit": "50"}

    response = client.post("/parties", data={"players-0": "A", "players-1": "B", **fields})

    assert response.status_code == 422
    page = parse(response.data)
    field = field_labelled(page, "Name des Spiels")
    assert field.get("aria-invalid") == "true"
    message = page.by_id(field.get("aria-describedby")).text
    assert "Zeichen, das die Schreibrichtung ändert" in message


def test_a_rematch_seats_the_names_a_game_stored_before_they_were_refused(app, client):
    # « Léa » and « ＬＥＡ » sat together before names were compared as people read them.
    public_id = start_game(client, ["Alice", "Léa", "Bob"])
    play_rounds(client, public_id, [70, 2, 3])
    renamed_in_storage(app, public_id, 0, f"Bob{OVERRIDE}")
    renamed_in_storage(app, public_id, 2, "ＬＥＡ")

    response = tap(client, game_page(client, public_id), "Rejouer avec les mêmes joueurs")

    assert response.status_code == 303
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert_every_name_isolated(page, f"Bob{OVERRIDE}")
    assert "ＬＥＡ" in page
