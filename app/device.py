"""The device a game belongs to: a random token in a long-lived cookie, of which the server keeps a hash."""

import hashlib
import secrets

from flask import Flask, Response, current_app, g, request


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _valid(token: str | None) -> bool:
    return bool(token) and 32 <= len(token) <= 64 and token.isascii()


def current_device_hash() -> str | None:
    """Return the hash of this browser's device token, or None if it has none yet."""
    if "device_hash" not in g:
        token = request.cookies.get(current_app.config["DEVICE_COOKIE_NAME"])
        g.device_token = token if _valid(token) else None
        g.device_hash = _hash(token) if g.device_token else None
    return g.device_hash


def claim_device() -> str:
    """Return this browser's device hash, giving it a new token first if it has none."""
    if current_device_hash() is None:
        g.device_token = secrets.token_urlsafe(32)  # 256 bits
        g.device_hash = _hash(g.device_token)
    return g.device_hash


def renew_device_cookie(response: Response) -> Response:
    """Send the device cookie again on every visit so that it lives ~400 days past the last one."""
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
