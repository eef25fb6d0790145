"""A game's sheet: its players, its rounds so far and what follows from them (totals, the end,
leaders, winners, the scoreboard's lines)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

from app.rules.colours import player_colours
from app.rules.games import RoundScores
from app.rules.messages import N_, Message, Names, Refusal
from app.rules.scoreboard import Standing, standings
from app.rules.scoring import GameRules, best_seats, totals

# The most rounds a game may hold. A real game has a few dozen (6 qui prend to 66: about ten;
# a free game of 50 rounds at most when it counts them); without a bound, a game of 20,000
# rounds (an imported file of 240 KB) made every page of it, and its import, hold a worker for
# seconds. Said in docs/export-format.md.
MAX_ROUNDS = 500


class WrongRound(Refusal):
    """A round of a game played again from its rounds (Scoresheet.played) that cannot be: its
    number (from 1), and what the rules say of it as one Message."""

    def __init__(self, number: int, why: Message):
        super().__init__(whole=[why])
        self.number = number


@dataclass(frozen=True)
class Scoresheet:
    """A game's players, its rounds so far (as typed) and what follows from them."""

    players: tuple[str, ...]
    rounds: tuple[tuple[int, ...], ...]
    rules: GameRules
    enders: tuple[int | None, ...] = ()  # who ended each round, where the game asks (Skyjo)
    # Who dealt (or started) each round, None where it was not kept (rounds from before, or
    # imported without it); and who deals the next one (None: not known, no one is marked).
    dealers: tuple[int | None, ...] = ()
    dealer: int | None = None
    colours: tuple[int, ...] = ()  # each seat's colour and marker (player_colours: by seat)

    def __post_init__(self) -> None:
        # One per round, None where no one is named: two sheets of the same rounds are equal.
        missing = len(self.rounds) - len(self.enders)
        object.__setattr__(self, "enders", (*self.enders[: len(self.rounds)], *[None] * missing))
        missing = len(self.rounds) - len(self.dealers)
        object.__setattr__(self, "dealers", (*self.dealers[: len(self.rounds)], *[None] * missing))
        if len(self.colours) != len(self.players):
            object.__setattr__(self, "colours", player_colours(self.players))

    @property
    def deals_next(self) -> int | None:
        """Return the seat the scoreboard marks as dealing (or starting) the next round: none
        once the game is over."""
        return None if self.is_over else self.dealer

    @property
    def start_player(self) -> int | None:
        """Return the seat that dealt (or started) the first round, if it was kept."""
        return self.dealers[0] if self.dealers else None

    def dealer_after(self, dealer: int | None, typed: RoundScores) -> int | None:
        """Return who deals the round after `typed`, which `dealer` dealt, by the game's rule."""
        if dealer is None:
            return None
        return self.rules.game.next_dealer(dealer, typed, len(self.players))

    def typed(self, index: int) -> RoundScores:
        """Return round `index` (from 0) as typed, with who ended it."""
        return RoundScores(self.rounds[index], self.enders[index])

    @cached_property
    def points(self) -> tuple[tuple[int, ...], ...]:
        """Return each round's points, in seat order: the scores typed, as the game counts them
        (Skyjo doubles whoever ended the round, sometimes)."""
        if self.rules.game.scores_are_points:
            return self.rounds
        return tuple(self.rules.game.points(self.typed(index)) for index in range(len(self.rounds)))

    @cached_property
    def doubled(self) -> tuple[int | None, ...]:
        """Return, for each round, the seat whose score the game doubled (the sheet's « ×2 »)."""
        return tuple(
            self.enders[index] if self.points[index] != self.rounds[index] else None
            for index in range(len(self.rounds))
        )

    @cached_property
    def totals(self) -> list[int]:
        return totals(self.points, len(self.players))

    @cached_property
    def running_totals(self) -> list[list[int]]:
        """Return each player's total after each round (one list per round)."""
        running, sums = [], [0] * len(self.players)
        for points in self.points:
            sums = [total + value for total, value in zip(sums, points, strict=True)]
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
            self.players, self.points[-1] if self.points else None, self.totals, self.rules
        )

    @classmethod
    def played(
        cls, players: Sequence[str], rules: GameRules, rounds: Sequence[RoundScores]
    ) -> Scoresheet:
        """Return the sheet of a game whose rounds were typed in this order, each checked as the
        table checks a round (check_round); or raise WrongRound for the first that cannot be,
        Refusal for a game of more than MAX_ROUNDS rounds.

        One pass, totals carried along: a sheet per round (with_round, then is_over, which sums
        every round again) took time in the square of the rounds (12,000: 17 s)."""
        if len(rounds) > MAX_ROUNDS:  # the game as a whole, before any round is read
            raise Refusal.of(
                N_(
                    "trop de manches (%(count)s\u202f: %(most)s au plus)",
                    count=len(rounds),
                    most=MAX_ROUNDS,
                )
            )
        game, seats = rules.game, tuple(players)
        sums, checked = [0] * len(seats), list[RoundScores]()
        for number, typed in enumerate(rounds, start=1):
            if checked and rules.is_over(sums, len(checked)):
                raise WrongRound(number, N_("la partie était déjà terminée"))
            try:
                kept = game.check_round(typed, seats, rules.variants)
            except Refusal as refusal:
                raise WrongRound(number, refusal.said()) from refusal
            points = kept.scores if game.scores_are_points else game.points(kept)
            sums = [total + value for total, value in zip(sums, points, strict=True)]
            checked.append(kept)
        return cls(
            seats,
            tuple(kept.scores for kept in checked),
            rules,
            tuple(kept.ended_by for kept in checked),
        )

    def check_round(self, typed: RoundScores) -> RoundScores:
        """Return the next round as typed, checked by the game's rules, or raise Refusal."""
        if self.is_over:
            raise Refusal.of(
                N_("La partie est terminée\u202f: annulez la dernière manche pour la rouvrir.")
            )
        if len(self.rounds) >= MAX_ROUNDS:
            raise Refusal.of(
                N_(
                    "Cette partie compte %(most)s manches, le plus qu’une partie puisse "
                    "tenir\u202f: commencez-en une nouvelle.",
                    most=MAX_ROUNDS,
                )
            )
        checked = self.rules.game.check_round(typed, self.players, self.rules.variants)
        if self.rules.plays_on(self.totals, len(self.rounds)):
            # The tied players alone play the round that breaks the tie (Flip 7's FAQ).
            tied = Names(tuple(self.players[seat] for seat in sorted(self.leaders)))
            others = {
                seat: N_(
                    "Cette manche départage %(names)s\u202f: les autres joueurs marquent 0.",
                    names=tied,
                )
                for seat, score in enumerate(checked.scores)
                if score and seat not in self.leaders
            }
            if others:
                raise Refusal(others, [])
        return checked

    def with_round(self, typed: RoundScores) -> Scoresheet:
        return Scoresheet(
            self.players, (*self.rounds, typed.scores), self.rules, (*self.enders, typed.ended_by)
        )

    def with_round_replaced(self, number: int, typed: RoundScores) -> Scoresheet:
        """Return the sheet with round `number` corrected, or raise Refusal.

        A correction may end the game, but only at the last round: had the game ended earlier,
        the rounds after it would never have been played.
        """
        rounds, enders = list(self.rounds), list(self.enders)
        rounds[number - 1], enders[number - 1] = typed.scores, typed.ended_by
        sheet = Scoresheet(self.players, tuple(rounds), self.rules, tuple(enders))
        for played, running in enumerate(sheet.running_totals[:-1], start=1):
            if self.rules.is_over(running, played):
                if self.rules.game.counts_heads:
                    too_soon = N_(
                        "Avec ces têtes, la partie se serait terminée après la manche "
                        "%(number)s : annulez d’abord les manches suivantes, ou corrigez "
                        "autrement.",
                        number=played,
                    )
                else:
                    too_soon = N_(
                        "Avec ces points, la partie se serait terminée après la manche "
                        "%(number)s : annulez d’abord les manches suivantes, ou corrigez "
                        "autrement.",
                        number=played,
                    )
                raise Refusal.of(too_soon)
        return sheet
