"""The home page: where the counter starts, on a phone and in the installed app."""

from __future__ import annotations

from flask import Blueprint, render_template

from app.platform.devices import current_device_hash
from app.services import reads

bp = Blueprint("home", __name__)


@bp.get("/")
def home() -> str:
    """Show the way to a new game, the game in progress and past games."""
    return render_template("game/home.html", game=reads.game_in_progress(current_device_hash()))
