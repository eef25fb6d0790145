"""Several phones, one table (issue 24): the scorer address, joining it, the table's rights and
its one history, the rematch that carries the table and the follow address on."""

from __future__ import annotations

import io
import re

import pytest

from .actions import (
    cancel_round,
    game_page,
    game_url,
    new_device,
    play_round,
    play_rounds,
    start_game,
    tap,
    version_of,
)
from .html import button, field_labelled, form_of, link, parse, round_lines, totals

# Who may write which game is the database's to say (the rights are one SQL condition, with a
# row lock on PostgreSQL): on both backends.
pytestmark = pytest.mark.storage

NAMES = ["Alice", "Bruno", "Chloé"]
SCORER = re.compile(r"^http://localhost/rejoindre/([A-Za-z0-9_-]{22,})$")


def invite(client, public_id: str) -> str:
    """Tap « Inviter à marquer » (the link, then the button) and return the scorer address."""
    page = parse(client.get(game_url(public_id)).data)
    invite_page = link(page, "Inviter à marquer")
    assert invite_page is not None, "no « Inviter à marquer » on the game page"
    form = form_of(parse(client.get(invite_page.get("href")).data), "Inviter à marquer")
    response = client.post(form.get("action"))
    assert response.status_code == 303
    shown = parse(client.get(response.headers["Location"]).data)
    links = [a for a in shown.find_all("a") if SCORER.match(a.get("href") or "")]
    assert len(links) == 1 and links[0].text == links[0].get("href"), shown.text
    assert any("QR" in (img.get("alt") or "") for img in shown.find_all("img"))
    return links[0].get("href")


def join(client, address: str):
    """Open the scorer address and tap « Rejoindre la table »."""
    page = client.get(address)
    assert page.status_code == 200
    assert page.headers["Referrer-Policy"] == "no-referrer"
    form = form_of(parse(page.data), "Rejoindre la table")
    return client.post(form.get("action"))


def test_a_joined_phone_scores_the_game_like_the_first(app, client):
    public_id = start_game(client, NAMES)
    play_rounds(client, public_id, [5, 6, 7])
    other = new_device(app)
    assert other.get(game_url(public_id)).status_code == 404  # not before joining

    joined = join(other, invite(client, public_id))

    assert joined.status_code == 303 and joined.headers["Location"].endswith(game_url(public_id))
    assert play_round(other, public_id, 2, [1, 2, 3]).status_code == 303
    assert cancel_round(other, public_id, 2).status_code == 303
    assert play_round(other, public_id, 2, [4, 0, 1]).status_code == 303
    assert round_lines(parse(client.get(game_url(public_id)).data)) == [[5, 6, 7], [4, 0, 1]]
    assert other.get(f"{game_url(public_id)}/manches/1").status_code == 200  # its edit form
    page = parse(other.get(game_url(public_id)).data)
    assert totals(page) == {"Alice": 9, "Bruno": 6, "Chloé": 8}


def test_the_same_round_from_two_phones_is_recorded_once(app, client):
    public_id = start_game(client, NAMES)
    other = new_device(app)
    join(other, invite(client, public_id))

    drawn = version_of(other, public_id)  # the other phone's page, open before the round
    assert play_round(client, public_id, 1, [5, 6, 7]).status_code == 303
    late = play_round(other, public_id, 1, [9, 9, 9], version=drawn)

    assert late.status_code == 409  # told the game changed, its own values kept
    told = parse(late.data)
    assert "La partie a changé sur un autre téléphone" in told.find(role="alert").text
    assert [field_labelled(told, name).get("value") for name in NAMES] == ["9", "9", "9"]
    assert round_lines(parse(client.get(game_url(public_id)).data)) == [[5, 6, 7]]


def test_the_history_and_statistics_are_the_tables_and_a_phones_own_games_stay_its_own(app, client):
    table_game = start_game(client, NAMES)
    own_game = start_game(client, ["Zoé", "Yann"])
    other = new_device(app)
    join(other, invite(client, table_game))
    others_own = start_game(other, ["Xavier", "Wanda"])
    play_round(other, table_game, 1, [70, 1, 2])  # scored by the joined phone: over

    ours = other.get("/historique").get_data(as_text=True)
    assert game_url(table_game) in ours and game_url(others_own) in ours
    assert game_url(own_game) not in ours
    assert game_url(others_own) not in client.get("/historique").get_data(as_text=True)
    stats = client.get("/statistiques").get_data(as_text=True)
    assert "Bruno" in stats and "Xavier" not in stats  # the table's game, scored by the other


def test_stopping_the_invitation_closes_the_address_and_keeps_the_phones_seated(app, client):
    public_id = start_game(client, NAMES)
    address = invite(client, public_id)
    seated, late = new_device(app), new_device(app)
    join(seated, address)
    page = parse(client.get(f"{game_url(public_id)}/inviter").data)

    assert client.post(form_of(page, "Arrêter l’invitation").get("action")).status_code == 303

    assert late.get(address).status_code == 404
    assert late.post(address).status_code == 404
    assert late.get(game_url(public_id)).status_code == 404
    assert seated.get(game_url(public_id)).status_code == 200
    assert invite(client, public_id) != address  # inviting again: a new address


def test_a_rematch_from_a_joined_phone_stays_at_the_table_and_keeps_the_follow_address(app, client):
    public_id = start_game(client, NAMES)
    other = new_device(app)
    join(other, invite(client, public_id))
    shared = client.post(f"{game_url(public_id)}/partage")
    assert shared.status_code == 303
    follow = parse(client.get(shared.headers["Location"]).data)
    address = next(a.get("href") for a in follow.find_all("a") if "/suivre/" in a.get("href"))
    play_round(client, public_id, 1, [70, 1, 2])

    again = tap(other, parse(other.get(game_url(public_id)).data), "Rejouer avec les mêmes joueurs")
    assert again.status_code == 303
    new_game = again.headers["Location"].rsplit("/", 1)[-1]
    from_first = tap(client, game_page(client, public_id), "Rejouer avec les mêmes joueurs")

    assert from_first.headers["Location"].endswith(game_url(new_game))  # the same new game
    old_page = parse(client.get(game_url(public_id)).data)  # Back, or history: where it went on
    assert link(old_page, "Aller à la nouvelle partie").get("href") == game_url(new_game)
    assert old_page.by_id("game").get("data-live") is None  # its stream would move on at once
    assert play_round(client, new_game, 1, [1, 2, 3]).status_code == 303
    watched = parse(new_device(app).get(address).data)
    assert round_lines(watched) == [[1, 2, 3]]  # the follow address goes on with the new game
    assert button(watched, "Valider la manche") is None


def test_a_scorer_address_that_does_not_exist_answers_404_without_a_cookie(app):
    stranger = new_device(app)

    response = stranger.get("/rejoindre/AAAAAAAAAAAAAAAAAAAAAA")

    assert response.status_code == 404
    assert stranger.get_cookie("appareil") is None


def test_a_tables_games_exported_by_a_joined_phone_import_as_the_importing_phones_own(app, client):
    public_id = start_game(client, NAMES)
    play_rounds(client, public_id, [5, 6, 7])
    joined, newcomer = new_device(app), new_device(app)
    join(joined, invite(client, public_id))
    exported = joined.get("/historique/export.json")
    assert exported.status_code == 200

    imported = newcomer.post(
        "/historique/import",
        data={"fichier": (io.BytesIO(exported.data), "parties.json")},
        content_type="multipart/form-data",
    )

    assert imported.status_code == 303
    history = newcomer.get("/historique").get_data(as_text=True)
    assert "Alice" in history and game_url(public_id) not in history  # a copy of its own
    assert round_lines(parse(client.get(game_url(public_id)).data)) == [[5, 6, 7]]


def test_a_phone_not_at_the_table_reaches_none_of_its_game(app, client):
    public_id = start_game(client, NAMES)
    play_rounds(client, public_id, [70, 1, 2])
    join(new_device(app), invite(client, public_id))
    stranger = new_device(app)
    stranger.get("/")  # a phone with its own device token

    for path in ("", "/direct", "/inviter", "/partage", "/manches/1", "/resultat.png",
                 "/export.json", "/assistant", "/compter"):  # fmt: skip
        assert stranger.get(game_url(public_id) + path).status_code == 404, path
    assert stranger.post(f"{game_url(public_id)}/inviter").status_code == 404
    assert stranger.post(f"{game_url(public_id)}/revanche").status_code == 404


OWN_PHONE_ONLY = "Seul le téléphone qui a commencé la partie"


def test_a_joined_phone_scores_but_only_the_games_own_phone_deletes_stops_or_unseats(app, client):
    public_id = start_game(client, NAMES)
    address = invite(client, public_id)
    assert client.post(f"{game_url(public_id)}/partage").status_code == 303
    joined = new_device(app)
    join(joined, address)
    url = game_url(public_id)

    game_page = parse(joined.get(url).data)
    assert link(game_page, "Supprimer la partie") is None
    assert link(game_page, "Quitter la table") is not None
    assert "Supprimer la partie" not in joined.get("/historique").get_data(as_text=True)
    shown = {path: parse(joined.get(url + path).data) for path in ("/inviter", "/partage")}
    assert form_of(shown["/inviter"], "Arrêter l’invitation") is None
    assert form_of(shown["/inviter"], "Inviter à marquer") is None
    assert form_of(shown["/partage"], "Arrêter le partage") is None
    assert link(shown["/inviter"], address) is not None  # it may pass the address on
    # Forged: refused in words, and nothing changes for the table.
    for path in ("/supprimer", "/partage/arreter", "/inviter", "/inviter/arreter",
                 "/inviter/retirer"):  # fmt: skip
        refused = joined.post(url + path)
        assert refused.status_code == 403, path
        assert OWN_PHONE_ONLY in refused.get_data(as_text=True), path
    assert joined.get(f"{url}/supprimer").status_code == 403

    assert client.get(url).status_code == 200 and joined.get(url).status_code == 200
    assert new_device(app).get(address).status_code == 200  # the invitation stands
    follow = parse(client.get(f"{url}/partage").data)
    assert form_of(follow, "Arrêter le partage") is not None  # still shared, by its own phone
    assert link(parse(client.get(url).data), "Supprimer la partie") is not None


def test_a_joined_phone_leaves_the_table_and_only_its_own_history_changes(app, client):
    public_id = start_game(client, NAMES)
    play_rounds(client, public_id, [5, 6, 7])
    joined = new_device(app)
    join(joined, invite(client, public_id))
    page = parse(joined.get(f"{game_url(public_id)}/inviter").data)

    left = joined.post(form_of(page, "Quitter la table").get("action"))

    assert left.status_code == 303
    assert game_url(public_id) not in joined.get("/historique").get_data(as_text=True)
    assert joined.get(game_url(public_id)).status_code == 404
    assert round_lines(parse(client.get(game_url(public_id)).data)) == [[5, 6, 7]]
    assert client.post(f"{game_url(public_id)}/quitter").status_code == 403  # its own: deletes


def test_removed_phones_stay_out_and_their_address_no_longer_seats_them(app, client):
    public_id = start_game(client, NAMES)
    address = invite(client, public_id)
    joined = new_device(app)
    join(joined, address)
    assert form_of(parse(joined.get(f"{game_url(public_id)}/inviter").data),
                   "Retirer les téléphones invités") is None  # fmt: skip

    page = parse(client.get(f"{game_url(public_id)}/inviter").data)
    removed = tap(client, page, "Retirer les téléphones invités")

    assert removed.status_code == 303
    told = client.get(removed.headers["Location"]).get_data(as_text=True)
    assert "1 téléphone invité retiré" in told and "l’adresse pour marquer a changé" in told
    for path in ("", "/direct"):
        assert joined.get(game_url(public_id) + path).status_code == 404, path
    assert joined.get(address).status_code == 404
    renewed = [a.get("href") for a in parse(told).find_all("a") if SCORER.match(a.get("href"))]
    assert renewed and renewed[0] != address  # the invitation stands, at a new address
    assert join(new_device(app), renewed[0]).status_code == 303
    assert joined.post(address).status_code == 404
    assert joined.get(game_url(public_id)).status_code == 404


def test_removing_the_invited_phones_leaves_one_seated_since_the_page_was_drawn(app, client):
    public_id = start_game(client, NAMES)
    address = invite(client, public_id)
    shown, later = new_device(app), new_device(app)
    join(shown, address)
    page = parse(client.get(f"{game_url(public_id)}/inviter").data)  # « 1 » phone to remove
    join(later, address)  # seated after the page was drawn: the page never showed it

    removed = tap(client, page, "Retirer les téléphones invités")

    told = client.get(removed.headers["Location"]).get_data(as_text=True)
    assert "1 téléphone invité retiré" in told
    assert "1 téléphone a rejoint la table depuis l’ouverture de cette page" in told
    assert shown.get(game_url(public_id)).status_code == 404
    assert later.get(game_url(public_id)).status_code == 200
