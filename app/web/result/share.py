"""Sharing a finished game's result: what the page shows (templates/game/_share_result.html) and
the image's answer, for the scoring phones (app/web/game.py) and the followers (app/web/follow.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from flask import Response, abort, current_app, request
from flask_babel import get_timezone, gettext

from app import rules
from app.platform import rate_limits
from app.platform.languages import translate
from app.services import transfer
from app.services.saved_game import SavedGame
from app.web.result import picture
from app.web.result.bgstats import bgstats_link, bgstats_play
from app.web.result.text import image_card, result_card

# Changes whenever the drawing does, so that a browser's copy of an older drawing is not kept.
DRAWING = "2"


@dataclass(frozen=True)
class ResultShare:
    """What the page needs to offer the result: the image, its text, the BG Stats link."""

    image_url: str
    image_alt: str
    text: str
    bgstats_url: str
    file_name: str
    width: int = picture.WIDTH
    height: int = picture.HEIGHT


def share_of(game: SavedGame, image_url: str) -> ResultShare | None:
    """Return what a finished game's page offers to share; None while the game goes on."""
    if not game.scoresheet.is_over:
        return None
    card = result_card(game)
    play = bgstats_play(
        game, get_timezone(), comments=translate(rules.rule_in_force(game.scoresheet.rules))
    )
    return ResultShare(
        image_url=image_url,
        image_alt=gettext("Image du résultat\u202f: %(result)s", result=card.text),
        text=card.text,
        bgstats_url=bgstats_link(play),
        file_name=transfer.file_name(game, "png"),
    )


def image_response(game: SavedGame) -> Response:
    """Answer with the result's image in the request's language (404 while the game goes on);
    a 304 when the browser has this version of it."""
    if not game.scoresheet.is_over:
        abort(404)
    # The game's version changes with every round, cancelled, restored or edited: its image too.
    # The image says what its language says: the region (fr_CA) is not part of its name.
    card = image_card(game)
    tag = f"r{game.version}-{card.language}-{DRAWING}"
    if request.if_none_match.contains(tag):
        response = current_app.response_class(status=304)
    else:
        if not picture.is_drawn(card):
            rate_limits.drawing()
        response = current_app.response_class(picture.png(card), mimetype="image/png")
    response.set_etag(tag)
    # Only for whoever may see the game, and asked again each time (a cancelled round reopens it).
    response.headers["Cache-Control"] = "private, no-cache"
    response.vary.update(("Accept-Language", "Cookie"))
    return response
