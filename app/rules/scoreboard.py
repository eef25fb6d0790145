"""The scoreboard's lines: each player's total, last round, rank, and how close to the end."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from app.rules.games import EndRule
from app.rules.messages import N_, Message
from app.rules.scoring import GameRules, best_seats, ranks

CLOSE_TO_LIMIT = 10  # heads: within this many of the limit, a player's row warns


@dataclass(frozen=True)
class Standing:
    """One player's line of the scoreboard: what the table wants to see at a glance."""

    seat: int
    name: str
    total: int
    last: int | None  # the heads of the last round, None before the first one
    rank: int | None  # 1 for the leaders; ties share a rank (1, 1, 3); None before a round
    leads: bool
    limit: int | None  # the gauge's end, when the game ends on a limit
    spare: int | None  # heads still allowed before this player ends the game (None: no limit)
    reaching_ends: bool = False  # « 66 ou plus »: reaching the limit ends the game

    @property
    def gauge(self) -> int | None:
        """Return the gauge's value: the total, capped at the limit (as a <meter> would)."""
        return None if self.limit is None else min(self.total, self.limit)

    @property
    def warning(self) -> Message | None:
        """Say, in words and not by colour alone, that this player is close to ending the game."""
        if self.spare is None or self.spare > CLOSE_TO_LIMIT:
            return None
        if self.spare < 0:
            if self.reaching_ends:
                return N_("A atteint %(limit)s", limit=self.limit)
            return N_("A dépassé %(limit)s", limit=self.limit)
        if self.spare == 0:
            return N_("À la limite\u202f: la moindre tête finit la partie")
        return N_("Marge avant la fin\u202f: %(spare)s", spare=self.spare)


def _spare(game_rules: GameRules, total: int) -> int | None:
    last_allowed = game_rules.last_allowed
    return None if last_allowed is None else last_allowed - total


def offline_rules(game_rules: GameRules, played: int) -> dict[str, object]:
    """Return what static/tally.js needs to count rounds that wait for the network as the server
    will: the page carries it as data, so no rule is written twice (the words come translated
    with it; tests/e2e/test_tally.py plays the same rounds through both)."""
    return {
        "best": game_rules.best.value,
        "lastAllowed": game_rules.last_allowed,
        "roundCount": game_rules.round_count if game_rules.end is EndRule.ROUNDS else None,
        "played": played,
        "close": CLOSE_TO_LIMIT,
    }


def standings(
    players: Sequence[str],
    last_round: Sequence[int] | None,
    totals_: Sequence[int],
    game_rules: GameRules,
) -> tuple[Standing, ...]:
    """Return the scoreboard's lines, in seat order (`last_round`: None before the first)."""
    played = last_round is not None
    ranked = ranks(totals_, game_rules.best)
    leaders = best_seats(totals_, game_rules.best) if played else frozenset()
    limit = None if game_rules.end is EndRule.ROUNDS else game_rules.limit
    return tuple(
        Standing(
            seat=seat,
            name=name,
            total=totals_[seat],
            last=last_round[seat] if last_round is not None else None,
            rank=ranked[seat] if played else None,
            leads=seat in leaders,
            limit=limit,
            spare=_spare(game_rules, totals_[seat]),
            reaching_ends=game_rules.end is EndRule.AT_OR_ABOVE,
        )
        for seat, name in enumerate(players)
    )
