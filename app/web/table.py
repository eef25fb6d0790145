"""Several phones at one table (app/services/tables.py): the scorer address, shown, stopped,
and joined from another phone."""

from __future__ import annotations

from flask import (
    Blueprint,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from flask_babel import ngettext
from werkzeug.wrappers import Response

from app.platform import live, rate_limits, security
from app.platform.devices import claim_device, current_device_hash, no_device_cookie
from app.platform.extensions import limiter
from app.services import access, saved_game, tables
from app.services.refusals import GameNotFound
from app.web import streams
from app.web.errors import render_error
from app.web.forms import whole_number

bp = Blueprint("table", __name__)

# Guessing a scorer address: bounded per client address, whatever token it tries.
JOIN_LIMIT = "60 per minute"


@bp.app_template_global()
def own_game(game: saved_game.SavedGame) -> bool:
    """Whether this phone started the game (it alone deletes it; a phone of its table leaves)."""
    return game.owner == current_device_hash()


@bp.get("/parties/<public_id>/inviter")
@security.shows_a_key
def invite_page(public_id: str) -> str:
    """Show the game's scorer address and its QR code, or the way to make one."""
    invited = tables.invitation(public_id, current_device_hash())
    token = invited.token
    address = url_for("table.join_page", token=token, _external=True) if token else None
    return render_template(
        "table/invite.html",
        public_id=public_id,
        address=address,
        own_phone=invited.own_phone,
        others=invited.others,
        newest_seat=invited.newest_seat,
        game_rules=invited.game_rules,
    )


@bp.post("/parties/<public_id>/inviter")
@rate_limits.writes
def invite(public_id: str) -> ResponseReturnValue:
    tables.invite(public_id, current_device_hash())
    return redirect(url_for("table.invite_page", public_id=public_id), 303)


@bp.post("/parties/<public_id>/inviter/arreter")
@rate_limits.writes
def stop_inviting(public_id: str) -> ResponseReturnValue:
    tables.stop_inviting(public_id, current_device_hash())
    flash(_("Invitation arrêtée : l’adresse pour marquer ne mène plus à la table."), "info")
    return redirect(url_for("table.invite_page", public_id=public_id), 303)


@bp.post("/parties/<public_id>/inviter/retirer")
@rate_limits.writes
def remove_invited_phones(public_id: str) -> ResponseReturnValue:
    """Unseat the invited phones the page showed (one seated since stays, and is said)."""
    seen = whole_number(request.form.get("newest_seat"))
    unseated = tables.remove_invited_phones(public_id, current_device_hash(), seen)
    if unseated.removed:
        flash(
            ngettext(
                "%(num)d téléphone invité retiré : il ne peut plus ouvrir les parties de la "
                "table, et l’adresse pour marquer a changé.",
                "%(num)d téléphones invités retirés : ils ne peuvent plus ouvrir les parties de "
                "la table, et l’adresse pour marquer a changé.",
                unseated.removed,
            ),
            "info",
        )
    if unseated.stayed:
        flash(
            ngettext(
                "%(num)d téléphone a rejoint la table depuis l’ouverture de cette page : il y "
                "est encore ; « Retirer les téléphones invités » le retire aussi.",
                "%(num)d téléphones ont rejoint la table depuis l’ouverture de cette page : ils "
                "y sont encore ; « Retirer les téléphones invités » les retire aussi.",
                unseated.stayed,
            ),
            "info",
        )
    return redirect(url_for("table.invite_page", public_id=public_id), 303)


@bp.post("/parties/<public_id>/quitter")
@rate_limits.writes
def leave(public_id: str) -> ResponseReturnValue:
    """Take this phone from the table: the table's games leave its history, nobody else's."""
    tables.leave(public_id, current_device_hash())
    flash(_("Vous avez quitté la table : ses parties ne sont plus sur ce téléphone."), "info")
    return redirect(url_for("history.history"), 303)


@bp.get("/rejoindre/<token>")
@no_device_cookie
@limiter.limit(JOIN_LIMIT, key_func=rate_limits.address)
def join_page(token: str) -> ResponseReturnValue:
    """Show whose table this is, and « Rejoindre la table » (opening it joins nothing)."""
    try:
        game = tables.invited_game(token)
        page = render_template("table/join.html", token=token, game=game, sheet=game.scoresheet)
    except GameNotFound:
        page = render_error(404, _stopped())
    return _private(current_app.make_response(page))


@bp.post("/rejoindre/<token>")
@limiter.limit(JOIN_LIMIT, key_func=rate_limits.address)
@rate_limits.writes
def join(token: str) -> ResponseReturnValue:
    """Seat this phone at the table and open its game."""
    try:
        game = tables.join(token, claim_device())
    except GameNotFound:
        return _private(current_app.make_response(render_error(404, _stopped())))
    return _private(redirect(url_for("game.game", public_id=game.public_id), 303))


NO_REMATCH = "-"  # the live stream's event id while its game has no rematch


@bp.get("/parties/<public_id>/direct")
def live_version(public_id: str) -> ResponseReturnValue:
    """Stream the version of a game of a table to its scoring phones (Server-Sent Events): each
    change made on another phone is said within a second or two, and the page fetches the game
    again (static/app.js) — only when nothing is typed in it, so no one's typing is lost."""
    device_hash = current_device_hash()
    try:
        first = tables.watched_version(public_id, device_hash)
    except GameNotFound:
        return render_error(404)
    game_id = first.id
    # The rematch the page's stream first found (its public id, or « - » for none): each event
    # says it again as its id, so that the browser's reconnection (a locked screen, a network
    # cut, a server restarting) hands it back, and a rematch made meanwhile is still one to go to.
    said = request.headers.get("Last-Event-ID", "")
    if said != NO_REMATCH and not access.PUBLIC_ID.fullmatch(said):
        said = first.rematch or NO_REMATCH  # a first connection, or an id of no use
    slot = streams.take_slot(game_id)
    if not isinstance(slot, live.Slot):  # the page still works: the others' rounds show on a reload
        return slot

    def look() -> streams.Said | None:
        # The rights too: a phone removed from the table (or gone from it in another tab) hears
        # no more, as much as when the game is deleted.
        try:
            now = tables.watched_version(public_id, device_hash)
        except GameNotFound:
            return None
        # The table went on with a new game since the page's stream began: it goes there. Not to
        # a rematch it began with: this phone came back to an older game on purpose (to correct
        # it, which may open it again) and stays on it.
        if now.rematch is not None and now.rematch != said:
            address = url_for("game.game", public_id=now.rematch)
            return streams.Said(f"suite {now.rematch}", f"event: suite\ndata: {address}\n\n", True)
        event = f"event: version\nid: {said}\ndata: {now.version}\n\n"
        return streams.Said(str(now.version), event)

    events = streams.live_events(game_id, slot, look, known="", end="event: fin\ndata: fin\n\n")
    return streams.event_stream(events, slot)


def _private(response: Response) -> Response:
    response.headers["Referrer-Policy"] = "no-referrer"  # the address is a key: never pass it on
    response.headers["X-Robots-Tag"] = "noindex"
    return response


def _stopped() -> str:
    return _("Cette adresse pour marquer n’existe pas, ou l’invitation a été arrêtée.")
