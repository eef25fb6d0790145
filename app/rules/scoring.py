"""Scoring: the end rule a table chose, what a round may hold, totals, leaders, the end, winners."""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

from app.rules.cards import (
    DEFAULT_LIMIT,
    LIMIT_RANGE,
    ROUND_COUNT_RANGE,
    max_heads_for_player,
    max_heads_for_round,
)
from app.rules.messages import N_, Message, Refusal

if TYPE_CHECKING:
    from app.rules.scoreboard import Standing

# Someone always takes at least one card: 4 rows absorb at most 16 cards and 10n >= 20 are played.
MIN_HEADS_FOR_ROUND = 1


class EndRule(enum.StrEnum):
    """When the game ends."""

    ABOVE = "above"  # some total strictly above the limit (the rule book: above 66)
    AT_OR_ABOVE = "at_or_above"  # some total at the limit or above (« 66 ou plus »)
    ROUNDS = "rounds"  # after a fixed number of rounds


@dataclass(frozen=True)
class GameRules:
    """The rules a table agreed on before starting; the defaults are the rule book's."""

    end: EndRule = EndRule.ABOVE
    limit: int = DEFAULT_LIMIT
    round_count: int | None = None
    pro: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "end", EndRule(self.end))  # accept "above" as well as the member
        if self.end is EndRule.ROUNDS:
            low, high = ROUND_COUNT_RANGE
            if self.round_count is None or not low <= self.round_count <= high:
                raise Refusal.of(
                    N_("Le nombre de manches va de %(low)s à %(high)s.", low=low, high=high)
                )
        else:
            low, high = LIMIT_RANGE
            if not low <= self.limit <= high:
                raise Refusal.of(N_("La limite va de %(low)s à %(high)s.", low=low, high=high))

    def has_crossed(self, total: int) -> bool:
        """Tell whether a total ends the game (never, when the game lasts a number of rounds)."""
        if self.end is EndRule.ABOVE:
            return total > self.limit
        if self.end is EndRule.AT_OR_ABOVE:
            return total >= self.limit
        return False

    def is_over(self, totals: Sequence[int], rounds_played: int) -> bool:
        """Tell whether the game ends after a round that left these totals."""
        if self.end is EndRule.ROUNDS:
            return rounds_played >= (self.round_count or 0)
        return any(self.has_crossed(total) for total in totals)


def check_round(heads_taken: Sequence[int], players: Sequence[str], pro: bool = False) -> list[int]:
    """Return the heads of a round, in seat order, or raise Refusal saying what is allowed.

    The numbers come parsed (forms and imports read the text); this checks only what a round of
    this game can hold.
    """
    n = len(players)
    most_for_player = max_heads_for_player(n, pro)
    most_for_round = max_heads_for_round(n, pro)
    player_errors: dict[int, Message] = {}
    if len(heads_taken) != n:
        raise Refusal({}, [N_("Il faut %(players)s nombres de têtes, un par joueur.", players=n)])
    for seat, value in enumerate(heads_taken):
        if value < 0:
            player_errors[seat] = N_(
                "De 0 à %(most)s têtes pour un joueur en une manche.", most=most_for_player
            )
        elif value > most_for_player:
            player_errors[seat] = N_(
                "%(value)s, c’est trop — %(players)s joueurs : au plus %(most)s têtes pour un "
                "joueur en une manche.",
                value=value,
                players=n,
                most=most_for_player,
            )
    round_errors: list[Message] = []
    if not player_errors:
        total = sum(heads_taken)
        if total < MIN_HEADS_FOR_ROUND:
            round_errors.append(
                N_(
                    "Personne n’a pris de tête ? Impossible : à chaque manche, au moins un "
                    "joueur ramasse des cartes."
                )
            )
        elif total > most_for_round:
            round_errors.append(
                N_(
                    "Cette manche compte %(total)s têtes en tout, c’est trop — %(players)s "
                    "joueurs : au plus %(most)s têtes en une manche, tous joueurs ensemble.",
                    total=total,
                    players=n,
                    most=most_for_round,
                )
            )
    if player_errors or round_errors:
        raise Refusal(player_errors, round_errors)
    return list(heads_taken)


def totals(rounds: Sequence[Sequence[int]], players: int) -> list[int]:
    """Return each player's total over the rounds, in seat order."""
    sums = [0] * players
    for heads_taken in rounds:
        for seat, value in enumerate(heads_taken):
            sums[seat] += value
    return sums


def lowest(totals_: Sequence[int]) -> frozenset[int]:
    """Return the seats holding the lowest total (all of them on a tie)."""
    if not totals_:
        return frozenset()
    best = min(totals_)
    return frozenset(seat for seat, total in enumerate(totals_) if total == best)


@dataclass(frozen=True)
class Scoresheet:
    """A game's players, its rounds so far and what follows from them."""

    players: tuple[str, ...]
    rounds: tuple[tuple[int, ...], ...] = ()
    rules: GameRules = field(default_factory=GameRules)

    @cached_property
    def totals(self) -> list[int]:
        return totals(self.rounds, len(self.players))

    @cached_property
    def running_totals(self) -> list[list[int]]:
        """Return each player's total after each round (one list per round)."""
        running, sums = [], [0] * len(self.players)
        for heads_taken in self.rounds:
            sums = [total + value for total, value in zip(sums, heads_taken, strict=True)]
            running.append(sums)
        return running

    @property
    def next_round(self) -> int:
        return len(self.rounds) + 1

    @cached_property
    def is_over(self) -> bool:
        return bool(self.rounds) and self.rules.is_over(self.totals, len(self.rounds))

    @cached_property
    def leaders(self) -> frozenset[int]:
        """Return the seats at the lowest total; nobody leads before the first round."""
        return lowest(self.totals) if self.rounds else frozenset()

    @cached_property
    def winners(self) -> frozenset[int]:
        """Return the seats that won (several on a shared win); nobody until the game is over."""
        return self.leaders if self.is_over else frozenset()

    @cached_property
    def crossers(self) -> frozenset[int]:
        """Return the seats whose total ended the game by crossing the limit."""
        if not self.is_over:
            return frozenset()
        return frozenset(s for s, total in enumerate(self.totals) if self.rules.has_crossed(total))

    @cached_property
    def standings(self) -> tuple[Standing, ...]:
        """Return the scoreboard's lines, in seat order: total, last round, rank, margin."""
        from app.rules.scoreboard import standings  # the scoreboard reads a whole sheet

        return standings(self)

    def check_round(self, heads_taken: Sequence[int]) -> list[int]:
        """Return the heads of the next round or raise Refusal."""
        if self.is_over:
            raise Refusal.of(
                N_("La partie est terminée : annulez la dernière manche pour la rouvrir.")
            )
        return check_round(heads_taken, self.players, self.rules.pro)

    def with_round(self, heads_taken: Sequence[int]) -> Scoresheet:
        return Scoresheet(self.players, (*self.rounds, tuple(heads_taken)), self.rules)

    def with_round_replaced(self, number: int, heads_taken: Sequence[int]) -> Scoresheet:
        """Return the sheet with round `number` corrected, or raise Refusal.

        A correction may end the game, but only at the last round: had the game ended earlier,
        the rounds after it would never have been played.
        """
        rounds = list(self.rounds)
        rounds[number - 1] = tuple(heads_taken)
        sheet = Scoresheet(self.players, tuple(rounds), self.rules)
        for played, running in enumerate(sheet.running_totals[:-1], start=1):
            if self.rules.is_over(running, played):
                raise Refusal.of(
                    N_(
                        "Avec ces têtes, la partie se serait terminée après la manche "
                        "%(number)s : annulez d’abord les manches suivantes, ou corrigez "
                        "autrement.",
                        number=played,
                    )
                )
        return sheet
