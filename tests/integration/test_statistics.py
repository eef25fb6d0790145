"""The « Statistiques » page over HTTP: the table, its figures as written, sorting by links, one
device's games only. What the figures are, and how each column sorts, is app.services.statistics'
(tests/unit/test_stats.py)."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

from .actions import cancel_round, new_device, play_rounds, start_game
from .html import Element, accessible_text, link, parse, table_named

COLUMNS = [
    "Joueur",
    "Parties jouées",
    "Victoires",
    "Taux de victoire",
    "Têtes par manche",
    "Meilleur total",
    "Pire total",
    "Pire manche",
    "Manches à 0",
    "Fins provoquées",
]


def statistics(client, query: str = "") -> Element:
    response = client.get("/statistiques" + query)
    assert response.status_code == 200
    return parse(response.data)


def stats_table(page: Element) -> Element:
    table = table_named(page, "Statistiques")
    assert table is not None, "no table named « Statistiques »"
    return table


def headers(page: Element) -> list[Element]:
    return stats_table(page).find("thead").find_all("th")


def header(page: Element, starts: str) -> Element:
    (found,) = [th for th in headers(page) if accessible_text(th).startswith(starts)]
    return found


def rows(page: Element) -> list[dict[str, str]]:
    """Return each line of the table as {column header: cell text}."""
    names = [accessible_text(th) for th in headers(page)]
    lines = []
    for row in stats_table(page).find("tbody").find_all("tr"):
        cells = [row.find("th"), *row.find_all("td")]
        lines.append(dict(zip(names, (cell.text for cell in cells), strict=True)))
    return lines


def by_player(page: Element) -> dict[str, dict[str, str]]:
    return {line["Joueur"].casefold(): line for line in rows(page)}


def players_in_order(page: Element) -> list[str]:
    return [line["Joueur"].casefold() for line in rows(page)]


def sort_link(page: Element, column: str) -> dict[str, list[str]]:
    """Return the query of the link in a column's header."""
    anchor = header(page, column).find("a")
    assert anchor is not None, f"the « {column} » header is not a link"
    target = urlsplit(anchor.get("href"))
    assert target.path == "/statistiques"
    return parse_qs(target.query)


def play_the_table(client) -> None:
    """Two finished games, one in progress; names typed with different case and spaces."""
    first = start_game(client, ["Alice", "Bob", "Carla"])
    play_rounds(client, first, [30, 12, 0], [40, 0, 30])  # Alice 70 ends it, Bob wins with 12
    second = start_game(client, ["  alice ", "BOB", "carla"])
    play_rounds(client, second, [8, 10, 20], [60, 10, 0])  # alice 68; BOB and carla share at 20
    in_progress = start_game(client, ["Alice", "Dan"])
    play_rounds(client, in_progress, [50, 1])


# --- Where it is and what it shows ----------------------------------------------------------------


def test_home_offers_the_statistics_with_or_without_a_game(client):
    assert link(parse(client.get("/").data), "Statistiques").get("href") == "/statistiques"
    start_game(client, ["Alice", "Bob"])

    assert link(parse(client.get("/").data), "Statistiques") is not None


def test_no_finished_game_no_table_but_a_word_of_explanation(client):
    public_id = start_game(client, ["Alice", "Bob"])
    play_rounds(client, public_id, [3, 4])

    page = statistics(client)

    assert table_named(page, "Statistiques") is None
    assert "partie terminée" in page.find("main").text


def test_the_table_has_one_row_per_player_and_the_promised_columns(client):
    play_the_table(client)

    page = statistics(client)

    assert [accessible_text(th) for th in headers(page)] == COLUMNS
    assert all(th.get("scope") == "col" for th in headers(page))
    # Dan only played an unfinished game.
    assert sorted(by_player(page)) == ["alice", "bob", "carla"]
    assert all(
        row.find("th").get("scope") == "row"
        for row in stats_table(page).find("tbody").find_all("tr")
    )


def test_the_figures_of_each_player_as_written(client):
    play_the_table(client)

    figures = by_player(statistics(client))

    assert figures["alice"] == {
        "Joueur": figures["alice"]["Joueur"],
        "Parties jouées": "2",
        "Victoires": "0",
        "Taux de victoire": "0 %",
        "Têtes par manche": "34,5",
        "Meilleur total": "68",
        "Pire total": "70",
        "Pire manche": "60",
        "Manches à 0": "0",
        "Fins provoquées": "2",
    }
    # Other rows and sorting: tests/unit/test_stats.py::test_figures_match_a_plain_model.


def test_a_win_rate_of_two_thirds_is_rounded(client):
    for heads in ([67, 1], [1, 67], [1, 67]):
        play_rounds(client, start_game(client, ["Alice", "Bob"]), heads)

    assert by_player(statistics(client))["alice"]["Taux de victoire"] == "67 %"


def test_another_device_sees_only_its_own_games(app, client):
    play_the_table(client)
    other = new_device(app)
    play_rounds(other, start_game(other, ["Zoé", "Alice"]), [1, 67])

    figures = by_player(statistics(other))

    assert sorted(figures) == ["alice", "zoé"]
    assert figures["alice"]["Parties jouées"] == "1"


def test_names_are_shown_as_text(client):
    public_id = start_game(client, ["<b>Alice</b>", "Bob"])
    play_rounds(client, public_id, [67, 1])

    response = client.get("/statistiques")

    assert b"<b>Alice</b>" not in response.data
    assert "<b>alice</b>" in by_player(parse(response.data))


def test_each_game_has_its_own_table_the_most_played_first_the_others_a_link_away(client):
    play_rounds(client, start_game(client, ["Alice", "Bob"]), [67, 1])
    for _ in range(2):
        flip_7 = start_game(client, ["Alice", "Bob"], game="flip-7")
        play_rounds(client, flip_7, [171, 40], [59, 0])

    page = statistics(client)

    assert page.find("h2").text == "Flip 7"
    assert "Le plus grand total gagne." in page.find("main").text
    assert header(page, "Points par manche") is not None
    assert {name: line["Victoires"] for name, line in by_player(page).items()} == {
        "alice": "2",  # 230 against 40: the highest total wins
        "bob": "0",
    }
    games = page.find("nav", aria_label="Jeux").find_all("a")
    assert [(a.get("href"), a.get("aria-current")) for a in games] == [
        ("/statistiques?jeu=flip-7", "page"),
        ("/statistiques?jeu=6-qui-prend", None),
    ]
    assert sort_link(page, "Victoires")["jeu"] == ["flip-7"]  # sorting stays on its game

    six = statistics(client, "?jeu=6-qui-prend")

    assert header(six, "Têtes par manche") is not None
    assert by_player(six)["bob"]["Victoires"] == "1"


def test_free_games_of_one_name_are_told_apart_by_who_wins(client):
    for best, rounds in (("highest", [80, 10]), ("lowest", [5, 30])):
        fields = {"game": "libre", "title": "Rami", "best": best, "end": "rounds"}
        play_rounds(
            client, start_game(client, ["Anne", "Bruno"], round_count="1", **fields), rounds
        )

    page = statistics(client)

    links = [a.text for a in page.find("nav", aria_label="Jeux").find_all("a")]
    assert sorted(links) == ["Rami — le plus grand total gagne", "Rami — le plus petit total gagne"]
    assert by_player(page)["anne"]["Victoires"] == "1"


# --- Sorting --------------------------------------------------------------------------------------


def test_every_column_header_is_a_sorting_link(client):
    play_the_table(client)

    page = statistics(client)

    assert players_in_order(page) == ["bob", "carla", "alice"]  # most wins first, and says so
    assert [th.get("aria-sort") for th in headers(page)] == [
        "descending" if column == "Victoires" else None for column in COLUMNS
    ]
    keys = set()
    for column in COLUMNS:
        query = sort_link(page, column)
        keys.add(query["tri"][0])
    assert len(keys) == len(COLUMNS)


def test_the_current_columns_link_reverses_the_order(client):
    play_the_table(client)
    page = statistics(client)

    query = sort_link(page, "Victoires")
    reversed_page = statistics(client, f"?tri={query['tri'][0]}&ordre={query['ordre'][0]}")

    assert query["ordre"] == ["asc"]
    assert players_in_order(reversed_page) == ["alice", "carla", "bob"]
    assert header(reversed_page, "Victoires").get("aria-sort") == "ascending"
    assert sort_link(reversed_page, "Victoires")["ordre"] == ["desc"]


def test_the_table_can_scroll_sideways_on_a_phone_inside_a_named_region(client):
    play_the_table(client)

    page = statistics(client)

    region = page.find(role="region")
    assert region is not None and region.get("tabindex") == "0"
    assert page.by_id(region.get("aria-labelledby")).text == "Statistiques"
    assert region.find("table") is not None


def test_the_statistics_and_the_export_follow_every_change(client):
    game = start_game(client, ["Zélie", "Yvon"])
    play_rounds(client, game, [70, 1])
    before = client.get("/statistiques").data, client.get("/historique/export.json").data
    assert "Zélie".encode() in before[0]

    cancel_round(client, game, 1)  # the game is no longer over: no statistics, another export

    assert "Zélie".encode() not in client.get("/statistiques").data
    assert client.get("/historique/export.json").data != before[1]
