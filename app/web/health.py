"""The health check a host polls: /healthz."""

from __future__ import annotations

from flask import Blueprint, current_app, request
from flask.typing import ResponseReturnValue
from sqlalchemy import exc as sa_exc

from app.platform.extensions import db, limiter
from app.services.unit_of_work import check_database
from app.web.errors import RETRY_AFTER

bp = Blueprint("health", __name__)


@bp.get("/healthz")
@limiter.exempt
def healthz() -> ResponseReturnValue:
    """Answer 200 when the database can be read and written, 503 otherwise."""
    try:
        check_database(write=request.method != "HEAD")
    except sa_exc.SQLAlchemyError as error:
        db.session.rollback()
        current_app.logger.warning("Health check failed: %s", error)
        return {"status": "unavailable"}, 503, {"Retry-After": str(RETRY_AFTER)}
    return {"status": "ok"}
