"""Storing imported games (app/services/import_file.py reads their files): those the phone does
not have yet, in three bulk INSERTs; and, for a game it has, the rounds played on since on
another phone (its copy went there, was played on, and its export came back)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import cast

from sqlalchemy import Table, insert

from app import rules
from app.platform.extensions import db
from app.services.access import load_game
from app.services.import_file import ImportedGame
from app.services.reads import own_games_known_as
from app.services.saved_game import keep_sheet, kept_sheet
from app.services.unit_of_work import UnitOfWork
from app.storage.models import Game, Player, Round


def _table(model: type[Game | Player | Round]) -> Table:
    return cast(Table, model.__table__)


@dataclass(frozen=True)
class Imported:
    """What an import did with a file's games."""

    added: int = 0  # new on this phone
    continued: int = 0  # here already, with fewer rounds: given the file's next rounds
    already: int = 0  # here already with all their rounds (or more), or twice in the file
    different: int = 0  # here already with other players, rules or rounds: kept as they are


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


def import_games(
    device_hash: str,
    imported: Sequence[ImportedGame],
    allow: Callable[[int], None] = lambda _count: None,
) -> Imported:
    """Add the imported games the device does not have yet, and the rounds played on elsewhere
    of those it has; say what became of each.

    `allow` is told how many games would be added (the file's, less those already here) before
    any is; it may refuse them all by raising (the hourly allowance: rate_limits.py)."""
    with UnitOfWork() as work:
        here = {}
        for saved in own_games_known_as(device_hash, {game.origin_id for game in imported}):
            here[saved.public_id] = saved
            if saved.origin_id:
                here[saved.origin_id] = saved
        fresh: list[ImportedGame] = []
        seen: set[str] = set()
        continued = already = different = 0
        for game in imported:
            if game.origin_id in seen:
                already += 1
                continue
            seen.add(game.origin_id)
            if game.origin_id not in here:
                fresh.append(game)
                continue
            match rounds_beyond(here[game.origin_id].scoresheet, game.sheet):
                case None:
                    different += 1
                case 0:
                    already += 1
                case _:
                    _play_on(work, here[game.origin_id].public_id, device_hash, game.sheet)
                    continued += 1
        allow(len(fresh))
        if fresh:
            _add(device_hash, fresh)
        return Imported(len(fresh), continued, already, different)


def _play_on(work: UnitOfWork, public_id: str, device_hash: str, sheet: rules.Scoresheet) -> None:
    """Give the device's game the rounds of `sheet` it does not have (undated: they were not
    recorded here, now), as one more version of it."""
    game = load_game(public_id, device_hash, for_update=True)
    for index in range(len(game.rounds), len(sheet.rounds)):
        played = sheet.typed(index)
        game.rounds.append(
            Round(
                number=index + 1,
                heads=list(played.scores),
                ended_by=played.ended_by,
                recorded_at=None,
            )
        )
    game.cancelled_rounds = None  # the rounds « Rétablir » would put back are no longer next
    game.version += 1
    keep_sheet(game)
    db.session.flush()
    work.announce(game)


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
