"""What a game's page shows besides its round form, built once before its template: the game, its
sheet, what its result offers to share and where its rematch went (app/web/game.py renders it,
for the scoring phone's page and for every answer to a write)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask import url_for

from app import rules
from app.services import games
from app.services.saved_game import SavedGame
from app.web.result.share import ResultShare, share_of


@dataclass(frozen=True)
class GamePage:
    """A game's page, as its template reads it."""

    game: SavedGame
    sheet: rules.Scoresheet
    share: ResultShare | None  # None while the game goes on
    rematch: str | None  # the public id of the game the table went on with, if any
    evening: bool  # one of an evening of two games or more: the page links « La soirée »

    @classmethod
    def of(cls, found: SavedGame) -> GamePage:
        """Build the page of a game as it stands."""
        image = url_for("game.result_image", public_id=found.public_id)
        share = share_of(found, image)
        # Where the table went on, once « Rejouer avec les mêmes joueurs » was tapped (only a
        # finished game has a rematch): the page links it, and opens no live stream (it would
        # move on at once).
        rematch = games.rematch_of(found) if found.scoresheet.is_over else None
        return cls(found, found.scoresheet, share, rematch, found.evening is not None)

    def context(self) -> dict[str, Any]:
        """Return the template's variables (`game`, `sheet`, `share`, `rematch`, `evening`)."""
        return {
            "game": self.game,
            "sheet": self.sheet,
            "share": self.share,
            "rematch": self.rematch,
            "evening": self.evening,
        }
