"""The device a game belongs to: a random token in a long-lived cookie; the server keeps its hash.

Only tokens this server signed are adopted: any other cookie (made up, or planted by a sibling
subdomain or over plain HTTP on a LAN so as to read that phone's games later) is replaced by a
new token. Tokens signed with a key listed in SECRET_KEY_FALLBACKS are still this server's, so a
key rotation keeps every device's games and its own rate-limit allowance.
"""

import hashlib
import secrets
from collections.abc import Callable
from typing import Any, TypeVar
from urllib.parse import urlsplit

from flask import Flask, Response, current_app, g, request
from itsdangerous import BadSignature, Signer
from werkzeug.exceptions import HTTPException


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _signer() -> Signer:
    # itsdangerous tries every key and signs with the last one: the fallbacks first, as Flask's
    # own session does.
    keys = [*(current_app.config["SECRET_KEY_FALLBACKS"] or []), current_app.config["SECRET_KEY"]]
    return Signer(keys, salt="device")


def _signed_here(token: str | None) -> bool:
    if token is None or not 32 <= len(token) <= 128 or not token.isascii():
        return False
    try:
        _signer().unsign(token)
    except BadSignature:
        return False
    return True


def current_device_hash() -> str | None:
    """Return the hash of this browser's device token, or None if it has none we signed."""
    if "device_hash" not in g:
        token = request.cookies.get(current_app.config["DEVICE_COOKIE_NAME"])
        g.device_token = token if _signed_here(token) else None
        g.device_hash = _hash(g.device_token) if g.device_token else None
    return g.device_hash


def claim_device() -> str:
    """Return this browser's device hash, giving it a new token first if it has none."""
    if current_device_hash() is None:
        g.device_token = _signer().sign(secrets.token_urlsafe(32)).decode()  # 256 random bits
        g.device_hash = _hash(g.device_token)
    return g.device_hash


View = TypeVar("View", bound=Callable[..., Any])


def no_device_cookie(view: View) -> View:
    """Mark a view anyone with its address may open, read-only (a follow page, its stream, a
    scorer address's page: a phone gets its token when it joins; the offline page, which every
    service worker fetches when it installs): it gives the phone no device token, nor a session
    (app/platform/security.py): no identifier for watching."""
    view.no_device_cookie = True  # type: ignore[attr-defined]
    return view


def as_the_page_it_returns_to(view: View) -> View:
    """Mark a view that only comes back to the page named by its `next` argument (the language
    switch): it gives a device token only if that page does (a language chosen on a follow
    page keeps the language alone)."""
    view.as_the_page_it_returns_to = True  # type: ignore[attr-defined]
    return view


def _view_of(endpoint: str | None) -> Callable[..., Any] | None:
    return current_app.view_functions.get(endpoint) if endpoint else None


def for_a_follower() -> bool:
    """Whether the view asked gives no device token: marked so, or returning to one that is."""
    view = _view_of(request.endpoint)
    if getattr(view, "as_the_page_it_returns_to", False):
        try:
            adapter = current_app.create_url_adapter(request)
            endpoint, _ = adapter.match(urlsplit(request.args.get("next", "")).path, "GET")  # type: ignore[union-attr]
        except HTTPException:  # no page of this site (or one that redirects): no mark either
            return False
        view = _view_of(endpoint)
    return bool(getattr(view, "no_device_cookie", False))


def renew_device_cookie(response: Response) -> Response:
    """Send the device cookie again on every visit so that it lives ~400 days past the last one.

    A browser gets its token on the first page it opens, so that its first write already counts
    as this device (for rate limits) rather than as an anonymous client of the address. A cookie
    we did not sign is never sent back.
    """
    if for_a_follower():
        return response
    if request.method == "GET" and response.mimetype == "text/html":
        claim_device()
    current_device_hash()
    token = g.get("device_token")
    if token:
        days = current_app.config["DEVICE_COOKIE_DAYS"]
        response.set_cookie(
            current_app.config["DEVICE_COOKIE_NAME"],
            token,
            max_age=days * 24 * 3600,
            httponly=True,
            samesite="Lax",
            secure=request.is_secure,
        )
        # The service worker keeps pages for offline (templates/installed_app/sw.js), and cannot
        # read the device token (HttpOnly): this mark, readable by it and worthless to anyone
        # else, names the device a page was drawn for, and goes when the cookies go. Offline,
        # a copy whose mark is not the browser's is another device's: it is not shown.
        mark = offline_mark(token)
        response.set_cookie(
            OFFLINE_MARK, mark, max_age=days * 24 * 3600, samesite="Lax", secure=request.is_secure
        )
        if response.mimetype == "text/html":
            response.headers["X-Copie-Appareil"] = mark
    return response


OFFLINE_MARK = "copie"


def offline_mark(token: str) -> str:
    """A name for this device that says nothing of its token (16 hex digits of a keyed hash)."""
    return hashlib.sha256(f"copie:{token}".encode()).hexdigest()[:16]


def init_app(app: Flask) -> None:
    app.after_request(renew_device_cookie)
