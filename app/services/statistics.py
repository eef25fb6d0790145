"""Statistics per player over a device's finished games. Pure Python, from scoresheets."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

from pyuca import Collator

from app.rules import Scoresheet, name_key


@dataclass
class PlayerStats:
    name: str
    games: int = 0
    wins: int = 0  # a shared win counts as a win for each winner
    rounds: int = 0
    heads: int = 0
    best_total: int | None = None
    worst_total: int | None = None
    heaviest_round: int = 0
    zero_rounds: int = 0
    crossings: int = 0  # games this player ended by going past the limit

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def heads_per_round(self) -> float:
        return self.heads / self.rounds if self.rounds else 0.0


@cache
def _collator() -> Collator:
    # The Unicode Collation Algorithm's default table (read once, ~0.1 s): names sort as people
    # read them, accents after their letter (Éléonore before Zoé), not by code point.
    return Collator()


def reading_order(name: str) -> tuple[int, ...]:
    """Return the key that sorts names as people read them, case and accents second."""
    return _collator().sort_key(name.strip())


# Column key in the URL → how to sort by it, and whether bigger comes first by default.
SORTS = {
    "nom": (lambda s: reading_order(s.name), False),
    "parties": (lambda s: s.games, True),
    "victoires": (lambda s: s.wins, True),
    "taux": (lambda s: s.win_rate, True),
    "moyenne": (lambda s: s.heads_per_round, False),
    "meilleur": (lambda s: s.best_total, False),
    "pire": (lambda s: s.worst_total, False),
    "manche-max": (lambda s: s.heaviest_round, False),
    "zero": (lambda s: s.zero_rounds, True),
    "depassements": (lambda s: s.crossings, False),
}
DEFAULT_SORT = "victoires"


def player_stats(sheets: Iterable[Scoresheet]) -> list[PlayerStats]:
    """Return one line per player name (case and outer spaces ignored) over the finished games."""
    by_name: dict[str, PlayerStats] = {}
    keys: dict[str, str] = {}  # a name's key once per name, not once per game (3,000 games)
    for sheet in sheets:
        if not sheet.is_over:
            continue
        for seat, name in enumerate(sheet.players):
            key = keys.get(name) or keys.setdefault(name, name_key(name))
            stats = by_name.setdefault(key, PlayerStats(name=name))
            stats.name = name  # the latest spelling (sheets come oldest first)
            total = sheet.totals[seat]
            taken = [heads[seat] for heads in sheet.rounds]
            stats.games += 1
            stats.wins += seat in sheet.winners
            stats.rounds += len(taken)
            stats.heads += sum(taken)
            stats.best_total = total if stats.best_total is None else min(stats.best_total, total)
            stats.worst_total = (
                total if stats.worst_total is None else max(stats.worst_total, total)
            )
            stats.heaviest_round = max([stats.heaviest_round, *taken])
            stats.zero_rounds += taken.count(0)
            stats.crossings += seat in sheet.crossers
    return list(by_name.values())


def sorted_stats(
    stats: list[PlayerStats], key: str, order: str | None
) -> tuple[list[PlayerStats], str, str]:
    """Sort by a column; return the lines, the column and the order actually used."""
    if key not in SORTS:
        key = DEFAULT_SORT
    by, bigger_first = SORTS[key]
    descending = bigger_first if order not in ("asc", "desc") else order == "desc"
    lines = sorted(stats, key=lambda s: reading_order(s.name))  # ties: alphabetical
    lines.sort(key=by, reverse=descending)
    return lines, key, "desc" if descending else "asc"
