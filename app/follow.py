"""Sharing a game and following it: the share page of the scoring phone, the read-only follow page.

The follow page is live by conditional polling (static/follow.js): every few seconds it asks
again with If-None-Match and the server answers 304 from one indexed read of the game's version,
the same on every worker and replica, since they all read the same database. The figures that
chose polling over held Server-Sent Events connections are in docs/performance.md (« Following »).
"""

from __future__ import annotations

import segno
from flask import Blueprint, current_app, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue

from app import games, sharing
from app.device import current_device_hash
from app.errors import render_error
from app.extensions import db, limiter
from app.htmx import is_htmx, vary_on_htmx

bp = Blueprint("follow", __name__)

# A phone polls every POLL_SECONDS: 30 asks a minute; a table of ten behind one address, 300.
FOLLOW_LIMIT = "600 per minute"
POLL_SECONDS = 2.0
STOPPED = "Ce lien de suivi n’existe pas, ou le partage de cette partie a été arrêté."


def _write_limit() -> str:
    return current_app.config["RATELIMIT_WRITES"]


def _follow_limit() -> str:
    return current_app.config.get("RATELIMIT_FOLLOW", FOLLOW_LIMIT)


def _follow_key() -> str:
    # Per follow address and client address: one shared game polled hard cannot starve another.
    return f"suivre:{request.remote_addr}:{(request.view_args or {}).get('token', '')}"


@bp.get("/parties/<public_id>/partage")
def share_page(public_id: str) -> str:
    """Show the game's follow address, its QR code and the way to stop sharing, or to start."""
    token = sharing.follow_token(public_id, current_device_hash())
    address = url_for("follow.follow", token=token, _external=True) if token else None
    qr = segno.make(address, error="m").svg_data_uri(scale=6, border=2) if address else None
    return render_template("share.html", public_id=public_id, address=address, qr=qr)


@bp.post("/parties/<public_id>/partage")
@limiter.limit(_write_limit)
def share(public_id: str) -> ResponseReturnValue:
    """Give the game a follow address (or keep the one it has) and show it."""
    sharing.share_game(public_id, current_device_hash())
    db.session.commit()
    return redirect(url_for("follow.share_page", public_id=public_id), 303)


@bp.post("/parties/<public_id>/partage/arreter")
@limiter.limit(_write_limit)
def stop_sharing(public_id: str) -> ResponseReturnValue:
    """Revoke the follow address: whoever has it sees nothing more."""
    sharing.stop_sharing(public_id, current_device_hash())
    db.session.commit()
    flash("Partage arrêté : l’adresse de suivi ne montre plus cette partie.", "info")
    return redirect(url_for("follow.share_page", public_id=public_id), 303)


@bp.get("/suivre/<token>")
@limiter.limit(_follow_limit, key_func=_follow_key)
def follow(token: str) -> ResponseReturnValue:
    """Show a shared game read-only; answer 304 when the follower already has this version."""
    try:
        version = sharing.followed_version(token)
        if request.if_none_match.contains_weak(_etag(version)):
            response = current_app.response_class(status=304)
        else:
            found = sharing.followed_game(token)
            template = "_follow.html" if is_htmx() else "follow.html"
            page = render_template(
                template,
                part_etag=f'W/"{_etag(found.version, part=True)}"',
                sheet=found.scoresheet,
                read_only=True,
                poll_ms=int(current_app.config.get("FOLLOW_POLL_SECONDS", POLL_SECONDS) * 1000),
            )
            response = current_app.make_response(page)
            version = found.version
    except games.GameNotFound:
        response = current_app.make_response(render_error(404, STOPPED))
    else:
        response.set_etag(_etag(version), weak=True)
    response.headers["Referrer-Policy"] = "no-referrer"  # the address is the key: never pass it on
    response.headers["X-Robots-Tag"] = "noindex"
    return vary_on_htmx(response)


def _etag(version: int, part: bool | None = None) -> str:
    # The page and its live part are two representations of one version: two tags. Weak tags,
    # since Flask-Compress rewrites strong ones per encoding (and If-None-Match compares weakly).
    return f"v{version}-part" if (is_htmx() if part is None else part) else f"v{version}"
