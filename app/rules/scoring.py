"""Scoring: the rules a table chose (its game and end), what a round may hold, totals, who leads."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

from app.rules.cards import DEFAULT_LIMIT, ROUND_COUNT_RANGE
from app.rules.games import DEFAULT_GAME, Best, EndRule, RoundGame, RoundScores
from app.rules.messages import N_, Refusal
from app.rules.names import name_key, unreadable


@dataclass(frozen=True)
class GameRules:
    """The rules a table agreed on before starting: its game, and how it ends (the defaults are
    the rule book's)."""

    game: RoundGame = DEFAULT_GAME
    end: EndRule = EndRule.ABOVE
    limit: int = DEFAULT_LIMIT
    round_count: int | None = None
    pro: bool = False
    chosen_best: Best | None = None  # a free game's « Qui gagne ? »
    title: str | None = None  # a free game's « Nom du jeu »

    @classmethod
    def of(
        cls,
        game: RoundGame,
        *,
        end: EndRule | None = None,
        limit: int | None = None,
        round_count: int | None = None,
        pro: bool = False,
        chosen_best: Best | None = None,
        title: str | None = None,
    ) -> GameRules:
        """Return a game's rules: its own end and limit unless the table chose others; or raise
        Refusal, keyed `title`, for a free game's name that cannot be shown as typed. (Stored
        games are read back by the constructor, as they were kept.)"""
        why = unreadable(title) if title is not None else None
        if why is not None:
            raise Refusal({"title": why})
        return cls(
            game,
            end or game.default_end,
            limit if limit is not None else game.default_limit or DEFAULT_LIMIT,
            round_count,
            pro,
            chosen_best,
            title,
        )

    def __post_init__(self) -> None:
        object.__setattr__(self, "end", EndRule(self.end))  # accept "above" as well as the member
        if self.chosen_best is not None:
            object.__setattr__(self, "chosen_best", Best(self.chosen_best))
        if self.end not in self.game.ends:
            raise Refusal.of(N_("Cette fin de partie n’existe pas pour ce jeu."))
        if self.pro and not self.game.table_tools:
            raise Refusal.of(N_("La variante pro est celle de 6 qui prend."))
        if self.end is EndRule.ROUNDS:
            low, high = ROUND_COUNT_RANGE
            if self.round_count is None or not low <= self.round_count <= high:
                raise Refusal.of(
                    N_("Le nombre de manches va de %(low)s à %(high)s.", low=low, high=high)
                )
        else:
            low, high = self.game.limit_range
            if not low <= self.limit <= high:
                raise Refusal.of(N_("La limite va de %(low)s à %(high)s.", low=low, high=high))

    @cached_property  # asked for every total of every sheet (statistics: 3,000 games)
    def last_allowed(self) -> int | None:
        """Return the highest total that does not end the game (None: it lasts a number of
        rounds): 66 above 66, 65 at « 66 ou plus »."""
        if self.end is EndRule.ROUNDS:
            return None
        return self.limit if self.end is EndRule.ABOVE else self.limit - 1

    def has_crossed(self, total: int) -> bool:
        """Tell whether a total ends the game (never, when the game lasts a number of rounds)."""
        return self.last_allowed is not None and total > self.last_allowed

    @property
    def margin(self) -> int:
        """Return how near the limit a total is when its row says so: the game's own."""
        return self.game.margin(self.limit)

    def reaches_end(self, totals: Sequence[int], rounds_played: int) -> bool:
        """Tell whether these totals reach the end the table chose: a total past the limit, or
        the last round played (a tie may still play on: is_over)."""
        if self.end is EndRule.ROUNDS:
            return rounds_played >= (self.round_count or 0)
        return any(self.has_crossed(total) for total in totals)

    def plays_on(self, totals: Sequence[int], rounds_played: int) -> bool:
        """Tell whether the end is reached on a tie for the best total that the game breaks with
        another round (Flip 7), rather than a shared win."""
        return (
            self.game.tie_plays_on
            and self.reaches_end(totals, rounds_played)
            and len(best_seats(totals, self.best)) > 1
        )

    def is_over(self, totals: Sequence[int], rounds_played: int) -> bool:
        """Tell whether the game ends after a round that left these totals."""
        return self.reaches_end(totals, rounds_played) and not self.plays_on(totals, rounds_played)

    @property
    def best(self) -> Best:
        """Return which total wins: the game's, or what the table chose for a free game."""
        return self.game.best or self.chosen_best or Best.LOWEST

    @property
    def game_id(self) -> str:
        """Return what tells the games played apart (BG Stats' `sourceGameId`): the game's key,
        and a free game's name by its key after it (« libre:yams »)."""
        if self.title is None:
            return self.game.key
        return f"{self.game.key}:{name_key(self.title)}"

    @property
    def counted_as(self) -> str:
        """Return what the statistics count apart: the game_id, and a free game's winner rule
        after it (« libre:yams:highest »). Two free games of one name, one won by the highest
        total and one by the lowest, counted as one read a winner's total as a loser's; BG Stats
        keeps its id (its plays already matched to a game)."""
        if self.title is None:
            return self.game_id
        return f"{self.game_id}:{self.best.value}"


def check_round(heads_taken: Sequence[int], players: Sequence[str], pro: bool = False) -> list[int]:
    """Return the heads of a round of 6 qui prend, in seat order, or raise Refusal saying what is
    allowed: its bounds as a list (tests/unit/test_rules.py checks them through this)."""
    return list(DEFAULT_GAME.check_round(RoundScores(tuple(heads_taken)), players, pro=pro).scores)


def totals(rounds: Sequence[Sequence[int]], players: int) -> list[int]:
    """Return each player's total over the rounds, in seat order."""
    # Column by column, in C: a third of the time of a loop over each score (statistics and
    # exports add up 3,000 games; docs/performance.md, « Issue 47 »).
    return [sum(column) for column in zip(*rounds, strict=True)] if rounds else [0] * players


def lowest(totals_: Sequence[int]) -> frozenset[int]:
    """Return the seats holding the lowest total (all of them on a tie)."""
    return best_seats(totals_, Best.LOWEST)


def best_seats(totals_: Sequence[int], best: Best) -> frozenset[int]:
    """Return the seats holding the best total, lowest or highest (all of them on a tie)."""
    if not totals_:
        return frozenset()
    top = min(totals_) if best is Best.LOWEST else max(totals_)
    return frozenset(seat for seat, total in enumerate(totals_) if total == top)


def ranks(totals_: Sequence[int], best: Best = Best.LOWEST) -> list[int]:
    """Return each seat's rank, best total first; tied totals share a rank (1, 1, 3)."""
    if best is Best.HIGHEST:
        return [1 + sum(other > total for other in totals_) for total in totals_]
    return [1 + sum(other < total for other in totals_) for total in totals_]
