"""Security and cache headers, all set in one place."""

from flask import Flask, Response, request

CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "img-src 'self' data:",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
PERMISSIONS_POLICY = ", ".join(
    f"{feature}=()"
    for feature in ("camera", "microphone", "geolocation", "payment", "usb")
)


def set_headers(response: Response) -> Response:
    headers = response.headers
    headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
    headers.setdefault("X-Content-Type-Options", "nosniff")
    headers.setdefault("Referrer-Policy", "strict-origin-when-cross-origin")
    headers.setdefault("Permissions-Policy", PERMISSIONS_POLICY)
    headers.setdefault("Cross-Origin-Opener-Policy", "same-origin")
    headers.setdefault("X-Frame-Options", "DENY")
    if request.is_secure:
        headers.setdefault("Strict-Transport-Security", "max-age=63072000; includeSubDomains")
    if response.mimetype == "text/html":
        # Scores change with every round: never show a stale sheet from the cache.
        headers.setdefault("Cache-Control", "no-cache, private")
    return response


def init_app(app: Flask) -> None:
    app.after_request(set_headers)
