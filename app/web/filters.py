"""Template filters: lists of names and local dates, in the language of the page."""

from collections.abc import Iterable

import segno
from babel.lists import format_list
from flask import Flask
from flask_babel import get_locale
from markupsafe import Markup, escape

from app import rules
from app.platform.languages import translate
from app.rules import Scoresheet
from app.rules.scoreboard import offline_rules, offline_warnings
from app.web.chart import MARKS, score_chart
from app.web.sheet_view import long_word, score_lines, sheet_rows
from app.web.wording import game_name, local_datetime


def names_list(names: Iterable[str]) -> Markup:
    """Join names as the language does: « Alice, Bob et Carla », “Alice, Bob, and Carla”
    (each name escaped, its markup — <bdi> — kept)."""
    return Markup(format_list([escape(name) for name in names], locale=get_locale()))


def bdi(name: str) -> Markup:
    """Show a name isolated from the text around it: a name ending in U+202E (right-to-left
    override) or written right to left cannot reorder what follows it."""
    # Not Markup(…).format(name): its string.Formatter took 2.4 µs a name, 0.05 ms of a
    # 10-player game page, where escape and an f-string take 0.7 µs.
    return Markup(f"<bdi>{escape(name)}</bdi>")


def isolated(name: str) -> str:
    """Isolate a name in plain text, where no markup goes (a page's title): between U+2068
    (first strong isolate) and U+2069 (pop isolate)."""
    return f"\u2068{name}\u2069"


def player_name(seat: int, sheet: Scoresheet) -> str:
    return sheet.players[seat]


def total_of(seat: int, sheet: Scoresheet) -> int:
    return sheet.totals[seat]


def offline_counting(sheet: Scoresheet) -> dict[str, object]:
    """Return what the page carries for static/tally.js and static/waiting.js to count and show
    the rounds that wait for the network as the server will: the rules' values, the rows'
    warnings in the page's language (the script words no rule), and a player's range of scores
    in a round, checked before a round is drawn."""
    warnings = [translate(warning) for warning in offline_warnings(sheet.rules)]
    rules = sheet.rules
    score_range = rules.game.player_range(len(sheet.players), rules.variants)
    return {
        **offline_rules(rules, len(sheet.rounds), sheet.dealer),
        "warnings": warnings,
        "range": list(score_range),
    }


def after_colon(message: str) -> str:
    """Return a message as it reads after « Alice : »: French and English go on in lower case
    (« Alice : de 0 à 50 têtes… »); German keeps its capitals (its nouns have them). A message
    that opens with a capitalised abbreviation (« CSV ») is left as it is."""
    if get_locale().language not in ("fr", "en") or len(message) < 2:
        return message
    if not message[0].isupper() or message[1].isupper():
        return message
    lowered = message[0].lower() + message[1:]
    return Markup(lowered) if isinstance(message, Markup) else lowered


def qr_code(address: str) -> str:
    """Return the QR code of an address as an SVG data URI (drawn by segno: no script, no image
    request; the page's CSP allows data: images)."""
    return str(segno.make(address, error="m").svg_data_uri(scale=6, border=2))


def init_app(app: Flask) -> None:
    # The rule values pages state (2 to 10 players, 66, the ranges) come from the rules alone.
    app.jinja_env.globals["rules"] = rules
    app.jinja_env.globals["marks"] = MARKS  # each colour index's shape (rules.player_colours)
    app.add_template_filter(names_list)
    app.add_template_filter(bdi)
    app.add_template_filter(isolated)
    app.add_template_filter(player_name)
    app.add_template_filter(total_of)
    app.add_template_filter(offline_counting)
    app.add_template_filter(local_datetime)
    app.add_template_filter(game_name)
    app.add_template_filter(after_colon)
    app.add_template_filter(qr_code)
    app.add_template_filter(score_chart)
    app.add_template_filter(sheet_rows)
    app.add_template_filter(score_lines)
    app.add_template_filter(translate, "translated")  # a rule's Message (« Qui donne ? »)
    app.add_template_test(long_word)
