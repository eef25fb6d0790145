"""A live stream's slot and its answer (Server-Sent Events), for the follow page's stream
(app/web/follow.py) and the scoring phones' (app/web/table.py): one place that takes a slot of
this process (never more than its cap, a share per client address), hears a phone leave, and
gives the slot back however the stream ends."""

from __future__ import annotations

from collections.abc import Iterator

from flask import Response, current_app, request, stream_with_context
from flask_babel import gettext as _

from app.platform import live
from app.web.errors import render_error

# Streams one process holds at most: a stream is a greenlet of a gevent worker (gunicorn.conf.py,
# 2,000 connections a worker), a few kilobytes; the rest of the connections stay for the tables.
MAX_STREAMS = 1000
# Streams one client address holds at most in one process: half, so that one network (or one
# script) cannot take every follower's place; a café's 30 tables of ten behind one address fit.
STREAMS_PER_ADDRESS = 500


def take_slot(game_id: int) -> live.Slot | Response:
    """Take a stream's slot for this request, or return the 503 that says who holds them all
    (the page then polls, or shows the others' rounds on a reload)."""
    slot = live.hub().reserve(
        game_id,
        request.remote_addr or "",
        most=current_app.config.get("FOLLOW_MAX_STREAMS", MAX_STREAMS),
        per_address=current_app.config.get("FOLLOW_STREAMS_PER_ADDRESS", STREAMS_PER_ADDRESS),
    )
    if isinstance(slot, str):
        if slot == "server":
            message = _("Trop de téléphones suivent déjà ce serveur.")
        else:
            message = _("Trop de téléphones de votre réseau suivent déjà ce serveur.")
        response = current_app.make_response(render_error(503, message))
        response.headers["Retry-After"] = "30"
        return response
    slot.watch_connection(request.environ.get("gunicorn.socket"))
    return slot


def event_stream(events: Iterator[str], slot: live.Slot) -> Response:
    """Answer with the events as they come. However the stream ends (its game gone, a failed
    write, the phone gone before its first line), the server closes the response: the slot is
    free again."""
    response = current_app.response_class(
        stream_with_context(events),
        mimetype="text/event-stream",
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )
    response.call_on_close(slot.release)
    return response
