"""The shared result in words, in the person's language: what the image shows, line by line, and
the same result as one sentence for a group chat.

`result_card` only builds texts (from app.services.result_share's placings); app/web/result_image.py
draws exactly these texts, so a test of the card is a test of what the image says.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from babel.lists import format_list
from flask_babel import force_locale, get_locale, gettext, ngettext

from app import rules
from app.platform.languages import current_language
from app.services.result_share import Placing, placings
from app.services.saved_game import SavedGame
from app.web.filters import local_datetime


@dataclass(frozen=True)
class CardLine:
    """One player's line: rank, name and total, as drawn."""

    rank: str
    name: str
    total: str
    winner: bool
    note: str  # « A dépassé 66 » for whoever ended the game, else ""


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
    sheet = game.scoresheet
    placed = placings(sheet)
    return ResultCard(
        title=gettext("6 qui prend\u202f!"),
        headline=_headline(placed),
        lines=tuple(_line(line, sheet.rules) for line in placed),
        facts=(
            rounds_played(len(sheet.rounds)),
            rule_in_force(sheet.rules),
            local_datetime(game.created_at),
        ),
        text=share_text(placed, len(sheet.rounds)),
        language=str(get_locale()),
    )


def image_card(game: SavedGame) -> ResultCard:
    """Return the card the image draws: in the request's language without its region (« fr »
    for fr_CA or fr_BE), so that the image is drawn once per language and version of a game,
    not once per regional variant a follower may ask for (Babel knows 182 of ours)."""
    with force_locale(current_language()):
        return result_card(game)


# Bidi classes that can move the text around a name: right-to-left letters, and the explicit
# embeddings, overrides and isolates (a name ending in U+202E would reverse the rest).
_REORDERING = {"R", "AL", "LRE", "RLE", "LRO", "RLO", "PDF", "LRI", "RLI", "FSI", "PDI"}


def isolated(name: str) -> str:
    """Return a name as it may sit inside a sentence: between U+2068 and U+2069 (first strong
    isolate, pop isolate) when it could reorder its neighbours, as is, invisible marks spared,
    when it cannot (a chat or a screen reader gets the plain name)."""
    if any(unicodedata.bidirectional(char) in _REORDERING for char in name):
        return f"\u2068{name}\u2069"
    return name


def _names(lines: list[Placing]) -> str:
    return format_list([isolated(line.name) for line in lines], locale=get_locale())


def _headline(placed: tuple[Placing, ...]) -> str:
    winners = [line for line in placed if line.winner]
    best = winners[0].total
    if len(winners) == 1:
        return ngettext(
            "%(name)s gagne avec %(num)d tête\u202f!",
            "%(name)s gagne avec %(num)d têtes\u202f!",
            best,
            name=isolated(winners[0].name),
        )
    return ngettext(
        "Victoire partagée\u202f: %(names)s, à égalité avec %(num)d tête.",
        "Victoire partagée\u202f: %(names)s, à égalité avec %(num)d têtes.",
        best,
        names=_names(winners),
    )


def _line(line: Placing, game_rules: rules.GameRules) -> CardLine:
    note = ""
    if line.crossed:
        if game_rules.end is rules.EndRule.AT_OR_ABOVE:
            note = gettext("A atteint %(limit)s", limit=game_rules.limit)
        else:
            note = gettext("A dépassé %(limit)s", limit=game_rules.limit)
    return CardLine(str(line.rank), line.name, str(line.total), line.winner, note)


def rounds_played(count: int) -> str:
    return ngettext("%(num)d manche", "%(num)d manches", count)


def rule_in_force(game_rules: rules.GameRules) -> str:
    """Say the end rule (and the pro variant) in a few words: the image's and BG Stats' note."""
    if game_rules.end is rules.EndRule.ROUNDS:
        rule = ngettext(
            "Fin\u202f: après %(num)d manche",
            "Fin\u202f: après %(num)d manches",
            game_rules.round_count or 0,
        )
    elif game_rules.end is rules.EndRule.AT_OR_ABOVE:
        rule = gettext("Fin\u202f: %(limit)s têtes ou plus", limit=game_rules.limit)
    else:
        rule = gettext("Fin\u202f: plus de %(limit)s têtes", limit=game_rules.limit)
    if game_rules.pro:
        return gettext("%(rule)s · variante pro", rule=rule)
    return rule


def share_text(placed: tuple[Placing, ...], rounds: int) -> str:
    """Return « Brice gagne avec 15 têtes — Chloé 19, Aube 70 — 2 manches »."""
    winners = [line for line in placed if line.winner]
    best = winners[0].total
    if len(winners) == 1:
        won = ngettext(
            "%(name)s gagne avec %(num)d tête",
            "%(name)s gagne avec %(num)d têtes",
            best,
            name=isolated(winners[0].name),
        )
    else:
        won = ngettext(
            "Victoire partagée\u202f: %(names)s avec %(num)d tête",
            "Victoire partagée\u202f: %(names)s avec %(num)d têtes",
            best,
            names=_names(winners),
        )
    others = ", ".join(f"{isolated(line.name)} {line.total}" for line in placed if not line.winner)
    return " — ".join(part for part in (won, others, rounds_played(rounds)) if part)
