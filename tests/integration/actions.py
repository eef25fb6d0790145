"""What a person does through the forms, as test-client requests, and a look at what was stored."""

from __future__ import annotations

import weakref
from collections.abc import Sequence

import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient

from app.platform.extensions import db

from .html import Element, parse

HTMX = {"HX-Request": "true"}


def game_url(public_id: str) -> str:
    return f"/parties/{public_id}"


def start_game(client: FlaskClient, names: Sequence[str], **fields: str) -> str:
    """Seat these players (other new-game fields as given) and return the game's public id."""
    data = {f"players-{seat}": name for seat, name in enumerate(names)}
    data.update(fields)
    response = client.post("/parties", data=data)
    assert response.status_code == 303, response.get_data(as_text=True)
    location = response.headers["Location"]
    assert location.startswith("/parties/"), location
    return location.removeprefix("/parties/")


def version_of(client: FlaskClient, public_id: str) -> str:
    """The game's version as its page shows it now: what a form drawn now sends."""
    game = game_page(client, public_id).by_id("game")
    assert game is not None
    return game.get("data-version") or ""


def round_data(
    number: int | str, scores: Sequence[int | str], version: int | str | None = None
) -> dict[str, str]:
    data = {"number": str(number)}
    if version is not None:
        data["version"] = str(version)
    data.update({f"score-{seat}": str(value) for seat, value in enumerate(scores)})
    return data


def play_round(
    client: FlaskClient,
    public_id: str,
    number: int | str,
    scores: Sequence[int | str],
    *,
    htmx: bool = False,
    version: int | str | None = None,
):
    """Send a round from the game's page as drawn now (or drawn at `version`)."""
    drawn = version_of(client, public_id) if version is None else version
    return client.post(
        f"{game_url(public_id)}/manches",
        data=round_data(number, scores, drawn),
        headers=HTMX if htmx else {},
    )


def play_rounds(client: FlaskClient, public_id: str, *rounds: Sequence[int]) -> None:
    """Record these rounds one after the other, each as the next round; fail if one is refused."""
    for scores in rounds:
        number = len(round_lines_of(client, public_id)) + 1
        response = play_round(client, public_id, number, scores)
        assert response.status_code == 303, response.get_data(as_text=True)


def cancel_round(
    client: FlaskClient,
    public_id: str,
    number: int | str,
    *,
    htmx: bool = False,
    version: int | str | None = None,
):
    """Tap « Annuler la manche » on the game's page as drawn now (or drawn at `version`)."""
    drawn = version_of(client, public_id) if version is None else version
    return client.post(
        f"{game_url(public_id)}/manches/annuler",
        data={"number": str(number), "version": str(drawn)},
        headers=HTMX if htmx else {},
    )


def tap(client: FlaskClient, page: Element, button_name: str, *, htmx: bool = False):
    """Tap a button of a page as a browser sends its form: its hidden fields (the round it names,
    the game's version the page was drawn from…) to its action."""
    from .html import form_of

    form = form_of(page, button_name)
    assert form is not None, button_name
    data = {
        field.get("name") or "": field.get("value") or ""
        for field in form.find_all("input", type="hidden")
    }
    return client.post(form.get("action") or "", data=data, headers=HTMX if htmx else {})


def game_page(client: FlaskClient, public_id: str) -> Element:
    response = client.get(game_url(public_id))
    assert response.status_code == 200
    return parse(response.data)


def round_lines_of(client: FlaskClient, public_id: str) -> list[list[int]]:
    from .html import round_lines

    return round_lines(game_page(client, public_id))


def new_device(app: Flask) -> FlaskClient:
    """Return a client with no cookies: another phone."""
    return app.test_client()


_reflected: weakref.WeakKeyDictionary[Flask, sa.MetaData] = weakref.WeakKeyDictionary()


def dump(app: Flask) -> dict[str, list[tuple]]:
    """Return every row of every table of the app (Alembic's bookkeeping aside), in a fixed order.

    The tables are read from the database itself, not from the models, so that a column the
    models do not know about is compared too.
    """
    with app.app_context():
        if app not in _reflected:
            meta = sa.MetaData()
            names = sa.inspect(db.engine).get_table_names()
            meta.reflect(bind=db.engine, only=[n for n in names if n != "alembic_version"])
            _reflected[app] = meta
        with db.engine.connect() as connection:
            return {
                name: sorted((tuple(row) for row in connection.execute(sa.select(table))), key=repr)
                for name, table in sorted(_reflected[app].tables.items())
            }


def count_rows(app: Flask, table: str) -> int:
    return len(dump(app)[table])
