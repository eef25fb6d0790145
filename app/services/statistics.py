"""Statistics per player over a device's finished games, each game counted apart (« 6 qui
prend ! », Skyjo, Flip 7, each free game by its name) with its own winner rule. Pure Python, from
scoresheets."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

from pyuca import Collator

from app.rules import Best, GameRules, Scoresheet, name_key


@dataclass
class PlayerStats:
    name: str
    games: int = 0
    wins: int = 0  # a shared win counts as a win for each winner
    rounds: int = 0
    points: int = 0  # as the game counts them: heads in 6 qui prend, Skyjo's doubled scores
    best_total: int | None = None  # lowest or highest, by the game's winner rule
    worst_total: int | None = None
    worst_round: int | None = None  # the most points in a round, or the fewest where most wins
    zero_rounds: int = 0
    crossings: int = 0  # games this player ended by reaching or going past the limit

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def points_per_round(self) -> float:
        return self.points / self.rounds if self.rounds else 0.0


@dataclass(frozen=True)
class GameStats:
    """One game's statistics: its rules as last played (its name, its winner rule), how many of
    its games are finished, and one line per player."""

    game_id: str  # rules.GameRules.counted_as: the game's key, a free game's name and winner rule
    rules: GameRules
    games: int
    lines: list[PlayerStats]

    @property
    def best(self) -> Best:
        return self.rules.best


@cache
def _collator() -> Collator:
    # The Unicode Collation Algorithm's default table (read once, ~0.1 s): names sort as people
    # read them, accents after their letter (Éléonore before Zoé), not by code point.
    return Collator()


def reading_order(name: str) -> tuple[int, ...]:
    """Return the key that sorts names as people read them, case and accents second."""
    return _collator().sort_key(name.strip())


# Column key in the URL → how to sort by it, and whether bigger comes first by default where the
# lowest total wins; the columns of points turn round where the highest wins (RULED_SORTS).
SORTS = {
    "nom": (lambda s: reading_order(s.name), False),
    "parties": (lambda s: s.games, True),
    "victoires": (lambda s: s.wins, True),
    "taux": (lambda s: s.win_rate, True),
    "moyenne": (lambda s: s.points_per_round, False),
    "meilleur": (lambda s: s.best_total, False),
    "pire": (lambda s: s.worst_total, False),
    "manche-max": (lambda s: s.worst_round, False),
    "zero": (lambda s: s.zero_rounds, True),
    "depassements": (lambda s: s.crossings, False),
}
RULED_SORTS = frozenset({"moyenne", "meilleur", "pire", "manche-max", "zero", "depassements"})
DEFAULT_SORT = "victoires"


def game_stats(sheets: Iterable[Scoresheet]) -> list[GameStats]:
    """Return each game's statistics over the finished games (sheets oldest first), the most
    played game first (on a tie, the one played last)."""
    by_game: dict[str, list[Scoresheet]] = {}
    last: dict[str, int] = {}
    for index, sheet in enumerate(sheets):
        if sheet.is_over:
            by_game.setdefault(sheet.rules.counted_as, []).append(sheet)
            last[sheet.rules.counted_as] = index
    order = sorted(by_game, key=lambda game_id: (len(by_game[game_id]), last[game_id]))
    return [
        GameStats(
            game_id, played[-1].rules, len(played), player_stats(played, played[-1].rules.best)
        )
        for game_id in reversed(order)
        for played in [by_game[game_id]]
    ]


def chosen_game(games: list[GameStats], game_id: str | None) -> GameStats | None:
    """Return the game asked for, or the most played one (None when no game is finished)."""
    return next((game for game in games if game.game_id == game_id), games[0] if games else None)


def player_stats(sheets: Iterable[Scoresheet], best: Best = Best.LOWEST) -> list[PlayerStats]:
    """Return one line per player name (case and outer spaces ignored) over the finished games
    of one game; `best` says which totals and rounds are the best (each game's wins are its
    own)."""
    better, worse = (min, max) if best is Best.LOWEST else (max, min)
    by_name: dict[str, PlayerStats] = {}
    keys: dict[str, str] = {}  # a name's key once per name, not once per game (3,000 games)
    for sheet in sheets:
        if not sheet.is_over:
            continue
        columns = list(zip(*sheet.points)) or [()] * len(sheet.players)  # each seat's rounds
        for seat, name in enumerate(sheet.players):
            key = keys.get(name) or keys.setdefault(name, name_key(name))
            stats = by_name.setdefault(key, PlayerStats(name=name))
            stats.name = name  # the latest spelling (sheets come oldest first)
            total = sheet.totals[seat]
            scored = list(columns[seat])
            stats.games += 1
            stats.wins += seat in sheet.winners
            stats.rounds += len(scored)
            stats.points += sum(scored)
            stats.best_total = (
                total if stats.best_total is None else better(stats.best_total, total)
            )
            stats.worst_total = (
                total if stats.worst_total is None else worse(stats.worst_total, total)
            )
            if scored:
                worst = worse(scored)
                stats.worst_round = (
                    worst if stats.worst_round is None else worse(stats.worst_round, worst)
                )
            stats.zero_rounds += scored.count(0)
            stats.crossings += seat in sheet.crossers
    return list(by_name.values())


def sorted_stats(
    stats: list[PlayerStats], key: str, order: str | None, best: Best = Best.LOWEST
) -> tuple[list[PlayerStats], str, str]:
    """Sort by a column, the best first unless `order` says; return the lines, the column and
    the order actually used."""
    if key not in SORTS:
        key = DEFAULT_SORT
    by, bigger_first = SORTS[key]
    if key in RULED_SORTS and best is Best.HIGHEST:
        bigger_first = not bigger_first
    descending = bigger_first if order not in ("asc", "desc") else order == "desc"
    lines = sorted(stats, key=lambda s: reading_order(s.name))  # ties: alphabetical
    lines.sort(key=by, reverse=descending)
    return lines, key, "desc" if descending else "asc"
