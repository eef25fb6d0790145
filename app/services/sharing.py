"""Following a game from other phones: its follow address, made, revoked, and read by anyone.

The follow address carries its own random token (128 bits, like a game's id, but another one):
knowing it shows the game read-only; it never lets anyone write, and it says nothing of the
device. Stopping the share forgets the token, so the old address answers 404 for good. Any
phone of the game's table may show the address (or make one); only the game's own phone stops it.
"""

from __future__ import annotations

from collections.abc import Hashable

from sqlalchemy import Connection, func, select

from app import rules
from app.platform.extensions import db
from app.services import access, games, saved_game
from app.services.refusals import GameNotFound
from app.services.unit_of_work import UnitOfWork
from app.storage.models import Game, TablePhone, new_public_id


def follow_token(
    public_id: str, device_hash: str | None
) -> tuple[str | None, bool, rules.GameRules]:
    """Return the device's game's follow token while it is shared, else None, whether this is
    the game's own phone (the one that may stop it), and the game's rules (the page names the
    game); or raise GameNotFound."""
    game = access.load_game(public_id, device_hash)
    return game.follow_token, game.device_hash == device_hash, saved_game.rules_of(game)


def share_game(public_id: str, device_hash: str | None) -> str:
    """Give the device's game a follow address, or keep the one it has; return its token.

    Sharing twice (a double tap) keeps the address the others already opened. The game's
    version does not change: the scores did not, and an edit form opened before stays valid.
    """
    with UnitOfWork():
        game = access.load_game(public_id, device_hash, for_update=True)
        if game.follow_token is None:
            game.follow_token = new_public_id()
        return game.follow_token


def stop_sharing(public_id: str, device_hash: str | None) -> None:
    """Revoke the device's game's follow address: it answers 404 from now on. The game's own
    phone alone may (OwnPhoneOnly for a phone of its table)."""
    with UnitOfWork() as work:
        game = access.load_own_game(public_id, device_hash)
        work.announce(game)  # while it has its token: its followers see the share end
        game.follow_token = None


def _valid(token: str) -> bool:
    return access.PUBLIC_ID.fullmatch(token) is not None


def followed_game(token: str) -> saved_game.SavedGame:
    """Return the game shared under this token, or raise GameNotFound."""
    game = (
        db.session.scalars(
            select(Game).where(Game.follow_token == token).options(*access.with_sheets())
        ).one_or_none()
        if _valid(token)
        else None
    )
    if game is None:
        raise GameNotFound(token)
    return saved_game.SavedGame.of(game)


def followed_version(token: str) -> tuple[int, int]:
    """Return (game id, version) of the game shared under this token (one indexed read), or
    raise GameNotFound. A follower that already has this version needs nothing else (a 304)."""
    found = (
        db.session.execute(
            select(Game.id, Game.version).where(Game.follow_token == token)
        ).one_or_none()
        if _valid(token)
        else None
    )
    if found is None:
        raise GameNotFound(token)
    return found.id, found.version


def live_versions(connection: Connection, game_ids: list[int]) -> dict[int, Hashable]:
    """What the live streams' SQLite look compares (app/platform/live.py), for each of these
    games still there: its version, its follow token (a share stopped or started), the count
    of its table's phones (a phone leaving its table, or removed from it, changes no game, yet its
    streams must look at their rights again) and its rematch (the table went on with another
    game). One query, whatever the number of followers."""
    seated = select(func.count()).where(TablePhone.table_id == Game.table_id).scalar_subquery()
    rows = connection.execute(
        select(Game.id, Game.version, Game.follow_token, seated, games.rematch_column()).where(
            Game.id.in_(game_ids)
        )
    )
    return {game_id: tuple(seen) for game_id, *seen in rows}
