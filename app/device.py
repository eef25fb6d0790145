"""The device a game belongs to: a random token in a long-lived cookie; the server keeps its hash.

Tokens are signed when issued. Ownership only needs the hash (so games stay reachable even if
SECRET_KEY changes); the signature lets rate limits tell a device we issued from a made-up cookie.
"""

import hashlib
import secrets

from flask import Flask, Response, current_app, g, request
from itsdangerous import BadSignature, Signer


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _valid(token: str | None) -> bool:
    return token is not None and 32 <= len(token) <= 128 and token.isascii()


def _signer() -> Signer:
    return Signer(current_app.config["SECRET_KEY"], salt="device")


def current_device_hash() -> str | None:
    """Return the hash of this browser's device token, or None if it has none yet."""
    if "device_hash" not in g:
        token = request.cookies.get(current_app.config["DEVICE_COOKIE_NAME"])
        g.device_token = token if _valid(token) else None
        g.device_hash = _hash(g.device_token) if g.device_token else None
    return g.device_hash


def claim_device() -> str:
    """Return this browser's device hash, giving it a new token first if it has none."""
    if current_device_hash() is None:
        g.device_token = _signer().sign(secrets.token_urlsafe(32)).decode()  # 256 random bits
        g.device_hash = _hash(g.device_token)
    return g.device_hash


def issued_device_hash() -> str | None:
    """Return the device hash only if this server issued its token (the signature holds)."""
    current_device_hash()
    token = g.get("device_token")
    if not token:
        return None
    try:
        _signer().unsign(token)
    except BadSignature:
        return None
    return g.device_hash


def renew_device_cookie(response: Response) -> Response:
    """Send the device cookie again on every visit so that it lives ~400 days past the last one.

    A browser gets its token on the first page it opens, so that its first write already counts
    as this device (for rate limits) rather than as an anonymous client of the address.
    """
    if request.method == "GET" and response.mimetype == "text/html":
        claim_device()
    current_device_hash()
    token = g.get("device_token")
    if token:
        response.set_cookie(
            current_app.config["DEVICE_COOKIE_NAME"],
            token,
            max_age=current_app.config["DEVICE_COOKIE_DAYS"] * 24 * 3600,
            httponly=True,
            samesite="Lax",
            secure=request.is_secure,
        )
    return response


def init_app(app: Flask) -> None:
    app.after_request(renew_device_cookie)
