"""The table's evening (« La soirée »): its games in order and its ranking, from any of its
games on a phone of the table, or from the follow address (read-only): read the request, call
the service, render."""

from __future__ import annotations

from dataclasses import dataclass

from flask import Blueprint, Response, current_app, render_template, url_for
from flask_babel import format_decimal, ngettext
from flask_babel import gettext as _

from app import rules
from app.platform.devices import current_device_hash, no_device_cookie
from app.platform.languages import isolated
from app.services import evenings, sharing
from app.services.refusals import GameNotFound

bp = Blueprint("evening", __name__)


@dataclass(frozen=True)
class RankingRow:
    """One row of « Classement de la soirée », as shown."""

    rank: int
    name: str
    games: int
    wins: int
    mean_place: str  # the tiebreak: « 1,5 », « — » before any of their games is over


def ranking_rows(evening: evenings.Evening) -> tuple[RankingRow, ...]:
    """Return the evening's ranking as its table shows it (the page and the big screen)."""
    return tuple(
        RankingRow(line.rank, line.name, line.games, line.wins, _mean(line))
        for line in evening.ranking
    )


def _mean(line: rules.EveningLine) -> str:
    mean = line.mean_place
    return "—" if mean is None else format_decimal(float(mean), format="0.#")


@dataclass(frozen=True)
class EveningPage:
    """The evening as its page shows it: plain values."""

    evening: evenings.Evening
    ranking: tuple[RankingRow, ...]
    back_url: str  # the game (or the follow page) the page was opened from
    text: str  # the ranking as one sentence, for a group chat

    @classmethod
    def of(cls, evening: evenings.Evening, back_url: str) -> EveningPage:
        return cls(evening, ranking_rows(evening), back_url, evening_text(evening))


def evening_text(evening: evenings.Evening) -> str:
    """« La soirée : 1. Anna, 2 victoires en 3 parties ; 2. Ben, 0 victoire en 1 partie »."""
    lines = [
        f"{line.rank}. {isolated(line.name)}, "
        # Each count its own plural: « 0 victoire en 1 partie », « 2 wins in 1 game ».
        + ngettext(
            "%(wins)s en %(num)d partie",
            "%(wins)s en %(num)d parties",
            line.games,
            wins=ngettext("%(num)d victoire", "%(num)d victoires", line.wins),
        )
        for line in evening.ranking
    ]
    # Translators: between two players' lines; French puts a narrow no-break space before « ; ».
    separator = _("\u202f; ")
    return _("La soirée\u202f: %(lines)s", lines=separator.join(lines))


@bp.get("/parties/<public_id>/soiree")
def evening(public_id: str) -> str:
    """Show the evening of a game: its games in order, the evening's ranking."""
    found = evenings.evening(public_id, current_device_hash())
    back = url_for("game.game", public_id=public_id)
    return render_template("evening/evening.html", page=EveningPage.of(found, back), follow=False)


@bp.get("/suivre/<token>/soiree")
@no_device_cookie
def followed_evening(token: str) -> Response:
    """Show the evening of the game shared under a follow address, read-only."""
    found = evenings.followed_evening(sharing.followed_game(token))
    if found is None:
        raise GameNotFound(token)
    back = url_for("follow.follow", token=token)
    page = render_template("evening/evening.html", page=EveningPage.of(found, back), follow=True)
    response = current_app.make_response(page)
    # As the follow page's: its address is a key, never passed on nor indexed.
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers["X-Robots-Tag"] = "noindex"
    return response
