"""Parts of pages kept between requests (app/fragments.py) never show another state or game."""

from __future__ import annotations

from .actions import cancel_round, game_page, game_url, play_round, play_rounds, start_game
from .html import link, round_lines, totals


def _edit_links(page) -> list[str]:
    return [link(page, f"✎Modifier la manche {n}").attrs["href"] for n in (1, 2)]


def test_two_games_with_the_same_sheet_keep_their_own_links(client):
    first = start_game(client, ["Alice", "Bob"])
    second = start_game(client, ["Alice", "Bob"])
    for public_id in (first, second):
        play_rounds(client, public_id, [3, 5], [1, 0])

    for public_id in (first, second):
        assert _edit_links(game_page(client, public_id)) == [
            f"{game_url(public_id)}/manches/1",
            f"{game_url(public_id)}/manches/2",
        ]


def test_every_change_shows_at_once_even_back_to_an_earlier_sheet(client):
    public_id = start_game(client, ["Alice", "Bob"])
    play_rounds(client, public_id, [3, 5])
    assert round_lines(game_page(client, public_id)) == [[3, 5]]

    assert play_round(client, public_id, 2, [7, 1]).status_code == 303
    assert round_lines(game_page(client, public_id)) == [[3, 5], [7, 1]]
    assert cancel_round(client, public_id, 2).status_code == 303
    assert round_lines(game_page(client, public_id)) == [[3, 5]]
    assert totals(game_page(client, public_id)) == {"Alice": 3, "Bob": 5}

    # The same heads again: the same sheet as two steps ago, under a newer version.
    assert play_round(client, public_id, 2, [7, 1]).status_code == 303
    response = client.get(f"{game_url(public_id)}/manches/2")
    assert 'value="7"' in response.get_data(as_text=True)
    assert totals(game_page(client, public_id)) == {"Alice": 10, "Bob": 6}


def test_a_corrected_round_shows_in_the_history_at_once(client):
    public_id = start_game(client, ["Alice", "Bob"])
    play_rounds(client, public_id, [60, 5])
    assert "en cours" in client.get("/historique").get_data(as_text=True)

    page = client.get(f"{game_url(public_id)}/manches/1").get_data(as_text=True)
    version = page.split('name="version" value="')[1].split('"')[0]
    response = client.post(
        f"{game_url(public_id)}/manches/1",
        data={"version": version, "heads-0": "70", "heads-1": "5"},
    )
    assert response.status_code == 303

    history = client.get("/historique").get_data(as_text=True)
    assert "en cours" not in history
    assert "Gagnant : Bob (5)" in history


def test_pages_do_not_send_the_session_cookie_again_unchanged(client):
    public_id = start_game(client, ["Alice", "Bob"])
    client.get(game_url(public_id))  # the CSRF token is in the session from here on

    response = client.get(game_url(public_id))
    sent = response.headers.getlist("Set-Cookie")
    assert not [cookie for cookie in sent if cookie.startswith("session=")], sent
