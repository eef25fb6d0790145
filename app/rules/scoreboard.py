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
    ended: bool = False  # someone reached or passed the limit: the margins of the others are gone
    counts_heads: bool = True  # 6 qui prend's scores are heads; other games' are points

    @property
    def gauge(self) -> int | None:
        """Return the gauge's value: the total, capped at the limit (as a <meter> would)."""
        return None if self.limit is None else min(self.total, self.limit)

    @property
    def warning(self) -> Message | None:
        """Say, in words and not by colour alone, that this player is close to ending the game."""
        if self.spare is None or self.limit is None or self.spare > CLOSE_TO_LIMIT:
            return None
        if self.ended and self.spare >= 0:  # a margin means nothing once the game is over
            return None
        return _warning(self.limit, self.spare, self.reaching_ends, self.counts_heads)


def _warning(limit: int, spare: int, reaching_ends: bool, counts_heads: bool) -> Message:
    if spare < 0:
        if reaching_ends:
            return N_("A atteint %(limit)s", limit=limit)
        return N_("A dépassé %(limit)s", limit=limit)
    if spare == 0:
        if counts_heads:
            return N_("À la limite\u202f: la moindre tête finit la partie")
        return N_("À la limite\u202f: le moindre point finit la partie")
    return N_("Marge avant la fin\u202f: %(spare)s", spare=spare)


def _spare(game_rules: GameRules, total: int) -> int | None:
    last_allowed = game_rules.last_allowed
    return None if last_allowed is None else last_allowed - total


def offline_rules(game_rules: GameRules, played: int) -> dict[str, object]:
    """Return what static/tally.js needs to count rounds that wait for the network as the server
    will: the page carries it as data, so no rule is written twice (the words come translated
    with it: offline_warnings; tests/e2e/test_tally.py plays the same rounds through both)."""
    return {
        "best": game_rules.best.value,
        "lastAllowed": game_rules.last_allowed,
        "roundCount": game_rules.round_count if game_rules.end is EndRule.ROUNDS else None,
        "played": played,
        "close": CLOSE_TO_LIMIT,
        "doubleEnder": game_rules.game.round_ender,  # Skyjo's doubling of who ended a round
    }


def offline_warnings(game_rules: GameRules) -> tuple[Message, ...]:
    """Return the row's warning for each `spare` static/tally.js may find close to the end,
    from -1 (the end reached) to CLOSE_TO_LIMIT, in that order: static/waiting.js shows them,
    translated by the server, and words no rule itself (none when the game lasts rounds)."""
    if game_rules.last_allowed is None:
        return ()
    reaching, heads = game_rules.end is EndRule.AT_OR_ABOVE, game_rules.game.counts_heads
    return tuple(
        _warning(game_rules.limit, spare, reaching, heads)
        for spare in range(-1, CLOSE_TO_LIMIT + 1)
    )


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
    spares = [_spare(game_rules, total) for total in totals_]
    ended = any(spare is not None and spare < 0 for spare in spares)
    return tuple(
        Standing(
            seat=seat,
            name=name,
            total=totals_[seat],
            last=last_round[seat] if last_round is not None else None,
            rank=ranked[seat] if played else None,
            leads=seat in leaders,
            limit=limit,
            spare=spares[seat],
            reaching_ends=game_rules.end is EndRule.AT_OR_ABOVE,
            ended=ended,
            counts_heads=game_rules.game.counts_heads,
        )
        for seat, name in enumerate(players)
    )
