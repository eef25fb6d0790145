"""Hostile or merely big import files, through HTTP: a whole history moves in one go; a refusal
that quotes a broken character still makes a page, with nothing stored; no stored value can
break a page. What makes a file wrong (dates, nesting, numbers, how many errors are listed) is
checked where it is decided, in tests/unit/test_transfer.py."""

from __future__ import annotations

import io
import json

import pytest
import sqlalchemy as sa

from app.platform.extensions import db

from .actions import count_rows, dump
from .html import field_labelled, form_of, hidden_value, parse

pytestmark = pytest.mark.storage  # on SQLite and PostgreSQL


def game_record(n: int, **changes) -> dict:
    record = {
        "id": f"partie-{n}",
        "created_at": "2026-11-29T19:05:00Z",
        "rules": {"end": "above", "limit": 66, "round_count": None, "pro": False},
        "players": ["Alice", "Bob", "Carla", "Dan", "Eve"],
        "rounds": [[10, 20, 5, 3, 1], [30, 5, 2, 2, 2], [27, 9, 1, 1, 1]],
    }
    record.update(changes)
    return record


def export_of(*records: dict) -> bytes:
    return json.dumps({"format": "six-qui-prend", "version": 1, "games": list(records)}).encode()


def import_file(client, data: bytes, **fields):
    return client.post(
        "/historique/import",
        data={"fichier": (io.BytesIO(data), "parties.json"), **fields},
        content_type="multipart/form-data",
    )


def refusal(app, client, data: bytes) -> str:
    """Import a file that must be refused; return the text of the refusal."""
    before = dump(app)
    response = import_file(client, data)
    assert response.status_code == 422, response.status_code
    assert dump(app) == before
    page = parse(response.data)
    assert field_labelled(page, "Fichier de parties").get("aria-invalid") == "true"
    return page.find(role="alert").text


@pytest.mark.parametrize("app_settings", [{"WTF_CSRF_ENABLED": True}], ids=["csrf"])
def test_a_history_bigger_than_the_form_limit_imports_with_its_token(app, client, app_settings):
    history = client.get("/historique")
    token = hidden_value(form_of(parse(history.data), "Importer"), "csrf_token")
    # thousands of games: just over ten times the form limit
    count = 10 * app.config["MAX_CONTENT_LENGTH"] // len(json.dumps(game_record(9999))) + 10
    data = export_of(*(game_record(n) for n in range(count)))
    assert len(data) > 10 * app.config["MAX_CONTENT_LENGTH"]

    response = import_file(client, data, csrf_token=token)

    assert response.status_code == 303, response.get_data(as_text=True)[:500]
    assert count_rows(app, "game") == count


def test_a_broken_character_in_a_name_is_refused_and_the_message_still_shows(app, client):
    data = export_of(game_record(1)).replace(b'"Alice"', b'"\\ud800x"')

    says = refusal(app, client, data)

    assert "Partie 1" in says and "\ufffdx" in says


def test_a_far_date_already_stored_does_not_break_the_history(app, client):
    client.post("/parties", data={"players-0": "Alice", "players-1": "Bob"})
    with app.app_context():
        db.session.execute(
            sa.text("UPDATE game SET created_at = :far"), {"far": "9999-12-31 23:59:00"}
        )
        db.session.commit()

    response = client.get("/historique")

    assert response.status_code == 200
    assert "9999" in response.get_data(as_text=True)
