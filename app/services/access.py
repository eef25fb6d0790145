"""Who may see and write which game: a phone reaches its own games and those of the tables it
joined (app/services/tables.py); a game is loaded for a write with its lock."""

from __future__ import annotations

import re
from typing import Any

from sqlalchemy import BindParameter, ColumnElement, or_, select
from sqlalchemy.orm import selectinload

from app.platform.extensions import db
from app.services.refusals import GameNotFound, OwnPhoneOnly
from app.storage.models import Game, TablePhone

PUBLIC_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")  # the alphabet of secrets.token_urlsafe


def with_sheets() -> tuple[Any, ...]:
    """Return the loader options that bring a game's players and rounds: three queries whatever
    the number of games (the games, their players, their rounds)."""
    return (selectinload(Game.players), selectinload(Game.rounds))


def reachable_by(device_hash: str | BindParameter[str]) -> ColumnElement[bool]:
    """The games a phone may see and score: its own, and those of the tables it joined (the
    device hash, or a parameter for it in a statement kept for every phone)."""
    tables = select(TablePhone.table_id).where(TablePhone.device_hash == device_hash)
    return or_(Game.device_hash == device_hash, Game.table_id.in_(tables))


def look_for(public_id: str, device_hash: str | None) -> str:
    # No cookie, or an address no game can have: nothing to look up.
    if device_hash is None or not PUBLIC_ID.fullmatch(public_id):
        raise GameNotFound(public_id)
    return device_hash


def load_game(public_id: str, device_hash: str | None, *, for_update: bool = False) -> Game:
    """Return the device's game with its players and rounds, locked for a write if asked (inside
    a unit of work; for services only: pages get a SavedGame), or raise GameNotFound."""
    device = look_for(public_id, device_hash)
    query = (
        select(Game)
        .where(Game.public_id == public_id, reachable_by(device))
        .options(*with_sheets())
    )
    if for_update:
        # PostgreSQL: lock the game's row until the write commits; SQLite has nothing to add
        # (a write transaction, BEGIN IMMEDIATE, holds the whole database).
        query = query.with_for_update(of=Game)
    game = db.session.scalars(query).one_or_none()
    if game is None:
        raise GameNotFound(public_id)
    return game


def load_own_game(public_id: str, device_hash: str | None) -> Game:
    """Return the device's own game locked for a write (load_game), or raise OwnPhoneOnly when
    this phone only joined its table (GameNotFound when it cannot see it at all)."""
    game = load_game(public_id, device_hash, for_update=True)
    if game.device_hash != device_hash:
        raise OwnPhoneOnly(public_id)
    return game
