"""A game's sheet: its players, its rounds so far and what follows from them (totals, the end,
leaders, winners, the scoreboard's lines)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property

from app.rules.games import RoundScores
from app.rules.messages import N_, Refusal
from app.rules.scoreboard import Standing, standings
from app.rules.scoring import GameRules, best_seats, totals


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
        """Return the seats at the best total (the lowest, in most games); nobody leads before
        the first round."""
        return best_seats(self.totals, self.rules.best) if self.rounds else frozenset()

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
        return standings(
            self.players, self.rounds[-1] if self.rounds else None, self.totals, self.rules
        )

    def check_round(self, heads_taken: Sequence[int]) -> list[int]:
        """Return the heads of the next round or raise Refusal."""
        if self.is_over:
            raise Refusal.of(
                N_("La partie est terminée : annulez la dernière manche pour la rouvrir.")
            )
        typed = RoundScores(tuple(heads_taken))
        checked = self.rules.game.check_round(typed, self.players, pro=self.rules.pro)
        return list(self.rules.game.points(checked))

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
