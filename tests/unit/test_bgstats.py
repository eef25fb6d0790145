"""Unit tests of app.web.result.bgstats: each player's place and the play BG Stats imports."""

from __future__ import annotations

import json
from datetime import datetime
from urllib.parse import unquote, urlsplit
from zoneinfo import ZoneInfo

import pytest

from app.rules import GAMES, Best, EndRule, GameRules, Scoresheet, placings
from app.rules.games.six_nimmt import SIX_NIMMT
from app.services.saved_game import SavedGame
from app.web.result.bgstats import bgstats_link, bgstats_play

PARIS = ZoneInfo("Europe/Paris")
STARTED = datetime(2026, 11, 29, 20, 5, 7)  # UTC, as stored: 21:05:07 in Paris


def finished(names, *rounds, public_id="g1", played_until=None, game_rules=GameRules.of(SIX_NIMMT)):
    sheet = Scoresheet(tuple(names), tuple(tuple(r) for r in rounds), game_rules)
    assert sheet.is_over
    return SavedGame(public_id, 3, STARTED, sheet, played_until=played_until)


def players(play):
    return [(p["name"], p["score"], p["rank"], p["winner"]) for p in play["players"]]


def test_the_play_names_the_game_as_bgg_does_lowest_total_wins():
    play = bgstats_play(finished(["Brice", "Chloé", "Aube"], [5, 9, 30], [10, 10, 40]), PARIS)

    assert play["game"] == {
        "name": "6 nimmt!",
        "bggId": 432,
        "highestWins": False,
        "noPoints": False,
        "sourceGameId": "6-qui-prend",
    }
    assert players(play) == [
        ("Brice", 15, 1, True),
        ("Chloé", 19, 2, False),
        ("Aube", 70, 3, False),
    ]
    assert play["sourcePlayId"] == "g1"


SKYJO_RULES = GameRules.of(GAMES["skyjo"])
FLIP7_RULES = GameRules.of(GAMES["flip-7"])


def free_rules(title, best=Best.LOWEST):
    return GameRules.of(
        GAMES["libre"], end=EndRule.ROUNDS, round_count=1, chosen_best=best, title=title
    )


@pytest.mark.parametrize(
    "game_rules, rounds, said",
    [
        (
            SKYJO_RULES,
            [[40, 60], [-2, 45]],
            {"name": "Skyjo", "bggId": 204135, "highestWins": False, "sourceGameId": "skyjo"},
        ),
        (
            FLIP7_RULES,
            [[171, 40], [59, 0]],
            {"name": "Flip 7", "bggId": 420087, "highestWins": True, "sourceGameId": "flip-7"},
        ),
        (
            free_rules("Yams", Best.HIGHEST),
            [[230, 190]],
            {"name": "Yams", "highestWins": True, "sourceGameId": "libre:yams"},
        ),
        (
            free_rules("Belote", Best.LOWEST),
            [[-5, 12]],
            {"name": "Belote", "highestWins": False, "sourceGameId": "libre:belote"},
        ),
    ],
    ids=["skyjo", "flip 7", "free, highest wins", "free, lowest wins"],
)
def test_each_game_is_its_own_bgstats_game_with_its_winner_rule(game_rules, rounds, said):
    play = bgstats_play(finished(["Ana", "Ben"], *rounds, game_rules=game_rules), PARIS)

    assert play["game"] == {**said, "noPoints": False}  # a free game has no bggId
    assert [p["winner"] for p in play["players"]] == [True, False]
    assert all(p["startPlayer"] is False for p in play["players"])


def test_every_play_of_a_free_game_is_the_same_bgstats_game_whatever_its_case():
    once = bgstats_play(finished(["A", "B"], [1, 2], game_rules=free_rules("Yams")), PARIS)
    again = bgstats_play(finished(["A", "B"], [3, 2], game_rules=free_rules("YAMS ")), PARIS)

    assert once["game"]["sourceGameId"] == again["game"]["sourceGameId"]


def test_every_player_has_the_booleans_bgstats_android_requires():
    play = bgstats_play(finished(["Brice", "Chloé", "Aube"], [5, 9, 30], [10, 10, 40]), PARIS)

    for player in play["players"]:
        assert player["startPlayer"] is False  # who dealt first was not kept for this game
        assert player["newPlayer"] is False
        assert player["sourcePlayerId"] and player["name"]
    assert play["sourceName"] and play["playDate"]


def test_the_start_player_is_whoever_dealt_the_first_round():
    sheet = Scoresheet(
        ("Brice", "Chloé", "Aube"), ((5, 9, 30), (10, 10, 40)), GameRules.of(SIX_NIMMT), (), (2, 0)
    )
    play = bgstats_play(SavedGame("g1", 3, STARTED, sheet), PARIS)

    assert [p["startPlayer"] for p in play["players"]] == [False, False, True]


def test_tied_totals_share_a_rank_and_the_next_rank_is_skipped():
    play = bgstats_play(finished(["Ana", "Ben", "Cléo", "Dan"], [20, 10, 10, 67]), PARIS)

    assert players(play) == [
        ("Ana", 20, 3, False),
        ("Ben", 10, 1, True),
        ("Cléo", 10, 1, True),
        ("Dan", 67, 4, False),
    ]


def test_a_shared_win_makes_every_winner_a_winner_in_seat_order():
    game = finished(["Zoé", "Yann", "Xavier"], [30, 30, 67])

    assert [(p["name"], p["winner"]) for p in bgstats_play(game, PARIS)["players"]] == [
        ("Zoé", True),
        ("Yann", True),
        ("Xavier", False),
    ]
    assert [(line.name, line.rank) for line in placings(game.scoresheet)] == [
        ("Zoé", 1),
        ("Yann", 1),
        ("Xavier", 3),
    ]


def test_a_rematch_is_another_play_of_the_same_game_with_the_same_players():
    first = bgstats_play(finished(["Ana", "Ben"], [10, 67], public_id="first"), PARIS)
    rematch = bgstats_play(finished(["Ana", "Ben"], [67, 3], public_id="again"), PARIS)

    assert first["sourcePlayId"] != rematch["sourcePlayId"]  # BG Stats keeps both plays
    assert first["game"] == rematch["game"]  # matched to its game once, found again
    ids = [[p["sourcePlayerId"] for p in play["players"]] for play in (first, rematch)]
    assert ids[0] == ids[1]
    assert [p["winner"] for p in rematch["players"]] == [False, True]


def test_a_player_is_known_by_their_name_whatever_its_case():
    once = bgstats_play(finished(["Ana", "Ben"], [10, 67]), PARIS)
    later = bgstats_play(finished(["ANA ", "Ben"], [10, 67]), PARIS)

    assert once["players"][0]["sourcePlayerId"] == later["players"][0]["sourcePlayerId"]
    assert later["players"][0]["name"] == "ANA "  # the name as typed


def test_the_play_date_is_the_start_in_the_players_time_zone():
    assert bgstats_play(finished(["A", "B"], [1, 67]), PARIS)["playDate"] == "2026-11-29 21:05:07"
    summer = SavedGame(
        "s", 1, datetime(2026, 7, 1, 18, 0), finished(["A", "B"], [1, 67]).scoresheet
    )
    assert bgstats_play(summer, PARIS)["playDate"] == "2026-07-01 20:00:00"


def test_the_length_runs_from_the_start_to_the_last_round():
    dated = finished(["A", "B"], [1, 67], played_until=datetime(2026, 11, 29, 20, 52, 40))

    assert bgstats_play(dated, PARIS)["durationMin"] == 48
    assert "durationMin" not in bgstats_play(finished(["A", "B"], [1, 67]), PARIS)  # undated


def test_the_rules_in_force_go_into_the_comments():
    game = finished(
        ["A", "B"],
        [1, 2],
        game_rules=GameRules.of(SIX_NIMMT, end=EndRule.ROUNDS, round_count=1, variants={"pro"}),
    )

    assert bgstats_play(game, PARIS, comments="Fin : après 1 manche")["comments"] == (
        "Fin : après 1 manche"
    )
    assert "comments" not in bgstats_play(game, PARIS)


def test_the_link_carries_the_play_url_encoded_for_bgstats_import():
    play = bgstats_play(finished(["Marie-Christine & Zoé", "Ben+1"], [10, 67]), PARIS)
    link = bgstats_link(play)

    parts = urlsplit(link)
    assert f"{parts.scheme}://{parts.netloc}{parts.path}" == (
        "https://app.bgstatsapp.com/createPlay.html"
    )
    assert parts.query.startswith("data=")
    encoded = parts.query.removeprefix("data=")
    assert not set(encoded) & set(' &+#?"{}')  # every reserved character escaped
    assert json.loads(unquote(encoded)) == play
