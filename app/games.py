"""The service layer: start games, record and cancel rounds, find a device's games.

Views call one function here and commit; each write locks its game first so that two requests
for the same game (a double tap, two tabs, a retry) are applied one after the other.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import joinedload, selectinload

from app import rules
from app.extensions import db
from app.models import Game, Player, Round, utcnow
from app.transfer import ImportedGame


PUBLIC_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")  # the alphabet of secrets.token_urlsafe


class GameNotFound(Exception):
    """No such game for this device (another device's games do not exist for it)."""


class StaleRound(Exception):
    """A submission for a round that is already recorded or cancelled: nothing to do."""


class GameChanged(Exception):
    """An edit made from a page opened before the game last changed (another tab, another hand)."""


def _with_sheet():
    # Two queries whatever the size of the game: the game with its players, then its rounds.
    return (joinedload(Game.players), selectinload(Game.rounds))


def _with_sheets():
    # Three queries whatever the number of games: the games, their players, their rounds.
    return (selectinload(Game.players), selectinload(Game.rounds))


def _begin_write() -> None:
    # SQLite: take the write lock when the transaction starts (BEGIN IMMEDIATE) rather than at the
    # first write, so a read-then-write never fails with "database is locked" half-way through.
    # Only the first statement of a transaction can choose; callers start with this.
    if not db.session().in_transaction():
        db.session.connection(execution_options={"sqlite_begin": "IMMEDIATE"})


def get_game(public_id: str, device_hash: str | None, *, for_update: bool = False) -> Game:
    """Return the device's game with its players and rounds, or raise GameNotFound."""
    if device_hash is None or not PUBLIC_ID.fullmatch(public_id):
        raise GameNotFound(public_id)
    query = select(Game).where(Game.public_id == public_id, Game.device_hash == device_hash)
    if for_update:
        _begin_write()
        # PostgreSQL: lock the game's row (only it: players are outer-joined); SQLite holds the lock.
        query = query.with_for_update(of=Game)
    game = db.session.scalars(query.options(*_with_sheet())).unique().one_or_none()
    if game is None:
        raise GameNotFound(public_id)
    return game


def start_game(device_hash: str, typed_names: Sequence[str], game_rules: rules.GameRules,
               creation_key: str | None = None) -> Game:
    """Seat the players of a new game; raise InvalidPlayers if the names cannot start one.

    A creation_key already used by this device returns the game it created (a repeat).
    """
    names = rules.seat_players(typed_names)
    if creation_key:
        _begin_write()
        existing = _created_with(device_hash, creation_key)
        if existing is not None:
            return existing
    game = Game(
        device_hash=device_hash,
        end_rule=game_rules.end.value,
        limit=game_rules.limit,
        round_count=game_rules.round_count,
        pro=game_rules.pro,
        players=[Player(seat=seat, name=name) for seat, name in enumerate(names)],
        creation_key=creation_key,
    )
    db.session.add(game)
    try:
        db.session.flush()
    except IntegrityError:  # PostgreSQL: the same form sent twice at the same moment
        db.session.rollback()
        existing = _created_with(device_hash, creation_key)
        if existing is None:
            raise
        return existing
    return game


def _created_with(device_hash: str, creation_key: str | None) -> Game | None:
    return db.session.scalars(
        select(Game).where(Game.device_hash == device_hash, Game.creation_key == creation_key)
    ).first()


def record_round(game: Game, number: int | None, typed: Sequence[str | None]) -> None:
    """Record round `number` of a game (locked with get_game) from the heads typed, in seat order.

    Raise StaleRound if that round is not the next one (already recorded: a repeat), GameOver or
    InvalidRound if it cannot be recorded; nothing is stored then.
    """
    sheet = game.scoresheet
    if number != sheet.next_round:
        raise StaleRound(number)
    heads = sheet.check_round(typed)
    game.rounds.append(Round(number=number, heads=heads))
    game.finished_at = utcnow() if sheet.with_round(heads).is_over else None
    game.version += 1
    try:
        db.session.flush()
    except IntegrityError as error:  # another worker recorded it first (unique game + number)
        db.session.rollback()
        raise StaleRound(number) from error


def cancel_round(game: Game, number: int | None) -> None:
    """Remove round `number` of a locked game if it is the last one, which reopens a finished game.

    Raise StaleRound when it is not the last round (already cancelled: a repeat).
    """
    if not game.rounds or game.rounds[-1].number != number:
        raise StaleRound(number)
    game.rounds.pop()
    game.finished_at = None
    game.version += 1
    db.session.flush()


def edit_round(game: Game, number: int, version: int | None, typed: Sequence[str | None]) -> None:
    """Replace the heads of round `number` of a locked game, checked like a new round.

    The end is recomputed: an edit can end the game or reopen it. Raise GameChanged if the game
    changed since the form was shown, InvalidRound if the heads cannot be, GameOver if they would
    have ended the game before its last round, GameNotFound if there is no such round.
    """
    round_ = next((r for r in game.rounds if r.number == number), None)
    if round_ is None:
        raise GameNotFound(f"{game.public_id} round {number}")
    if version != game.version:
        raise GameChanged(number)
    sheet = game.scoresheet
    heads = rules.check_round(typed, sheet.players, game.pro)
    over = sheet.with_round_replaced(number, heads).is_over
    round_.heads = heads
    game.finished_at = (game.finished_at or utcnow()) if over else None
    game.version += 1
    db.session.flush()


def rematch(public_id: str, device_hash: str | None) -> Game:
    """Start a new game with the same players, in the same seats, under the same rules."""
    old = get_game(public_id, device_hash, for_update=True)
    key = f"revanche:{old.public_id}"  # a second tap on « Rejouer » finds the same new game
    return start_game(old.device_hash, [p.name for p in old.players], old.rules, key)


def game_in_progress(device_hash: str | None) -> Game | None:
    """Return the device's most recent unfinished game, if any."""
    if device_hash is None:
        return None
    return db.session.scalars(
        select(Game)
        .where(Game.device_hash == device_hash, Game.finished_at.is_(None))
        .order_by(Game.created_at.desc(), Game.id.desc())
        .limit(1)
    ).first()


@dataclass(frozen=True)
class HistoryPage:
    games: list[Game]
    page: int
    has_next: bool


def history(device_hash: str | None, page: int, per_page: int) -> HistoryPage:
    """Return one page of the device's games, newest first, with their players and rounds."""
    if device_hash is None:
        return HistoryPage([], 1, False)
    page = max(1, page)
    games = list(
        db.session.scalars(
            select(Game)
            .where(Game.device_hash == device_hash)
            .order_by(Game.created_at.desc(), Game.id.desc())
            .offset((page - 1) * per_page)
            .limit(per_page + 1)  # one more tells whether an older page exists, without a COUNT
            .options(*_with_sheets())
        )
    )
    return HistoryPage(games[:per_page], page, len(games) > per_page)



def all_games(device_hash: str | None, *, finished_only: bool = False) -> list[Game]:
    """Return every game of the device, oldest first, with players and rounds."""
    if device_hash is None:
        return []
    query = select(Game).where(Game.device_hash == device_hash)
    if finished_only:
        query = query.where(Game.finished_at.is_not(None))
    return list(db.session.scalars(query.order_by(Game.created_at, Game.id).options(*_with_sheets())))


def import_games(device_hash: str, imported: Sequence[ImportedGame]) -> tuple[int, int]:
    """Add the imported games the device does not have yet; return (added, already there)."""
    _begin_write()
    ids = {game.origin_id for game in imported}
    known = set(
        db.session.scalars(
            select(Game.public_id).where(Game.device_hash == device_hash, Game.public_id.in_(ids))
        )
    ) | set(
        db.session.scalars(
            select(Game.origin_id).where(Game.device_hash == device_hash, Game.origin_id.in_(ids))
        )
    )
    added = 0
    for game in imported:
        if game.origin_id in known:
            continue
        known.add(game.origin_id)
        players = [Player(seat=seat, name=name) for seat, name in enumerate(game.sheet.players)]
        db.session.add(
            Game(
                device_hash=device_hash,
                origin_id=game.origin_id,
                created_at=game.created_at,
                finished_at=game.finished_at,
                end_rule=game.game_rules.end.value,
                limit=game.game_rules.limit,
                round_count=game.game_rules.round_count,
                pro=game.game_rules.pro,
                players=players,
                rounds=[
                    Round(number=number, heads=list(heads))
                    for number, heads in enumerate(game.sheet.rounds, start=1)
                ],
            )
        )
        added += 1
    db.session.flush()
    return added, len(imported) - added
