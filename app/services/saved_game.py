"""What every page gets of a stored game — a frozen SavedGame, never ORM rows — and the one path
from stored rows to it, with what a game keeps of its sheet in its own row. The refusals a write
raises are app/services/refusals.py's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import lru_cache
from typing import Any, NamedTuple

from sqlalchemy import Row

from app import rules
from app.storage.models import Game


class GameColumns(NamedTuple):
    """The columns of a game that a SavedGame is frozen from, as the reads select them
    (app/services/reads.py). A plain tuple for the reads of many games at once: a SQLAlchemy Row
    reads a column by name in 0.37 µs, a named tuple in 0.02 µs (statistics and the export of
    3,000 games: 182 → 150 and 195 → 170 ms in process; 170 → 160–170 and 200 → 190–200 ms of
    the server's CPU in `make bench`, docs/performance.md)."""

    id: int
    public_id: str
    version: int
    created_at: datetime
    game: str
    title: str | None
    best: str | None
    end_rule: str
    limit: int
    round_count: int | None
    pro: bool
    cancelled_rounds: list[list[int] | dict[str, Any]] | None
    origin_id: str | None
    table_id: int | None
    device_hash: str
    dealer: int | None
    evening_id: int | None
    colours: list[int] | None


@dataclass(frozen=True)
class SavedGame:
    """A stored game as pages show it: a frozen copy, still readable after a rollback."""

    public_id: str
    version: int
    created_at: datetime
    scoresheet: rules.Scoresheet
    restorable: int | None = None  # the round « Rétablir la manche N » would put back
    restorable_round: rules.RoundScores | None = None  # and its scores, as its form shows them
    origin_id: str | None = None  # its id on the phone it was imported from (exports keep it)
    played_until: datetime | None = None  # when its last round was recorded (UTC), if dated
    at_table: bool = False  # scored by several phones (app/services/tables.py): live for each
    owner: str = field(default="", repr=False)  # the device hash of the phone that started it
    evening: int | None = None  # its evening's first game's id, in an evening of two or more

    @classmethod
    def of(cls, game: Game) -> SavedGame:
        """Freeze a game loaded with its players and rounds (ORM objects: what services write)."""
        last = game.rounds[-1].recorded_at if game.rounds else None
        return cls.frozen(
            game,
            [player.name for player in game.players],
            [r.scores for r in game.rounds],
            [r.ended_by for r in game.rounds],
            last,
            [r.dealer for r in game.rounds],
        )

    @classmethod
    def frozen(
        cls,
        game: Game | Row[Any] | GameColumns,
        names: Sequence[str],
        rounds: Sequence[Sequence[int]],
        enders: Sequence[int | None] = (),
        played_until: datetime | None = None,
        dealers: Sequence[int | None] = (),
    ) -> SavedGame:
        """Freeze a game's columns, its players' names in seat order, its rounds' scores in
        order, who ended each (where the game asks), when the last one was recorded and who dealt
        each (the next dealer is the game's column): the one
        path from stored rows to a game, whether they were read as objects, as rows or from the
        game's kept sheet."""
        sheet = rules.Scoresheet(
            tuple(names),
            tuple(map(tuple, rounds)),
            rules_of(game),
            tuple(enders),
            tuple(dealers),
            game.dealer,
            tuple(game.colours or ()),
        )
        kept = game.cancelled_rounds
        return cls(
            game.public_id,
            game.version,
            game.created_at,
            sheet,
            len(rounds) + 1 if kept else None,
            cancelled_round(kept[-1]) if kept else None,
            game.origin_id,
            played_until,
            game.table_id is not None,
            game.device_hash,
            game.evening_id,
        )


def rules_of(game: Game | Row[Any] | GameColumns) -> rules.GameRules:
    """Return a stored game's rules (the game played, its name), from its own columns."""
    return _rules_of(
        game.game, game.end_rule, game.limit, game.round_count, game.pro, game.best, game.title
    )


@lru_cache(maxsize=256)
def _rules_of(
    game: str,
    end: str,
    limit: int,
    round_count: int | None,
    pro: bool,
    best: str | None,
    title: str | None,
) -> rules.GameRules:
    # A phone's games share a few rules: built once each, not once a game (3,000 in an export).
    return rules.GameRules(
        game=rules.game_of(game),
        end=rules.EndRule(end),
        limit=limit,
        round_count=round_count,
        # The column `pro` keeps the one variant a game has so far (6 qui prend's), by its key.
        variants=frozenset({"pro"}) if pro else frozenset(),
        chosen_best=rules.Best(best) if best else None,
        title=title,
    )


def cancelled_round(kept: list[int] | dict[str, Any]) -> rules.RoundScores:
    """Return a cancelled round as Game.cancelled_rounds keeps it (its scores, or them and who
    ended it)."""
    if isinstance(kept, dict):
        return rules.RoundScores(tuple(kept["scores"]), kept.get("ended_by"))
    return rules.RoundScores(tuple(kept))


def cancelled_dealer(kept: list[int] | dict[str, Any]) -> int | None:
    """Return who dealt a cancelled round as Game.cancelled_rounds keeps it, if it was kept."""
    return kept.get("dealer") if isinstance(kept, dict) else None


def kept_sheet(sheet: rules.Scoresheet, version: int) -> dict[str, Any]:
    """Return what a game keeps of its sheet in its own row (Game.kept_sheet), written by every
    change: the players, the rounds as typed, who ended them where anyone did, and the version
    it is of — a read takes it only for that version (reads.all_games)."""
    kept: dict[str, Any] = {
        "version": version,
        "players": list(sheet.players),
        "rounds": [list(scores) for scores in sheet.rounds],
    }
    if any(ender is not None for ender in sheet.enders):
        kept["enders"] = list(sheet.enders)
    if any(dealer is not None for dealer in sheet.dealers):
        kept["dealers"] = list(sheet.dealers)
    return kept


def keep_sheet(game: Game) -> SavedGame:
    """Write the game's kept sheet from its players and rounds as they now stand, before the
    flush that stores it with them, and return the game as it now stands (its new rounds already
    flushed: their dates are in it)."""
    saved = SavedGame.of(game)
    game.kept_sheet = kept_sheet(saved.scoresheet, game.version)
    return saved
