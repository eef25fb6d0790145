"""The pages and actions of the counter: read the request, call the service, render or redirect."""

from __future__ import annotations

import secrets
from typing import Any

from flask import (
    Blueprint,
    Response,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from sqlalchemy import exc as sa_exc
from werkzeug.datastructures import MultiDict

from app import rules
from app.platform import rate_limits
from app.platform.devices import claim_device, current_device_hash
from app.platform.extensions import db, limiter
from app.services import games, reads, saved_game
from app.services.unit_of_work import check_database
from app.web.errors import RETRY_AFTER
from app.web.forms import FIELD, DrawnForm, NewGameForm, carried_scores, whole_number
from app.web.htmx import is_htmx, vary_on_htmx
from app.web.refusals import shown, status_of
from app.web.shared_result import image_response, share_of

bp = Blueprint("game", __name__)
# The pages the installed app keeps its last copy of, to show without network (a JavaScript
# RegExp's source, for templates/installed_app/sw.js): home, where the installed app starts, and
# each game's page — not the new-game form.
KEPT_OFFLINE = r"^/(parties/(?!nouvelle$)[^/]+)?$"


@bp.get("/")
def home() -> str:
    """Show the way to a new game, the game in progress and past games."""
    return render_template("game/home.html", game=reads.game_in_progress(current_device_hash()))


@bp.get("/parties/nouvelle")
def new_game() -> str:
    """Show the form that seats the players: empty, or filled from its address (what was typed
    before a language link was followed: static/app.js)."""
    form = NewGameForm(request.args or None, data={"key": secrets.token_urlsafe(16)})
    return render_template("game/new_game.html", form=form, refusal=None, focus=None)


def _adding_a_player() -> bool:
    # « Ajouter un joueur » sends the new-game form to get one more field: it creates nothing,
    # and a table typing ten names must not spend its games on it (like reading a page).
    return "ajouter" in request.form


def _creates_nothing() -> bool:
    """Whether the new-game form sent creates no game: « Ajouter un joueur », names or a rule
    the form refuses (thirty refused forms left a café's phone no game for an hour), or the
    same form again (a double tap)."""
    if _adding_a_player():
        return True
    form = NewGameForm(request.form)
    try:
        if games.already_created(current_device_hash(), form.creation_key()):
            return True
        rules.seat_players(form.typed_names(), form.game_rules().game.max_players)
    except rules.Refusal:
        return True
    return False


@bp.post("/parties")
@rate_limits.game_creations(exempt_when=_creates_nothing)
def create_game() -> ResponseReturnValue:
    """Start a game with the names typed, or show the form again with what is wrong."""
    form = NewGameForm(request.form)
    if _adding_a_player():
        form, focus = _with_one_more_field(form)
        return _new_game_form(form, status=200, focus=focus)
    try:
        game = games.start_game(
            claim_device(), form.typed_names(), form.game_rules(), form.creation_key()
        )
    except rules.Refusal as refusal:  # the form's own, or names that cannot sit at a table
        return _new_game_form(form, refusal, status=422)
    return go_to(url_for("game.game", public_id=game.public_id))


def go_to(url: str) -> ResponseReturnValue:
    """Send the browser to another page: a 303 for a plain form, a full navigation for htmx."""
    if is_htmx():
        # htmx would follow a 303 inside fetch and swap the whole next page into the form.
        return current_app.response_class(status=200, headers={"HX-Redirect": url})
    return redirect(url, 303)


def _with_one_more_field(form: NewGameForm) -> tuple[NewGameForm, str | None]:
    """Return the same form with one more empty name field (up to the most players the chosen
    game seats), and the name of that field, to focus it."""
    count = len(form.players.entries)
    if count >= form.most_players():
        return form, None
    data = MultiDict(request.form)
    data[f"players-{count}"] = ""
    return NewGameForm(data), f"players-{count}"


def _new_game_form(
    form: NewGameForm,
    refusal: rules.Refusal | None = None,
    *,
    status: int,
    focus: str | None = None,
) -> tuple[str, int]:
    template = "game/_new_game_form.html" if is_htmx() else "game/new_game.html"
    page = render_template(template, form=form, refusal=shown(refusal), focus=focus)
    return page, status


CARRIED = "carried_scores"  # the session's: scores brought to a game's round form, shown once
ENDER = "ended_by"  # who ended the round (Skyjo), brought along with the scores


@bp.get("/parties/<public_id>")
def game(public_id: str) -> ResponseReturnValue:
    """Show a game: scores, the round sheet, and the entry form or the result."""
    # The round form may come filled in: by a finished assistant round, or a count of a pile
    # (`score-2=5` in the address). Those are kept aside for one drawing and the address loses
    # them: a reload, Back or Forward would type them into the next round again.
    if not is_htmx() and any(key.startswith(f"{FIELD}-") or key == ENDER for key in request.args):
        carried = carried_scores(request.args, rules.MAX_PLAYERS)
        scores = {str(seat): value for seat, value in carried.items()}
        session[CARRIED] = [public_id, scores, whole_number(request.args.get(ENDER, ""))]
        return redirect(url_for("game.game", public_id=public_id), 303)
    kept_for, scores, *ender = session.pop(CARRIED, None) or (None, {})
    carried = {int(seat): value for seat, value in scores.items()} if kept_for == public_id else {}
    ended_by = ender[0] if ender and kept_for == public_id else None  # Skyjo's « A fini »
    found, helped = reads.game_to_score(public_id, current_device_hash(), carried)
    # The first player's field is focused (or the result, once the game is over): the keyboard
    # and a screen reader start where the table is. Not for htmx: the live part fetched again
    # (another phone's round, static/app.js) must not move anyone's focus.
    page = game_page(
        found, round_help=helped, typed=helped.typed, ended_by=ended_by, focus_entry=not is_htmx()
    )
    response = vary_on_htmx(current_app.make_response(page))
    # Back, Forward or a reload always show the sheet as it stands: a browser shows a copy it
    # kept (its cache, even « no-cache », or the page kept whole) on those unless told not to
    # keep one. The service worker keeps its own offline copy all the same.
    response.headers["Cache-Control"] = "no-store, private"
    return response


@bp.get("/parties/<public_id>/supprimer")
def delete_game_form(public_id: str) -> str:
    """Ask before deleting a game for good."""
    found = reads.find_game(public_id, current_device_hash())
    if found.owner != current_device_hash():  # a phone of its table: « Quitter la table »
        raise saved_game.OwnPhoneOnly(public_id)
    return render_template("game/delete_game.html", game=found, sheet=found.scoresheet)


@bp.post("/parties/<public_id>/supprimer")
@rate_limits.writes
def delete_game(public_id: str) -> ResponseReturnValue:
    """Delete a game, its rounds and its place in history and statistics, as its page showed it."""
    try:
        games.delete_game(public_id, current_device_hash(), DrawnForm(request.form).game_version())
    except saved_game.GameChanged as changed:  # asked again, about the game as it now stands
        page = render_template(
            "game/delete_game.html",
            game=changed.game,
            sheet=changed.game.scoresheet,
            refusal=shown(changed.refusal),
        )
        return page, 409
    flash(_("Partie supprimée."), "info")
    return redirect(url_for("history.history"), 303)


@bp.get("/parties/<public_id>/resultat.png")
@rate_limits.drawings
def result_image(public_id: str) -> Response:
    """Draw a finished game's result as an image, to send to a group chat."""
    return image_response(reads.find_game(public_id, current_device_hash()))


@bp.post("/parties/<public_id>/revanche")
@rate_limits.game_creations()
def rematch(public_id: str) -> ResponseReturnValue:
    """Start a new game with the same players and rules, after the end the page showed."""
    version = DrawnForm(request.form).game_version()
    try:
        new = games.rematch(public_id, current_device_hash(), version)
    except saved_game.Refused as refused:  # reopened elsewhere since, or not over
        page = game_page(refused.game, refusal=shown(refused.refusal), focus_entry=True)
        return page, status_of(refused)
    return redirect(url_for("game.game", public_id=new.public_id), 303)


@bp.get("/healthz")
@limiter.exempt
def healthz() -> ResponseReturnValue:
    """Answer 200 when the database can be read and written, 503 otherwise."""
    try:
        check_database(write=request.method != "HEAD")
    except sa_exc.SQLAlchemyError as error:
        db.session.rollback()
        current_app.logger.warning("Health check failed: %s", error)
        return {"status": "unavailable"}, 503, {"Retry-After": str(RETRY_AFTER)}
    return {"status": "ok"}


def game_page(found: saved_game.SavedGame, *, whole: bool = False, **context: Any) -> str:
    """Render a game: its live part for htmx (unless the `whole` page is asked for), the whole
    page otherwise."""
    template = "game/_game_update.html" if is_htmx() and not whole else "game/game.html"
    image = url_for("game.result_image", public_id=found.public_id)
    share = share_of(found, image)
    # Where the table went on, once « Rejouer avec les mêmes joueurs » was tapped (only a finished
    # game has a rematch): the page links it, and opens no live stream (it would move on at once).
    rematch = games.rematch_of(found) if found.scoresheet.is_over else None
    return render_template(
        template, game=found, sheet=found.scoresheet, share=share, rematch=rematch, **context
    )


def answer_write(
    found: saved_game.SavedGame, announcement: str | None = None, **context: Any
) -> ResponseReturnValue:
    """Answer a write that went through: the game's live part for htmx (with `context`: what
    its round form holds), else a redirect."""
    if not is_htmx():
        return redirect(url_for("game.game", public_id=found.public_id), 303)
    response = current_app.make_response(
        game_page(found, focus_entry=True, announcement=announcement, **context)
    )
    if found.scoresheet.is_over:
        # The result sits above the scores the round form shows after its swap: show the top.
        response.headers["HX-Reswap"] = "outerHTML show:top showTarget:#main"
    return response
