"""Unit tests of app.services.transfer and import_file: export to JSON and CSV, and the checks of an import (no database).

Games are frozen SavedGames, as the services hand them to the export; the JSON documents are
written here by hand (as docs/export-format.md describes them) or exported then read back. A
refusal is read in French (str of its Messages), as a request without a language says it.
"""

from __future__ import annotations

import copy
import csv
import io
import json
from datetime import datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app import rules
from app.rules import EndRule, GameRules, Message, Scoresheet
from app.rules.games import six_nimmt
from app.rules.games.six_nimmt import SIX_NIMMT, cards
from app.services.import_file import parse_export
from app.services.saved_game import SavedGame
from app.services.transfer import FORMAT, VERSION, export_json, file_name, game_csv, games_csv

CREATED = datetime(2026, 11, 29, 19, 5, 0, 123456)
FREE = rules.game_of("libre")
SKYJO = GameRules.of(rules.game_of("skyjo"))
FLIP_7 = GameRules.of(rules.game_of("flip-7"))


def free_rules(title, best=rules.Best.LOWEST, **end):
    end = end or {"end": EndRule.ROUNDS, "round_count": 1}
    return GameRules.of(rules.game_of("libre"), chosen_best=best, title=title, **end)


def make_game(
    players,
    rounds,
    game_rules=GameRules.of(SIX_NIMMT),
    *,
    public_id="partie-1",
    origin_id=None,
    created_at=CREATED,
    enders=(),
) -> SavedGame:
    """A stored game as the services hand it to the export."""
    sheet = Scoresheet(tuple(players), tuple(map(tuple, rounds)), game_rules, tuple(enders))
    return SavedGame(public_id, len(rounds) + 1, created_at, sheet, origin_id=origin_id)


def document(*games: dict) -> dict:
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": "2026-11-29T21:00:00Z",
        "games": list(games),
    }


def raw_game(**changes) -> dict:
    game = {
        "id": "9-NmQWOtf9K6ZRnuSsP3Ww",
        "created_at": "2026-11-29T19:05:00Z",
        "finished_at": "2026-11-29T20:12:41Z",
        "rules": {"end": "above", "limit": 66, "round_count": None, "pro": False},
        "players": ["Alice", "Bob", "Carla"],
        "rounds": [[10, 20, 3], [50, 8, 30], [12, 0, 9]],
        "totals": [72, 28, 42],
        "winners": ["Bob"],
    }
    game.update(changes)
    return game


def encoded(doc) -> bytes:
    return json.dumps(doc, ensure_ascii=False).encode()


def refused(data: bytes) -> rules.Refusal:
    with pytest.raises(rules.Refusal) as refused:
        parse_export(data)
    assert refused.value.whole and not refused.value.fields, "a file is refused as a whole"
    return refused.value


def refusal(data: bytes) -> list[str]:
    """What the refusal of a file says, in French."""
    return [str(message) for message in refused(data).whole]


# --- Export → import ------------------------------------------------------------------------------


def test_the_documented_example_is_accepted():
    games = parse_export(encoded(document(raw_game())))

    assert len(games) == 1
    game = games[0]
    assert game.origin_id == "9-NmQWOtf9K6ZRnuSsP3Ww"
    assert game.sheet.players == ("Alice", "Bob", "Carla")
    assert game.sheet.rounds == ((10, 20, 3), (50, 8, 30), (12, 0, 9))
    assert game.sheet.is_over
    assert game.created_at == datetime(2026, 11, 29, 19, 5)


def test_the_export_states_format_version_rules_totals_and_winners():
    game = make_game(
        ["Alice", "Bob"],
        [[30, 30], [37, 5]],
        GameRules.of(SIX_NIMMT, end=EndRule.AT_OR_ABOVE),
    )

    exported = json.loads(export_json([game]))

    assert (exported["format"], exported["version"]) == ("six-qui-prend", 1)
    (record,) = exported["games"]
    assert record["rules"] == {"end": "at_or_above", "limit": 66, "round_count": None, "pro": False}
    assert record["players"] == ["Alice", "Bob"]
    assert record["rounds"] == [[30, 30], [37, 5]]
    assert record["totals"] == [67, 35]
    assert record["winners"] == ["Bob"]
    assert record["created_at"] == "2026-11-29T19:05:00.123456Z"
    assert "finished_at" not in record  # it follows from the rounds


def test_a_shared_win_exports_every_winner_in_seat_order():
    game = make_game(["Alice", "Bob", "Carla"], [[70, 5, 5]])

    (record,) = json.loads(export_json([game]))["games"]

    assert record["winners"] == ["Bob", "Carla"]


def test_an_imported_game_keeps_its_first_id_when_exported_again():
    imported_elsewhere = make_game(
        ["Alice", "Bob"], [[1, 2]], public_id="local-id", origin_id="first-phone-id"
    )

    (record,) = json.loads(export_json([imported_elsewhere]))["games"]

    assert record["id"] == "first-phone-id"


def test_an_end_date_in_the_file_is_ignored_the_end_follows_from_the_rounds():
    # Marked finished in the file, but nobody went past 66: it is a game in progress.
    (game,) = parse_export(encoded(document(raw_game(rounds=[[1, 2, 3]]))))

    assert not game.sheet.is_over


def test_a_byte_order_mark_is_accepted():
    data = "\ufeff".encode() + encoded(document(raw_game()))

    assert len(parse_export(data)) == 1


NAME_CHARACTERS = st.characters(
    categories=["L", "N", "P", "S", "Zs"], exclude_characters="\u2028\u2029"
)


def six_nimmt_rounds(draw, game_rules: GameRules, n: int) -> Scoresheet:
    pro = six_nimmt.pro_deck(game_rules.variants)
    most_for_player = cards.max_heads_for_player(n, pro)
    most_for_round = cards.max_heads_for_round(n, pro)
    sheet = Scoresheet(tuple(f"p{seat}" for seat in range(n)), (), game_rules)
    for _ in range(draw(st.integers(0, 12))):
        if sheet.is_over:
            break
        left = draw(st.integers(1, most_for_round))
        heads = []
        for _seat in range(n):
            value = draw(st.integers(0, min(left, most_for_player)))
            heads.append(value)
            left -= value
        if sum(heads) == 0:
            heads[draw(st.integers(0, n - 1))] = 1
        sheet = sheet.with_round(rules.RoundScores(tuple(heads)))
    return sheet


def other_game_rounds(draw, game_rules: GameRules, n: int) -> Scoresheet:
    """Rounds the game's own rules take (Skyjo's enders, Flip 7's reachable scores)."""
    game = game_rules.game
    low, high = game.score_range
    players = tuple(f"p{seat}" for seat in range(n))
    sheet = Scoresheet(players, (), game_rules)
    for _ in range(draw(st.integers(0, 8))):
        if sheet.is_over:
            break
        scores = tuple(draw(st.integers(low, high)) for _ in range(n))
        ender = draw(st.integers(0, n - 1)) if game.round_ender else None
        try:
            typed = game.check_round(rules.RoundScores(scores, ender), players)
        except rules.Refusal:
            continue  # a score no hand makes (Flip 7)
        sheet = sheet.with_round(typed)
    return sheet


def any_rules(draw, game: rules.RoundGame) -> GameRules:
    """A game's rules as the new-game form makes them: its own end, a limit, or rounds."""
    variants = [variant.key for variant in game.variants if draw(st.booleans())]
    title = None
    if game.best is None:
        title = " ".join(draw(st.text(NAME_CHARACTERS, max_size=40)).split()) or "Yams"
    best = draw(st.sampled_from(rules.Best)) if game.best is None else None
    end = draw(st.sampled_from(game.ends))
    return GameRules.of(
        game,
        end=end,
        limit=draw(st.integers(10, 500)) if game.other_limit else None,
        round_count=draw(st.integers(1, 50)) if end is EndRule.ROUNDS else None,
        variants=variants,
        chosen_best=best,
        title=title,
    )


@st.composite
def valid_games(draw) -> SavedGame:
    """Any game the counter could hold, of every game: names it seats, a rule, legal rounds
    (Skyjo's with who ended each), none past the end."""
    game = draw(st.sampled_from(list(rules.GAMES.values())))
    typed = draw(
        st.lists(
            st.text(NAME_CHARACTERS, min_size=1, max_size=30),
            min_size=2,
            max_size=game.max_players,
        )
    )
    try:
        players = rules.seat_players(typed, game.max_players)  # what the new-game form seats
    except rules.Refusal:
        players = draw(st.permutations(["Alice", "Bruno", "Chloé", "David"]))[:2]
    n = len(players)
    game_rules = any_rules(draw, game)
    play = six_nimmt_rounds if game.counts_heads else other_game_rounds
    sheet = play(draw, game_rules, n)
    created = draw(st.datetimes(datetime(2000, 1, 1), datetime(2026, 11, 30)))
    return make_game(
        players,
        sheet.rounds,
        game_rules,
        enders=sheet.enders,
        public_id=draw(
            st.text(
                "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_",
                min_size=22,
                max_size=22,
            )
        ),
        created_at=created,
    )


@given(st.lists(valid_games(), max_size=4))
def test_any_valid_games_round_trip(games):
    back = parse_export(export_json(games).encode())

    assert [g.sheet for g in back] == [g.scoresheet for g in games]
    assert [g.origin_id for g in back] == [g.public_id for g in games]
    assert [g.created_at for g in back] == [g.created_at for g in games]


# --- Refusals -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"not json at all",
        b'{"format": ',
        b"Manche,Alice,Bob\n1,3,4\n",
        b"\xff\xfe\x00garbage",
    ],
    ids=["empty", "text", "cut short", "csv", "not utf-8"],
)
def test_a_file_that_is_not_json_is_refused(data):
    (message,) = refusal(data)

    assert "JSON" in message


@pytest.mark.parametrize(
    "doc",
    [
        [],
        "six-qui-prend",
        {"games": []},
        {"format": "autre-chose", "version": 1, "games": []},
        {"format": "SIX-QUI-PREND", "version": 1, "games": []},
    ],
    ids=["a list", "a string", "no format", "another format", "format in capitals"],
)
def test_a_json_file_of_another_format_is_refused(doc):
    (message,) = refusal(encoded(doc))

    assert "6 qui prend" in message


@pytest.mark.parametrize("version", [2, 0, "1", None, True], ids=["2", "0", "text", "null", "true"])
def test_an_unknown_version_is_refused(version):
    doc = document(raw_game())
    doc["version"] = version

    (message,) = refusal(encoded(doc))

    assert "Version" in message and "1" in message


def test_a_missing_version_is_refused():
    doc = document(raw_game())
    del doc["version"]

    refusal(encoded(doc))


@pytest.mark.parametrize("games", [None, {"id": "x"}, "games"], ids=["null", "an object", "text"])
def test_games_must_be_a_list(games):
    doc = document()
    doc["games"] = games

    refusal(encoded(doc))


@pytest.mark.parametrize(
    "game_rules",
    [
        pytest.param(None, id="missing"),
        pytest.param("above", id="text"),
        pytest.param({"end": "sometimes", "limit": 66}, id="unknown end"),
        pytest.param({"end": "above", "limit": 9}, id="limit 9"),
        pytest.param({"end": "above", "limit": 501}, id="limit 501"),
        pytest.param({"end": "at_or_above", "limit": -66}, id="negative limit"),
        pytest.param({"end": "above", "limit": "soixante-six"}, id="limit in words"),
        pytest.param({"end": "rounds", "round_count": None}, id="rounds without count"),
        pytest.param({"end": "rounds", "round_count": 0}, id="0 rounds"),
        pytest.param({"end": "rounds", "round_count": 51}, id="51 rounds"),
        pytest.param({"end": "above", "limit": [66]}, id="limit in a list"),
        pytest.param({"end": "above", "limit": 66.7}, id="limit 66.7"),
        pytest.param({"end": "rounds", "round_count": 2.5}, id="2.5 rounds"),
        pytest.param({"end": "above", "limit": 66, "pro": "false"}, id="pro as text"),
        pytest.param({"end": "above", "limit": True}, id="limit true"),
    ],
)
def test_bad_rules_are_refused_naming_the_game(game_rules):
    doc = document(raw_game(), raw_game(id="second", rules=game_rules))

    (message,) = refusal(encoded(doc))

    assert message.startswith("Partie 2")
    assert "Alice" in message  # the game is named by its players too
    assert "règles" in message


@pytest.mark.parametrize(
    "players, says",
    [
        pytest.param(["Alice"], "au moins 2", id="one"),
        pytest.param([], "au moins 2", id="none"),
        pytest.param([f"Joueur {i}" for i in range(11)], "10 au plus", id="eleven"),
        pytest.param(["Alice", "alice "], "déjà à la table", id="twice the same"),
        pytest.param(["Alice", "B" * 31], "31 caractères", id="name too long"),
        pytest.param(["Alice", ""], "joueurs", id="blank"),
        pytest.param(["Alice", "   "], "joueurs", id="spaces"),
        pytest.param(["Alice", 7], "joueurs", id="a number"),
        pytest.param("Alice, Bob", "joueurs", id="text"),
        pytest.param(None, "joueurs", id="missing"),
    ],
)
def test_bad_players_are_refused_naming_the_game(players, says):
    rounds = [[1] * len(players)] if isinstance(players, list) and players else []
    doc = document(raw_game(), raw_game(id="second", players=players, rounds=rounds))

    (message,) = refusal(encoded(doc))

    assert message.startswith("Partie 2")
    assert says in message


@pytest.mark.parametrize(
    "heads, says",
    [
        ([98, 0, 0], "au plus 97"),
        ([50, 40, 8], "98 têtes en tout"),
        ([0, 0, 0], "au moins un joueur"),
        ([-1, 2, 3], "De 0 à 97"),
    ],
    ids=["over the player bound", "over the round bound", "nobody took any", "negative"],
)
def test_a_round_outside_the_bounds_is_refused_naming_game_and_round(heads, says):
    game = raw_game(rounds=[[10, 20, 3], [50, 8, 30], heads])
    doc = document(raw_game(id="first", rounds=[[1, 2, 3]]), game)

    (message,) = refusal(encoded(doc))

    assert message.startswith("Partie 2 (Alice, Bob, Carla)")
    assert "manche 3" in message
    assert says in message


SKYJO_RECORD = {"game": "skyjo", "rules": {"end": "at_or_above", "limit": 100}}


@pytest.mark.parametrize(
    "changes, says",
    [
        pytest.param(
            {**SKYJO_RECORD, "rounds": [[-5, 12, 3]], "ended_by": [None]},
            "manche 1 : Dites qui a fini la manche",
            id="skyjo round without its ender",
        ),
        pytest.param(
            {**SKYJO_RECORD, "rounds": [[-5, 12, 3]]},
            "manche 1 : Dites qui a fini la manche",
            id="skyjo without ended_by",
        ),
        pytest.param(
            {**SKYJO_RECORD, "rounds": [[-5, 12, 3]], "ended_by": [3]},
            "manche 1 : Dites qui a fini la manche",
            id="skyjo ended by nobody seated",
        ),
        pytest.param(
            {**SKYJO_RECORD, "rounds": [[-18, 12, 3]], "ended_by": [0]},
            "de -17 à 140 points",
            id="skyjo below its lowest",
        ),
        pytest.param(
            {**SKYJO_RECORD, "rounds": [[1, 2, 3]], "ended_by": [0, 1]},
            "une place (ou null) par manche",
            id="more enders than rounds",
        ),
        pytest.param(
            {**SKYJO_RECORD, "rounds": [[1, 2, 3]], "ended_by": ["Alice"]},
            "une place est un entier",
            id="an ender by name",
        ),
        pytest.param(
            {
                "game": "flip-7",
                "rules": {"end": "at_or_above", "limit": 200},
                "rounds": [[146, 2, 3]],
            },
            "manche 1 : Au Flip 7, une manche vaut de 0 (perdu) à 171 points, sauf 146, 148 … 170",
            id="a flip 7 score no hand makes",
        ),
        pytest.param({"game": "yahtzee"}, "jeu inconnu (yahtzee)", id="unknown game"),
        pytest.param({"game": 7}, "jeu inconnu (7)", id="a game by number"),
        pytest.param({"game": None}, "jeu inconnu (null)", id="a game of null"),
        pytest.param(
            {"game": "libre", "title": "\u202esmaY"},
            "nom de jeu invalide : Ce nom contient un caractère qui change le sens de l’écriture",
            id="free game's name turned around",
        ),
        pytest.param({"game": "libre"}, "partie libre sans nom de jeu", id="free without a name"),
        pytest.param(
            {"game": "libre", "title": "Y" * 41}, "nom de jeu trop long (41", id="name too long"
        ),
        pytest.param(
            {
                "game": "libre",
                "title": "Yams",
                "rules": {"end": "rounds", "round_count": 3, "best": "most"},
            },
            "« best » vaut « lowest » ou « highest »",
            id="free game's winner rule unknown",
        ),
        pytest.param(
            {"game": "skyjo", "rules": {"end": "above", "limit": 100}},
            "Cette fin de partie n’existe pas pour ce jeu",
            id="6 qui prend's end for skyjo",
        ),
    ],
)
def test_a_game_is_checked_by_its_own_rules_on_import(changes, says):
    doc = document(raw_game(id="first"), raw_game(id="second", **changes))

    (message,) = refusal(encoded(doc))

    message = message.replace("\u202f", " ")  # French's thin space before a colon
    assert message.startswith("Partie 2 (Alice, Bob, Carla) : ")
    assert says in message


def test_each_game_imports_with_its_name_winner_rule_and_enders():
    skyjo = raw_game(id="s", game="skyjo", rules={}, rounds=[[-5, 12, 3]], ended_by=[1])
    yams = raw_game(
        id="y",
        game="libre",
        title="  Yams   du soir ",
        rules={"end": "rounds", "round_count": 1, "best": "highest"},
        rounds=[[-5, 12, 3]],
        ended_by=[2],  # a game that does not ask who ended a round: ignored
    )

    first, second = parse_export(encoded(document(skyjo, yams)))

    assert first.sheet.rules == SKYJO
    assert (first.sheet.enders, first.sheet.totals) == ((1,), [-5, 24, 3])
    assert second.sheet.rules == free_rules("Yams du soir", rules.Best.HIGHEST)
    assert (second.sheet.enders, second.sheet.winners) == ((None,), {1})


def test_a_file_from_before_other_games_imports_as_6_qui_prend():
    (game,) = parse_export(encoded(document(raw_game())))

    assert game.sheet.rules.game is rules.DEFAULT_GAME
    assert (game.sheet.rules.title, game.sheet.rules.chosen_best) == (None, None)


def test_the_export_names_the_game_a_free_games_name_and_skyjos_enders():
    skyjo = make_game(["Ana", "Ben"], [[20, 30]], SKYJO, enders=(1,))
    yams = make_game(["Ana", "Ben"], [[230, 190]], free_rules("Yams", rules.Best.HIGHEST))

    records = json.loads(export_json([make_game(["A", "B"], [[1, 2]]), skyjo, yams]))["games"]

    assert [(r["game"], r.get("title"), r["rules"].get("best")) for r in records] == [
        ("6-qui-prend", None, None),
        ("skyjo", None, None),
        ("libre", "Yams", "highest"),
    ]
    assert [r.get("ended_by") for r in records] == [None, [1], None]  # where the game asks
    assert records[1]["totals"] == [20, 60]  # the points, doubled


def test_the_pro_deck_tightens_the_bounds_on_import():
    pro = {"end": "above", "limit": 66, "round_count": None, "pro": True}
    accepted = raw_game(rules=pro, rounds=[[20, 20, 11]])
    refused = raw_game(id="two", rules=pro, rounds=[[20, 20, 11], [20, 20, 12]])

    assert len(parse_export(encoded(document(accepted)))) == 1
    (message,) = refusal(encoded(document(accepted, refused)))
    assert "Partie 2" in message and "manche 2" in message and "51" in message


@pytest.mark.parametrize(
    "heads",
    [
        pytest.param([1, 2], id="two values"),
        pytest.param([1, 2, 3, 4], id="four values"),
        pytest.param([], id="empty"),
        pytest.param(None, id="null"),
        pytest.param("1,2,3", id="text"),
        pytest.param({"Alice": 1}, id="an object"),
        pytest.param([True, 2, 3], id="true"),
        pytest.param([1, False, 3], id="false"),
        pytest.param([1.0, 2, 3], id="1.0"),
        pytest.param([1, 2.5, 3], id="2.5"),
        pytest.param(["1", 2, 3], id="text heads"),
        pytest.param([1, 2, None], id="null heads"),
        pytest.param([1, [2], 3], id="a list"),
    ],
)
def test_a_round_not_of_one_whole_number_per_player_is_refused(heads):
    doc = document(raw_game(rounds=[[1, 2, 3], heads]))

    (message,) = refusal(encoded(doc))

    assert message.startswith("Partie 1") and "manche 2" in message


@pytest.mark.parametrize("digits", [401, 5000], ids=["401 digits", "past Python's int limit"])
def test_a_huge_number_is_refused_without_trouble(digits):
    data = encoded(document(raw_game())).replace(b'"limit": 66', b'"limit": ' + b"9" * digits)

    (message,) = refusal(data)

    assert f"{digits} chiffres" in message


def test_a_file_nested_too_deep_is_refused():
    data = b'{"format": "six-qui-prend", "version": 1, "games": ' + b"[" * 1500 + b"]" * 1500 + b"}"

    (message,) = refusal(data)

    assert "imbriqué" in message


@pytest.mark.parametrize(
    "game",
    [
        raw_game(players=["Alice", "Bob"], rounds=[[67, 0], [1, 1]]),
        raw_game(
            players=["Alice", "Bob"],
            rounds=[[1, 1], [1, 1], [1, 1]],
            rules={"end": "rounds", "limit": 66, "round_count": 2, "pro": False},
        ),
    ],
    ids=["after going past 66", "after the last of 2 rounds"],
)
def test_a_round_after_the_end_of_the_game_is_refused(game):
    (message,) = refusal(encoded(document(game)))

    assert "Partie 1" in message and "manche" in message


@pytest.mark.parametrize(
    "change, says",
    [
        pytest.param({"id": None}, "identifiant", id="no id"),
        pytest.param({"id": ""}, "identifiant", id="empty id"),
        pytest.param({"id": "x" * 65}, "identifiant", id="id too long"),
        pytest.param({"id": 12}, "identifiant", id="id a number"),
        pytest.param({"created_at": None}, "date", id="no date"),
        pytest.param({"created_at": "hier soir"}, "date", id="a date in words"),
        pytest.param({"rounds": None}, "manches", id="no rounds"),
        pytest.param({"rounds": {"1": [1, 2, 3]}}, "manches", id="rounds as an object"),
    ],
)
def test_a_game_missing_what_identifies_it_is_refused(change, says):
    (message,) = refusal(encoded(document(raw_game(**change))))

    assert message.startswith("Partie 1") and says in message


@pytest.mark.parametrize(
    "created_at",
    ["0001-01-01T00:00:00+01:00", "9999-12-31T23:59:00-01:00", "9999-12-31T23:59:00Z"],
    ids=["year 1", "year 9999 overflowing", "year 9999"],
)
def test_an_impossible_date_is_refused_by_name(created_at):
    (message,) = refusal(encoded(document(raw_game(created_at=created_at))))

    assert message.startswith("Partie 1") and "date de création" in message


def test_dates_from_2000_to_tomorrow_are_accepted_and_kept_in_utc():
    doc = document(
        raw_game(id="first", created_at="2000-01-01T00:00:00Z"),
        raw_game(id="second", created_at="2026-12-01T10:00:00+01:00"),
    )

    games = parse_export(encoded(doc))

    assert [g.created_at for g in games] == [datetime(2000, 1, 1), datetime(2026, 12, 1, 9)]


def test_a_game_that_is_not_an_object_is_refused():
    (message,) = refusal(encoded(document(raw_game(), ["Alice", "Bob"])))

    assert message.startswith("Partie 2")


def test_every_wrong_game_is_named_and_nothing_is_returned():
    doc = document(
        raw_game(id="a", rounds=[[98, 0, 0]]),
        raw_game(id="b"),
        raw_game(id="c", players=["Dan", "Eve"], rounds=[[1, 1], [80, 0]]),
    )

    messages = refusal(encoded(doc))

    assert len(messages) == 2
    assert messages[0].startswith("Partie 1") and "manche 1" in messages[0]
    assert messages[1].startswith("Partie 3 (Dan, Eve)") and "manche 2" in messages[1]


def test_a_thousand_wrong_games_are_summed_up_not_all_listed():
    doc = document(*[raw_game(id=f"g{i}", players=["Seul"], rounds=[]) for i in range(1000)])

    messages = refusal(encoded(doc))

    assert len(messages) == 21
    assert messages[19].startswith("Partie 20 ")
    assert messages[20] == "… et 980 autres."


def test_every_reason_of_a_wrong_round_is_said():
    (message,) = refusal(encoded(document(raw_game(rounds=[[98, 98, 0]]))))

    assert message.startswith("Partie 1 (Alice, Bob, Carla)")
    assert message.count("c’est trop") == 2


def test_a_refused_game_of_ten_players_names_four_and_says_there_are_more():
    ten = [f"Joueur {n}" for n in range(1, 11)]
    (message,) = refusal(encoded(document(raw_game(players=ten, rounds=[[98] * 10]))))

    assert message.startswith("Partie 1 (Joueur 1, Joueur 2, Joueur 3, Joueur 4, …)")


def test_a_date_and_a_version_are_said_as_the_file_wrote_them():
    doc = document(raw_game(created_at="hier soir"))
    doc["version"] = "1"

    (version,) = refusal(encoded(doc))
    doc["version"] = VERSION
    (date,) = refusal(encoded(doc))

    assert version.startswith('Version de fichier "1" inconnue')
    assert "date de création illisible (hier soir)" in date


def test_a_game_of_more_than_500_rounds_is_refused_whole_by_its_count():
    many = raw_game(game="libre", title="Yams", rules={"end": "at_or_above", "limit": 999_999})
    doc = document(
        {**many, "id": "most", "rounds": [[1, 2, 3]] * 500},
        {**many, "id": "more", "rounds": [[1, 2, 3]] * 20_000},
    )

    (message,) = refusal(encoded(doc))

    assert message.replace("\u202f", " ") == (
        "Partie 2 (Alice, Bob, Carla) : trop de manches (20000 : 500 au plus)"
    )


def test_a_file_of_more_than_50000_rounds_in_all_is_refused_before_any_game_is_read():
    # 101 games of 500 rounds, each of them right: only their sum is too many.
    many = raw_game(game="libre", title="Yams", rules={"end": "at_or_above", "limit": 999_999})
    doc = document(*[{**many, "id": f"g{n}", "rounds": [[0, 0, 0]] * 500} for n in range(101)])

    (message,) = refusal(encoded(doc))

    assert message.startswith("Ce fichier compte 50500 manches en tout")
    assert "50000 au plus" in message


@pytest.mark.parametrize(
    "name", ["\u202eaéL", "Bob\u202e", "\u2067Ali\u2069", "Léa\u200f"], ids=repr
)
def test_a_name_that_turns_text_around_refuses_its_game_shown_without_it(name):
    doc = document(raw_game(id="first"), raw_game(id="second", players=["Alice", name]))

    (message,) = refusal(encoded(doc))

    assert message.startswith("Partie 2 (Alice, ")
    assert "caractère qui change le sens de l’écriture" in message
    assert not set(message) & set("\u202e\u2067\u2069\u200f")  # shown as « � »


def test_too_many_games_are_refused():
    doc = document(*[raw_game(id=f"g{i}") for i in range(5001)])

    (message,) = refusal(encoded(doc))

    assert "5000" in message


def test_totals_and_winners_in_the_file_are_ignored():
    lying = raw_game(totals=[0, 0, 0], winners=["Alice"])

    (game,) = parse_export(encoded(document(lying)))

    assert game.sheet.totals == [72, 28, 42]
    assert game.sheet.winners == frozenset({1})


def test_a_document_is_not_changed_by_being_read():
    doc = document(raw_game())
    before = copy.deepcopy(doc)

    parse_export(encoded(doc))

    assert doc == before


# --- CSV ------------------------------------------------------------------------------------------


def read_csv(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text.removeprefix("\ufeff"))))  # as a spreadsheet reads it


def test_a_game_as_csv_has_a_row_per_round_and_a_column_per_player():
    game = make_game(["Alice", "Bob", "Carla"], [[10, 20, 3], [50, 8, 30], [12, 0, 9]])

    rows = read_csv(game_csv(game))

    assert rows == [
        ["Nom du jeu", "6 qui prend\u202f!"],
        ["Manche", "Alice", "Bob", "Carla"],
        ["1", "10", "20", "3"],
        ["2", "50", "8", "30"],
        ["3", "12", "0", "9"],
    ]


def test_names_with_commas_and_quotes_survive_the_csv():
    names = ["Dupont, Marie", 'Le "Boss"', "Zoé\u00a0B", "{0} {}"]

    rows = read_csv(game_csv(make_game(names, [[1, 2, 3, 4]])))
    every = read_csv(games_csv([make_game(names, [[1, 2, 3, 4], [5, 6, 7, 8]])]))

    assert rows[1][1:] == names
    assert [row[4:] for row in every[1:]] == [
        ["Dupont, Marie", "1", 'Le "Boss"', "2", "Zoé\u00a0B", "3", "{0} {}", "4"],
        ["Dupont, Marie", "5", 'Le "Boss"', "6", "Zoé\u00a0B", "7", "{0} {}", "8"],
    ]


def test_all_games_as_csv_have_a_row_per_round_with_name_and_heads_pairs():
    games = [
        make_game(["Alice", "Bob"], [[1, 2], [3, 4]], public_id="first"),
        make_game(["Carla", "Dan", "Eve"], [[5, 6, 7]], public_id="second", origin_id="from-afar"),
        make_game(["Fay", "Gus"], [], public_id="third"),
    ]

    rows = read_csv(games_csv(games))

    header = rows[0]
    six = "6 qui prend\u202f!"
    assert header[:4] == ["Partie", "Nom du jeu", "Date", "Manche"]
    assert header[4:] == [c for s in range(1, 11) for c in (f"Joueur {s}", f"Têtes {s}")]
    assert rows[1:] == [
        ["first", six, "2026-11-29T19:05:00.123456Z", "1", "Alice", "1", "Bob", "2"],
        ["first", six, "2026-11-29T19:05:00.123456Z", "2", "Alice", "3", "Bob", "4"],
        [
            "from-afar",
            six,
            "2026-11-29T19:05:00.123456Z",
            "1",
            "Carla",
            "5",
            "Dan",
            "6",
            "Eve",
            "7",
        ],
    ]


def test_the_all_games_csv_says_points_where_not_every_game_counts_heads():
    six_nimmt = make_game(["Alice", "Bob"], [[1, 2]])
    skyjo = make_game(["Carla", "Dan"], [[20, 5]], GameRules.of(rules.game_of("skyjo")), enders=[0])

    header = read_csv(games_csv([six_nimmt, skyjo]))[0]

    assert header[4:6] == ["Joueur 1", "Points 1"]


@pytest.mark.parametrize(
    ("game_rules", "name"),
    [
        (GameRules.of(SIX_NIMMT), "6-qui-prend-2026-11-29.csv"),
        (GameRules.of(rules.game_of("skyjo")), "skyjo-2026-11-29.csv"),
        (
            GameRules.of(FREE, end=EndRule.ROUNDS, round_count=3, title="Yam’s à l’Été"),
            "yam-s-a-l-ete-2026-11-29.csv",
        ),
        (
            GameRules.of(FREE, end=EndRule.ROUNDS, round_count=3, title="麻雀"),
            "libre-2026-11-29.csv",
        ),
    ],
    ids=["6 qui prend", "skyjo", "a free game", "a name without latin letters"],
)
def test_a_download_is_named_after_its_game_and_date(game_rules, name):
    assert file_name(make_game(["Alice", "Bob"], [], game_rules), "csv") == name


def test_ten_players_fill_every_column_of_the_all_games_csv():
    names = [f"P{i}" for i in range(10)]

    rows = read_csv(games_csv([make_game(names, [list(range(10))])]))

    assert len(rows[1]) == len(rows[0]) == 24


def test_csv_headers_are_said_by_the_translate_given():
    game = make_game(["Alice", "Bob"], [[1, 2]])

    def shouted(message: Message) -> str:
        return str(message).upper()

    assert read_csv(game_csv(game, shouted))[:2] == [
        ["NOM DU JEU", "6 QUI PREND\u202f!"],
        ["MANCHE", "Alice", "Bob"],
    ]
    assert read_csv(games_csv([game], shouted))[0][:6] == [
        "PARTIE",
        "NOM DU JEU",
        "DATE",
        "MANCHE",
        "JOUEUR 1",
        "TÊTES 1",
    ]


@pytest.mark.parametrize("name", ["=1+2", "@SUM(A1)", "+33 6", "-Bob"])
def test_csv_cells_are_never_read_as_formulas(name):
    game = make_game([name, "Carla"], [[1, 2]])

    for text in (game_csv(game), games_csv([game])):
        cells = [cell for row in csv.reader(io.StringIO(text.lstrip("\ufeff"))) for cell in row]
        assert name not in cells
        assert "'" + name in cells


def test_a_games_csv_names_its_game_and_adds_up_its_points():
    skyjo = make_game(["Ana", "Ben"], [[20, 30], [45, -2]], SKYJO, enders=(1, 0))
    yams = make_game(["Ana", "Ben"], [[230, 190]], free_rules("Yams", rules.Best.HIGHEST))

    assert read_csv(game_csv(skyjo)) == [
        ["Nom du jeu", "Skyjo"],
        ["Manche", "Ana", "Ben"],
        ["1", "20", "60"],  # Ben ended it, not the lowest: doubled, as the sheet counts it
        ["2", "90", "-2"],
    ]
    assert [row[1] for row in read_csv(games_csv([skyjo, yams]))[1:]] == ["Skyjo", "Skyjo", "Yams"]


def test_csv_starts_with_a_byte_order_mark_for_spreadsheets():
    game = make_game(["Chloé", "Bob"], [[1, 2]])

    assert game_csv(game).startswith("\ufeffNom du jeu,")
