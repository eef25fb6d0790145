"""The actions on a game's rounds: record, cancel, restore, correct one — read the request, call
the service (app/services/rounds.py), answer the game's live part or redirect."""

from __future__ import annotations

from urllib.parse import urlencode

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask.blueprints import BlueprintSetupState
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from werkzeug.routing import BaseConverter

from app import rules
from app.platform import rate_limits
from app.platform.devices import current_device_hash
from app.services import dealing, reads, rounds, saved_game
from app.services.refusals import GameChanged, Refused, StaleRound
from app.web.forms import (
    FIELD,
    CancelRoundForm,
    DealerForm,
    EditRoundForm,
    RestoreRoundForm,
    RoundForm,
    carried_scores,
    whole_number,
)
from app.web.game import ENDER, answer_write, game_page
from app.web.htmx import go_to, is_htmx
from app.web.refusals import said, shown, status_of

bp = Blueprint("rounds", __name__)


class RoundNumber(BaseConverter):
    """A round number in an address: ASCII digits only, as the forms read them (Werkzeug's int
    converter also takes « １ » or « ١ »)."""

    regex = r"[0-9]{1,6}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(int(value))


@bp.record_once
def _add_converters(state: BlueprintSetupState) -> None:
    state.app.url_map.converters["round"] = RoundNumber


@bp.post("/parties/<public_id>/manches")
@rate_limits.writes
def add_round(public_id: str) -> ResponseReturnValue:
    """Record the round typed, or show it again with what is wrong; a repeat records nothing."""
    form = RoundForm(request.form)
    try:
        found = rounds.record_round(
            public_id,
            current_device_hash(),
            form.round_number(),
            form.round(),
            version=form.game_version(),
        )
    except rules.Refusal as unreadable:  # the form's own: text that is not a number
        found = reads.find_game(public_id, current_device_hash())
        return _refused(found, unreadable, form)
    except StaleRound as stale:
        flash(said(stale.refusal), "info")
        return answer_write(stale.game)
    except Refused as refused:  # scores that cannot be, or a game changed elsewhere
        return _refused(refused.game, refused.refusal, form, status=status_of(refused))
    return answer_write(found, announcement=_recorded(found))


def _recorded(found: saved_game.SavedGame) -> str | None:
    """Say what a recorded round changed, for a screen reader after an htmx swap; the result
    says it itself when the round ended the game."""
    sheet = found.scoresheet
    if sheet.is_over:
        return None
    standing = ", ".join(f"{line.name} {line.total}" for line in sheet.standings)
    return _(
        "Manche %(number)s enregistrée. Totaux : %(totals)s.",
        number=len(sheet.rounds),
        totals=standing,
    )


@bp.post("/parties/<public_id>/manches/annuler")
@rate_limits.writes
def cancel_round(public_id: str) -> ResponseReturnValue:
    """Remove the last round (named in the form, so a repeat never removes two); a round refused
    because the game ended elsewhere comes along, for the form the game reopens with."""
    form = CancelRoundForm(request.form)
    number = form.round_number()
    try:
        found = rounds.cancel_round(
            public_id, current_device_hash(), number, version=form.game_version()
        )
    except GameChanged as changed:
        return game_page(changed.game, refusal=shown(changed.refusal), focus_entry=True), 409
    except StaleRound as stale:
        flash(said(stale.refusal), "info")
        return answer_write(stale.game)
    flash(
        _("Manche %(number)s annulée ; « Rétablir la manche %(number)s » la remet.", number=number),
        "info",
    )
    carried = carried_scores(request.form, len(found.scoresheet.players))
    ended_by = whole_number(request.form.get(ENDER, ""))
    if carried and not is_htmx():  # the game's page takes them into its form, once
        values = {f"{FIELD}-{seat}": str(value) for seat, value in carried.items()}
        if ended_by is not None:
            values[ENDER] = str(ended_by)
        return redirect(f"{url_for('game.game', public_id=public_id)}?{urlencode(values)}", 303)
    if carried:
        typed = [str(carried.get(seat, "")) for seat in range(len(found.scoresheet.players))]
        return answer_write(found, typed=typed, ended_by=ended_by)
    return answer_write(found)


@bp.post("/parties/<public_id>/manches/retablir")
@rate_limits.writes
def restore_round(public_id: str) -> ResponseReturnValue:
    """Put back the last cancelled round (named in the form, so a repeat puts back nothing)."""
    form = RestoreRoundForm(request.form)
    number = form.round_number()
    try:
        found = rounds.restore_round(
            public_id, current_device_hash(), number, form.shown(), version=form.game_version()
        )
    except GameChanged as changed:
        return game_page(changed.game, refusal=shown(changed.refusal), focus_entry=True), 409
    except Refused as refused:  # a repeat, or the game ended since
        flash(said(refused.refusal), "info")
        return answer_write(refused.game)
    flash(_("Manche %(number)s rétablie.", number=number), "info")
    return answer_write(found)


@bp.post("/parties/<public_id>/donneur")
@rate_limits.writes
def set_dealer(public_id: str) -> ResponseReturnValue:
    """Set who deals the next round (« Changer »), or draw lots for the first (« Tirer au
    sort »)."""
    form = DealerForm(request.form)
    try:
        found = dealing.set_dealer(
            public_id, current_device_hash(), form.seat(), version=form.game_version()
        )
    except GameChanged as changed:
        return game_page(changed.game, refusal=shown(changed.refusal), focus_entry=True), 409
    except Refused as refused:  # a repeat, the game over, lots after the first round
        flash(said(refused.refusal), "info")
        return answer_write(refused.game)
    return answer_write(found)


@bp.get("/parties/<public_id>/manches/<round:number>")
def edit_round_form(public_id: str, number: int) -> ResponseReturnValue:
    """Show a recorded round in a form, to correct it; with what was typed in it before a
    language link was followed (static/app.js carries it in the address)."""
    found = reads.find_game(public_id, current_device_hash())
    if not 1 <= number <= len(found.scoresheet.rounds):
        abort(404)
    recorded = found.scoresheet.typed(number - 1)
    typed = [str(value) for value in recorded.scores]
    for seat, score in carried_scores(request.args, len(typed)).items():
        typed[seat] = str(score)
    ended_by = recorded.ended_by
    if ENDER in request.args:
        ended_by = whole_number(request.args[ENDER])
    return _edit_form(found, number, typed, ended_by)


@bp.post("/parties/<public_id>/manches/<round:number>")
@rate_limits.writes
def edit_round(public_id: str, number: int) -> ResponseReturnValue:
    """Save a corrected round, unless the game changed since the form was opened."""
    form = EditRoundForm(request.form)
    try:
        rounds.edit_round(
            public_id,
            current_device_hash(),
            number,
            form.round(),
            version=form.game_version(),
        )
    except rules.Refusal as unreadable:  # the form's own: text that is not a number
        found = reads.find_game(public_id, current_device_hash())
        return _edit_form(found, number, form.typed(), form.round_ender(), unreadable, 422)
    except StaleRound as stale:  # saved already: a double tap
        flash(said(stale.refusal), "info")
        return go_to(url_for("game.game", public_id=public_id))
    # Changed since the form was opened, or scores that cannot be.
    except Refused as refused:
        if number > len(refused.game.scoresheet.rounds):  # cancelled since: no form for it
            return _in_next_round(refused, form)
        return _edit_form(
            refused.game,
            number,
            form.typed(),
            form.round_ender(),
            refused.refusal,
            status_of(refused),
        )
    flash(_("Manche %(number)s modifiée.", number=number), "info")
    return go_to(url_for("game.game", public_id=public_id))


def _in_next_round(changed: Refused, form: EditRoundForm) -> ResponseReturnValue:
    """Answer a correction of a round cancelled since with the game's page (409), its values in
    the next round's form; the address becomes the game's (htmx: the correction's form takes the
    page's #main), so that a reload shows the game, not a round that is gone."""
    page = game_page(
        changed.game,
        whole=True,
        typed=form.typed(),
        ended_by=form.round_ender(),
        refusal=shown(changed.refusal),
        refused_number=None,
        focus_entry=True,
    )
    address = url_for("game.game", public_id=changed.game.public_id)
    return page, 409, {"HX-Replace-Url": address}


def _edit_form(
    found: saved_game.SavedGame,
    number: int,
    typed: list[str],
    ended_by: int | None,
    refusal: rules.Refusal | None = None,
    status: int = 200,
) -> tuple[str, int]:
    page = render_template(
        "game/edit_round.html",
        game=found,
        sheet=found.scoresheet,
        number=number,
        refused_number=number,
        typed=typed,
        ended_by=ended_by,
        refusal=shown(refusal),
        focus_entry=True,
    )
    return page, status


def _refused(
    found: saved_game.SavedGame, refusal: rules.Refusal, form: RoundForm, status: int = 422
) -> ResponseReturnValue:
    """Show a refused round again with what is wrong and every value typed (who ended it too);
    the refusal names the round as it was sent (the form may now be for another: recorded
    elsewhere meanwhile)."""
    page = game_page(
        found,
        typed=form.typed(),
        ended_by=form.round_ender(),
        refusal=shown(refusal),
        refused_number=form.round_number(),
    )
    if found.scoresheet.is_over:  # ended elsewhere: the refusal and the result are at the top
        return page, status, {"HX-Reswap": "outerHTML show:top showTarget:#main"}
    return page, status
