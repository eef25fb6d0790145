"""Never twice, over HTTP: a double tap, two tabs or a retry is answered with the sheet as it
stands, never an error page. That the round is then stored once, and a cancel done once, is the
services' (tests/unit/services/test_games.py, on SQLite and PostgreSQL)."""

from contextlib import contextmanager

import pytest
from sqlalchemy import event

from app.platform.extensions import db

from .actions import dump, play_round, start_game, version_of
from .html import field_labelled, hidden_value, parse, round_lines


def test_a_repeated_round_shows_the_current_sheet(client):
    public_id = start_game(client, ["Alice", "Bob"])
    drawn = version_of(client, public_id)
    play_round(client, public_id, 1, [5, 7], version=drawn)

    response = play_round(client, public_id, 1, [5, 7], htmx=True, version=drawn)

    page = parse(response.data)
    assert response.status_code == 200
    assert page.find(role="alert") is None  # not an error: a notice
    assert "déjà enregistrée" in page.text
    assert round_lines(page) == [[5, 7]]


def test_the_same_round_with_other_heads_says_which_was_recorded_and_keeps_the_values(client):
    """Two phones of a table sending round 1: the second's heads are not lost."""
    public_id = start_game(client, ["Alice", "Bob"])
    drawn = version_of(client, public_id)
    play_round(client, public_id, 1, [5, 7], version=drawn)

    response = play_round(client, public_id, 1, [9, 9], htmx=True, version=drawn)

    page = parse(response.data)
    assert response.status_code == 409
    alert = page.find(role="alert").text
    assert "La manche 1 n’a pas été enregistrée" in alert  # as sent, not the form's next one
    assert "La partie a changé sur un autre téléphone" in alert
    assert field_labelled(page, "Alice").get("value") == "9"  # for round 2, to check
    assert hidden_value(page.find(id="round-form"), "number") == "2"
    assert round_lines(page) == [[5, 7]]


def test_the_same_new_game_form_sent_twice_starts_one_game(client, app):
    page = parse(client.get("/parties/nouvelle").data)
    key = hidden_value(page.find("form"), "key")
    data = {"key": key, "players-0": "Alice", "players-1": "Bob"}

    first = client.post("/parties", data=data)
    second = client.post("/parties", data=data)

    assert first.status_code == second.status_code == 303
    assert first.headers["Location"] == second.headers["Location"]
    assert len(dump(app)["game"]) == 1


@contextmanager
def writes_refused(app):
    """The database takes no write (as on a full disk, or read-only): each connection the app
    takes is switched to read-only, and the database itself refuses the write."""
    with app.app_context():
        engine = db.engine
    switch = {
        "sqlite": "PRAGMA query_only = ON",
        "postgresql": "SET default_transaction_read_only = on",
    }[engine.dialect.name]

    def read_only(dbapi_connection, _record, _proxy):
        cursor = dbapi_connection.cursor()
        cursor.execute(switch)
        cursor.close()
        dbapi_connection.commit()  # PostgreSQL: for the transactions that follow

    engine.dispose()
    event.listen(engine, "checkout", read_only)
    try:
        yield
    finally:
        event.remove(engine, "checkout", read_only)
        engine.dispose()  # connections as they were


@pytest.mark.storage
def test_a_round_the_database_cannot_take_is_a_503_to_send_again_and_is_recorded_once(client, app):
    public_id = start_game(client, ["Alice", "Bruno", "Chloé"])
    drawn = version_of(client, public_id)
    with writes_refused(app):
        refused = play_round(client, public_id, 1, [1, 2, 3], htmx=True, version=drawn)
        health = client.get("/healthz")

    assert refused.status_code == 503 and int(refused.headers["Retry-After"]) > 0
    assert health.status_code == 503
    assert client.get("/healthz").status_code == 200
    again = play_round(client, public_id, 1, [1, 2, 3], version=drawn)  # sent again: recorded
    repeat = play_round(client, public_id, 1, [1, 2, 3], version=drawn)  # and again: a repeat
    assert again.status_code == repeat.status_code == 303
    assert round_lines(parse(client.get(f"/parties/{public_id}").data)) == [[1, 2, 3]]
