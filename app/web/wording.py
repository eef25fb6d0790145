"""How a page says a game's name and a moment, in the person's language: for the templates (the
filters of app/web/filters.py) and for the shared result's words (app/web/result/text.py)."""

from datetime import datetime

from babel.dates import format_skeleton, format_time, get_datetime_format
from flask_babel import get_locale, to_user_timezone

from app.platform.languages import translate
from app.rules import GameRules


def game_name(game_rules: GameRules) -> str:
    """Return the game's name in the person's language, or the one typed for a free game."""
    return game_rules.title or str(translate(game_rules.game.name))


def local_datetime(moment: datetime) -> str:
    """Show a stored UTC time in the players' time zone: « 29 nov. 2026, 21:05 »."""
    # Babel's medium date and time, without the seconds: each language orders them its own way.
    try:
        local = to_user_timezone(moment)
    except OverflowError:  # a date at the edge of the calendar (imports refuse them since)
        local = moment
    locale = get_locale()
    day = format_skeleton("yMMMd", local, locale=locale)
    if locale.language == "fr" and local.day == 1:
        day = "1er" + day.removeprefix("1")  # French says the first of the month « 1er »
    return (
        str(get_datetime_format("medium", locale=locale))
        .replace("{1}", day)
        .replace("{0}", format_time(local, "short", locale=locale))
    )
