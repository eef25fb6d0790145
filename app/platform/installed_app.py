"""The installed app: its web app manifest and its service worker, both under stable names.

The worker must sit at the root to control every page, and both URLs must not change between
versions (a browser checks the same address for updates); what changes is their content, so
both are revalidated on each use (`no-cache` with an ETag) while the files they name keep their
hashed, year-long URLs.
"""

from __future__ import annotations

import hashlib
import json

from flask import Blueprint, Flask, current_app, render_template, request, url_for
from flask_babel import gettext
from werkzeug.wrappers import Response

from app.platform.devices import no_device_cookie
from app.platform.languages import current_language
from app.platform.static_files import asset_url

bp = Blueprint("installed_app", __name__)

THEME_COLOR = "#7a1f1f"  # the header's red, as in base.html's theme-color
BACKGROUND_COLOR = "#fbf8f3"  # the page's paper, shown while the app starts
# Drawn by scripts/icons.py; fetched when the app is installed, not on a visit: not precached.
ICONS = (
    ("icon-192.png", "192x192", "any"),
    ("icon-512.png", "512x512", "any"),
    ("icon-maskable-512.png", "512x512", "maskable"),
)


def _revalidated(body: str, mimetype: str) -> Response:
    response = current_app.response_class(body, mimetype=mimetype)
    response.headers["Cache-Control"] = "no-cache"
    response.add_etag()
    return response.make_conditional(request)


def init_app(app: Flask, *, kept_pages: str) -> None:
    """Serve the installed app; `kept_pages` matches the paths of the pages whose last copy the
    service worker keeps for offline (the layer above's addresses, a JavaScript RegExp's source)."""
    app.extensions["kept_pages"] = kept_pages
    app.register_blueprint(bp)


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    """Describe the app a phone puts on its home screen, in the person's language."""
    home = f"{request.script_root}/"  # the app's root: its home page, where the app starts
    body = {
        "id": home,
        "name": gettext("Compteur « 6 qui prend ! »"),
        "short_name": gettext("6 qui prend"),
        "lang": current_language(),
        "start_url": home,
        "scope": home,
        "display": "standalone",
        "theme_color": THEME_COLOR,
        "background_color": BACKGROUND_COLOR,
        "icons": [
            {"src": asset_url(name), "sizes": sizes, "type": "image/png", "purpose": purpose}
            for name, sizes, purpose in ICONS
        ],
    }
    return _revalidated(json.dumps(body, ensure_ascii=False), "application/manifest+json")


@bp.get("/hors-ligne")
@no_device_cookie
def offline_page() -> str:
    """Say that a page cannot show without network, and list the games that can (the worker's)."""
    return render_template("installed_app/offline.html")


@bp.get("/sw.js")
def service_worker() -> Response:
    """Serve the service worker of this version, with the static files it keeps."""
    built: dict[str, str] = current_app.extensions["assets"]
    installed_only = {name for name, _, _ in ICONS} | {"apple-touch-icon.png"}
    # Every language's copy of a LOCALIZED script too: all are there after a switch of
    # language, offline as well.
    precache = sorted(
        url_for("static", filename=hashed)
        for name, hashed in built.items()
        if name not in installed_only
    )
    # A new static file, a new worker, or a new list of files: a new version, so new caches.
    version = hashlib.sha256(" ".join(precache).encode()).hexdigest()[:12]
    offline = url_for("installed_app.offline_page")
    body = render_template(
        "installed_app/sw.js",
        version=version,
        precache=precache,
        offline=offline,
        kept_pages=current_app.extensions["kept_pages"],
    )
    return _revalidated(body, "text/javascript")
