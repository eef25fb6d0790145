"""The pages and actions of the counter: each reads the request, calls the service, then renders or redirects."""

from __future__ import annotations

from flask import Blueprint, abort, current_app, flash, redirect, render_template, request, url_for
from werkzeug.datastructures import MultiDict

from app import games, rules
from app.device import claim_device, current_device_hash
from app.extensions import db, limiter
from app.forms import CancelRoundForm, NewGameForm, RoundForm
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
    return render_template("new_game.html", form=NewGameForm(), errors={}, table_errors=[])


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
        game = games.start_game(claim_device(), form.typed_names(), game_rules)
    except rules.InvalidPlayers as error:
        seat_errors = {f"players-{seat}": message for seat, message in error.seat_errors.items()}
        return _new_game_form(form, seat_errors, error.table_errors, status=422)
    db.session.commit()
    return redirect(url_for("counter.game", public_id=game.public_id), 303)


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
    found = _find_game(public_id)
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
    try:
        found = games.record_round(public_id, current_device_hash(), form.round_number(), typed)
    except games.GameNotFound:
        abort(404)
    except games.StaleRound:
        db.session.rollback()
        flash("Cette manche était déjà enregistrée : voici la feuille à jour.", "info")
        return _show_game(public_id)
    except (rules.InvalidRound, rules.GameOver) as error:
        db.session.rollback()
        return _show_game(public_id, refused=error, typed=typed, status=422)
    db.session.commit()
    return _show_game(found.public_id, focus_entry=True)


@bp.post("/parties/<public_id>/manches/annuler")
@limiter.limit(_write_limit)
def cancel_round(public_id: str):
    """Remove the last round (named in the form, so a repeat never removes two)."""
    form = CancelRoundForm(request.form)
    try:
        games.cancel_round(public_id, current_device_hash(), form.round_number())
    except games.GameNotFound:
        abort(404)
    except games.StaleRound:
        db.session.rollback()
        flash("Cette manche était déjà annulée : voici la feuille à jour.", "info")
        return _show_game(public_id)
    db.session.commit()
    flash(f"Manche {form.round_number()} annulée.", "info")
    return _show_game(public_id, focus_entry=True)


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
    page = request.args.get("page", default=1, type=int) or 1
    result = games.history(current_device_hash(), page, current_app.config["HISTORY_PAGE_SIZE"])
    return render_template("history.html", history=result)


@bp.get("/healthz")
@limiter.exempt
def healthz():
    """Answer 200 when the database answers."""
    db.session.execute(db.text("SELECT 1"))
    return {"status": "ok"}


def _find_game(public_id: str):
    try:
        return games.get_game(public_id, current_device_hash())
    except games.GameNotFound:
        abort(404)


def _show_game(public_id: str, *, refused: Exception | None = None, typed=None, status: int = 200,
               focus_entry: bool = False):
    """Answer a write: the game's live part for htmx, else a redirect to the page (or the errors)."""
    if not is_htmx() and refused is None:
        return redirect(url_for("counter.game", public_id=public_id), 303)
    found = _find_game(public_id)
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
