"""Several phones scoring one evening: a table of phones, its scorer address, joining it.

« Inviter à marquer » puts a game at a table (made for it, with the game's phone on it) and
gives the table a scorer address: its own random token (128 bits), not the follow address.
A phone that opens it and taps « Rejoindre la table » is seated: from then on it may see and
score the table's games — that game and those that follow from it (rematches) — as the first
phone does (access.reachable_by). Each phone keeps its own device token; nothing secret is in
the pages. « Arrêter l'invitation » forgets the token: the address answers 404, and the phones
already seated stay.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import delete, func, select
from sqlalchemy.exc import IntegrityError

from app.platform.extensions import db
from app.services import access, saved_game
from app.services.unit_of_work import UnitOfWork
from app.storage.models import Game, SharedTable, TablePhone, new_public_id


@dataclass(frozen=True)
class Invitation:
    """The invitation page's state: the scorer token while it stands, whether this phone is the
    game's own (it alone may unseat the others), and how many other phones are seated."""

    token: str | None
    own_phone: bool
    others: int


def invitation(public_id: str, device_hash: str | None) -> Invitation:
    game = access.load_game(public_id, device_hash)
    if game.table_id is None:
        return Invitation(None, game.device_hash == device_hash, 0)
    token = db.session.scalar(
        select(SharedTable.invite_token).where(SharedTable.id == game.table_id)
    )
    others = db.session.scalar(
        select(func.count()).where(
            TablePhone.table_id == game.table_id, TablePhone.device_hash != game.device_hash
        )
    )
    return Invitation(token, game.device_hash == device_hash, others or 0)


def invite(public_id: str, device_hash: str | None) -> str:
    """Give the game's table a scorer address (seating the game's table first if it has none),
    or keep the one it has (a double tap keeps the address already scanned); return its token."""
    with UnitOfWork():
        game = access.load_game(public_id, device_hash, for_update=True)
        if game.table_id is None:
            table = SharedTable()
            db.session.add(table)
            db.session.flush()
            game.table_id = table.id
            for phone in {game.device_hash, device_hash}:
                db.session.add(TablePhone(table_id=table.id, device_hash=phone))
        else:
            table = db.session.get_one(SharedTable, game.table_id)
        if table.invite_token is None:
            table.invite_token = new_public_id()
        return table.invite_token


def stop_inviting(public_id: str, device_hash: str | None) -> None:
    """Forget the table's scorer address: it answers 404 from now on; seated phones stay."""
    with UnitOfWork():
        game = access.load_game(public_id, device_hash, for_update=True)
        if game.table_id is not None:
            db.session.get_one(SharedTable, game.table_id).invite_token = None


def remove_invited_phones(public_id: str, device_hash: str | None) -> int:
    """Unseat every phone of the game's table but the game's own; return how many. Only the
    game's own phone may (another would otherwise lock the first out); others: GameNotFound."""
    with UnitOfWork():
        game = access.load_game(public_id, device_hash, for_update=True)
        if game.device_hash != device_hash:
            raise saved_game.GameNotFound(public_id)
        if game.table_id is None:
            return 0
        removed = db.session.scalars(
            delete(TablePhone)
            .where(TablePhone.table_id == game.table_id, TablePhone.device_hash != game.device_hash)
            .returning(TablePhone.id)
        ).all()
        return len(removed)


def _latest_game(table_id: int) -> Game | None:
    return db.session.scalars(
        select(Game)
        .where(Game.table_id == table_id)
        .order_by(Game.created_at.desc(), Game.id.desc())
        .limit(1)
        .options(*access.with_sheets())
    ).first()


def _table_invited(token: str) -> int:
    table_id = (
        db.session.scalar(select(SharedTable.id).where(SharedTable.invite_token == token))
        if access.PUBLIC_ID.fullmatch(token)
        else None
    )
    if table_id is None:
        raise saved_game.GameNotFound(token)
    return table_id


def invited_game(token: str) -> saved_game.SavedGame:
    """Return the latest game of the table invited under this token (what the scorer address
    shows before joining), or raise GameNotFound (unknown or stopped)."""
    latest = _latest_game(_table_invited(token))
    if latest is None:  # every game of the table was deleted
        raise saved_game.GameNotFound(token)
    return saved_game.SavedGame.of(latest)


def join(token: str, device_hash: str) -> saved_game.SavedGame:
    """Seat this phone at the invited table (once, however many taps) and return the table's
    latest game, to open; raise GameNotFound when the address is unknown or stopped."""
    try:
        with UnitOfWork():
            table_id = _table_invited(token)
            seated = db.session.scalar(
                select(TablePhone.id).where(
                    TablePhone.table_id == table_id, TablePhone.device_hash == device_hash
                )
            )
            if seated is None:
                db.session.add(TablePhone(table_id=table_id, device_hash=device_hash))
    except IntegrityError:  # PostgreSQL: the same phone joining twice at the same moment
        pass
    return invited_game(token)


def watched_version(public_id: str, device_hash: str | None) -> tuple[int, int]:
    """Return (id, version) of a game this phone may score, for its live stream; or raise
    GameNotFound."""
    if device_hash is None or not access.PUBLIC_ID.fullmatch(public_id):
        raise saved_game.GameNotFound(public_id)
    found = db.session.execute(
        select(Game.id, Game.version).where(
            Game.public_id == public_id, access.reachable_by(device_hash)
        )
    ).one_or_none()
    if found is None:
        raise saved_game.GameNotFound(public_id)
    return found.id, found.version


def version_of(game_id: int) -> int | None:
    """Return a game's version (one indexed read), None once it is deleted."""
    return db.session.scalar(select(Game.version).where(Game.id == game_id))
