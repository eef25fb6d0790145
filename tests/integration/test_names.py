"""Names that would hide or reverse text are isolated wherever they are shown. (A name showing
nothing is refused, names are told apart without their invisible characters: tests/unit/test_rules.py.)"""

from __future__ import annotations

import re

from .actions import game_url, play_rounds, start_game

OVERRIDE = "\u202e"  # RIGHT-TO-LEFT OVERRIDE: reverses what follows, up to the end of its context


def assert_every_name_isolated(markup: str, name: str) -> None:
    """Each time the name is drawn, it is inside <bdi>, between U+2068 and U+2069 (plain text)
    or in a form field's value (which the browser isolates). The chart's <desc> is never drawn:
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
        ), markup[max(0, at - 80) : at + 80]


def test_a_name_ending_in_an_override_is_isolated_on_every_page(client):
    name = f"Bob{OVERRIDE}"
    finished = start_game(client, ["Alice", name])
    play_rounds(client, finished, [70, 2])
    playing = start_game(client, [name, "Carla"])
    play_rounds(client, playing, [3, 4])
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


def test_a_refused_round_names_the_player_isolated(client):
    name = f"Bob{OVERRIDE}"
    public_id = start_game(client, ["Alice", name])

    response = client.post(
        f"{game_url(public_id)}/manches", data={"number": "1", "heads-0": "1", "heads-1": "x"}
    )

    assert response.status_code == 422
    assert_every_name_isolated(response.get_data(as_text=True), name)


def test_a_duplicate_name_is_isolated_in_its_message(client, app):
    name = f"Bob{OVERRIDE}"

    response = client.post("/parties", data={"players-0": name, "players-1": name})

    assert_every_name_isolated(response.get_data(as_text=True), name)
