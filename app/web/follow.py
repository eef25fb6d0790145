"""Sharing a game and following it: the share page of the scoring phone, the read-only follow page.

The follow page is live through Server-Sent Events (static/follow.js opens an EventSource on
/suivre/<token>/direct): each change of the game is pushed within milliseconds of its commit,
by app/platform/live.py, to followers on any worker or replica. A browser without EventSource
polls the page
instead (If-None-Match → 304 from one indexed read). The figures that chose held streams over
polling are in docs/performance.md (« Following »).
"""

from __future__ import annotations

from collections.abc import Iterator

from flask import (
    Blueprint,
    Response,
    current_app,
    flash,
    g,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_babel import get_locale
from flask_babel import gettext as _

from app.platform import live, rate_limits, security
from app.platform.devices import current_device_hash, no_device_cookie
from app.platform.extensions import limiter
from app.platform.languages import current_language
from app.services import evenings, saved_game, sharing
from app.services.refusals import GameNotFound
from app.web import streams
from app.web.errors import render_error
from app.web.evening import ranking_rows
from app.web.htmx import is_htmx, vary_on_htmx
from app.web.result.share import image_response, share_of

bp = Blueprint("follow", __name__)

# A phone polls every POLL_SECONDS: 30 asks a minute; a table of ten behind one address, 300.
FOLLOW_LIMIT = "600 per minute"
POLL_SECONDS = 2.0  # browsers without EventSource only


def _follow_limit() -> str:
    return current_app.config.get("RATELIMIT_FOLLOW", FOLLOW_LIMIT)


def _follow_key() -> str:
    # Per follow address and client address: one shared game polled hard cannot starve another.
    return f"suivre:{request.remote_addr}:{_token()}"


def _token() -> str:
    return str((request.view_args or {}).get("token", ""))


def _followed() -> tuple[int, int] | None:
    """The (game id, version) shared under this request's follow address, or None; read once
    per request (the limits ask before the view does)."""
    if "followed" not in g:
        try:
            g.followed = sharing.followed_version(_token())
        except GameNotFound:
            g.followed = None
    return g.followed


def _unknown() -> bool:
    return _followed() is None


# A shared game's address counts per (client address, follow address); an unknown one counts
# toward the guesses of its client address, whatever address it guessed (RATELIMIT_GUESSES, on
# every route: app/platform/rate_limits.py), so the limiter keeps no counter per guess.
_per_followed_game = limiter.limit(_follow_limit, key_func=_follow_key, exempt_when=_unknown)


@bp.get("/parties/<public_id>/partage")
@security.shows_a_key
def share_page(public_id: str) -> str:
    """Show the game's follow address, its QR code and the way to stop sharing, or to start."""
    token, own_phone, game_rules = sharing.follow_token(public_id, current_device_hash())
    address = url_for("follow.follow", token=token, _external=True) if token else None
    return render_template(
        "follow/share.html",
        public_id=public_id,
        address=address,
        own_phone=own_phone,
        game_rules=game_rules,
    )


@bp.post("/parties/<public_id>/partage")
@rate_limits.writes
def share(public_id: str) -> ResponseReturnValue:
    """Give the game a follow address (or keep the one it has) and show it."""
    sharing.share_game(public_id, current_device_hash())
    return redirect(url_for("follow.share_page", public_id=public_id), 303)


@bp.post("/parties/<public_id>/partage/arreter")
@rate_limits.writes
def stop_sharing(public_id: str) -> ResponseReturnValue:
    """Revoke the follow address: whoever has it sees nothing more."""
    sharing.stop_sharing(public_id, current_device_hash())
    flash(_("Partage arrêté : l’adresse de suivi ne montre plus cette partie."), "info")
    return redirect(url_for("follow.share_page", public_id=public_id), 303)


@bp.get("/suivre/<token>")
@no_device_cookie
@_per_followed_game
def follow(token: str) -> ResponseReturnValue:
    """Show a shared game read-only; answer 304 when the follower already has this version."""
    try:
        if (followed := _followed()) is None:
            raise GameNotFound(token)
        game_id, version = followed
        if request.if_none_match.contains_weak(_etag(version)):
            response = current_app.response_class(status=304)
        else:
            found = sharing.followed_game(token)
            template = "follow/_follow.html" if is_htmx() else "follow/follow.html"
            response = current_app.make_response(_render_follow(template, token, found, game_id))
            version = found.version
    except GameNotFound:
        response = current_app.make_response(render_error(404, _stopped()))
    else:
        response.set_etag(_etag(version), weak=True)
        # As the game page: Back or Forward would show a copy the browser kept, old totals and
        # all, where the page has no script to catch up. Polling sends its own If-None-Match.
        response.headers["Cache-Control"] = "no-store, private"
    return vary_on_htmx(_private(response))


@bp.get("/suivre/<token>/direct")
@no_device_cookie
@_per_followed_game
def live_updates(token: str) -> ResponseReturnValue:
    """Stream the game's live part each time it changes (Server-Sent Events), until the share
    stops or the phone leaves. The stream holds a greenlet of a gevent worker, not a thread."""
    if (followed := _followed()) is None:
        return _private(current_app.make_response(render_error(404, _stopped())))
    game_id, _version = followed
    slot = streams.take_slot(game_id)
    if not isinstance(slot, live.Slot):  # the page polls instead (static/follow.js), a little later
        return _private(slot)
    # The version the follower has: the page's own at first, the last event's after a reconnect.
    known = request.headers.get("Last-Event-ID") or request.args.get("depuis", "")
    parts, hub = _drawn(), live.hub()

    def look() -> streams.Said | None:
        try:
            shown_id, version, event = _event(token, parts)
        except GameNotFound:
            return None
        # A rematch took the address on: this stream ends, and the phone's EventSource
        # reconnects to the new game's (within its retry, 2 s).
        return streams.Said(version, event, last=shown_id != game_id)

    def events() -> Iterator[str]:
        try:
            yield from streams.live_events(
                game_id, slot, look, known=known, end="event: fin\ndata: arrêté\n\n"
            )
        finally:
            if not hub.watches(game_id):  # its last follower here left: forget its parts
                parts.pop(game_id, None)

    return _private(streams.event_stream(events(), slot))


@bp.get("/suivre/<token>/resultat.png")
@no_device_cookie
@_per_followed_game
@rate_limits.drawings
def result_image(token: str) -> Response:
    """Draw the shared game's result as an image, for whoever follows it."""
    try:
        found = sharing.followed_game(token)
    except GameNotFound:
        return _private(current_app.make_response(render_error(404, _stopped())))
    return _private(image_response(found))


def _stopped() -> str:
    return _("Ce lien de suivi n’existe pas, ou le partage de cette partie a été arrêté.")


# The last live part drawn for each followed game, by language, as (token, version, event):
# drawn once per version and process however many follow it. Drawing it for each follower
# instead missed the targets with 2,000 followers (docs/performance.md, « Capacity »).
Drawn = dict[int, dict[str, tuple[str, int, str]]]


def _drawn() -> Drawn:
    return current_app.extensions.setdefault("followed_parts", {})


def _event(token: str, drawn: Drawn) -> tuple[int, str, str]:
    """Return the id of the game shared under the token, its version as the stream names it
    (« game.version »: a rematch's version 2 is not the old game's) and its live part as an
    event (one indexed read when it is drawn already)."""
    game_id, version = sharing.followed_version(token)
    parts = drawn.setdefault(game_id, {})
    language = str(get_locale())  # followers of one game may read different languages
    if parts.get(language, (None, 0))[:2] != (token, version):
        found = sharing.followed_game(token)
        part = _render_follow("follow/_follow.html", token, found, game_id)
        data = "".join(f"data: {line}\n" for line in part.splitlines())
        named = _stream_version(game_id, found.version)
        parts[language] = (token, found.version, f"event: partie\nid: {named}\n{data}\n")
        version = found.version
    return game_id, _stream_version(game_id, version), parts[language][2]


def _stream_version(game_id: int, version: int) -> str:
    return f"{game_id}.{version}"


def _render_follow(template: str, token: str, found: saved_game.SavedGame, game_id: int) -> str:
    # The big screen shows the evening's ranking between two games: once the game is over, and
    # on the next one (the address went on with the table) until its first round.
    evening = evenings.followed_evening(found)
    between = evening is not None and (found.scoresheet.is_over or not found.scoresheet.rounds)
    return render_template(
        template,
        part_etag=f'W/"{_etag(found.version, part=True)}"',
        version=found.version,
        stream_url=url_for(
            "follow.live_updates", token=token, depuis=_stream_version(game_id, found.version)
        ),
        sheet=found.scoresheet,
        share=share_of(found, url_for("follow.result_image", token=token)),
        read_only=True,
        evening_url=url_for("evening.followed_evening", token=token) if evening else None,
        evening_ranking=ranking_rows(evening) if evening and between else None,
        poll_ms=int(current_app.config.get("FOLLOW_POLL_SECONDS", POLL_SECONDS) * 1000),
    )


def _private(response: Response) -> Response:
    response.headers["Referrer-Policy"] = "no-referrer"  # the address is the key: never pass it on
    response.headers["X-Robots-Tag"] = "noindex"
    return response


def _etag(version: int, part: bool | None = None) -> str:
    # The page and its live part are two representations of one version: two tags; and each
    # language another (a follower who picks « English » must not be told « 304, keep the
    # French »). Weak tags, since Flask-Compress rewrites strong ones per encoding (and
    # If-None-Match compares weakly).
    language = current_language()
    return (
        f"v{version}-{language}-part"
        if (is_htmx() if part is None else part)
        else f"v{version}-{language}"
    )
