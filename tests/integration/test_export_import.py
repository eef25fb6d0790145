"""Export of games (CSV, JSON) and import of the JSON, through HTTP on both backends.

A second test client with no cookies is another phone: games go from one to the other by file.
"""

from __future__ import annotations

import csv
import io
import json
import threading

import pytest
import sqlalchemy as sa
from werkzeug.http import parse_options_header

from app.platform.extensions import db
from app.storage.models import Game, Round

from .actions import (
    cancel_round,
    dump,
    game_page,
    game_url,
    new_device,
    play_rounds,
    round_data,
    start_game,
    version_of,
)
from .html import (
    Element,
    button,
    field_labelled,
    form_of,
    link,
    parse,
    round_lines,
    status_text,
    table_named,
    totals,
)

pytestmark = pytest.mark.storage  # on SQLite and PostgreSQL


def export_game(client, public_id: str, kind: str):
    return client.get(f"{game_url(public_id)}/export.{kind}")


def export_all(client, kind: str):
    return client.get(f"/historique/export.{kind}")


def exported_games(client) -> list[dict]:
    response = export_all(client, "json")
    assert response.status_code == 200
    return json.loads(response.data)["games"]


def import_file(client, data: bytes, filename: str = "parties.json"):
    return client.post(
        "/historique/import",
        data={"fichier": (io.BytesIO(data), filename)},
        content_type="multipart/form-data",
    )


def history(client) -> Element:
    response = client.get("/historique")
    assert response.status_code == 200
    return parse(response.data)


def history_links(client) -> list[str]:
    """The addresses of the games listed in the history, newest first."""
    listing = history(client).find("ol", class_="history")
    if listing is None:
        return []
    return [a.get("href") for a in listing.find_all("a") if a.text != "Supprimer la partie"]


def read_csv(response) -> list[list[str]]:
    return list(csv.reader(io.StringIO(response.data.decode("utf-8-sig"))))


def attachment_name(response) -> str:
    disposition, options = parse_options_header(response.headers["Content-Disposition"])
    assert disposition == "attachment"
    return options["filename"]


def what_a_player_sees(client, address: str) -> dict:
    page = parse(client.get(address).data)
    return {
        "rounds": round_lines(page),
        "totals": totals(page),
        "result": status_text(page),
        "rule": page.find(class_="rule-in-force").text,
        "over": form_of(page, "Valider la manche") is None,
    }


def play_a_table(client) -> list[str]:
    """Three games, oldest first: finished by default, finished with a variant, in progress."""
    first = start_game(client, ["Alice", "Bob", "Carla"])
    play_rounds(client, first, [10, 20, 3], [50, 8, 30], [12, 0, 9])
    second = start_game(client, ["Dan", "Eve"], end="rounds", round_count="2", pro="y")
    play_rounds(client, second, [4, 4], [1, 2])
    third = start_game(client, ["Fay", "Gus", "Hal", "Ivy"], end="other_limit", limit="120")
    play_rounds(client, third, [80, 1, 2, 3])
    return [first, second, third]


# --- What the pages offer -------------------------------------------------------------------------


def test_a_game_page_offers_both_exports(client):
    public_id = start_game(client, ["Alice", "Bob"])
    play_rounds(client, public_id, [1, 2])

    page = game_page(client, public_id)

    assert link(page, "Exporter en CSV").get("href") == f"{game_url(public_id)}/export.csv"
    assert link(page, "Exporter en JSON").get("href") == f"{game_url(public_id)}/export.json"


def test_the_history_offers_to_export_everything_and_to_import(client):
    page = history(client)

    assert link(page, "Exporter toutes les parties").get("href") == "/historique/export.json"
    form = form_of(page, "Importer")
    assert form.get("method") == "post" and form.get("action") == "/historique/import"
    assert form.get("enctype") == "multipart/form-data"
    assert form.find("legend").text == "Importer des parties"
    field = field_labelled(form, "Fichier de parties")
    assert field.get("type") == "file" and field.get("name") == "fichier"


# --- Export ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "mimetype"),
    [
        ("/parties/{first}/export.csv", "text/csv"),
        ("/parties/{first}/export.json", "application/json"),
        ("/historique/export.csv", "text/csv"),
        ("/historique/export.json", "application/json"),
    ],
)
def test_exports_download_as_attachments_of_this_device_only(app, client, path, mimetype):
    # What the files hold is tests/unit/test_transfer.py's; here the HTTP answer and whose games.
    ids = play_a_table(client)
    start_game(new_device(app), ["Zoé", "Yann"])

    response = client.get(path.format(first=ids[0]))

    assert response.status_code == 200 and response.mimetype == mimetype
    assert attachment_name(response).endswith("." + path.rsplit(".", 1)[1])
    assert "Zoé".encode() not in response.data
    if path == "/historique/export.json":
        assert [game["id"] for game in json.loads(response.data)["games"]] == ids


def test_csv_headers_and_the_files_name_are_in_the_requests_language(client):
    public_id = start_game(client, ["Alice", "Bob"])
    play_rounds(client, public_id, [1, 2])
    english = {"Accept-Language": "en"}

    one = read_csv(client.get(f"{game_url(public_id)}/export.csv", headers=english))
    response = client.get("/historique/export.csv", headers=english)

    assert one[:2] == [["Name of the game", "Take 6!"], ["Round", "Alice", "Bob"]]
    every = read_csv(response)
    assert every[0][:6] == ["Game", "Name of the game", "Date", "Round", "Player 1", "Bullheads 1"]
    assert attachment_name(response) == "take-6-games.csv"


@pytest.mark.parametrize(
    "path",
    [
        "/parties/{id}/export.xml",
        "/parties/{id}/export.",
        "/historique/export.txt",
        "/parties/inconnue/export.json",
    ],
)
def test_unknown_exports_are_not_found(client, path):
    public_id = start_game(client, ["Alice", "Bob"])

    assert client.get(path.format(id=public_id)).status_code == 404


# --- Import ---------------------------------------------------------------------------------------


def test_games_move_to_another_phone_as_they_were(app, client):
    play_a_table(client)
    exported = export_all(client, "json").data
    phone = new_device(app)

    response = import_file(phone, exported)

    assert response.status_code == 303 and response.headers["Location"] == "/historique"
    assert "3 parties importées" in status_text(history(phone))
    theirs, ours = history_links(phone), history_links(client)
    assert len(theirs) == len(ours) == 3
    for mine, copied in zip(ours, theirs, strict=True):
        assert mine != copied
        assert what_a_player_sees(phone, copied) == what_a_player_sees(client, mine)
    assert exported_games(phone) == exported_games(client)  # and export back as they came


def sheet_seen(client, address: str) -> tuple:
    """The totals, the rule and the « Manches » table as read (a doubled score says « ×2 »)."""
    page = parse(client.get(address).data)
    rounds = table_named(page, "Manches")
    return totals(page), page.find(class_="rule-in-force").text, rounds.text


def test_each_game_moves_with_its_name_its_rule_and_who_ended_each_round(app, client):
    skyjo = start_game(client, ["Alice", "Bob"], game="skyjo")
    for number, (scores, ender) in enumerate([([20, 20], "0"), ([45, -2], "1")], start=1):
        data = round_data(number, scores, version_of(client, skyjo)) | {"ended_by": ender}
        assert client.post(f"{game_url(skyjo)}/manches", data=data).status_code == 303
    tarot = start_game(
        client,
        ["Cleo", "Dan"],
        game="libre",
        title="Tarot",
        best="highest",
        end="rounds",
        round_count="2",
    )
    play_rounds(client, tarot, [-20, 60])
    phone = new_device(app)

    import_file(phone, export_all(client, "json").data)

    games = exported_games(phone)
    assert games == exported_games(client)
    assert [(g["game"], g.get("title"), g.get("ended_by")) for g in games] == [
        ("skyjo", None, [0, 1]),
        ("libre", "Tarot", None),
    ]
    theirs, ours = history_links(phone), history_links(client)
    for mine, copied in zip(ours, theirs, strict=True):
        assert sheet_seen(phone, copied) == sheet_seen(client, mine)
    assert sheet_seen(phone, theirs[1])[0] == {"Alice": 85, "Bob": 18}  # a tie doubled 20


def test_a_file_from_before_other_games_imports_as_6_qui_prend(app, client):
    old = {
        "format": "six-qui-prend",
        "version": 1,
        "games": [
            {
                "id": "from-2025",
                "created_at": "2025-11-29T19:05:00Z",
                "rules": {"end": "above", "limit": 66, "round_count": None, "pro": False},
                "players": ["Alice", "Bob"],
                "rounds": [[10, 20]],
            }
        ],
    }

    assert import_file(client, json.dumps(old).encode()).status_code == 303

    (game,) = exported_games(client)
    assert game["game"] == "6-qui-prend"
    (address,) = history_links(client)
    assert parse(client.get(address).data).find(class_="game-name").text == "6 qui prend !"


def test_an_imported_game_in_progress_can_be_played_on(app, client):
    public_id = start_game(client, ["Alice", "Bob"], end="other_limit", limit="30")
    play_rounds(client, public_id, [20, 1])
    phone = new_device(app)
    import_file(phone, export_game(client, public_id, "json").data)
    (copied,) = history_links(phone)

    play_rounds(phone, copied.removeprefix("/parties/"), [11, 1])

    seen = what_a_player_sees(phone, copied)
    assert seen["over"] and "Bob" in seen["result"]
    assert round_lines(game_page(client, public_id)) == [[20, 1]]  # the original is untouched


def test_imported_games_count_in_the_statistics_of_the_new_phone(app, client):
    play_a_table(client)
    phone = new_device(app)
    import_file(phone, export_all(client, "json").data)
    phone.get("/historique")  # where the import sends the phone, with its message

    assert phone.get("/statistiques").data == client.get("/statistiques").data


def test_importing_the_same_file_twice_adds_nothing_the_second_time(app, client):
    play_a_table(client)
    exported = export_all(client, "json").data
    phone = new_device(app)
    import_file(phone, exported)
    before = dump(app)

    response = import_file(phone, exported)

    assert response.status_code == 303
    notice = status_text(history(phone))  # the message is shown once, on the next page
    assert "Aucune partie importée" in notice and "3 déjà présentes" in notice
    assert dump(app) == before
    assert len(history_links(phone)) == 3


def test_a_game_that_went_there_and_back_is_not_duplicated(app, client):
    play_a_table(client)
    phone = new_device(app)
    import_file(phone, export_all(client, "json").data)
    before = dump(app)

    import_file(client, export_all(phone, "json").data)

    assert dump(app) == before
    assert len(history_links(client)) == 3


def test_a_game_played_on_elsewhere_comes_back_with_its_new_rounds(app, client):
    public_id = start_game(client, ["Alice", "Bob"])
    play_rounds(client, public_id, [1, 2])
    phone = new_device(app)
    import_file(phone, export_game(client, public_id, "json").data)
    (copied,) = history_links(phone)
    play_rounds(phone, copied.removeprefix("/parties/"), [3, 4], [5, 6])

    import_file(client, export_all(phone, "json").data)

    notice = status_text(history(client))
    assert "1 partie de cet appareil complétée par les manches du fichier" in notice
    assert "importée" not in notice
    assert history_links(client) == [game_url(public_id)]
    assert what_a_player_sees(client, game_url(public_id)) == what_a_player_sees(phone, copied)


@pytest.mark.parametrize(
    ("here", "there", "said"),
    [
        # The phone played on after the copy left: the file has nothing new.
        ([[3, 4]], [], "1 déjà présente sur cet appareil"),
        # Both went on, each its own way: neither is lost, nothing is mixed.
        ([[3, 4]], [[4, 3]], "1 partie de cet appareil diffère de sa copie du fichier"),
    ],
)
def test_a_game_the_phone_has_further_or_otherwise_stays_as_it_is(app, client, here, there, said):
    public_id = start_game(client, ["Alice", "Bob"])
    play_rounds(client, public_id, [1, 2])
    phone = new_device(app)
    import_file(phone, export_game(client, public_id, "json").data)
    play_rounds(phone, history_links(phone)[0].removeprefix("/parties/"), *there)
    play_rounds(client, public_id, *here)
    before = dump(app)

    import_file(client, export_all(phone, "json").data)

    assert said in status_text(history(client))
    assert dump(app) == before


def test_a_round_cancelled_here_does_not_come_back_from_a_copy_that_kept_it(app, client):
    public_id = start_game(client, ["Alice", "Bob"])
    play_rounds(client, public_id, [1, 2], [3, 4])
    phone = new_device(app)
    import_file(phone, export_game(client, public_id, "json").data)
    cancel_round(client, public_id, 2)
    before = dump(app)

    import_file(client, export_all(phone, "json").data)

    assert "1 partie de cet appareil diffère de sa copie du fichier" in status_text(history(client))
    assert dump(app) == before  # « Rétablir la manche 2 » still offered


def test_a_game_twice_in_a_file_is_imported_as_played_furthest(app, client):
    public_id = start_game(client, ["Alice", "Bob"])
    play_rounds(client, public_id, [1, 2])
    document = json.loads(export_game(client, public_id, "json").data)
    play_rounds(client, public_id, [3, 4])
    document["games"] += json.loads(export_game(client, public_id, "json").data)["games"]
    phone = new_device(app)

    import_file(phone, json.dumps(document).encode())

    assert status_text(history(phone)) == "1 partie importée."
    (copied,) = history_links(phone)
    assert round_lines(game_page(phone, copied.removeprefix("/parties/"))) == [[1, 2], [3, 4]]


def test_a_game_listed_twice_in_a_file_is_said_once(app, client):
    public_id = start_game(client, ["Alice", "Bob"])
    play_rounds(client, public_id, [1, 2])
    further = json.loads(export_game(client, public_id, "json").data)
    other = json.loads(json.dumps(further))
    further["games"][0]["rounds"].append([3, 4])
    other["games"][0]["rounds"].append([4, 3])
    further["games"] += other["games"]
    phone = new_device(app)
    import_file(phone, export_game(client, public_id, "json").data)
    history(phone)  # its message said

    import_file(phone, json.dumps(further).encode())

    said = status_text(history(phone)).replace("\u202f", " ")
    assert said == (
        "1 partie de cet appareil complétée par les manches du fichier. "
        "1 partie figure plusieurs fois dans le fichier, en copies qui diffèrent : "
        "la première a été prise, les autres laissées de côté."
    )


def test_two_copies_of_a_game_gone_different_ways_in_one_file_are_said_and_the_first_kept(
    app, client
):
    public_id = start_game(client, ["Alice", "Bob"])
    play_rounds(client, public_id, [1, 2])
    document = json.loads(export_game(client, public_id, "json").data)
    first, second = document["games"][0], json.loads(json.dumps(document["games"][0]))
    first["rounds"].append([3, 4])
    second["rounds"].append([5, 6])
    document["games"] = [first, second]
    phone = new_device(app)

    import_file(phone, json.dumps(document).encode())

    said = status_text(history(phone))
    assert said.startswith("1 partie importée. 1 partie figure plusieurs fois dans le fichier")
    (copied,) = history_links(phone)
    assert round_lines(game_page(phone, copied.removeprefix("/parties/"))) == [[1, 2], [3, 4]]


def test_a_round_recorded_here_during_an_import_is_compared_not_built_on(app, client):
    """The import waits for a write already under way (a round of the table), then compares
    the game as that write left it: here a round 2 other than the file's."""
    public_id = start_game(client, ["Alice", "Bob"])
    play_rounds(client, public_id, [1, 2])
    phone = new_device(app)
    import_file(phone, export_game(client, public_id, "json").data)
    play_rounds(phone, history_links(phone)[0].removeprefix("/parties/"), [3, 4], [5, 6])
    exported = export_all(phone, "json").data

    with (
        app.app_context(),
        db.engine.connect().execution_options(sqlite_begin="IMMEDIATE") as other,
    ):
        with other.begin():  # SQLite: the write lock; PostgreSQL: the game's row, below
            game_id = other.execute(
                sa.select(Game.id).where(Game.public_id == public_id).with_for_update()
            ).scalar_one()
            importing = threading.Thread(target=import_file, args=(client, exported))
            importing.start()
            importing.join(0.5)  # it waits for the lock
            other.execute(sa.insert(Round).values(game_id=game_id, number=2, scores=[7, 8]))
            # No kept sheet: the reads take the rounds' rows (a write by other means).
            other.execute(
                sa.update(Game)
                .where(Game.id == game_id)
                .values(version=Game.version + 1, kept_sheet=None)
            )
        importing.join(15)

    assert "1 partie de cet appareil diffère de sa copie du fichier" in status_text(history(client))
    assert round_lines(game_page(client, public_id)) == [[1, 2], [7, 8]]


def test_only_the_games_not_there_yet_are_added(app, client):
    first, second, _ = play_a_table(client)
    phone = new_device(app)
    import_file(phone, export_game(client, first, "json").data)

    import_file(phone, export_all(client, "json").data)

    notice = status_text(history(phone))  # the message is shown once, on the next page
    assert "2 parties importées" in notice and "1 déjà présente" in notice
    assert len(history_links(phone)) == 3


def test_a_game_twice_in_the_same_file_is_added_once(app, client):
    public_id = start_game(client, ["Alice", "Bob"])
    play_rounds(client, public_id, [1, 2])
    document = json.loads(export_game(client, public_id, "json").data)
    document["games"] *= 2
    phone = new_device(app)

    import_file(phone, json.dumps(document).encode())

    assert len(history_links(phone)) == 1


def test_an_import_goes_to_the_importing_device_only(app, client):
    play_a_table(client)
    exported = export_all(client, "json").data
    phone, bystander = new_device(app), new_device(app)

    import_file(phone, exported)

    assert history_links(bystander) == []
    assert exported_games(bystander) == []
    assert read_csv(export_all(bystander, "csv"))[1:] == []


# --- Refused imports ------------------------------------------------------------------------------


def refused_import(app, client, data: bytes, filename: str = "parties.json") -> Element:
    before = dump(app)
    response = import_file(client, data, filename)
    assert response.status_code == 422
    assert dump(app) == before
    page = parse(response.data)
    field = field_labelled(page, "Fichier de parties")
    assert field.get("aria-invalid") == "true"
    assert page.by_id(field.get("aria-describedby")) is not None
    return page


def alert_text(page: Element) -> str:
    alert = page.find(role="alert")
    assert alert is not None, "the refusal is not announced"
    return alert.text


def test_a_wrong_round_refuses_the_whole_file_naming_the_game_and_the_round(app, client):
    play_a_table(client)
    document = json.loads(export_all(client, "json").data)
    document["games"][2]["rounds"].append([1, 2, 3, 200])
    phone = new_device(app)

    page = refused_import(app, phone, json.dumps(document).encode())

    text = alert_text(page)
    assert "Rien n’a été importé" in text
    assert "Partie 3" in text and "Fay" in text and "manche 2" in text
    assert history_links(phone) == []


def test_a_game_of_20000_rounds_is_refused_by_its_count(app, client):
    # 240 KB, far under the size limit: it held a worker for minutes, each round summed again.
    game = {
        "id": "long-one",
        "created_at": "2026-11-29T19:05:00Z",
        "game": "libre",
        "title": "Yams",
        "rules": {"end": "at_or_above", "limit": 999_999, "best": "highest"},
        "players": ["Alice", "Bob"],
        "rounds": [[1, 2]] * 20_000,
    }
    document = {"format": "six-qui-prend", "version": 1, "games": [game]}

    page = refused_import(app, client, json.dumps(document).encode())

    text = alert_text(page).replace("\u202f", " ")
    assert (
        "Partie 1 (Alice, Bob) : trop de manches (20 000 : 500 au plus)" in text
    )  # spaces as read


def test_a_refusal_is_said_in_the_requests_language(app, client):
    game = {
        "id": "from-a-file",
        "created_at": "2026-11-29T19:05:00Z",
        "rules": {"end": "above", "limit": 66, "round_count": None, "pro": False},
        "players": ["Alice", "Bob", "Carla"],
        "rounds": [[98, 0, 0]],
    }
    document = {"format": "six-qui-prend", "version": 1, "games": [game]}
    client.set_cookie("lang", "de")
    before = dump(app)

    response = import_file(client, json.dumps(document).encode())

    assert response.status_code == 422 and dump(app) == before
    text = alert_text(parse(response.data))
    assert "Nichts wurde importiert" in text
    assert "Spiel 1 (Alice, Bob, Carla)" in text and "Runde 1" in text and "zu viel" in text
    assert "Partie" not in text and "manche" not in text


@pytest.mark.parametrize(
    "body, said",
    [(None, "Choisissez un fichier"), (b"", "Ce fichier est vide")],
    ids=["no-file", "empty-file"],
)
def test_sending_no_file_is_refused_with_a_message(app, client, body, said):
    before = dump(app)
    data = {} if body is None else {"fichier": (io.BytesIO(body), "parties.json")}

    response = client.post("/historique/import", data=data, content_type="multipart/form-data")

    assert response.status_code == 422
    assert said in alert_text(parse(response.data))
    assert dump(app) == before


def test_the_refusal_page_still_lists_the_devices_games(app, client):
    play_a_table(client)

    page = refused_import(app, client, b"[]")

    assert len(page.find("ol", class_="history").find_all("li")) == 3
    assert button(page, "Importer") is not None
