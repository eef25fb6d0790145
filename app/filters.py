"""Template filters for French text: lists of names and local dates."""

from collections.abc import Iterable
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

from flask import Flask, current_app

from app import rules
from app.chart import score_chart
from app.rules import Scoresheet

MONTHS = "janv. févr. mars avr. mai juin juil. août sept. oct. nov. déc.".split()  # noqa: SIM905


def join_fr(names: Iterable[str]) -> str:
    """Join names the French way: « Alice, Bob et Carla »."""
    items = list(names)
    if len(items) < 2:
        return "".join(items)
    return f"{', '.join(items[:-1])} et {items[-1]}"


def player_name(seat: int, sheet: Scoresheet) -> str:
    return sheet.players[seat]


def total_of(seat: int, sheet: Scoresheet) -> int:
    return sheet.totals[seat]


def local_datetime(moment: datetime) -> str:
    """Show a stored UTC time in the players' time zone: « 29 nov. 2026, 21 h 05 »."""
    local = moment.replace(tzinfo=UTC).astimezone(ZoneInfo(current_app.config["TIME_ZONE"]))
    return f"{local.day} {MONTHS[local.month - 1]} {local.year}, {local.hour} h {local.minute:02d}"


def init_app(app: Flask) -> None:
    # The rule values pages state (2 to 10 players, 66, the ranges) come from the rules alone.
    app.jinja_env.globals["rules"] = rules
    app.add_template_filter(join_fr)
    app.add_template_filter(player_name)
    app.add_template_filter(total_of)
    app.add_template_filter(local_datetime)
    app.add_template_filter(score_chart)
