"""Flask extensions, created unbound and bound to the app in create_app."""

from flask_limiter import Limiter
from flask_sqlalchemy import SQLAlchemy
from flask_wtf.csrf import CSRFProtect
from sqlalchemy import MetaData
from sqlalchemy.orm import DeclarativeBase

from app.platform import rate_limit_storage  # noqa: F401  (registers the sqlite:// rate-limit storage)


class Base(DeclarativeBase):
    # Named constraints, so that Alembic's batch mode can alter them on SQLite later.
    metadata = MetaData(
        naming_convention={
            "ix": "ix_%(column_0_label)s",
            "uq": "uq_%(table_name)s_%(column_0_N_name)s",
            "ck": "ck_%(table_name)s_%(constraint_name)s",
            "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
            "pk": "pk_%(table_name)s",
        }
    )


# Objects stay readable after commit: a write's answer is rendered from what was just loaded.
db = SQLAlchemy(model_class=Base, session_options={"expire_on_commit": False})
csrf = CSRFProtect()


def _limit_key() -> str:
    # Per device and address: tables sharing a café's address each get their own allowance.
    # Browsers without a device token we signed share the address's one. (A script asking for a
    # fresh token now and then is held by the per-address limits, app/platform/rate_limits.py.)
    from flask import request

    from app.platform.devices import current_device_hash

    return f"{request.remote_addr}:{current_device_hash() or '-'}"


limiter = Limiter(key_func=_limit_key)
