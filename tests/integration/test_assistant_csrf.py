"""CSRF on the assistant's writes: refused without the page's token, done with the token each
form carries."""

import pytest

from .actions import dump, game_url
from .html import form_of, hidden_value, parse
from .test_csrf import start_game_with_token


@pytest.fixture
def app_settings():
    return {"WTF_CSRF_ENABLED": True}


def submit(client, public_id, button_name, **fields):
    """Send the form of this button on the assistant page, with its hidden fields and these."""
    form = form_of(parse(client.get(f"{game_url(public_id)}/assistant").data), button_name)
    assert form is not None, button_name
    data = {
        field.get("name"): field.get("value") for field in form.find_all("input", type="hidden")
    }
    return client.post(form.get("action"), data={**data, **fields})


def test_every_assistant_post_needs_the_token_of_its_form(client, app):
    public_id = start_game_with_token(client, ["Alice", "Bob"])
    url = f"{game_url(public_id)}/assistant"
    rows = {"row-0": "18", "row-1": "31", "row-2": "47", "row-3": "72"}
    before = dump(app)
    for path, data in [
        (f"{url}/rangees", {"number": "1", **rows}),
        (f"{url}/tours", {"turn": "1", "card-0": "9", "card-1": "50"}),
        (f"{url}/choix", {"turn": "1", "row": "1"}),
        (f"{url}/annuler", {"turn": "1"}),
    ]:
        assert client.post(path, data=data).status_code == 400, path
    assert dump(app) == before

    assert submit(client, public_id, "Poser les rangées", **rows).status_code == 303
    assert (
        submit(
            client, public_id, "Placer les cartes", **{"card-0": "9", "card-1": "50"}
        ).status_code
        == 303
    )
    assert submit(client, public_id, "Ramasser la rangée 2").status_code == 303
    assert submit(client, public_id, "Annuler le tour").status_code == 303
    assert dump(app) != before
    form = form_of(parse(client.get(url).data), "Placer les cartes")
    assert hidden_value(form, "turn") == "1"
