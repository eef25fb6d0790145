"""The writes on a game's rounds: record, cancel, restore, edit.

A write is one unit of work (app/services/unit_of_work.py): it loads its game with a lock,
checks, writes, announces the change to the game's followers and returns the game as it now
stands; the unit commits. A refused write raises, inside the unit, one of the refusals of
app/services/saved_game.py, carrying the game as it stands: the unit rolls back and frees the lock.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy.exc import IntegrityError

from app import rules
from app.platform.extensions import db
from app.rules import N_
from app.services.access import load_game
from app.services.saved_game import (
    GameChanged,
    GameNotFound,
    RoundRefused,
    SavedGame,
    SheetChanged,
    StaleRound,
    keep_sheet,
)
from app.services.unit_of_work import UnitOfWork
from app.storage.models import Game, Round

ALREADY_RECORDED = N_("Cette manche était déjà enregistrée : voici la feuille à jour.")
ALREADY_RESTORED = N_("Cette manche était déjà rétablie : voici la feuille à jour.")


def record_round(
    public_id: str,
    device_hash: str | None,
    number: int | None,
    heads_taken: Sequence[int],
    ended_by: int | None = None,
) -> SavedGame:
    """Record round `number` of the device's game; return the game as it now stands.

    Raise StaleRound if that round is already recorded with these heads (a repeat),
    SheetChanged if it was recorded with others or rounds were cancelled since the form was
    shown (the values come back for the next round), RoundRefused if the heads
    cannot be a round or the game is over, GameNotFound.
    """
    with UnitOfWork() as work:
        game = load_game(public_id, device_hash, for_update=True)
        before = SavedGame.of(game)
        sheet = before.scoresheet
        if number is None:
            unnumbered = N_(
                "Ce formulaire ne dit pas quelle manche il enregistre : rechargez la page."
            )
            raise RoundRefused(before, rules.Refusal.of(unnumbered))
        if number < sheet.next_round:
            typed = rules.RoundScores(tuple(heads_taken), ended_by)
            if number >= 1 and sheet.typed(number - 1) != typed:
                # Not a repeat: another phone or tab recorded this round with other heads.
                taken = _recorded_since(number, sheet.next_round)
                raise SheetChanged(before, rules.Refusal.of(taken))
            raise StaleRound(before, rules.Refusal.of(ALREADY_RECORDED))
        if number > sheet.next_round:
            raise SheetChanged(before, rules.Refusal.of(_cancelled_since(sheet.next_round, number)))
        try:
            checked = sheet.check_round(heads_taken, ended_by)
        except rules.Refusal as refusal:
            raise RoundRefused(before, refusal) from refusal
        game.rounds.append(
            Round(number=number, heads=list(checked.scores), ended_by=checked.ended_by)
        )
        game.cancelled_rounds = None  # a new round by hand: the cancelled ones are no longer next
        try:
            db.session.flush()
        except IntegrityError as error:  # another worker recorded it first (unique game + number)
            raise StaleRound(before, rules.Refusal.of(ALREADY_RECORDED)) from error
        return _changed(work, game)


def _recorded_since(number: int, next_round: int) -> rules.Message:
    return N_(
        "La manche %(number)s a été enregistrée sur un autre onglet ou un autre téléphone, avec "
        "d’autres têtes. Rien n’a été enregistré\u202f: vos valeurs sont ci-dessous, pour la "
        "manche %(next)s\u202f; vérifiez-les puis validez, ou corrigez la manche %(number)s.",
        number=number,
        next=next_round,
    )


def _cancelled_since(next_round: int, number: int) -> rules.Message:
    if number == next_round + 1:
        return N_(
            "La feuille a changé sur un autre onglet ou un autre téléphone : la manche "
            "%(number)s y a été annulée. Rien n’a été enregistré : vos valeurs sont ci-dessous, "
            "pour la manche %(number)s ; vérifiez-les puis validez.",
            number=next_round,
        )
    return N_(
        "La feuille a changé sur un autre onglet ou un autre téléphone : les manches %(first)s "
        "à %(last)s y ont été annulées. Rien n’a été enregistré : vos valeurs sont ci-dessous, "
        "pour la manche %(first)s ; vérifiez-les puis validez.",
        first=next_round,
        last=number - 1,
    )


def cancel_round(public_id: str, device_hash: str | None, number: int | None) -> SavedGame:
    """Remove round `number` of the device's game if it is the last one, which reopens a
    finished game; return the game as it now stands.

    The round is kept aside so that restore_round can put it back.
    Raise StaleRound when it is not the last round: already cancelled (a repeat), or rounds
    recorded elsewhere since, or a form that names no round.
    """
    with UnitOfWork() as work:
        game = load_game(public_id, device_hash, for_update=True)
        last = len(game.rounds)
        message: rules.Message | None = None
        if number is None or number < 1:
            message = N_("Ce formulaire ne dit pas quelle manche il annule : rien n’a été annulé.")
        elif number > last:
            message = N_(
                "La manche %(number)s était déjà annulée : voici la feuille à jour.", number=number
            )
        elif number < last:
            message = N_(
                "La feuille a changé sur un autre onglet ou un autre téléphone : la manche "
                "%(number)s y a été enregistrée depuis. Rien n’a été annulé ; pour annuler la "
                "manche %(number)s, utilisez « Annuler la manche » de la feuille à jour.",
                number=last,
            )
        if message:
            raise StaleRound(SavedGame.of(game), rules.Refusal.of(message))
        cancelled = game.rounds.pop()
        # A new list, not an append: the JSON column only notices a new value.
        kept: list[int] | dict[str, Any] = list(cancelled.heads)
        if cancelled.ended_by is not None:
            kept = {"scores": kept, "ended_by": cancelled.ended_by}
        game.cancelled_rounds = [*(game.cancelled_rounds or []), kept]
        db.session.delete(cancelled)
        return _changed(work, game)


def restore_round(public_id: str, device_hash: str | None, number: int | None) -> SavedGame:
    """Put back round `number`, the last one cancelled, exactly as it was; return the game as it
    now stands.

    Raise StaleRound when it is not the round waiting to be restored (already restored: a
    repeat; or a round recorded since), RoundRefused if it no longer fits (the game ended).
    """
    with UnitOfWork() as work:
        game = load_game(public_id, device_hash, for_update=True)
        before = SavedGame.of(game)
        if number is None or number != before.restorable:
            raise StaleRound(before, rules.Refusal.of(ALREADY_RESTORED))
        stack = list(game.cancelled_rounds or [])
        kept = stack.pop()
        typed = (
            rules.RoundScores(tuple(kept["scores"]), kept["ended_by"])
            if isinstance(kept, dict)
            else rules.RoundScores(tuple(kept))
        )
        if before.scoresheet.is_over:  # the heads were a round once: only the end stands in the way
            ended = N_("La partie est terminée : rien n’a été rétabli.")
            raise RoundRefused(before, rules.Refusal.of(ended))
        checked = before.scoresheet.check_round(typed.scores, typed.ended_by)
        game.rounds.append(
            Round(number=number, heads=list(checked.scores), ended_by=checked.ended_by)
        )
        game.cancelled_rounds = stack or None
        try:
            db.session.flush()
        except IntegrityError as error:  # another worker put it back first
            raise StaleRound(before, rules.Refusal.of(ALREADY_RESTORED)) from error
        return _changed(work, game)


GAME_CHANGED = N_(
    "La partie a changé depuis l’ouverture de ce formulaire (une autre page ou un autre joueur) : "
    "rien n’a été enregistré. Vérifiez la feuille à jour ci-dessous puis enregistrez à nouveau."
)


def edit_round(
    public_id: str,
    device_hash: str | None,
    number: int,
    version: int | None,
    heads_taken: Sequence[int],
    ended_by: int | None = None,
) -> SavedGame:
    """Replace the heads of round `number`, checked like a new round; return the game as it now
    stands. The end follows: an edit can end the game or reopen it.

    Raise GameNotFound if there is no such round, GameChanged if the game changed since the
    form was shown, RoundRefused if the heads cannot be, or would have ended the game before
    its last round.
    """
    with UnitOfWork() as work:
        game = load_game(public_id, device_hash, for_update=True)
        before = SavedGame.of(game)
        sheet = before.scoresheet
        if not 1 <= number <= len(sheet.rounds):
            raise GameNotFound(f"{public_id} round {number}")
        if version != game.version:
            raise GameChanged(before, rules.Refusal.of(GAME_CHANGED))
        try:
            typed = rules.RoundScores(tuple(heads_taken), ended_by)
            checked = sheet.rules.game.check_round(typed, sheet.players, pro=sheet.rules.pro)
            sheet.with_round_replaced(number, checked.scores, checked.ended_by)
        except rules.Refusal as refusal:
            raise RoundRefused(before, refusal) from refusal
        game.rounds[number - 1].heads = list(checked.scores)
        game.rounds[number - 1].ended_by = checked.ended_by
        return _changed(work, game)


def _changed(work: UnitOfWork, game: Game) -> SavedGame:
    # Every change bumps the version, so that an edit made from a stale page can be refused.
    game.version += 1
    saved = keep_sheet(game)
    db.session.flush()
    work.announce(game)
    return saved


def _stored(number: int, checked: rules.RoundScores) -> Round:
    return Round(number=number, heads=list(checked.scores), ended_by=checked.ended_by)
