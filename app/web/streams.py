"""A live stream's slot, its loop and its answer (Server-Sent Events), for the follow page's
stream (app/web/follow.py) and the scoring phones' (app/web/table.py): one place that takes a
slot of this process (never more than its cap, a share per client address), hears a phone leave,
says each change, and gives the slot back however the stream ends."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import NamedTuple

from flask import Response, current_app, request, stream_with_context
from flask_babel import gettext as _

from app.platform import live
from app.platform.extensions import db
from app.web.errors import render_error

# Streams one process holds at most: a stream is a greenlet of a gevent worker (gunicorn.conf.py,
# 2,000 connections a worker), a few kilobytes; the rest of the connections stay for the tables.
MAX_STREAMS = 1000
# Streams one client address holds at most in one process: half, so that one network (or one
# script) cannot take every follower's place; a café's 30 tables of ten behind one address fit.
STREAMS_PER_ADDRESS = 500
HEARTBEAT_SECONDS = 20.0  # on average; well inside proxies' read timeouts (nginx.conf: 1 h)
# Its own generator: a stream's thread must not move the random module's shared state (tests
# that replay their draws from it, as Hypothesis does, would see it move under them).
_spread = random.Random()


class Said(NamedTuple):
    """What a stream's look found: the version the phone is to have, the event that says it, and
    whether the stream ends after it (a rematch took the follow address on)."""

    version: str
    event: str
    last: bool = False


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


def live_events(
    game_id: int, slot: live.Slot, look: Callable[[], Said | None], *, known: str, end: str
) -> Iterator[str]:
    """The events of one stream: the game looked at once at first (it may have moved since the
    phone's page was drawn), then at each change heard of; `end` once the look finds nothing
    (the game gone, the share stopped, the phone's rights lost). `known` is the version the phone
    has. Only a change heard of is read: waiting and heartbeats never touch the database."""
    heartbeat = current_app.config.get("FOLLOW_HEARTBEAT_SECONDS", HEARTBEAT_SECONDS)
    db.session.close()  # end the view's read: the stream's own reads must see later commits
    # At once, so the stream opens before anything changes; reconnect quickly if cut.
    yield "retry: 2000\n\n"
    with live.hub().watching(game_id, slot) as watch:
        seen = known
        changed = True
        while not watch.gone:
            if changed:
                try:
                    said = look()
                finally:
                    db.session.close()  # hand the connection back while waiting
                if said is None:
                    yield end
                    return
                if said.version != seen:  # a wake-up can be for nothing new (a first look)
                    seen = said.version
                    yield said.event
                if said.last:
                    return
            # Heartbeats spread at random: streams opened together must not all wake together.
            changed = watch.wait(heartbeat * _spread.uniform(0.5, 1.5))
            if not changed and not watch.gone:
                # A comment line: finds connections closed by the phone, keeps proxies open.
                yield ": toujours là\n\n"
