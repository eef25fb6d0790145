"""Storing imported games (app/services/import_file.py reads their files): only those the
phone does not have yet, in three bulk INSERTs."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import cast

from sqlalchemy import Table, insert, select

from app.platform.extensions import db
from app.services.import_file import ImportedGame
from app.services.saved_game import kept_sheet
from app.services.unit_of_work import UnitOfWork
from app.storage.models import Game, Player, Round


def _table(model: type[Game | Player | Round]) -> Table:
    return cast(Table, model.__table__)


def import_games(
    device_hash: str,
    imported: Sequence[ImportedGame],
    allow: Callable[[int], None] = lambda _count: None,
) -> tuple[int, int]:
    """Add the imported games the device does not have yet; return (added, already there).

    `allow` is told how many games would be added (the file's, less those already here) before
    any is; it may refuse them all by raising (the hourly allowance: rate_limits.py)."""
    with UnitOfWork():
        ids = {game.origin_id for game in imported}
        known = set(
            db.session.scalars(
                select(Game.public_id).where(
                    Game.device_hash == device_hash, Game.public_id.in_(ids)
                )
            )
        ) | set(
            db.session.scalars(
                select(Game.origin_id).where(
                    Game.device_hash == device_hash, Game.origin_id.in_(ids)
                )
            )
        )
        fresh: list[ImportedGame] = []
        for game in imported:
            if game.origin_id not in known:
                known.add(game.origin_id)
                fresh.append(game)
        allow(len(fresh))
        if not fresh:
            return 0, len(imported)
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
                    "pro": game.sheet.rules.pro,
                    "version": 1,
                    "kept_sheet": kept_sheet(game.sheet, version=1),
                }
                for game in fresh
            ],
        ).all()
        db.session.execute(
            insert(_table(Player)),
            [
                {"game_id": game_id, "seat": seat, "name": name}
                for game_id, game in zip(game_ids, fresh, strict=True)
                for seat, name in enumerate(game.sheet.players)
            ],
        )
        rounds = [
            # No date: an imported round was not recorded now (its game then says no length).
            {
                "game_id": game_id,
                "number": number + 1,
                "heads": list(heads),
                "ended_by": game.sheet.enders[number],
                "recorded_at": None,
            }
            for game_id, game in zip(game_ids, fresh, strict=True)
            for number, heads in enumerate(game.sheet.rounds)
        ]
        if rounds:
            db.session.execute(insert(_table(Round)), rounds)
        added = len(fresh)
        return added, len(imported) - added
