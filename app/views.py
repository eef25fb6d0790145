"""The pages and actions of the counter: read the request, call the service, render or redirect."""

from __future__ import annotations

import secrets

from flask import Blueprint, abort, current_app, flash, redirect, render_template, request, url_for
from werkzeug.datastructures import MultiDict

from app import games, rules, stats, transfer
from app.device import claim_device, current_device_hash
from app.extensions import db, limiter
from app.forms import CancelRoundForm, EditRoundForm, NewGameForm, RoundForm
from app.htmx import is_htmx, vary_on_htmx

bp = Blueprint("counter", __name__)


def _write_limit() -> str:
    return current_app.config["RATELIMIT_WRITES"]


def _creation_limit() -> str:
    return current_app.config["RATELIMIT_GAME_CREATION"]


@bp.get("/")
def home():
    """Show the way to a new game, the game in progress and past games."""
    return render_template("home.html", game=games.game_in_progress(current_device_hash()))


@bp.get("/parties/nouvelle")
def new_game():
    """Show the form that seats the players."""
    form = NewGameForm(data={"key": secrets.token_urlsafe(16)})
    return render_template("new_game.html", form=form, errors={}, table_errors=[])


@bp.post("/parties")
@limiter.limit(_creation_limit, methods=["POST"])
def create_game():
    """Start a game with the names typed, or show the form again with what is wrong."""
    form = NewGameForm(request.form)
    if "ajouter" in request.form:
        return _new_game_form(_with_one_more_field(form), {}, [], status=200)
    game_rules, rule_errors = form.game_rules()
    if game_rules is None:
        return _new_game_form(form, rule_errors, [], status=422)
    try:
        game = games.start_game(
            claim_device(), form.typed_names(), game_rules, (form.key.data or "")[:64] or None
        )
    except rules.InvalidPlayers as error:
        seat_errors = {f"players-{seat}": message for seat, message in error.seat_errors.items()}
        return _new_game_form(form, seat_errors, error.table_errors, status=422)
    db.session.commit()
    return _go_to(url_for("counter.game", public_id=game.public_id))


def _go_to(url: str):
    """Send the browser to another page: a 303 for a plain form, a full navigation for htmx."""
    response = redirect(url, 303)
    if is_htmx():
        # htmx would follow a 303 inside fetch and swap the whole next page into the form.
        response = current_app.response_class(status=200, headers={"HX-Redirect": url})
    return response


def _with_one_more_field(form: NewGameForm) -> NewGameForm:
    """Return the same form with one more empty name field, up to the most players allowed."""
    data = MultiDict(request.form)
    count = len(form.players.entries)
    if count < rules.MAX_PLAYERS:
        data[f"players-{count}"] = ""
        form = NewGameForm(data)
        form.focus = f"players-{count}"  # type: ignore[attr-defined]
    return form


def _new_game_form(form: NewGameForm, errors: dict[str, str], table_errors: list[str], status: int):
    template = "_new_game_form.html" if is_htmx() else "new_game.html"
    return render_template(template, form=form, errors=errors, table_errors=table_errors), status


@bp.get("/parties/<public_id>")
def game(public_id: str):
    """Show a game: scores, the round sheet, and the entry form or the result."""
    found = _saved_game(public_id)
    template = "_game.html" if is_htmx() else "game.html"
    return vary_on_htmx(
        current_app.make_response(render_template(template, game=found, sheet=found.scoresheet))
    )


@bp.post("/parties/<public_id>/manches")
@limiter.limit(_write_limit)
def add_round(public_id: str):
    """Record the round typed, or show it again with what is wrong; a repeat records nothing."""
    form = RoundForm(request.form)
    typed = [entry.data for entry in form.heads]
    found = _saved_game(public_id, for_update=True)
    try:
        found = games.record_round(found, form.round_number(), typed)
    except games.StaleRound:
        db.session.rollback()  # nothing to write: free the game for other writers at once
        flash("Cette manche était déjà enregistrée : voici la feuille à jour.", "info")
        return _show_game(_saved_game(public_id))
    except (rules.InvalidRound, rules.GameOver) as error:
        db.session.rollback()
        return _show_game(found, refused=error, typed=typed, status=422)
    db.session.commit()
    return _show_game(found, focus_entry=True)


@bp.post("/parties/<public_id>/manches/annuler")
@limiter.limit(_write_limit)
def cancel_round(public_id: str):
    """Remove the last round (named in the form, so a repeat never removes two)."""
    form = CancelRoundForm(request.form)
    found = _saved_game(public_id, for_update=True)
    try:
        found = games.cancel_round(found, form.round_number())
    except games.StaleRound:
        db.session.rollback()
        flash("Cette manche était déjà annulée : voici la feuille à jour.", "info")
        return _show_game(found)
    db.session.commit()
    flash(f"Manche {form.round_number()} annulée.", "info")
    return _show_game(found, focus_entry=True)


@bp.get("/parties/<public_id>/manches/<int:number>")
def edit_round_form(public_id: str, number: int):
    """Show a recorded round in a form, to correct it."""
    found = _saved_game(public_id)
    sheet = found.scoresheet
    if not 1 <= number <= len(sheet.rounds):
        abort(404)
    typed = [str(value) for value in sheet.rounds[number - 1]]
    return render_template(
        "edit_round.html",
        game=found,
        sheet=sheet,
        number=number,
        version=found.version,
        typed=typed,
        player_errors={},
        round_errors=[],
    )


@bp.post("/parties/<public_id>/manches/<int:number>")
@limiter.limit(_write_limit)
def edit_round(public_id: str, number: int):
    """Save a corrected round, unless the game changed since the form was opened."""
    form = EditRoundForm(request.form)
    typed = [entry.data for entry in form.heads]
    found = _saved_game(public_id, for_update=True)
    try:
        games.edit_round(found, number, form.game_version(), typed)
    except games.GameNotFound:
        abort(404)
    except games.GameChanged:
        return _edit_form_again(found, number, typed, {}, [GAME_CHANGED], status=409)
    except rules.InvalidRound as error:
        return _edit_form_again(found, number, typed, error.player_errors, error.round_errors, 422)
    except rules.GameOver as error:
        return _edit_form_again(found, number, typed, {}, [str(error)], 422)
    db.session.commit()
    flash(f"Manche {number} modifiée.", "info")
    return redirect(url_for("counter.game", public_id=public_id), 303)


GAME_CHANGED = (
    "La partie a changé depuis l’ouverture de ce formulaire (une autre page ou un autre joueur) : "
    "rien n’a été enregistré. Vérifiez la feuille à jour ci-dessous puis enregistrez à nouveau."
)


def _edit_form_again(found, number, typed, player_errors, round_errors, status):
    return render_template(
        "edit_round.html",
        game=found,
        sheet=found.scoresheet,
        number=number,
        version=found.version,
        typed=typed,
        player_errors=player_errors,
        round_errors=round_errors,
    ), status


@bp.post("/parties/<public_id>/revanche")
@limiter.limit(_creation_limit)
def rematch(public_id: str):
    """Start a new game with the same players and rules."""
    try:
        new = games.rematch(public_id, current_device_hash())
    except games.GameNotFound:
        abort(404)
    db.session.commit()
    return redirect(url_for("counter.game", public_id=new.public_id), 303)


@bp.get("/historique")
def history():
    """List this device's games, newest first, a page at a time."""
    page = min(max(request.args.get("page", default=1, type=int) or 1, 1), 100_000)
    result = games.history(current_device_hash(), page, current_app.config["HISTORY_PAGE_SIZE"])
    return render_template("history.html", history=result)


@bp.get("/statistiques")
def statistics():
    """Show per-player statistics over this device's finished games, sorted by a column."""
    lines = stats.player_stats(
        game.scoresheet for game in games.all_games(current_device_hash(), finished_only=True)
    )
    lines, key, order = stats.sorted_stats(
        lines, request.args.get("tri", ""), request.args.get("ordre")
    )
    return render_template("statistics.html", lines=lines, sort=key, order=order)


@bp.get("/parties/<public_id>/export.<any(csv, json):kind>")
def export_game(public_id: str, kind: str):
    """Download one game as CSV (a spreadsheet) or JSON (to import elsewhere)."""
    found = _exported_game(public_id)
    stamp = found.created_at.strftime("%Y-%m-%d")
    if kind == "csv":
        return _download(transfer.game_csv(found), "text/csv", f"6-qui-prend-{stamp}.csv")
    return _download(transfer.export_json([found]), "application/json", f"6-qui-prend-{stamp}.json")


@bp.get("/historique/export.<any(csv, json):kind>")
def export_all(kind: str):
    """Download all of this device's games, e.g. to move them to a new phone."""
    found = games.all_games(current_device_hash())
    if kind == "csv":
        return _download(transfer.games_csv(found), "text/csv", "6-qui-prend-parties.csv")
    return _download(transfer.export_json(found), "application/json", "6-qui-prend-parties.json")


def _download(body: str, mimetype: str, filename: str):
    response = current_app.response_class(body, mimetype=mimetype)
    response.headers.set("Content-Disposition", "attachment", filename=filename)
    return response


@bp.post("/historique/import")
@limiter.limit(_write_limit)
def import_games():
    """Add the games of an exported file; all of them or, if one is wrong, none."""
    request.max_content_length = current_app.config["MAX_IMPORT_LENGTH"]
    upload = request.files.get("fichier")
    data = upload.read() if upload else b""
    try:
        if not data:
            raise transfer.ImportRefused(["Choisissez un fichier d’export (.json) à importer."])
        imported = transfer.parse_export(data)
    except transfer.ImportRefused as error:
        page = games.history(current_device_hash(), 1, current_app.config["HISTORY_PAGE_SIZE"])
        return render_template("history.html", history=page, import_errors=error.errors), 422
    added, known = games.import_games(claim_device(), imported)
    db.session.commit()
    message = (
        f"{added} partie{'s' if added > 1 else ''} importée{'s' if added > 1 else ''}"
        if added
        else "Aucune partie importée"
    )
    if known:
        message += f", {known} déjà présente{'s' if known > 1 else ''} sur cet appareil"
    flash(message + ".", "info")
    return redirect(url_for("counter.history"), 303)


@bp.get("/healthz")
@limiter.exempt
def healthz():
    """Answer 200 when the database answers."""
    db.session.execute(db.text("SELECT 1"))
    return {"status": "ok"}


def _saved_game(public_id: str, *, for_update: bool = False) -> games.SavedGame:
    """Return this device's game (locked for a write if asked), or answer 404."""
    try:
        return games.find_game(public_id, current_device_hash(), for_update=for_update)
    except games.GameNotFound:
        abort(404)


def _exported_game(public_id: str):
    """Return this device's game with all that an export holds, or answer 404."""
    try:
        return games.exported_game(public_id, current_device_hash())
    except games.GameNotFound:
        abort(404)


def _show_game(
    found,
    *,
    refused: Exception | None = None,
    typed=None,
    status: int = 200,
    focus_entry: bool = False,
):
    """Answer a write: the game's live part for htmx, else a redirect (or the errors)."""
    if not is_htmx() and refused is None:
        return redirect(url_for("counter.game", public_id=found.public_id), 303)
    template = "_game.html" if is_htmx() else "game.html"
    return render_template(
        template,
        game=found,
        sheet=found.scoresheet,
        typed=typed,
        player_errors=getattr(refused, "player_errors", {}),
        round_errors=getattr(refused, "round_errors", [str(refused)] if refused else []),
        focus_entry=focus_entry,
    ), status
