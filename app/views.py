"""The pages and actions of the counter: read the request, call the service, render or redirect."""

from __future__ import annotations

import secrets
from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.blueprints import BlueprintSetupState
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from flask_babel import ngettext
from werkzeug.datastructures import MultiDict
from werkzeug.routing import BaseConverter

from app import allowance, games, rules, stats, table, transfer
from app.assistant_forms import carried_heads
from app.device import claim_device, current_device_hash
from app.extensions import db, limiter
from app.forms import CancelRoundForm, EditRoundForm, NewGameForm, RestoreRoundForm, RoundForm
from app.htmx import is_htmx, vary_on_htmx
from app.i18n import translate
from app.rules import N_, Message

bp = Blueprint("counter", __name__)


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


@bp.get("/")
def home() -> str:
    """Show the way to a new game, the game in progress and past games."""
    return render_template("home.html", game=games.game_in_progress(current_device_hash()))


@bp.get("/parties/nouvelle")
def new_game() -> str:
    """Show the form that seats the players."""
    form = NewGameForm(data={"key": secrets.token_urlsafe(16)})
    return render_template("new_game.html", form=form, errors={}, table_errors=[], focus=None)


@bp.post("/parties")
@allowance.game_creations
def create_game() -> ResponseReturnValue:
    """Start a game with the names typed, or show the form again with what is wrong."""
    form = NewGameForm(request.form)
    if "ajouter" in request.form:
        form, focus = _with_one_more_field(form)
        return _new_game_form(form, {}, [], status=200, focus=focus)
    game_rules, rule_errors = form.game_rules()
    if game_rules is None:
        return _new_game_form(form, rule_errors, [], status=422)
    try:
        game = games.start_game(claim_device(), form.typed_names(), game_rules, form.creation_key())
    except rules.InvalidPlayers as error:
        seat_errors = {f"players-{seat}": message for seat, message in error.seat_errors.items()}
        return _new_game_form(form, seat_errors, error.table_errors, status=422)
    db.session.commit()
    return _go_to(url_for("counter.game", public_id=game.public_id))


def _go_to(url: str) -> ResponseReturnValue:
    """Send the browser to another page: a 303 for a plain form, a full navigation for htmx."""
    if is_htmx():
        # htmx would follow a 303 inside fetch and swap the whole next page into the form.
        return current_app.response_class(status=200, headers={"HX-Redirect": url})
    return redirect(url, 303)


def _with_one_more_field(form: NewGameForm) -> tuple[NewGameForm, str | None]:
    """Return the same form with one more empty name field (up to the most players allowed),
    and the name of that field, to focus it."""
    count = len(form.players.entries)
    if count >= rules.MAX_PLAYERS:
        return form, None
    data = MultiDict(request.form)
    data[f"players-{count}"] = ""
    return NewGameForm(data), f"players-{count}"


def _new_game_form(
    form: NewGameForm,
    errors: dict[str, Message],
    table_errors: list[Message],
    status: int,
    focus: str | None = None,
) -> tuple[str, int]:
    template = "_new_game_form.html" if is_htmx() else "new_game.html"
    page = render_template(
        template,
        form=form,
        errors={field: translate(message) for field, message in errors.items()},
        table_errors=[translate(message) for message in table_errors],
        focus=focus,
    )
    return page, status


@bp.get("/parties/<public_id>")
def game(public_id: str) -> Response:
    """Show a game: scores, the round sheet, and the entry form or the result."""
    found = games.find_game(public_id, current_device_hash())
    # The round form may come filled in: by a finished assistant round, or a count of a pile.
    carried = carried_heads(request.args, len(found.scoresheet.players))
    helped = table.round_help(found, current_device_hash(), carried)
    page = _game_page(found, round_help=helped, typed=helped.typed)
    return vary_on_htmx(current_app.make_response(page))


@bp.post("/parties/<public_id>/manches")
@allowance.writes
def add_round(public_id: str) -> ResponseReturnValue:
    """Record the round typed, or show it again with what is wrong; a repeat records nothing."""
    form = RoundForm(request.form)
    try:
        found = games.record_round(
            public_id, current_device_hash(), form.round_number(), form.heads_taken()
        )
    except rules.InvalidRound as unreadable:  # the form's own: text that is not a number
        found = games.find_game(public_id, current_device_hash())
        return _refused(found, unreadable, form.typed())
    except games.RoundRefused as refusal:
        return _refused(refusal.game, refusal, form.typed())
    except games.SheetChanged as changed:  # rounds cancelled elsewhere: keep what was typed
        return _refused(changed.game, changed, form.typed(), status=409)
    except games.StaleRound as stale:
        flash(_("Cette manche était déjà enregistrée : voici la feuille à jour."), "info")
        return _answer_write(stale.game)
    db.session.commit()
    return _answer_write(found, announcement=_recorded(found))


def _recorded(found: games.SavedGame) -> str | None:
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
@allowance.writes
def cancel_round(public_id: str) -> ResponseReturnValue:
    """Remove the last round (named in the form, so a repeat never removes two)."""
    number = CancelRoundForm(request.form).round_number()
    try:
        found = games.cancel_round(public_id, current_device_hash(), number)
    except games.StaleRound as stale:
        flash(translate(stale.message), "info")
        return _answer_write(stale.game)
    db.session.commit()
    flash(
        _("Manche %(number)s annulée ; « Rétablir la manche %(number)s » la remet.", number=number),
        "info",
    )
    return _answer_write(found)


@bp.post("/parties/<public_id>/manches/retablir")
@allowance.writes
def restore_round(public_id: str) -> ResponseReturnValue:
    """Put back the last cancelled round (named in the form, so a repeat puts back nothing)."""
    number = RestoreRoundForm(request.form).round_number()
    try:
        found = games.restore_round(public_id, current_device_hash(), number)
    except games.StaleRound as stale:
        flash(_("Cette manche était déjà rétablie : voici la feuille à jour."), "info")
        return _answer_write(stale.game)
    except games.RoundRefused as refusal:
        flash(_("La partie est terminée : rien n’a été rétabli."), "info")
        return _answer_write(refusal.game)
    db.session.commit()
    flash(_("Manche %(number)s rétablie.", number=number), "info")
    return _answer_write(found)


@bp.get("/parties/<public_id>/supprimer")
def delete_game_form(public_id: str) -> str:
    """Ask before deleting a game for good."""
    found = games.find_game(public_id, current_device_hash())
    return render_template("delete_game.html", game=found, sheet=found.scoresheet)


@bp.post("/parties/<public_id>/supprimer")
@allowance.writes
def delete_game(public_id: str) -> ResponseReturnValue:
    """Delete a game, its rounds and its place in history and statistics."""
    games.delete_game(public_id, current_device_hash())
    db.session.commit()
    flash(_("Partie supprimée."), "info")
    return redirect(url_for("counter.history"), 303)


@bp.get("/parties/<public_id>/manches/<round:number>")
def edit_round_form(public_id: str, number: int) -> ResponseReturnValue:
    """Show a recorded round in a form, to correct it."""
    found = games.find_game(public_id, current_device_hash())
    if not 1 <= number <= len(found.scoresheet.rounds):
        abort(404)
    typed = [str(value) for value in found.scoresheet.rounds[number - 1]]
    return _edit_form(found, number, typed)


@bp.post("/parties/<public_id>/manches/<round:number>")
@allowance.writes
def edit_round(public_id: str, number: int) -> ResponseReturnValue:
    """Save a corrected round, unless the game changed since the form was opened."""
    form = EditRoundForm(request.form)
    try:
        games.edit_round(
            public_id, current_device_hash(), number, form.game_version(), form.heads_taken()
        )
    except rules.InvalidRound as unreadable:  # the form's own: text that is not a number
        found = games.find_game(public_id, current_device_hash())
        return _edit_form(found, number, form.typed(), unreadable, status=422)
    except games.GameChanged as changed:
        return _edit_form(changed.game, number, form.typed(), GAME_CHANGED, status=409)
    except games.RoundRefused as refusal:
        return _edit_form(refusal.game, number, form.typed(), refusal, status=422)
    db.session.commit()
    flash(_("Manche %(number)s modifiée.", number=number), "info")
    return redirect(url_for("counter.game", public_id=public_id), 303)


GAME_CHANGED = N_(
    "La partie a changé depuis l’ouverture de ce formulaire (une autre page ou un autre joueur) : "
    "rien n’a été enregistré. Vérifiez la feuille à jour ci-dessous puis enregistrez à nouveau."
)


def _edit_form(
    found: games.SavedGame,
    number: int,
    typed: list[str],
    refused: Exception | Message | None = None,
    status: int = 200,
) -> tuple[str, int]:
    page = render_template(
        "edit_round.html",
        game=found,
        sheet=found.scoresheet,
        number=number,
        typed=typed,
        **_errors(refused),
    )
    return page, status


@bp.post("/parties/<public_id>/revanche")
@allowance.game_creations
def rematch(public_id: str) -> ResponseReturnValue:
    """Start a new game with the same players and rules."""
    new = games.rematch(public_id, current_device_hash())
    db.session.commit()
    return redirect(url_for("counter.game", public_id=new.public_id), 303)


@bp.get("/historique")
def history() -> str:
    """List this device's games, newest first, a page at a time."""
    page = min(max(request.args.get("page", default=1, type=int) or 1, 1), 100_000)
    result = games.history(current_device_hash(), page, current_app.config["HISTORY_PAGE_SIZE"])
    return render_template("history.html", history=result)


@bp.get("/statistiques")
def statistics() -> str:
    """Show per-player statistics over this device's finished games, sorted by a column."""
    lines = stats.player_stats(game.scoresheet for game in games.all_games(current_device_hash()))
    lines, key, order = stats.sorted_stats(
        lines, request.args.get("tri", ""), request.args.get("ordre")
    )
    return render_template("statistics.html", lines=lines, sort=key, order=order)


@bp.get("/parties/<public_id>/export.<any(csv, json):kind>")
def export_game(public_id: str, kind: str) -> Response:
    """Download one game as CSV (a spreadsheet) or JSON (to import elsewhere)."""
    found = games.exported_game(public_id, current_device_hash())
    stamp = found.created_at.strftime("%Y-%m-%d")
    if kind == "csv":
        return _download(transfer.game_csv(found), "text/csv", f"6-qui-prend-{stamp}.csv")
    return _download(transfer.export_json([found]), "application/json", f"6-qui-prend-{stamp}.json")


@bp.get("/historique/export.<any(csv, json):kind>")
def export_all(kind: str) -> Response:
    """Download all of this device's games, e.g. to move them to a new phone."""
    found = games.all_games(current_device_hash())
    if kind == "csv":
        return _download(transfer.games_csv(found), "text/csv", "6-qui-prend-parties.csv")
    return _download(transfer.export_json(found), "application/json", "6-qui-prend-parties.json")


def _download(body: str, mimetype: str, filename: str) -> Response:
    response = current_app.response_class(body, mimetype=mimetype)
    response.headers.set("Content-Disposition", "attachment", filename=filename)
    # A device's games: never kept by a shared cache, nor left on disk by the browser.
    response.headers["Cache-Control"] = "private, no-store"
    return response


@bp.post("/historique/import")
@allowance.writes
def import_games() -> ResponseReturnValue:
    """Add the games of an exported file; all of them or, if one is wrong, none."""
    upload = request.files.get("fichier")
    data = upload.read() if upload else b""
    try:
        if not data:
            raise transfer.ImportRefused([_("Choisissez un fichier d’export (.json) à importer.")])
        imported = transfer.parse_export(data)
        allowance.count_imported_games(len(imported), claim_device(), allowance.address())
    except transfer.ImportRefused as error:
        page = games.history(current_device_hash(), 1, current_app.config["HISTORY_PAGE_SIZE"])
        return render_template("history.html", history=page, import_errors=error.errors), 422
    added, known = games.import_games(claim_device(), imported)
    db.session.commit()
    said = [
        ngettext("%(num)d partie importée.", "%(num)d parties importées.", added)
        if added
        else _("Aucune partie importée.")
    ]
    if known:
        said.append(
            ngettext(
                "%(num)d déjà présente sur cet appareil.",
                "%(num)d déjà présentes sur cet appareil.",
                known,
            )
        )
    flash(" ".join(said), "info")
    return redirect(url_for("counter.history"), 303)


@bp.get("/healthz")
@limiter.exempt
def healthz() -> dict[str, str]:
    """Answer 200 when the database answers."""
    db.session.execute(db.text("SELECT 1"))
    return {"status": "ok"}


def _game_page(found: games.SavedGame, **context: Any) -> str:
    """Render a game: its live part for htmx, the whole page otherwise."""
    template = "_game_update.html" if is_htmx() else "game.html"
    return render_template(template, game=found, sheet=found.scoresheet, **context)


def _answer_write(found: games.SavedGame, announcement: str | None = None) -> ResponseReturnValue:
    """Answer a write that went through: the game's live part for htmx, else a redirect."""
    if not is_htmx():
        return redirect(url_for("counter.game", public_id=found.public_id), 303)
    return _game_page(found, focus_entry=True, announcement=announcement)


def _refused(
    found: games.SavedGame, refused: Exception, typed: list[str], status: int = 422
) -> tuple[str, int]:
    """Show a refused round again with what is wrong and every value typed."""
    return _game_page(found, typed=typed, **_errors(refused)), status


def _errors(refused: Exception | Message | None) -> dict[str, Any]:
    """Return the messages of a refusal, in the person's language: per seat, and for the round."""
    if refused is None:
        return {"player_errors": {}, "round_errors": []}
    player_errors = getattr(refused, "player_errors", {})
    round_errors = getattr(refused, "round_errors", [refused])
    return {
        "player_errors": {seat: translate(message) for seat, message in player_errors.items()},
        "round_errors": [translate(message) for message in round_errors],
    }
