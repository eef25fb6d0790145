"""Settings in layers: safe local defaults here, then the environment, then a test's own."""

import os
import secrets
from collections.abc import Mapping
from datetime import timedelta
from pathlib import Path
from typing import Any


class Config:
    """Defaults for running on one's own machine; production overrides them from the environment."""

    SQLALCHEMY_DATABASE_URI = None  # set in create_app: a SQLite file under instance/
    SQLALCHEMY_ENGINE_OPTIONS: dict[str, Any] = {}  # PostgreSQL adds pool_pre_ping in create_app
    # A game night lasts hours: the CSRF token must not expire in the middle of it.
    WTF_CSRF_TIME_LIMIT = None
    PERMANENT_SESSION_LIFETIME = timedelta(days=400)
    SESSION_COOKIE_HTTPONLY = True
    SESSION_COOKIE_SAMESITE = "Lax"
    SESSION_REFRESH_EACH_REQUEST = False
    DEVICE_COOKIE_NAME = "appareil"
    DEVICE_COOKIE_DAYS = 400  # the longest lifetime browsers accept
    MAX_CONTENT_LENGTH = 64 * 1024  # a round or a new game fits many times over; more is refused
    MAX_IMPORT_LENGTH = 2 * 1024 * 1024  # an import of thousands of games fits
    MAX_FORM_PARTS = 200
    # Counted in one place for every worker of this machine: a SQLite file under instance/ (set
    # in create_app, app/platform/rate_limit_storage.py). Several machines: a Redis URL (README).
    RATELIMIT_STORAGE_URI: str | None = None
    # The limiter's own headers would put its Retry-After on every limited answer (200s and 303s
    # too) and over the follow stream's own: only a refusal says when to come back
    # (app/web/errors.py).
    RATELIMIT_HEADERS_ENABLED = False
    RATELIMIT_GAME_CREATION = "30 per hour"
    RATELIMIT_WRITES = "120 per minute"
    # Per address, for every table behind it (a café, a club): twenty tables never notice.
    RATELIMIT_GAME_CREATION_PER_ADDRESS = "40 per minute; 200 per hour"
    RATELIMIT_WRITES_PER_ADDRESS = "300 per minute"
    # Games an import may add per hour (a file holds at most transfer.MAX_GAMES): a whole history.
    RATELIMIT_IMPORTED_GAMES = "5000 per hour"
    RATELIMIT_IMPORTED_GAMES_PER_ADDRESS = "10000 per hour"
    # Addresses of games and shares that lead nowhere, per client address, on every route: a
    # stopped share's phones ask once or twice each; more is guessing (an address has 128 bits).
    RATELIMIT_GUESSES = "60 per minute; 600 per day"
    # Result images drawn (not served ready) per address: a café's tables finish a few games a
    # minute; each drawing costs ~40 ms of CPU.
    RATELIMIT_DRAWINGS_PER_ADDRESS = "30 per minute; 300 per hour"
    # Reads and writes over all of a device's games (statistics, export of all, import): sorting
    # the statistics by each column is ten; 3,000 games cost ~0.2 s each (docs/reliability.md).
    RATELIMIT_HEAVY = "30 per minute; 300 per hour"
    RATELIMIT_HEAVY_PER_ADDRESS = "90 per minute"
    HISTORY_PAGE_SIZE = 20
    TIME_ZONE = "Europe/Paris"  # dates in the history are shown in this zone
    PROXY_FIX = False
    # Addresses (or networks) of the reverse proxy whose X-Forwarded-* PROXY_FIX believes: any
    # other client could name whatever address it likes, and escape every per-address limit.
    TRUSTED_PROXIES = ["127.0.0.1", "::1"]
    PRODUCTION = False


def from_plain_environment(environ: Mapping[str, str]) -> dict[str, Any]:
    """Return the settings hosts usually give without the FLASK_ prefix, each read as its type.

    (FLASK_-prefixed variables come next, read by Flask's from_prefixed_env as JSON values.)
    """
    settings: dict[str, Any] = {}
    for name in ("SECRET_KEY", "RATELIMIT_STORAGE_URI"):
        if environ.get(name):
            settings[name] = environ[name]
    for name in ("PRODUCTION", "PROXY_FIX"):
        if name in environ:
            settings[name] = environ[name].strip().lower() in ("1", "true", "yes", "on")
    for name in ("SECRET_KEY_FALLBACKS", "TRUSTED_HOSTS", "TRUSTED_PROXIES"):  # comma-separated
        if environ.get(name):
            settings[name] = [item.strip() for item in environ[name].split(",") if item.strip()]
    if environ.get("DATABASE_URL"):
        settings["SQLALCHEMY_DATABASE_URI"] = sqlalchemy_url(environ["DATABASE_URL"])
    return settings


def sqlalchemy_url(url: str) -> str:
    """Return a database URL with a driver SQLAlchemy knows."""
    # Hosting services often hand out postgres:// URLs; SQLAlchemy wants a driver name.
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def local_database_url(instance_path: str) -> str:
    """Return the default database: a SQLite file under instance/."""
    return "sqlite:///" + str(Path(instance_path) / "six-qui-prend.sqlite")


def local_rate_limit_url(instance_path: str) -> str:
    """Return the default rate-limit storage: a SQLite file under instance/, shared by workers."""
    return "sqlite:///" + str(Path(instance_path) / "rate-limits.sqlite")


def local_secret_key(instance_path: str) -> str:
    """Return the secret key kept under instance/, made on first run so cookies survive restarts."""
    path = Path(instance_path) / "secret_key"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        # Written whole under a temporary name, then linked into place: when several workers start
        # at once, exactly one key wins and nobody ever reads a half-written file.
        draft = path.with_name(f".secret_key.{os.getpid()}.{secrets.token_hex(4)}")
        draft.write_text(secrets.token_urlsafe(48))
        draft.chmod(0o600)
        try:
            os.link(draft, path)
        except FileExistsError:
            pass  # another worker won; use its key
        finally:
            draft.unlink()
    return path.read_text().strip()
