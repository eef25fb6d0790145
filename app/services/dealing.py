"""Who deals (or starts) the next round, set by the table: by lot before the first round, or by
hand at any time the game is in progress (someone dealt out of turn). The game's rule passes the
deal round by round (app/services/rounds.py); this is the one write that sets it otherwise."""

from __future__ import annotations

import secrets

from app import rules
from app.platform.extensions import db
from app.rules import N_
from app.services import story
from app.services.access import load_game
from app.services.refusals import Refused, check_version
from app.services.saved_game import SavedGame, keep_sheet
from app.services.unit_of_work import UnitOfWork

DEALER_CHANGED = N_(
    "La partie a changé sur un autre téléphone ou un autre onglet : rien n’a été changé. "
    "Voici la feuille à jour."
)


class DealerRefused(Refused):
    """A dealer that cannot be set: the game is over, lots drawn after the first round, or a
    seat the game does not have (a hand-made form)."""


def set_dealer(
    public_id: str, device_hash: str | None, seat: int | None, *, version: int | None
) -> SavedGame:
    """Make `seat` deal (or start) the next round of the device's game, on a form drawn from its
    `version`, or, with `seat` None, draw lots for who deals the first round (« Tirer au
    sort »); return the game as it now stands. Before the first round it is who starts the game.
    Choosing who deals already changes nothing (no story, no new version); lots are a write
    whatever they draw (told, the version moved: a second tap from the same page draws no more).

    Raise GameChanged if the game changed since the form was drawn (StaleRound if it already
    has that dealer: a repeat), DealerRefused if it cannot be set, GameNotFound.
    """
    with UnitOfWork() as work:
        game = load_game(public_id, device_hash, for_update=True)
        before = SavedGame.of(game)
        sheet = before.scoresheet
        same = N_("C’est déjà ce joueur : voici la feuille à jour.")
        repeat = same if seat is not None and seat == game.dealer else None
        check_version(before, version, DEALER_CHANGED, repeat)
        if sheet.is_over:
            over = N_("La partie est terminée : personne ne donne plus.")
            raise DealerRefused(before, rules.Refusal.of(over))
        if seat is None:
            if sheet.rounds:
                late = N_("Le tirage au sort se fait avant la première manche.")
                raise DealerRefused(before, rules.Refusal.of(late))
            seat = secrets.randbelow(len(sheet.players))  # the server's dice, not the page's
        elif not 0 <= seat < len(sheet.players):  # a hand-made form
            nobody = N_("Choisissez un joueur de la partie.")
            raise DealerRefused(before, rules.Refusal.of(nobody))
        elif seat == game.dealer:  # « Changer » to who deals already: nothing changes
            return before
        story.record(game, device_hash, story.DEALER, None, story.dealer_change(game.dealer, seat))
        game.dealer = seat
        # A change of the sheet like any other: its version moves and its followers redraw.
        game.version += 1
        saved = keep_sheet(game)
        db.session.flush()
        work.announce(game)
        return saved
