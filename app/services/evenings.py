"""The table's evening (« La soirée »): the games a table played one after another — a rematch,
« Autre jeu, même table » — and its ranking (app/rules/evening.py).

Each game of an evening of two or more names the evening's first game (Game.evening_id, the
first's own id included); a game played alone names none. A phone that may see one of the
evening's games sees the whole evening (its games are the table's: a phone seated after the
first game still sees how the evening began), and links only the games it may open. An evening
of one game is no evening: GameNotFound, a 404.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select

from app import rules
from app.platform.extensions import db
from app.services import access, reads
from app.services.refusals import GameNotFound
from app.services.saved_game import SavedGame
from app.storage.models import Game


@dataclass(frozen=True)
class EveningGame:
    game: SavedGame
    reachable: bool  # this phone may open it (the follow page's evening opens none)


@dataclass(frozen=True)
class Evening:
    """An evening of two games or more, in the order played, and its ranking."""

    games: tuple[EveningGame, ...]
    ranking: tuple[rules.EveningLine, ...]


def _key_of(public_id: str, device_hash: str | None) -> int | None:
    """The evening of a game this phone may see (None: played alone), or GameNotFound."""
    device = access.look_for(public_id, device_hash)
    found = db.session.execute(
        select(Game.evening_id).where(Game.public_id == public_id, access.reachable_by(device))
    ).one_or_none()
    if found is None:
        raise GameNotFound(public_id)
    return found.evening_id


def evening(public_id: str, device_hash: str | None) -> Evening:
    """Return the evening of a game this phone may see, or raise GameNotFound (a game it may
    not see, or played alone)."""
    key = _key_of(public_id, device_hash)
    found = reads.games_read(Game.evening_id == key) if key is not None else []
    if len(found) < 2:  # alone, or the others deleted since
        raise GameNotFound(public_id)
    assert device_hash is not None  # _key_of found the game for it
    reachable = set(
        db.session.scalars(
            select(Game.id).where(Game.evening_id == key, access.reachable_by(device_hash))
        )
    )
    return _evening([EveningGame(game, row_id in reachable) for row_id, game in found])


def followed_evening(game: SavedGame) -> Evening | None:
    """Return the evening of the game a follow address shows, None for a game played alone."""
    if game.evening is None:
        return None
    found = reads.games_read(Game.evening_id == game.evening)
    if len(found) < 2:
        return None
    return _evening([EveningGame(saved, False) for _, saved in found])


def _evening(games: list[EveningGame]) -> Evening:
    return Evening(tuple(games), rules.evening_ranking([g.game.scoresheet for g in games]))
