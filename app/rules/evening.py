"""The evening's ranking (« Classement de la soirée »): a table's games one after another, each
player known by name across them (case and spaces ignored, as when seating them), ranked by
wins, then by their mean place in the finished games they sat in."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from app.rules.names import name_key
from app.rules.result import placings
from app.rules.sheet import Scoresheet


@dataclass(frozen=True)
class EveningLine:
    """One player's line of the evening, best first: ties share a rank (1, 1, 3)."""

    name: str  # as first written in the evening
    games: int  # the evening's games they sat in, one in progress included
    wins: int  # finished games won, a shared win counting for each winner
    places: tuple[int, ...]  # their place in each finished game they sat in (ties share one)
    rank: int

    @property
    def mean_place(self) -> Fraction | None:
        """The tiebreak: the mean of their places in the finished games they sat in (lower is
        better). A mean, not a sum, so that a game sat out neither helps nor hurts; None before
        any of their games is over."""
        return Fraction(sum(self.places), len(self.places)) if self.places else None


def first_seen_names(sheets: Sequence[Scoresheet]) -> tuple[str, ...]:
    """Return the evening's players, each once, in the order their names first sat down, as
    first written (« Anna » then « anna » is one player, « Anna »)."""
    seen: dict[str, str] = {}
    for sheet in sheets:
        for name in sheet.players:
            seen.setdefault(name_key(name), name)
    return tuple(seen.values())


def evening_ranking(sheets: Sequence[Scoresheet]) -> tuple[EveningLine, ...]:
    """Rank the players of the evening's games (in the order played): most wins first, then the
    lowest mean place over the finished games each sat in; a player no finished game places yet
    comes after those it does. Equal lines share a rank and keep the order names first sat down."""
    names = first_seen_names(sheets)
    keys = [name_key(name) for name in names]
    games = dict.fromkeys(keys, 0)
    wins = dict.fromkeys(keys, 0)
    places: dict[str, list[int]] = {key: [] for key in keys}
    for sheet in sheets:
        for key in {name_key(name) for name in sheet.players}:
            games[key] += 1
        if not sheet.is_over:  # « en cours »: no win, no place yet
            continue
        placed: dict[str, tuple[int, bool]] = {}
        for line in placings(sheet):  # best first: two seats read alike count as the better
            placed.setdefault(name_key(line.name), (line.rank, line.winner))
        for key, (place, won) in placed.items():
            places[key].append(place)
            wins[key] += won

    def standing(key: str) -> tuple[int, Fraction]:
        # No place yet reads as worse than any place.
        mean = Fraction(sum(places[key]), len(places[key])) if places[key] else None
        return (-wins[key], mean if mean is not None else Fraction(NO_PLACE))

    standings = {key: standing(key) for key in keys}
    lines = (
        EveningLine(
            name=name,
            games=games[key],
            wins=wins[key],
            places=tuple(places[key]),
            rank=1 + sum(other < standings[key] for other in standings.values()),
        )
        for key, name in zip(keys, names, strict=True)
    )
    return tuple(sorted(lines, key=lambda line: line.rank))


NO_PLACE = 1_000  # more than any place (a game seats ten at most)
