"""The shared result in words, in the person's language: what the image shows, line by line, and
the same result as one sentence for a group chat.

The words are app/rules/result.py's, said once for the page, the follow page, the image, the
text and BG Stats; this only translates them. app/web/result/picture.py draws exactly these texts,
so a test of the card is a test of what the image says.
"""

from __future__ import annotations

from dataclasses import dataclass

from flask_babel import force_locale, get_locale

from app import rules
from app.platform.languages import current_language, isolated, translate
from app.services.saved_game import SavedGame
from app.web.wording import game_name, local_datetime


@dataclass(frozen=True)
class CardLine:
    """One player's line: rank, name and total, as drawn."""

    rank: str
    name: str
    total: str
    winner: bool
    note: str  # « A dépassé 66 » for whoever ended the game, else ""
    colour: int = 0  # the player's colour and marker (rules.player_colours), the chart's


@dataclass(frozen=True)
class ResultCard:
    """Everything the image says, top to bottom (hashable: the image cache's key)."""

    title: str
    headline: str
    lines: tuple[CardLine, ...]
    facts: tuple[str, ...]  # the rounds played, the rule in force, the date
    text: str  # the same result as one sentence, for a group chat
    language: str


def result_card(game: SavedGame) -> ResultCard:
    """Return the result of a finished game in the request's language."""
    result = rules.result_of(game.scoresheet)
    if result is None:
        raise ValueError("a game still going on has no result")
    headline = translate(result.headline)
    others = ", ".join(
        f"{isolated(line.name)} {line.total}" for line in result.placings if not line.winner
    )
    return ResultCard(
        title=game_name(game.scoresheet.rules),
        headline=headline,
        lines=tuple(
            CardLine(
                str(p.rank),
                p.name,
                str(p.total),
                p.winner,
                translate(p.note) or "",
                game.scoresheet.colours[p.seat],
            )
            for p in result.placings
        ),
        facts=(
            translate(result.rounds),
            translate(result.rule),
            local_datetime(game.created_at),
        ),
        # « Brice gagne avec 15 têtes ! — Chloé 19, Aube 70 — 2 manches »
        text=" — ".join(part for part in (headline, others, translate(result.rounds)) if part),
        language=str(get_locale()),
    )


def image_card(game: SavedGame) -> ResultCard:
    """Return the card the image draws: in the request's language without its region (« fr »
    for fr_CA or fr_BE), so that the image is drawn once per language and version of a game,
    not once per regional variant a follower may ask for (Babel knows 182 of ours)."""
    with force_locale(current_language()):
        return result_card(game)
