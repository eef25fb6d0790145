"""What a finished game's shared result says: each player's place, and the play BG Stats imports.

Pure functions of a SavedGame: the page, the image (app/web/result/text.py) and the BG Stats
link all read the same placings (app/rules/result.py), so they can never disagree.

BG Stats' import (« Push plays to BG Stats from other apps or websites », bgstatsapp.com's
support pages) is one link, `createPlay.html?data=<URL-encoded JSON>`, that the phone opens:
nothing is sent from the server, and BG Stats then asks which of its games and players these
are (it remembers the answer per source id).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, tzinfo
from typing import Any
from urllib.parse import quote

from app import rules
from app.services.saved_game import SavedGame

BGSTATS_CREATE_PLAY = "https://app.bgstatsapp.com/createPlay.html"
SOURCE_NAME = "Compteur 6 qui prend !"  # BG Stats sets the play's location to its source
PLAY_DATE_FORMAT = "%Y-%m-%d %H:%M:%S"


def play_minutes(game: SavedGame) -> int | None:
    """Return how long the game lasted, from its start to its last round, in whole minutes;
    None when its last round has no date (imported, or recorded before rounds were dated).

    From the start rather than from the first round: the first round's date is its end."""
    if game.played_until is None:
        return None
    seconds = (game.played_until - game.created_at).total_seconds()
    return max(0, round(seconds / 60))


def bgstats_play(game: SavedGame, zone: tzinfo, comments: str | None = None) -> dict[str, Any]:
    """Return the play of a finished game in BG Stats' import format.

    `playDate` is the game's start in the players' time zone (BG Stats shows it as typed);
    `comments` says the rules in force, in the players' language."""
    started = game.created_at.replace(tzinfo=UTC).astimezone(zone)
    play: dict[str, Any] = {
        "sourceName": SOURCE_NAME,
        "sourcePlayId": game.public_id,
        "game": bgstats_game(game.scoresheet.rules),
        "playDate": started.strftime(PLAY_DATE_FORMAT),
        "players": [
            {
                "name": line.name,
                "score": line.total,
                "rank": line.rank,
                "winner": line.winner,
                # BG Stats' Android app refuses a play whose players lack these booleans
                # (« Invalid data: No value for startPlayer »): who dealt (or started) the first
                # round is, where it was kept; whether it was a first game is not recorded, so
                # false, BG Stats' own default.
                "startPlayer": line.seat == game.scoresheet.start_player,
                "newPlayer": False,
                # The statistics tell players apart by their name's key: BG Stats then
                # remembers who each is, game after game.
                "sourcePlayerId": rules.name_key(line.name),
            }
            for line in _in_seats(rules.placings(game.scoresheet))
        ],
    }
    minutes = play_minutes(game)
    if minutes is not None:
        play["durationMin"] = minutes
    if comments:
        play["comments"] = comments
    return play


def bgstats_game(game_rules: rules.GameRules) -> dict[str, Any]:
    """Return the game of a play as BG Stats matches it: by BoardGameGeek's id where the game has
    one (« 6 nimmt! » 432, Skyjo, Flip 7), a free game by the name the table typed.

    `sourceGameId` names the game in this counter, the same for every play of it, so that the
    game BG Stats matched it with once is found again (the play itself is `sourcePlayId`)."""
    game = game_rules.game
    said: dict[str, Any] = {"name": game.bgstats_name or game_rules.title or ""}
    if game.bgg_id is not None:
        said["bggId"] = game.bgg_id
    return {
        **said,
        "highestWins": game_rules.best is rules.Best.HIGHEST,
        "noPoints": False,
        "sourceGameId": game_rules.game_id,
    }


def _in_seats(lines: Sequence[rules.Placing]) -> list[rules.Placing]:
    # BG Stats lists the players as given: the table's seat order, as on the round sheet.
    return sorted(lines, key=lambda line: line.seat)


def bgstats_link(play: dict[str, Any]) -> str:
    """Return the link that opens BG Stats' import of this play."""
    data = json.dumps(play, ensure_ascii=False, separators=(",", ":"))
    # Every reserved character escaped, spaces as %20: the page decodes it with JavaScript's
    # decodeURIComponent, which would leave a « + » as it is.
    return f"{BGSTATS_CREATE_PLAY}?data={quote(data, safe='')}"
