"""Several phones scoring one evening: a table of phones, its scorer address, joining it.

« Inviter à marquer » puts a game at a table (made for it, with the game's phone on it) and
gives the table a scorer address: its own random token (128 bits), not the follow address.
A phone that opens it and taps « Rejoindre la table » is seated: from then on it may see and
score the table's games — that game and those that follow from it (rematches) — as the first
phone does (access.reachable_by). Each phone keeps its own device token; nothing secret is in
the pages. « Arrêter l'invitation » forgets the token: the address answers 404, and the phones
already seated stay. The phone that started the game owns it: it alone stops or renews the
invitation and unseats the others (« Retirer les téléphones invités »); a seated phone scores
and may leave (« Quitter la table »).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from sqlalchemy import delete, func, select

from app import rules
from app.platform.extensions import db
from app.services import access, games, saved_game
from app.services.refusals import GameNotFound, OwnPhoneOnly
from app.services.unit_of_work import UnitOfWork
from app.storage.models import Game, SharedTable, TablePhone, new_public_id


@dataclass(frozen=True)
class Invitation:
    """The invitation page's state: the scorer token while it stands, whether this phone is the
    game's own (it alone may unseat the others), how many other phones are seated, and the
    game's rules (the page names the game)."""

    token: str | None
    own_phone: bool
    others: int
    game_rules: rules.GameRules
    newest_seat: int = 0  # the last other phone seated, as the page shows them (its row's id)


def invitation(public_id: str, device_hash: str | None) -> Invitation:
    game = access.load_game(public_id, device_hash)
    game_rules = saved_game.rules_of(game)
    if game.table_id is None:
        return Invitation(None, game.device_hash == device_hash, 0, game_rules)
    token = db.session.scalar(
        select(SharedTable.invite_token).where(SharedTable.id == game.table_id)
    )
    others, newest = db.session.execute(
        select(func.count(), func.max(TablePhone.id)).where(
            TablePhone.table_id == game.table_id, TablePhone.device_hash != game.device_hash
        )
    ).one()
    return Invitation(token, game.device_hash == device_hash, others, game_rules, newest or 0)


def invite(public_id: str, device_hash: str | None) -> str:
    """Give the game's table a scorer address (seating the game's table first if it has none),
    or keep the one it has (a double tap keeps the address already scanned); return its token.
    The game's own phone alone may (OwnPhoneOnly for a phone of its table)."""
    with UnitOfWork():
        game = access.load_own_game(public_id, device_hash)
        if game.table_id is None:
            table = SharedTable()
            db.session.add(table)
            db.session.flush()
            game.table_id = table.id
            db.session.add(TablePhone(table_id=table.id, device_hash=game.device_hash))
        else:
            table = _locked(game.table_id)
        if table.invite_token is None:
            table.invite_token = new_public_id()
        return table.invite_token


def stop_inviting(public_id: str, device_hash: str | None) -> None:
    """Forget the table's scorer address: it answers 404 from now on; seated phones stay. The
    game's own phone alone may."""
    with UnitOfWork():
        game = access.load_own_game(public_id, device_hash)
        if game.table_id is not None:
            _locked(game.table_id).invite_token = None


class Unseated(NamedTuple):
    removed: int  # the phones the page showed, unseated
    stayed: int  # those seated since the page was drawn, left at the table


def remove_invited_phones(
    public_id: str, device_hash: str | None, newest_seat: int | None
) -> Unseated:
    """Unseat the phones of the game's table that its page showed (seated up to `newest_seat`),
    but the game's own: one seated since stays, as the page never showed it. Their live streams
    end (announced: each looks at its rights again) and a standing scorer address is replaced,
    so that the one they had no longer seats them. The game's own phone alone may (another
    would otherwise lock the first out)."""
    with UnitOfWork() as work:
        game = access.load_own_game(public_id, device_hash)
        if game.table_id is None:
            return Unseated(0, 0)
        table = _locked(game.table_id)
        others = (TablePhone.table_id == table.id, TablePhone.device_hash != game.device_hash)
        removed = db.session.scalars(
            delete(TablePhone)
            .where(*others, TablePhone.id <= (newest_seat or 0))
            .returning(TablePhone.id)
        ).all()
        if removed and table.invite_token is not None:
            table.invite_token = new_public_id()
        _announce_table(work, table.id)
        stayed = db.session.scalar(select(func.count()).where(*others)) or 0
        return Unseated(len(removed), stayed)


def leave(public_id: str, device_hash: str | None) -> None:
    """Take this phone from the game's table: the table's games leave its history and
    statistics, nobody else's. Its own phone cannot leave its game (it deletes it instead)."""
    with UnitOfWork() as work:
        game = access.load_game(public_id, device_hash, for_update=True)
        if game.device_hash == device_hash or game.table_id is None:
            raise OwnPhoneOnly(public_id)
        db.session.execute(
            delete(TablePhone).where(
                TablePhone.table_id == game.table_id, TablePhone.device_hash == device_hash
            )
        )
        _announce_table(work, game.table_id)  # its other tabs' streams end too


def _locked(table_id: int) -> SharedTable:
    """The table's row, locked until the write commits (PostgreSQL; SQLite's write transaction
    holds the whole database): a join and a stop or a removal happen one after the other."""
    return db.session.scalars(
        select(SharedTable).where(SharedTable.id == table_id).with_for_update()
    ).one()


def _announce_table(work: UnitOfWork, table_id: int) -> None:
    for game in db.session.scalars(select(Game).where(Game.table_id == table_id)):
        work.announce(game)


def _latest_game(table_id: int) -> Game | None:
    return db.session.scalars(
        select(Game)
        .where(Game.table_id == table_id)
        .order_by(Game.created_at.desc(), Game.id.desc())
        .limit(1)
        .options(*access.with_sheets())
    ).first()


def _table_invited(token: str, *, for_update: bool = False) -> int:
    query = select(SharedTable.id).where(SharedTable.invite_token == token)
    if for_update:
        query = query.with_for_update()
    table_id = db.session.scalar(query) if access.PUBLIC_ID.fullmatch(token) else None
    if table_id is None:
        raise GameNotFound(token)
    return table_id


def invited_game(token: str) -> saved_game.SavedGame:
    """Return the latest game of the table invited under this token (what the scorer address
    shows before joining), or raise GameNotFound (unknown or stopped)."""
    latest = _latest_game(_table_invited(token))
    if latest is None:  # every game of the table was deleted
        raise GameNotFound(token)
    return saved_game.SavedGame.of(latest)


def join(token: str, device_hash: str) -> saved_game.SavedGame:
    """Seat this phone at the invited table (once, however many taps) and return the table's
    latest game, to open; raise GameNotFound when the address is unknown or stopped.

    One locked unit of work: a stop or a removal at the same moment comes wholly before (the
    address is gone: nothing is seated) or wholly after (seated, and the game is opened)."""
    with UnitOfWork():
        table_id = _table_invited(token, for_update=True)
        seated = db.session.scalar(
            select(TablePhone.id).where(
                TablePhone.table_id == table_id, TablePhone.device_hash == device_hash
            )
        )
        if seated is None:
            db.session.add(TablePhone(table_id=table_id, device_hash=device_hash))
        latest = _latest_game(table_id)
        if latest is None:  # every game of the table was deleted
            raise GameNotFound(token)
        return saved_game.SavedGame.of(latest)


class Watched(NamedTuple):
    """What a scoring phone's live stream follows of its game."""

    id: int
    version: int
    rematch: str | None  # the public id of the game the table went on with, once there is one


def watched_version(public_id: str, device_hash: str | None) -> Watched:
    """Return what the live stream of a game this phone may score follows; or raise
    GameNotFound (deleted, or this phone left or was removed from its table)."""
    if device_hash is None or not access.PUBLIC_ID.fullmatch(public_id):
        raise GameNotFound(public_id)
    found = db.session.execute(
        select(Game.id, Game.version, games.rematch_column()).where(
            Game.public_id == public_id, access.reachable_by(device_hash)
        )
    ).one_or_none()
    if found is None:
        raise GameNotFound(public_id)
    return Watched(*found)
