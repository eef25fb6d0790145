"""The table's evening (« La soirée »): the games a table played one after another — a rematch,
« Autre jeu, même table » — and its ranking (app/rules/evening.py).

Each game that followed another names the evening's first game (Game.evening_id); the first
names none. A phone that may see one of the evening's games sees the whole evening (its games
are the table's: a phone seated after the first game still sees how the evening began), and
links only the games it may open. An evening of one game is no evening: GameNotFound, a 404.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import ColumnElement, func, or_, select
from sqlalchemy.orm import aliased

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

    @property
    def last(self) -> SavedGame:
        return self.games[-1].game


def evening_key(game: Game) -> int:
    """Return the evening a game belongs to: its first game's id."""
    return game.evening_id if game.evening_id is not None else game.id


def _of_evening(key: int | ColumnElement[int]) -> ColumnElement[bool]:
    return or_(Game.evening_id == key, Game.id == key)


def _key_of(public_id: str, device_hash: str | None) -> int:
    device = access.look_for(public_id, device_hash)
    found = db.session.execute(
        select(Game.id, Game.evening_id).where(
            Game.public_id == public_id, access.reachable_by(device)
        )
    ).one_or_none()
    if found is None:
        raise GameNotFound(public_id)
    return found.evening_id if found.evening_id is not None else found.id


def evening(public_id: str, device_hash: str | None) -> Evening:
    """Return the evening of a game this phone may see, or raise GameNotFound (an evening of
    one game, or a game it may not see)."""
    key = _key_of(public_id, device_hash)
    found = reads.games_read(_of_evening(key))
    if len(found) < 2:
        raise GameNotFound(public_id)
    assert device_hash is not None  # _key_of found the game for it
    reachable = set(
        db.session.scalars(
            select(Game.id).where(_of_evening(key), access.reachable_by(device_hash))
        )
    )
    return _evening([EveningGame(game, row_id in reachable) for row_id, game in found])


def followed_evening(game_id: int) -> Evening | None:
    """Return the evening of the game followed (by its row's id: the follow page's), None for
    an evening of one."""
    key = db.session.scalar(
        select(func.coalesce(Game.evening_id, Game.id)).where(Game.id == game_id)
    )
    if key is None:
        return None
    found = reads.games_read(_of_evening(key))
    if len(found) < 2:
        return None
    return _evening([EveningGame(game, False) for _, game in found])


def _evening(games: list[EveningGame]) -> Evening:
    return Evening(tuple(games), rules.evening_ranking([g.game.scoresheet for g in games]))


def in_evening(public_id: str) -> bool:
    """Tell whether a game (one its page already found) belongs to an evening of two games or
    more: its page then links « La soirée ». Two indexed look-ups."""
    game = aliased(Game)
    key = (
        select(func.coalesce(game.evening_id, game.id))
        .where(game.public_id == public_id)
        .scalar_subquery()
    )
    count = db.session.scalar(select(func.count()).where(_of_evening(key)).select_from(Game))
    return (count or 0) >= 2


def names_before(public_id: str, device_hash: str | None) -> tuple[str, ...]:
    """Return the names of the evening's games played before this one, each once, in the order
    they first sat down (rules.first_seen_names): a name seen earlier in the evening keeps its
    colour. Empty for the evening's first game; GameNotFound for a game this phone may not see."""
    key = _key_of(public_id, device_hash)
    found = reads.games_read(_of_evening(key))
    before = []
    for _, game in found:
        if game.public_id == public_id:
            break
        before.append(game.scoresheet)
    return rules.first_seen_names(before)
