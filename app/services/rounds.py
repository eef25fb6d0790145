"""The writes on a game's rounds: record, cancel, restore, edit.

A write is one unit of work (app/services/unit_of_work.py): it loads its game with a lock,
checks that the page it was drawn from showed the game as it stands (its version), writes,
announces the change to the game's followers and returns the game as it now
stands; the unit commits. A refused write raises, inside the unit, one of the refusals of
app/services/refusals.py, carrying the game as it stands: the unit rolls back and frees the lock.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.exc import IntegrityError

from app import rules
from app.platform.extensions import db
from app.rules import N_
from app.services import story
from app.services.access import load_game
from app.services.refusals import GameNotFound, RoundRefused, StaleRound, check_version
from app.services.saved_game import SavedGame, cancelled_dealer, cancelled_round, keep_sheet
from app.services.unit_of_work import UnitOfWork
from app.storage.models import Game, Round

ALREADY_RECORDED = N_("Cette manche était déjà enregistrée : voici la feuille à jour.")
ALREADY_RESTORED = N_("Cette manche était déjà rétablie : voici la feuille à jour.")
GAME_CHANGED = N_(
    "La partie a changé sur un autre téléphone ou un autre onglet depuis l’ouverture de ce "
    "formulaire : rien n’a été enregistré. Vérifiez la feuille à jour ci-dessous puis "
    "enregistrez à nouveau."
)


def record_round(
    public_id: str,
    device_hash: str | None,
    number: int | None,
    typed: rules.RoundScores,
    *,
    version: int | None,
) -> SavedGame:
    """Record round `number` of the device's game, `typed` on a form drawn from its `version`;
    return the game as it now stands.

    Raise StaleRound if that round is already recorded with these scores (a repeat),
    GameChanged if the game changed since the form was drawn (the values come back, for the
    next round or beside « Annuler la manche » of a finished game), RoundRefused if the scores
    cannot be a round, GameNotFound.
    """
    with UnitOfWork() as work:
        game = load_game(public_id, device_hash, for_update=True)
        before = SavedGame.of(game)
        sheet = before.scoresheet
        repeat = ALREADY_RECORDED if _holds(sheet, number, typed) else None
        check_version(before, version, _changed_under(sheet), repeat)
        if number != sheet.next_round:  # a hand-made form: its version and round disagree
            unnumbered = N_(
                "Ce formulaire ne dit pas quelle manche il enregistre : rechargez la page."
            )
            raise RoundRefused(before, rules.Refusal.of(unnumbered))
        try:
            checked = sheet.check_round(typed)
        except rules.Refusal as refusal:
            raise RoundRefused(before, refusal) from refusal
        game.rounds.append(Round(number=number, typed=checked, dealer=game.dealer))
        game.dealer = sheet.dealer_after(game.dealer, checked)  # the game's rule passes the deal
        game.cancelled_rounds = None  # a new round by hand: the cancelled ones are no longer next
        try:
            db.session.flush()
        except IntegrityError as error:  # another worker recorded it first (unique game + number)
            raise StaleRound(before, rules.Refusal.of(ALREADY_RECORDED)) from error
        story.record(game, device_hash, story.RECORDED, number, story.round_change(checked))
        return _changed(work, game)


def _changed_under(sheet: rules.Scoresheet) -> rules.Message:
    """What a round sent from an older page is told: nothing recorded, and where its values
    now are."""
    if sheet.is_over:
        return N_(
            "La partie a changé sur un autre téléphone ou un autre onglet, et elle est terminée. "
            "Rien n’a été enregistré : vos valeurs sont ci-dessous ; « Annuler la manche » "
            "rouvre la partie et les remet dans le formulaire."
        )
    return N_(
        "La partie a changé sur un autre téléphone ou un autre onglet : rien n’a été enregistré. "
        "Vos valeurs sont ci-dessous, pour la manche %(number)s ; vérifiez la feuille à jour "
        "puis validez.",
        number=sheet.next_round,
    )


def cancel_round(
    public_id: str, device_hash: str | None, number: int | None, *, version: int | None
) -> SavedGame:
    """Remove round `number` of the device's game, its last one as the page drawn from `version`
    showed it, which reopens a finished game; return the game as it now stands.

    The round is kept aside so that restore_round can put it back. Raise StaleRound when that
    round is already gone (a repeat), GameChanged when the game changed otherwise since.
    """
    with UnitOfWork() as work:
        game = load_game(public_id, device_hash, for_update=True)
        before = SavedGame.of(game)
        last = len(game.rounds)
        gone = N_(
            "La manche %(number)s était déjà annulée : voici la feuille à jour.", number=number
        )
        changed = N_(
            "La partie a changé sur un autre téléphone ou un autre onglet : rien n’a été annulé. "
            "Voici la feuille à jour."
        )
        repeat = number is not None and number > last
        check_version(before, version, changed, gone if repeat else None)
        if number != last or not last:  # a hand-made form
            unnumbered = N_(
                "Ce formulaire ne dit pas quelle manche il annule : rien n’a été annulé."
            )
            raise StaleRound(before, rules.Refusal.of(unnumbered))
        cancelled = game.rounds.pop()
        # A new list, not an append: the JSON column only notices a new value.
        kept: list[int] | dict[str, Any] = list(cancelled.scores)
        if cancelled.ended_by is not None or cancelled.dealer is not None:
            kept = {"scores": kept, "ended_by": cancelled.ended_by, "dealer": cancelled.dealer}
        game.cancelled_rounds = [*(game.cancelled_rounds or []), kept]
        if cancelled.dealer is not None:  # who dealt it deals it again
            game.dealer = cancelled.dealer
        db.session.delete(cancelled)
        story.record(
            game, device_hash, story.CANCELLED, number, story.round_change(cancelled.typed)
        )
        return _changed(work, game)


def restore_round(
    public_id: str,
    device_hash: str | None,
    number: int | None,
    shown: rules.RoundScores | None,
    *,
    version: int | None,
) -> SavedGame:
    """Put back round `number`, the last one cancelled, exactly as it was; return the game as it
    now stands. `shown` is that round as the page drawn from `version` showed it.

    Raise StaleRound when it is already back (a repeat), GameChanged when the game changed
    otherwise since (another round recorded in its place), RoundRefused if it no longer fits.
    """
    with UnitOfWork() as work:
        game = load_game(public_id, device_hash, for_update=True)
        before = SavedGame.of(game)
        sheet = before.scoresheet
        repeat = ALREADY_RESTORED if shown and _holds(sheet, number, shown) else None
        changed = N_(
            "La partie a changé sur un autre téléphone ou un autre onglet : rien n’a été "
            "rétabli. Voici la feuille à jour."
        )
        check_version(before, version, changed, repeat)
        if number is None or number != before.restorable:  # a hand-made form
            raise StaleRound(before, rules.Refusal.of(changed))
        stack = list(game.cancelled_rounds or [])
        kept = stack.pop()
        typed = cancelled_round(kept)
        dealer = cancelled_dealer(kept)
        if dealer is None:  # kept before dealers were: whoever deals now dealt it
            dealer = game.dealer
        if sheet.is_over:  # the scores were a round once: only the end stands in the way
            ended = N_("La partie est terminée : rien n’a été rétabli.")
            raise RoundRefused(before, rules.Refusal.of(ended))
        checked = sheet.check_round(typed)
        game.rounds.append(Round(number=number, typed=checked, dealer=dealer))
        game.dealer = sheet.dealer_after(dealer, checked)
        game.cancelled_rounds = stack or None
        try:
            db.session.flush()
        except IntegrityError as error:  # another worker put it back first
            raise StaleRound(before, rules.Refusal.of(ALREADY_RESTORED)) from error
        story.record(game, device_hash, story.RESTORED, number, story.round_change(checked))
        return _changed(work, game)


def edit_round(
    public_id: str,
    device_hash: str | None,
    number: int,
    typed: rules.RoundScores,
    *,
    version: int | None,
) -> SavedGame:
    """Replace round `number` with the round `typed`, checked like a new round, on a form drawn
    from `version`; return the game as it now stands. The end follows: an edit can end the game or
    reopen it. A correction that changes nothing changes nothing: no story, no new version.

    Raise StaleRound if the round already holds these scores since the form was drawn (a
    repeat), GameChanged if the game changed otherwise since (that round cancelled elsewhere
    included), GameNotFound if there is no such round, RoundRefused if the scores cannot be, or
    would have ended the game before its last round.
    """
    with UnitOfWork() as work:
        game = load_game(public_id, device_hash, for_update=True)
        before = SavedGame.of(game)
        sheet = before.scoresheet
        same = N_(
            "La manche %(number)s tient déjà ces valeurs : voici la feuille à jour.",
            number=number,
        )
        changed = GAME_CHANGED if number <= len(sheet.rounds) else _cancelled_since(sheet, number)
        check_version(before, version, changed, same if _holds(sheet, number, typed) else None)
        if not 1 <= number <= len(sheet.rounds):  # an address typed by hand
            raise GameNotFound(f"{public_id} round {number}")
        try:
            checked = sheet.rules.game.check_round(typed, sheet.players, sheet.rules.variants)
            sheet.with_round_replaced(number, checked)
        except rules.Refusal as refusal:
            raise RoundRefused(before, refusal) from refusal
        corrected = game.rounds[number - 1]
        was = corrected.typed
        if checked == was:  # saved as it was: nothing to tell, nothing for the others to redraw
            return before
        # The next dealer stays, unless the last round's correction changes whom the game's
        # rule passes it to (Skyjo: another player ended it, so another starts).
        if number == len(sheet.rounds):
            passed_to = sheet.dealer_after(corrected.dealer, sheet.typed(number - 1))
            now = sheet.dealer_after(corrected.dealer, checked)
            if now != passed_to and now is not None:
                game.dealer = now
        corrected.typed = checked
        story.record(game, device_hash, story.EDITED, number, story.edit_change(was, checked))
        return _changed(work, game)


def _cancelled_since(sheet: rules.Scoresheet, number: int) -> rules.Message:
    """What a correction of a round cancelled since its form was opened is told: its values go
    to the next round's form (« Rétablir la manche » puts back the round as it was)."""
    return N_(
        "La partie a changé sur un autre téléphone ou un autre onglet : la manche %(number)s "
        "y a été annulée. Rien n’a été corrigé : vos valeurs sont ci-dessous, pour la manche "
        "%(next)s ; vérifiez-les puis validez.",
        number=number,
        next=sheet.next_round,
    )


def _holds(sheet: rules.Scoresheet, number: int | None, typed: rules.RoundScores) -> bool:
    """Whether round `number` is recorded, as `typed`: what a write that is a repeat finds."""
    return (
        number is not None and 1 <= number <= len(sheet.rounds) and sheet.typed(number - 1) == typed
    )


def _changed(work: UnitOfWork, game: Game) -> SavedGame:
    # Every change moves the version: a write drawn from an older page is refused (check_version).
    game.version += 1
    saved = keep_sheet(game)
    db.session.flush()
    work.announce(game)
    return saved
