"""Storing imported games (app/services/import_file.py reads their files): those the phone does
not have yet, and the rounds played since on another phone of those it has (its copy went there,
was played on, and that phone's export came back) — each in a few bulk statements."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, cast

import psycopg
from psycopg import sql
from sqlalchemy import Table, bindparam, insert, update

from app import rules
from app.platform.extensions import db
from app.services import story
from app.services.import_file import ImportedGame
from app.services.reads import own_games_known_as
from app.services.saved_game import SavedGame, kept_sheet
from app.services.unit_of_work import UnitOfWork
from app.storage.models import Game, Player, Round, StoryEntry, utcnow


def _table(model: type[Game | Player | Round | StoryEntry]) -> Table:
    return cast(Table, model.__table__)


@dataclass(frozen=True)
class Imported:
    """What an import did with a file's games (a game listed twice in the file counts once)."""

    added: int = 0  # new on this phone
    continued: int = 0  # here already, with fewer rounds: given the file's next ones
    already: int = 0  # here already with all their rounds, or more
    different: int = 0  # here already, gone another way: kept as they are
    # Listed more than once in the file under copies gone different ways: only the first copy
    # (or one played further from it) was compared and imported; the others were left out.
    left_out: int = 0


def rounds_beyond(here: rules.Scoresheet, there: rules.Scoresheet) -> int | None:
    """Return how many rounds the copy `there` of a game has after those of the copy `here`
    (0 when it has none more), or None when the two went different ways: other players, rules,
    or a round with other scores or ender."""
    if (here.players, here.rules) != (there.players, there.rules):
        return None
    both = min(len(here.rounds), len(there.rounds))
    if any(here.typed(index) != there.typed(index) for index in range(both)):
        return None
    return max(0, len(there.rounds) - len(here.rounds))


def one_copy_each(imported: Sequence[ImportedGame]) -> tuple[list[ImportedGame], int]:
    """Return one copy of each game the file lists, in the file's order: its first copy, or a
    later one played further from it (the same game exported at two moments); and how many games
    had a copy gone another way, left out (two phones' exports put together)."""
    kept: dict[str, ImportedGame] = {}
    left_out: set[str] = set()
    for game in imported:
        chosen = kept.setdefault(game.origin_id, game)
        beyond = rounds_beyond(chosen.sheet, game.sheet)
        if beyond is None:
            left_out.add(game.origin_id)
        elif beyond:
            kept[game.origin_id] = game
    return list(kept.values()), len(left_out)


def import_games(
    device_hash: str,
    imported: Sequence[ImportedGame],
    allow: Callable[[int], None] = lambda _count: None,
) -> Imported:
    """Add the imported games the device does not have yet, and the rounds played elsewhere
    since of those it has; say what became of each.

    `allow` is told how many games would be written (added or given rounds) before any is; it
    may refuse them all by raising (the hourly allowance: rate_limits.py)."""
    copies, left_out = one_copy_each(imported)
    with UnitOfWork() as work:
        # The device's games the file names, locked (PostgreSQL) before they are compared: a
        # round recorded at the table meanwhile is either in what is compared or waits.
        found = own_games_known_as(device_hash, {game.origin_id for game in copies})
        # Each id the file may name: a game's own id, else the id of the game it was imported
        # from (a game started here comes before a copy of it imported back by other means).
        here: dict[str, tuple[int, SavedGame]] = {}
        for game_id, saved in found.items():
            if saved.origin_id:
                here.setdefault(saved.origin_id, (game_id, saved))
        for game_id, saved in found.items():
            here[saved.public_id] = (game_id, saved)
        fresh: list[ImportedGame] = []
        continued: dict[str, rules.Scoresheet] = {}
        already = different = 0
        for game in copies:
            if game.origin_id not in here:
                fresh.append(game)
                continue
            game_id, saved = here[game.origin_id]
            beyond = rounds_beyond(saved.scoresheet, game.sheet)
            if beyond is None or (beyond and saved.restorable):
                # A game cut back here (« Annuler la manche », not played since) may have had
                # the file's next rounds: undone on purpose, not to be brought back.
                different += 1
            elif beyond:
                continued[game.origin_id] = game.sheet
            else:
                already += 1
        allow(len(fresh) + len(continued))
        if fresh:
            _add(device_hash, fresh)
        if continued:
            _play_on([(*here[origin], sheet) for origin, sheet in continued.items()])
            # Each game's story says that its next rounds came from a file, up to which.
            _insert_rows(
                StoryEntry,
                [
                    _told_here(device_hash, here[origin][0], len(sheet.rounds))
                    for origin, sheet in continued.items()
                ],
            )
            work.announce_ids(here[origin][0] for origin in continued)
        return Imported(len(fresh), len(continued), already, different, left_out)


def _play_on(games: Sequence[tuple[int, SavedGame, rules.Scoresheet]]) -> None:
    """Give each game (its id, as it stands here) the rounds of its sheet it does not have yet,
    as one more version of it: one INSERT of every round, one UPDATE of every game."""
    rounds = [
        row
        for game_id, saved, sheet in games
        for row in _round_rows(game_id, sheet, after=len(saved.scoresheet.rounds))
    ]
    _insert_rows(Round, rounds)
    db.session.execute(
        update(_table(Game))
        .where(Game.id == bindparam("game_id"))
        .values(
            version=bindparam("next_version"),
            kept_sheet=bindparam("sheet"),
            dealer=bindparam("next_dealer"),
        ),
        [
            {
                "game_id": game_id,
                "next_version": saved.version + 1,
                "sheet": kept_sheet(sheet, saved.version + 1),
                "next_dealer": sheet.dealer,  # who deals after the rounds played elsewhere
            }
            for game_id, saved, sheet in games
        ],
    )


def _add(device_hash: str, fresh: Sequence[ImportedGame]) -> None:
    """Store new games with their players and rounds."""
    # Three bulk INSERTs of plain rows (games with RETURNING ids, then players, then rounds)
    # rather than one ORM object per row: storing the biggest allowed file (2 MB, about 3,500
    # games) went from ~10 s to ~1 s of a worker (docs/reliability.md, « Imports »).
    game_ids = db.session.scalars(
        insert(_table(Game)).returning(Game.id, sort_by_parameter_order=True),
        [
            {
                "device_hash": device_hash,
                "origin_id": game.origin_id,
                "created_at": game.created_at,
                "game": game.sheet.rules.game.key,
                "title": game.sheet.rules.title,
                "best": game.sheet.rules.chosen_best.value
                if game.sheet.rules.chosen_best
                else None,
                "end_rule": game.sheet.rules.end.value,
                "head_limit": game.sheet.rules.limit,
                "round_count": game.sheet.rules.round_count,
                "pro": "pro" in game.sheet.rules.variants,
                "version": 1,
                "dealer": game.sheet.dealer,
                "kept_sheet": kept_sheet(game.sheet, version=1),
            }
            for game in fresh
        ],
    ).all()
    _insert_rows(
        Player,
        [
            {"game_id": game_id, "seat": seat, "name": name}
            for game_id, game in zip(game_ids, fresh, strict=True)
            for seat, name in enumerate(game.sheet.players)
        ],
    )
    rounds = [
        row
        for game_id, game in zip(game_ids, fresh, strict=True)
        for row in _round_rows(game_id, game.sheet)
    ]
    if rounds:
        _insert_rows(Round, rounds)
    # Each game's story: the file's, its phones as the file numbered them (no device here), then
    # this phone's import.
    told = [
        row
        for game_id, game in zip(game_ids, fresh, strict=True)
        for row in [
            *(
                {
                    "game_id": game_id,
                    "at": entry.at,
                    "device_hash": None,
                    "joined_at": None,
                    "phone": entry.phone,
                    "kind": entry.kind,
                    "round": entry.round,
                    "change": entry.change,
                }
                for entry in game.story
            ),
            _told_here(device_hash, game_id),
        ]
    ]
    _insert_rows(StoryEntry, told)


def _told_here(device_hash: str, game_id: int, last_round: int | None = None) -> dict[str, Any]:
    """The story entry of an import on this phone (of a game, or of its rounds up to one)."""
    return {
        "game_id": game_id,
        "at": utcnow(),
        "device_hash": device_hash,
        "joined_at": None,
        "phone": None,
        "kind": story.IMPORTED,
        "round": last_round,
        "change": None,
    }


def _insert_rows(model: type[Player | Round | StoryEntry], rows: Sequence[dict[str, Any]]) -> None:
    """Insert plain rows of players or rounds, all with the same columns, in the unit of work.

    PostgreSQL takes them by COPY: psycopg's executemany sends one prepared INSERT a row, ~40 µs
    of the worker each, and a file of 5,000 games of ten players (80,000 rows) held a worker
    3.4 s of CPU there (9 to 10 s at load 5); by COPY 1.6 s (3.4 s): docs/reliability.md."""
    connection = db.session.connection()
    if connection.dialect.name != "postgresql":
        db.session.execute(insert(_table(model)), rows)
        return
    statement = sql.SQL("COPY {} ({}) FROM STDIN").format(
        sql.Identifier(_table(model).name), sql.SQL(", ").join(map(sql.Identifier, rows[0]))
    )
    driver = cast(psycopg.Connection[Any], connection.connection.driver_connection)
    with driver.cursor() as cursor, cursor.copy(statement) as copy:
        for row in rows:
            # COPY's text: a round's scores (a story entry's change) as the JSON their column holds.
            copy.write_row(
                [json.dumps(v) if isinstance(v, list | dict) else v for v in row.values()]
            )


def _round_rows(game_id: int, sheet: rules.Scoresheet, after: int = 0) -> list[dict[str, Any]]:
    """Return the rows of a sheet's rounds past the first `after`, for a bulk INSERT. No date:
    an imported round was not recorded here, now (its game then says no length)."""
    return [
        {
            "game_id": game_id,
            "number": index + 1,
            "heads": list(sheet.rounds[index]),  # the column of Round.scores
            "ended_by": sheet.enders[index],
            "dealer": sheet.dealers[index],
            "recorded_at": None,
        }
        for index in range(after, len(sheet.rounds))
    ]
