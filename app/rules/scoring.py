"""Scoring: the rules a table chose (its game and end), what a round may hold, totals, who leads."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property

from app.rules.games import DEFAULT_GAME, Best, EndRule, RoundGame, Variant
from app.rules.messages import N_, Refusal
from app.rules.names import name_key, unreadable

# How many rounds a table may agree to play (« Nombre de manches »), whatever the game.
ROUND_COUNT_RANGE = (1, 50)


@dataclass(frozen=True)
class GameRules:
    """The rules a table agreed on before starting: its game, how it ends, the game's variants
    it chose (their keys), and a free game's winner rule and name. GameRules.of gives a game's
    own rules where the table chose nothing else."""

    game: RoundGame
    end: EndRule
    limit: int  # kept when the game lasts a number of rounds, unused then
    round_count: int | None = None
    variants: frozenset[str] = frozenset()  # keys of the game's Variants (6 qui prend's "pro")
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
        variants: Iterable[str] = (),
        chosen_best: Best | None = None,
        title: str | None = None,
    ) -> GameRules:
        """Return a game's rules: its own end and limit unless the table chose others; or raise
        Refusal, keyed `title`, for a free game's name that cannot be shown as typed. (Stored
        games are read back by the constructor, as they were kept.)"""
        why = unreadable(title) if title is not None else None
        if why is not None:
            raise Refusal({"title": why})
        # A game without a limit of its own that lasts a number of rounds keeps the default
        # game's, unused (the database's column and the export want a number).
        own_limit = game.default_limit or DEFAULT_GAME.default_limit or 1
        return cls(
            game,
            end or game.default_end,
            limit if limit is not None else own_limit,
            round_count,
            frozenset(variants),
            chosen_best,
            title,
        )

    def __post_init__(self) -> None:
        object.__setattr__(self, "end", EndRule(self.end))  # accept "above" as well as the member
        if self.chosen_best is not None:
            object.__setattr__(self, "chosen_best", Best(self.chosen_best))
        if self.end not in self.game.ends:
            raise Refusal.of(N_("Cette fin de partie n’existe pas pour ce jeu."))
        object.__setattr__(self, "variants", frozenset(self.variants))
        if not self.variants <= {variant.key for variant in self.game.variants}:
            # The only variant of any game so far; its words, unchanged (a variant's own
            # refusal is for the game that brings the second).
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
    def chosen_variants(self) -> tuple[Variant, ...]:
        """Return the game's variants the table chose, in the game's order."""
        return tuple(variant for variant in self.game.variants if variant.key in self.variants)

    @property
    def best(self) -> Best:
        """Return which total wins: the game's, or what the table chose for a free game."""
        return self.game.best or self.chosen_best or Best.LOWEST

    @property
    def game_id(self) -> str:
        """Return what tells the games played apart (BG Stats' `sourceGameId`): the game's key,
        and a free game's name by its key after it (« <key>:yams »)."""
        if self.title is None:
            return self.game.key
        return f"{self.game.key}:{name_key(self.title)}"

    @property
    def counted_as(self) -> str:
        """Return what the statistics count apart: the game_id, and a free game's winner rule
        after it (« <key>:yams:highest »). Two free games of one name, one won by the highest
        total and one by the lowest, counted as one read a winner's total as a loser's; BG Stats
        keeps its id (its plays already matched to a game)."""
        if self.title is None:
            return self.game_id
        return f"{self.game_id}:{self.best.value}"


def totals(rounds: Sequence[Sequence[int]], players: int) -> list[int]:
    """Return each player's total over the rounds, in seat order."""
    # Column by column, in C: a third of the time of a loop over each score (statistics and
    # exports add up 3,000 games; docs/performance.md, « Issue 47 »).
    return [sum(column) for column in zip(*rounds, strict=True)] if rounds else [0] * players


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
