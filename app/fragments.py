"""The parts of pages that follow from a saved game alone, rendered once per state of the game.

A game's scoreboard, round sheet and chart are most of its page's markup and of its rendering
time, and a history entry is most of the history page's; all change only when the game does
(a round recorded, cancelled or corrected). Each is rendered from its template and a SavedGame
and nothing else: no form, token or message. So the result is kept in each worker's memory,
keyed by exactly those: a game that changed is a different SavedGame (it compares by value:
id, version, dates, players, rounds, rules), so nothing is ever stale and nothing needs
clearing. The least recently used parts go first.
"""

from __future__ import annotations

from functools import lru_cache

from flask import Flask, render_template
from markupsafe import Markup

from app.games import SavedGame


def init_app(app: Flask) -> None:
    @lru_cache(maxsize=app.config["GAME_PARTS_CACHED"])
    def game_part(template: str, game: SavedGame) -> Markup:
        return Markup(render_template(template, game=game, sheet=game.scoresheet))

    app.jinja_env.globals["game_part"] = game_part
