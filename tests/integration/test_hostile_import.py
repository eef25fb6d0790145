"""Hostile or merely big import files: a whole history moves in one go; a poisoned file is a
French refusal naming what is wrong, with nothing stored; no stored value can break a page."""

from __future__ import annotations

import io
import json

import pytest

from .actions import count_rows, dump
from .html import field_labelled, form_of, hidden_value, parse


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
    data = export_of(*(game_record(n) for n in range(4000)))
    assert len(data) > 10 * app.config["MAX_CONTENT_LENGTH"]

    response = import_file(client, data, csrf_token=token)

    assert response.status_code == 303, response.get_data(as_text=True)[:500]
    assert count_rows(app, "game") == 4000
