"""The service layer: start games, record and cancel rounds, find a device's games.

Views call one function here and commit; each write locks its game first so that two requests
for the same game (a double tap, two tabs, a retry) are applied one after the other.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from sqlalchemy import bindparam, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import selectinload

from app import rules
from app.extensions import db
from app.models import Game, Player, Round, utcnow
from app.transfer import ImportedGame

PUBLIC_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")  # the alphabet of secrets.token_urlsafe


@dataclass(frozen=True)
class SavedGame:
    """A stored game as pages show it: read with plain rows, never changed through it."""

    id: int
    public_id: str
    version: int
    created_at: datetime
    finished_at: datetime | None
    scoresheet: rules.Scoresheet


class GameNotFound(Exception):
    """No such game for this device (another device's games do not exist for it)."""


class StaleRound(Exception):
    """A submission for a round that is already recorded or cancelled: nothing to do."""


class GameChanged(Exception):
    """An edit made from a page opened before the game last changed (another tab, another hand)."""


def _with_sheets():
    # Three queries whatever the number of games: the games, their players, their rounds.
    return (selectinload(Game.players), selectinload(Game.rounds))


def _begin_write() -> None:
    # SQLite: take the write lock when the transaction starts (BEGIN IMMEDIATE) rather than at the
    # first write, so a read-then-write never fails with "database is locked" half-way through.
    # Only the first statement of a transaction can choose; callers start with this.
    if not db.session().in_transaction():
        db.session.connection(execution_options={"sqlite_begin": "IMMEDIATE"})


# Games are read and changed with plain rows and statements built once: a mapped object costs
# ten times a row (identity map, change tracking), and building and compiling a statement for
# each request cost more than running it (about 1 ms a game page against 0.1 ms; see
# docs/performance.md). The ORM only creates games (start_game, import_games) and exports them.
_game, _player, _round = Game.__table__, Player.__table__, Round.__table__
_GAME_COLUMNS = (
    _game.c.id,
    _game.c.public_id,
    _game.c.version,
    _game.c.created_at,
    _game.c.finished_at,
    _game.c.end_rule,
    _game.c.head_limit,
    _game.c.round_count,
    _game.c.pro,
)
_NEWEST_FIRST = (_game.c.created_at.desc(), _game.c.id.desc())
_GAME_WITH_PLAYERS = (
    select(*_GAME_COLUMNS, _player.c.name)
    .join(_player, _player.c.game_id == _game.c.id)
    .where(_game.c.public_id == bindparam("public_id"), _game.c.device_hash == bindparam("device"))
    .order_by(_player.c.seat)
)
# PostgreSQL: lock the game's row (only it, not its players) until the write commits; SQLite
# has nothing to add (a write transaction, BEGIN IMMEDIATE, holds the whole database).
_GAME_WITH_PLAYERS_FOR_UPDATE = _GAME_WITH_PLAYERS.with_for_update(of=_game)
_ROUNDS_OF_GAME = (
    select(_round.c.heads).where(_round.c.game_id == bindparam("game_id")).order_by(_round.c.number)
)
_PLAYERS_OF_GAMES = (
    select(_player.c.game_id, _player.c.name)
    .where(_player.c.game_id.in_(bindparam("ids", expanding=True)))
    .order_by(_player.c.game_id, _player.c.seat)
)
_ROUNDS_OF_GAMES = (
    select(_round.c.game_id, _round.c.heads)
    .where(_round.c.game_id.in_(bindparam("ids", expanding=True)))
    .order_by(_round.c.game_id, _round.c.number)
)
_HISTORY_PAGE = (
    select(*_GAME_COLUMNS)
    .where(_game.c.device_hash == bindparam("device"))
    .order_by(*_NEWEST_FIRST)
    .offset(bindparam("skip"))
    .limit(bindparam("count"))
)
_IN_PROGRESS = (
    select(*_GAME_COLUMNS)
    .where(_game.c.device_hash == bindparam("device"), _game.c.finished_at.is_(None))
    .order_by(*_NEWEST_FIRST)
    .limit(1)
)


# (Parameters of INSERT and UPDATE statements may not be named after a column.)
_ADD_ROUND = _round.insert().values(
    game_id=bindparam("in_game"),
    number=bindparam("new_number"),
    heads=bindparam("new_heads"),
    created_at=bindparam("now"),
)
_REMOVE_ROUND = _round.delete().where(
    _round.c.game_id == bindparam("in_game"), _round.c.number == bindparam("of_number")
)
_REPLACE_ROUND = (
    _round.update()
    .where(_round.c.game_id == bindparam("in_game"), _round.c.number == bindparam("of_number"))
    .values(heads=bindparam("new_heads"))
)
_GAME_CHANGED = (
    _game.update()
    .where(_game.c.id == bindparam("in_game"))
    .values(version=bindparam("new_version"), finished_at=bindparam("new_finished_at"))
)


def _rows(statement, **params):
    return db.session.connection().execute(statement, params).all()


def _run(statement, **params) -> None:
    db.session.connection().execute(statement, params)


def find_game(public_id: str, device_hash: str | None, *, for_update: bool = False) -> SavedGame:
    """Return the device's game (locked for a write if asked: two statements), or raise
    GameNotFound."""
    if device_hash is None or not PUBLIC_ID.fullmatch(public_id):
        raise GameNotFound(public_id)
    if for_update:
        _begin_write()
    rows = _rows(
        _GAME_WITH_PLAYERS_FOR_UPDATE if for_update else _GAME_WITH_PLAYERS,
        public_id=public_id,
        device=device_hash,
    )
    if not rows:
        raise GameNotFound(public_id)
    heads = [heads for (heads,) in _rows(_ROUNDS_OF_GAME, game_id=rows[0].id)]
    return _saved(rows[0], [row.name for row in rows], heads)


def _saved(game_row, names: Sequence[str], heads: Sequence[Sequence[int]]) -> SavedGame:
    game_rules = rules.GameRules(
        end=rules.EndRule(game_row.end_rule),
        limit=game_row.head_limit,
        round_count=game_row.round_count,
        pro=game_row.pro,
    )
    sheet = rules.Scoresheet(tuple(names), tuple(tuple(taken) for taken in heads), game_rules)
    return SavedGame(
        game_row.id,
        game_row.public_id,
        game_row.version,
        game_row.created_at,
        game_row.finished_at,
        sheet,
    )


def _saved_games(game_rows) -> list[SavedGame]:
    """Return the games of these rows with their players and rounds (two more statements)."""
    ids = [row.id for row in game_rows]
    if not ids:
        return []
    names: dict[int, list[str]] = {game_id: [] for game_id in ids}
    heads: dict[int, list[list[int]]] = {game_id: [] for game_id in ids}
    for game_id, name in _rows(_PLAYERS_OF_GAMES, ids=ids):
        names[game_id].append(name)
    for game_id, taken in _rows(_ROUNDS_OF_GAMES, ids=ids):
        heads[game_id].append(taken)
    return [_saved(row, names[row.id], heads[row.id]) for row in game_rows]


def start_game(
    device_hash: str,
    typed_names: Sequence[str],
    game_rules: rules.GameRules,
    creation_key: str | None = None,
) -> Game:
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


def record_round(game: SavedGame, number: int | None, typed: Sequence[str | None]) -> SavedGame:
    """Record round `number` of a game (locked with find_game) from the heads typed, in seat
    order; return the game as it now stands.

    Raise StaleRound if that round is not the next one (already recorded: a repeat), GameOver or
    InvalidRound if it cannot be recorded; nothing is stored then.
    """
    sheet = game.scoresheet
    if number != sheet.next_round:
        raise StaleRound(number)
    sheet = sheet.with_round(sheet.check_round(typed))
    try:
        _run(
            _ADD_ROUND,
            in_game=game.id,
            new_number=number,
            new_heads=list(sheet.rounds[-1]),
            now=utcnow(),
        )
    except IntegrityError as error:  # another worker recorded it first (unique game + number)
        db.session.rollback()
        raise StaleRound(number) from error
    return _changed(game, sheet, utcnow() if sheet.is_over else None)


def cancel_round(game: SavedGame, number: int | None) -> SavedGame:
    """Remove round `number` of a locked game if it is the last one, which reopens a finished
    game; return the game as it now stands.

    Raise StaleRound when it is not the last round (already cancelled: a repeat).
    """
    sheet = game.scoresheet
    if not sheet.rounds or number != len(sheet.rounds):
        raise StaleRound(number)
    _run(_REMOVE_ROUND, in_game=game.id, of_number=number)
    return _changed(game, replace(sheet, rounds=sheet.rounds[:-1]), None)


def edit_round(
    game: SavedGame, number: int, version: int | None, typed: Sequence[str | None]
) -> SavedGame:
    """Replace the heads of round `number` of a locked game, checked like a new round; return the
    game as it now stands.

    The end is recomputed: an edit can end the game or reopen it. Raise GameChanged if the game
    changed since the form was shown, InvalidRound if the heads cannot be, GameOver if they would
    have ended the game before its last round, GameNotFound if there is no such round.
    """
    sheet = game.scoresheet
    if not 1 <= number <= len(sheet.rounds):
        raise GameNotFound(f"{game.public_id} round {number}")
    if version != game.version:
        raise GameChanged(number)
    heads = rules.check_round(typed, sheet.players, sheet.rules.pro)
    sheet = sheet.with_round_replaced(number, heads)
    _run(_REPLACE_ROUND, in_game=game.id, of_number=number, new_heads=heads)
    return _changed(game, sheet, (game.finished_at or utcnow()) if sheet.is_over else None)


def _changed(game: SavedGame, sheet: rules.Scoresheet, finished_at: datetime | None) -> SavedGame:
    # Every change bumps the version, so that an edit made from a stale page can be refused.
    _run(_GAME_CHANGED, in_game=game.id, new_version=game.version + 1, new_finished_at=finished_at)
    return replace(game, version=game.version + 1, finished_at=finished_at, scoresheet=sheet)


def rematch(public_id: str, device_hash: str | None) -> Game:
    """Start a new game with the same players, in the same seats, under the same rules."""
    old = find_game(public_id, device_hash, for_update=True)
    key = f"revanche:{old.public_id}"  # a second tap on « Rejouer » finds the same new game
    return start_game(device_hash, old.scoresheet.players, old.scoresheet.rules, key)


def game_in_progress(device_hash: str | None) -> SavedGame | None:
    """Return the device's most recent unfinished game, if any."""
    if device_hash is None:
        return None
    return next(iter(_saved_games(_rows(_IN_PROGRESS, device=device_hash))), None)


@dataclass(frozen=True)
class HistoryPage:
    games: list[SavedGame]
    page: int
    has_next: bool


def history(device_hash: str | None, page: int, per_page: int) -> HistoryPage:
    """Return one page of the device's games, newest first, with their players and rounds."""
    if device_hash is None:
        return HistoryPage([], 1, False)
    page = max(1, page)
    # One more than a page tells whether an older page exists, without a COUNT.
    rows = _rows(_HISTORY_PAGE, device=device_hash, skip=(page - 1) * per_page, count=per_page + 1)
    return HistoryPage(_saved_games(rows[:per_page]), page, len(rows) > per_page)


def exported_game(public_id: str, device_hash: str | None) -> Game:
    """Return the device's game with what an export holds (its origin too), or raise
    GameNotFound."""
    if device_hash is None or not PUBLIC_ID.fullmatch(public_id):
        raise GameNotFound(public_id)
    game = db.session.scalars(
        select(Game)
        .where(Game.public_id == public_id, Game.device_hash == device_hash)
        .options(*_with_sheets())
    ).one_or_none()
    if game is None:
        raise GameNotFound(public_id)
    return game


def all_games(device_hash: str | None, *, finished_only: bool = False) -> list[Game]:
    """Return every game of the device, oldest first, with players and rounds."""
    if device_hash is None:
        return []
    query = select(Game).where(Game.device_hash == device_hash)
    if finished_only:
        query = query.where(Game.finished_at.is_not(None))
    return list(
        db.session.scalars(query.order_by(Game.created_at, Game.id).options(*_with_sheets()))
    )


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
