"""The reads of games: one game as its page shows it, the game in progress, the history's pages,
every game of a phone (its export and statistics)."""

from __future__ import annotations

import json
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from sqlalchemy import ColumnElement, Row, Select, Text, bindparam, func, or_, select
from sqlalchemy import cast as cast_as

from app.platform.extensions import db
from app.rules.games import six_nimmt
from app.services.access import look_for, reachable_by, with_sheets
from app.services.refusals import GameNotFound
from app.services.saved_game import GameColumns, SavedGame
from app.storage.models import Game, Player, Round, RowsRoundState

IN_PROGRESS_LOOKBACK = 20  # how many of the newest games the home page looks through


def find_game(public_id: str, device_hash: str | None) -> SavedGame:
    """Return the device's game, or raise GameNotFound."""
    return read_game(public_id, device_hash)[0]


# What a page reads of a game's own columns (SavedGame.frozen), in GameColumns' order.
_GAME = tuple(getattr(Game, column) for column in GameColumns._fields)


def read_game(
    public_id: str, device_hash: str | None, *, with_rows: bool = False
) -> tuple[SavedGame, Row[Any] | None]:
    """Return the device's game as a page shows it, and the assistant's stored round if asked
    (its round_number, starts and turns; None when there is none); or raise GameNotFound.

    Read as rows, not objects, in one statement: the game's columns with its kept sheet
    (Game.kept_sheet), when its last round was recorded, and the assistant's round. A sheet
    missing or older than its game (a game stored by other means than the services) is read
    from its round and player rows instead. A page costs about half the CPU to read this way
    than through the ORM with its loaders (docs/performance.md, « The game page's server
    time »), and about 0.25 ms less from the kept sheet than from the rows (« Issue 33 »).
    """
    device = look_for(public_id, device_hash)
    found = db.session.execute(_read_of(with_rows), {"public_id": public_id, "device": device})
    row = found.one_or_none()
    if row is None:
        raise GameNotFound(public_id)
    sheet = row.kept_sheet
    if not _kept_for(sheet, row.version):
        sheet = _sheets_from_rows([row.id])[row.id]
    game = SavedGame.frozen(
        row,
        sheet["players"],
        sheet["rounds"],
        sheet.get("enders", ()),
        row.played_until,
        sheet.get("dealers", ()),
    )
    return game, row if with_rows and row.starts is not None else None


@cache
def _read_of(with_rows: bool) -> Select[Any]:
    """Return read_game's statement, its game and device as parameters: built once per process
    and kept, with the cache key SQLAlchemy makes of it. Built again for each page, it cost
    0.4 ms of a 0.7 ms read (10-player, 20-round page, in process; docs/performance.md)."""
    last_recorded = (
        select(Round.recorded_at)
        .where(Round.game_id == Game.id)
        .order_by(Round.number.desc())
        .limit(1)
        .scalar_subquery()
    )
    query = select(*_GAME, Game.kept_sheet, last_recorded.label("played_until"))
    if with_rows:
        query = query.add_columns(
            RowsRoundState.round_number, RowsRoundState.starts, RowsRoundState.turns
        ).outerjoin(RowsRoundState, RowsRoundState.game_id == Game.id)
    return query.where(Game.public_id == bindparam("public_id"), reachable_by(bindparam("device")))


def game_in_progress(device_hash: str | None) -> SavedGame | None:
    """Return the device's most recent unfinished game among its newest ones, if any."""
    if device_hash is None:
        return None
    recent = db.session.scalars(
        select(Game)
        .where(reachable_by(device_hash))
        .order_by(Game.created_at.desc(), Game.id.desc())
        .limit(IN_PROGRESS_LOOKBACK)
        .options(*with_sheets())
    )
    frozen = (SavedGame.of(game) for game in recent)
    return next((game for game in frozen if not game.scoresheet.is_over), None)


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
    found = db.session.scalars(
        select(Game)
        .where(reachable_by(device_hash))
        .order_by(Game.created_at.desc(), Game.id.desc())
        .offset((page - 1) * per_page)
        .limit(per_page + 1)
        .options(*with_sheets())
    ).all()
    return HistoryPage(
        [SavedGame.of(game) for game in found[:per_page]], page, len(found) > per_page
    )


def history_mark(device_hash: str | None) -> tuple[int, int, int]:
    """Return a mark of everything `all_games` would read, that changes whenever any of it does
    (a game added, removed, or changed: each change moves its version): one aggregate over an
    index, where reading the games of a long history costs a few hundred milliseconds."""
    if device_hash is None:
        return (0, 0, 0)
    count, versions, ids = db.session.execute(
        select(
            func.count(),
            func.coalesce(func.sum(Game.version), 0),
            func.coalesce(func.sum(Game.id), 0),
        ).where(reachable_by(device_hash))
    ).one()
    return int(count), int(versions), int(ids)


def all_games(device_hash: str | None) -> list[SavedGame]:
    """Return every game of the device, oldest first, with its players and rounds (not when
    they were played).

    Read from each game's kept sheet, one row a game: 3,000 games of 10 rounds took 0.4 s of
    CPU through their player and round rows, 3 s as ORM objects (docs/reliability.md). A sheet
    missing or older than its game (a game stored by other means than the services) is read
    from those rows instead.
    """
    if device_hash is None:
        return []
    return [saved for _, saved in _games_read(_games_query(reachable_by(device_hash)))]


def games_read(*conditions: ColumnElement[bool]) -> list[tuple[int, SavedGame]]:
    """Return the games these conditions find, oldest first, each with its row's id, read as
    all_games reads them (an evening's: app/services/evenings.py)."""
    return _games_read(_games_query(*conditions))


def own_games_known_as(device_hash: str, ids: Collection[str]) -> dict[int, SavedGame]:
    """Return the device's own games whose id, or id on the phone they were imported from, is
    one of `ids` (what an import finds already here), by their row's id, read as all_games reads
    them and locked for a write (inside a unit of work: PostgreSQL locks their rows in this
    order, so that two imports never wait on each other's)."""
    query = _games_query(
        Game.device_hash == device_hash,
        or_(Game.public_id.in_(ids), Game.origin_id.in_(ids)),
    ).with_for_update(of=Game)
    return dict(_games_read(query))


def _games_query(*conditions: ColumnElement[bool]) -> Select[Any]:
    return (
        select(*_GAME, cast_as(Game.kept_sheet, Text).label("kept"))
        .where(*conditions)
        .order_by(Game.created_at, Game.id)
    )


def _games_read(query: Select[Any]) -> list[tuple[int, SavedGame]]:
    """Return the games the query finds, each with its row's id."""
    found = db.session.execute(query).all()
    # Every kept sheet as one JSON document: one decoding, not one per game.
    kept = json.loads("[" + ",".join(row.kept or "null" for row in found) + "]")
    stale = [row.id for row, sheet in zip(found, kept) if not _kept_for(sheet, row.version)]
    from_rows = _sheets_from_rows(stale) if stale else {}
    games = []
    for row, sheet in zip(found, kept, strict=True):
        columns = GameColumns._make(row[:-1])
        sheet = from_rows.get(columns.id, sheet)
        saved = SavedGame.frozen(
            columns,
            sheet["players"],
            sheet["rounds"],
            sheet.get("enders", ()),
            dealers=sheet.get("dealers", ()),
        )
        games.append((columns.id, saved))
    return games


def _kept_for(sheet: dict[str, Any] | None, version: int) -> bool:
    """Tell whether a game's kept sheet is that of its version (else: missing, or left behind
    by a write that did not go through the services)."""
    return sheet is not None and sheet["version"] == version


def _sheets_from_rows(game_ids: Sequence[int]) -> dict[int, dict[str, Any]]:
    """Return these games' sheets, as kept (saved_game.kept_sheet), from their player and round
    rows: two statements, whatever their number."""
    sheets: dict[int, dict[str, Any]] = {
        game_id: {"players": [], "rounds": [], "enders": [], "dealers": []} for game_id in game_ids
    }
    for game_id, name in db.session.execute(
        select(Player.game_id, Player.name)
        .where(Player.game_id.in_(game_ids))
        .order_by(Player.game_id, Player.seat)
    ):
        sheets[game_id]["players"].append(name)
    for game_id, scores, ended_by, dealer in db.session.execute(
        select(Round.game_id, Round.scores, Round.ended_by, Round.dealer)
        .where(Round.game_id.in_(game_ids))
        .order_by(Round.game_id, Round.number)
    ):
        sheets[game_id]["rounds"].append(scores)
        sheets[game_id]["enders"].append(ended_by)
        sheets[game_id]["dealers"].append(dealer)
    return sheets


def rows_round_of(state: RowsRoundState | Row[Any], players: int) -> six_nimmt.RowsRound:
    """Return the assistant's round on the rows as stored: app.rules replays its turns."""
    return six_nimmt.RowsRound(
        players,
        tuple(state.starts),
        tuple(six_nimmt.PlayedTurn(tuple(turn["cards"]), turn.get("row")) for turn in state.turns),
    )


@dataclass(frozen=True)
class RoundHelp:
    """What the game page's round form gets from the assistant and the head counter."""

    typed: list[str] | None = None
    filled_by_assistant: bool = False
    turns_in_progress: int = 0


def game_to_score(
    public_id: str, device_hash: str | None, carried: Mapping[int, int]
) -> tuple[SavedGame, RoundHelp]:
    """Return the device's game as its page shows it, and the scores its round form starts with:
    the assistant's finished round, then those the address carries by seat (from « Compter les
    têtes »; seats the game does not have are left out). Raise GameNotFound.

    One read: the game, its kept sheet and the assistant's round in one statement (read_game).
    """
    game, stored = read_game(public_id, device_hash, with_rows=True)
    sheet = game.scoresheet
    if sheet.is_over:
        return game, RoundHelp()
    rows_round = None
    if stored is not None and stored.round_number == sheet.next_round:
        rows_round = rows_round_of(stored, len(sheet.players))
    typed: list[str] = [""] * len(sheet.players)
    finished = rows_round is not None and rows_round.is_complete
    if rows_round is not None and finished:
        typed = [str(value) for value in rows_round.heads_taken]
    for seat, score in carried.items():
        if seat < len(typed):
            typed[seat] = str(score)
    help_ = RoundHelp(
        typed if any(typed) else None,
        finished,
        len(rows_round.turns) if rows_round and not finished else 0,
    )
    return game, help_
