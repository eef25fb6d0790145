"""The round sheet's rows and the scoreboard's lines as templates/game/_rounds.html and
_scoreboard.html show them: their words and addresses made in Python, each text looked up once
per sheet, not once per round or player.

A text looked up by a template (`_()`) costs about 9 µs and an address (`url_for`) about 10 µs:
a 10-player, 20-round game page had 60 of the one and 20 of the other in its loops
(docs/performance.md, « Issue 33 »).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from flask import url_for
from markupsafe import Markup

from app.platform.languages import gettext, translate
from app.rules import Scoresheet


@dataclass(frozen=True)
class SheetRow:
    """One round of the sheet: its heading, the way to correct it, each player's points."""

    label: str  # « Manche 3 »
    edit_url: str | None  # None where the sheet is read only (the follow page)
    edit_label: str  # « Modifier la manche 3 », for screen readers (the link shows ✎)
    cells: tuple[tuple[int, bool], ...]  # each player's points, and whether the game doubled them


def sheet_rows(sheet: Scoresheet, public_id: str | None) -> list[SheetRow]:
    """Return the sheet's rows, with their edit links unless `public_id` is None."""
    # gettext without values: the translated text, to format once per round.
    label, edit_label = gettext("Manche %(number)s"), gettext("Modifier la manche %(number)s")
    # Round n's address is round 1's with its number changed: one url_for, not one per round
    # (tests/unit/test_sheet_view.py checks them against url_for).
    stem = None
    if public_id is not None:
        stem = url_for("rounds.edit_round_form", public_id=public_id, number=1).removesuffix("1")
    return [
        SheetRow(
            label % {"number": number},
            None if stem is None else f"{stem}{number}",
            edit_label % {"number": number},
            tuple((value, seat == doubled) for seat, value in enumerate(points)),
        )
        for number, (points, doubled) in enumerate(zip(sheet.points, sheet.doubled), 1)
    ]


# A name wraps at its spaces and hyphens. A longer word than this (« Wolfeschlegelstein » is
# 18) is wider than a 360-pixel phone's scoreboard gives a name: it alone may break inside.
LONGEST_WORD = 20
_WORD_BREAKS = re.compile(r"[\s\-\u2010\u2011]+")


def long_word(name: str) -> bool:
    """Whether a name has a word no phone has the room for (app.css breaks it, last resort):
    on the scoreboard, and heading its column of the round sheet."""
    return any(len(word) > LONGEST_WORD for word in _WORD_BREAKS.split(name))


@dataclass(frozen=True)
class ScoreLine:
    """A player's line of the scoreboard (app.rules' Standing), its words in the page's language."""

    seat: int
    name: str
    total: int
    leads: bool
    rank: Markup | None  # « 2<sup>e</sup> », for a player behind the leaders
    last: str  # the last round's points, signed (« +3 »); empty before the first round
    warning: str | None  # close to the end of the game, in words
    danger: bool  # the words warn (red, « ! »); where the highest wins they say how far victory is
    limit: int | None  # the gauge towards the limit, where the game ends on one
    gauge: int | None
    # Where the gauge turns from its good colour (<meter low>): a margin from the limit where the
    # limit ends the game badly; None where reaching it wins (the gauge keeps its good colour).
    low: int | None
    gauge_label: str | None  # « Alice : 12 sur 66 », the name isolated (as filters.isolated)
    long_word: bool  # a word no phone's scoreboard has the room for: it may break (app.css)
    colour: int = 0  # the player's colour and marker (app.css's .mk0 …), the chart's
    deals: str | None = None  # « donne » (« commence »): this player deals the next round


def score_lines(sheet: Scoresheet) -> list[ScoreLine]:
    """Return the scoreboard's lines, in seat order."""
    rank = Markup(gettext("%(rank)s<sup>e</sup>"))
    gauge_label = gettext("%(name)s\u202f: %(total)s sur %(limit)s")
    deals = translate(sheet.rules.game.deals)
    return [
        ScoreLine(
            line.seat,
            line.name,
            line.total,
            line.leads,
            rank % {"rank": line.rank} if line.rank and not line.leads else None,
            "" if line.last is None else f"{line.last:+d}",
            None if line.warning is None else translate(line.warning),
            line.danger,
            line.limit,
            line.gauge,
            None if line.limit is None or line.highest_wins else line.limit - line.margin,
            None
            if line.limit is None
            else gauge_label
            % {"name": f"\u2068{line.name}\u2069", "total": line.total, "limit": line.limit},
            long_word(line.name),
            sheet.colours[line.seat],
            deals if line.seat == sheet.deals_next else None,
        )
        for line in sheet.standings
    ]
