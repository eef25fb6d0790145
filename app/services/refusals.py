"""The refusals a service raises, and the version check every write makes: a refused write
carries the game as it stands and the rules' Refusal saying why, so the view shows the sheet and
the reason together (app/web/refusals.py says them).
"""

from __future__ import annotations

from app import rules
from app.services.saved_game import SavedGame


class GameNotFound(Exception):
    """No such game for this device (another device's games do not exist for it)."""


class OwnPhoneOnly(Exception):
    """What only the phone that started the game may do (delete it, stop its sharing or its
    invitation, unseat the others), asked by a phone that joined its table."""


class Refused(Exception):
    """A write that changed nothing: `game` is the game as it stands, `refusal` says why."""

    def __init__(self, game: SavedGame, refusal: rules.Refusal):
        super().__init__(str(refusal))
        self.game = game
        self.refusal = refusal


class StaleRound(Refused):
    """A repeat: the round was already recorded, cancelled or restored (a double tap, a retry,
    another tab). Nothing to do: the answer is the sheet as it stands, with the refusal said."""


class GameChanged(Refused):
    """A write drawn from a page of an older game (another tab or phone changed it since): it
    acted on nothing; the page shows the game as it stands and what was typed comes back."""


class RoundRefused(Refused):
    """Heads that cannot be a round of this game, or a round sent after the end."""


def check_version(
    game: SavedGame,
    version: int | None,
    changed: rules.Message,
    repeat: rules.Message | None = None,
) -> None:
    """Let a write go on only if it was drawn from the game as it stands, as HTTP's If-Match
    does with an ETag: every write's form carries the version its page showed (every change moves
    it, app/services/rounds.py). Called inside the write's unit of work, on the game loaded with
    its lock.

    Raise StaleRound saying `repeat` when the game is already what this write would have made it
    (a double tap, a retry, a waiting round sent again: a repeat is no conflict), else
    GameChanged saying `changed`. A form with no version (a hand-made request) is from no game.
    """
    if version is not None and version == game.version:
        return
    if repeat is not None:
        raise StaleRound(game, rules.Refusal.of(repeat))
    raise GameChanged(game, rules.Refusal.of(changed))
