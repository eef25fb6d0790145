"""Security and cache headers, all set in one place."""

from collections.abc import Callable
from functools import cache
from typing import Any, TypeVar

from flask import Flask, Response, current_app, request, session
from flask.sessions import SecureCookieSessionInterface


@cache
def content_security_policy(style_hashes: tuple[str, ...] = ()) -> str:
    """Return the policy: this origin only, plus the inline stylesheets named by their hashes."""
    return "; ".join(
        [
            "default-src 'self'",
            " ".join(["style-src 'self'", *style_hashes]),
            "img-src 'self' data:",
            "object-src 'none'",
            "base-uri 'none'",
            "form-action 'self'",
            "frame-ancestors 'none'",
        ]
    )


PERMISSIONS_POLICY = ", ".join(
    f"{feature}=()" for feature in ("camera", "microphone", "geolocation", "payment", "usb")
)


def set_headers(response: Response) -> Response:
    headers = response.headers
    headers.setdefault(
        "Content-Security-Policy",
        content_security_policy(current_app.extensions.get("style_hashes", ())),
    )
    headers.setdefault("X-Content-Type-Options", "nosniff")
    headers.setdefault("Referrer-Policy", "strict-origin-when-cross-origin")
    headers.setdefault("Permissions-Policy", PERMISSIONS_POLICY)
    headers.setdefault("X-Frame-Options", "DENY")
    # Cross-Origin-Opener-Policy only where a page shows an address that is a key (the scorer
    # address, the follow address): it cuts the page off from a window that opened it, which
    # could otherwise send that tab to a look-alike page, and on Android it is what gets the
    # site a process of its own. Not on the other pages: it made Chromium move every new tab
    # opening a game (a QR code, a link in a chat) to a new process before its first paint,
    # +28 to +40 ms (docs/performance.md, issue 33), where a game page shows no key.
    view = current_app.view_functions.get(request.endpoint) if request.endpoint else None
    if getattr(view, "shows_a_key", False):
        headers.setdefault("Cross-Origin-Opener-Policy", "same-origin")
    if request.is_secure:
        headers.setdefault("Strict-Transport-Security", "max-age=63072000; includeSubDomains")
    if response.mimetype == "text/html":
        # Scores change with every round: never show a stale sheet from the cache.
        headers.setdefault("Cache-Control", "no-cache, private")
    return response


class SessionInterface(SecureCookieSessionInterface):
    """Flask's signed-cookie session, marked Secure whenever the page came over HTTPS.

    A fixed SESSION_COOKIE_SECURE would either leak the cookie over HTTP or, on a LAN served over
    plain HTTP, drop it (and with it every CSRF token).
    """

    def get_cookie_secure(self, app: Flask) -> bool:
        return bool(app.config["SESSION_COOKIE_SECURE"] or request.is_secure)


def keep_session(response: Response) -> Response:
    # The session holds the CSRF secret: it must outlive a phone closing its browser mid-game,
    # or the page it restores would be refused. It lasts PERMANENT_SESSION_LIFETIME. Only a
    # session that holds something is kept: an answer that made no form (the follow page, the
    # manifest, the service worker) sends no session cookie. (Setting the flag marks the session
    # changed: only once, or every answer would carry a new cookie.)
    if session and not session.permanent:
        session.permanent = True
    return response


View = TypeVar("View", bound=Callable[..., Any])


def large_body(view: View) -> View:
    """Mark a view whose form may be as big as MAX_IMPORT_LENGTH: an import carries a device's
    whole history (thousands of games), bigger than any other form."""
    view.large_body = True  # type: ignore[attr-defined]
    return view


def shows_a_key(view: View) -> View:
    """Mark a view whose page shows an address that opens a game to whoever has it."""
    view.shows_a_key = True  # type: ignore[attr-defined]
    return view


def allow_large_bodies() -> None:
    # This runs before CSRFProtect reads the form (it is registered first), so the bigger limit
    # is in force when the body is first parsed.
    view = current_app.view_functions.get(request.endpoint) if request.endpoint else None
    if getattr(view, "large_body", False):
        request.max_content_length = current_app.config["MAX_IMPORT_LENGTH"]


def init_app(app: Flask) -> None:
    """Register the hooks; before CSRFProtect's, so that the body limit is set before it reads."""
    app.session_interface = SessionInterface()
    app.before_request(allow_large_bodies)
    app.after_request(keep_session)
    app.after_request(set_headers)
