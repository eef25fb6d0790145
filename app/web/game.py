"""A game's page and what is done with the whole game — delete it, draw its result, start its
rematch: read the request, call the service, render or redirect."""

from __future__ import annotations

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

from app import rules
from app.platform import rate_limits
from app.platform.devices import current_device_hash
from app.services import games, reads, saved_game
from app.services.refusals import GameChanged, OwnPhoneOnly, Refused
from app.web.forms import FIELD, DrawnForm, carried_scores, whole_number, with_today_names
from app.web.game_view import GamePage
from app.web.htmx import is_htmx, vary_on_htmx
from app.web.refusals import shown, status_of
from app.web.result.share import image_response

bp = Blueprint("game", __name__)
# The pages the installed app keeps its last copy of, to show without network (a JavaScript
# RegExp's source, for templates/installed_app/sw.js): home, where the installed app starts, and
# each game's page — not the new-game form.
KEPT_OFFLINE = r"^/(parties/(?!nouvelle$)[^/]+)?$"


CARRIED = "carried_scores"  # the session's: scores brought to a game's round form, shown once
ENDER = "ended_by"  # who ended the round (Skyjo), brought along with the scores


@bp.get("/parties/<public_id>")
def game(public_id: str) -> ResponseReturnValue:
    """Show a game: scores, the round sheet, and the entry form or the result."""
    # The round form may come filled in: by a finished assistant round, or a count of a pile
    # (`score-2=5` in the address). Those are kept aside for one drawing and the address loses
    # them: a reload, Back or Forward would type them into the next round again.
    args = with_today_names(request.args)  # an address made before the fields were renamed too
    if not is_htmx() and any(key.startswith(f"{FIELD}-") or key == ENDER for key in args):
        carried = carried_scores(args, rules.MAX_PLAYERS)
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
        raise OwnPhoneOnly(public_id)
    return render_template("game/delete_game.html", game=found, sheet=found.scoresheet)


@bp.post("/parties/<public_id>/supprimer")
@rate_limits.writes
def delete_game(public_id: str) -> ResponseReturnValue:
    """Delete a game, its rounds and its place in history and statistics, as its page showed it."""
    try:
        games.delete_game(public_id, current_device_hash(), DrawnForm(request.form).game_version())
    except GameChanged as changed:  # asked again, about the game as it now stands
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
    except Refused as refused:  # reopened elsewhere since, or not over
        page = game_page(refused.game, refusal=shown(refused.refusal), focus_entry=True)
        return page, status_of(refused)
    return redirect(url_for("game.game", public_id=new.public_id), 303)


def game_page(found: saved_game.SavedGame, *, whole: bool = False, **context: Any) -> str:
    """Render a game: its live part for htmx (unless the `whole` page is asked for), the whole
    page otherwise."""
    template = "game/_game_update.html" if is_htmx() and not whole else "game/game.html"
    return render_template(template, **GamePage.of(found).context(), **context)


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
