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
    # No Cross-Origin-Opener-Policy: `same-origin` made Chromium move every new tab opening the
    # counter (a QR code, a shared link) to a process of its own before its first paint, +28 ms
    # measured (docs/performance.md, issue 33). What it would guard, a page that opened the
    # counter keeping a handle on its window, is covered here: frames are refused (frame-ancestors,
    # X-Frame-Options), forms carry CSRF tokens, cookies are SameSite and the page listens to no
    # message from another window.
    headers.setdefault("X-Frame-Options", "DENY")
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
