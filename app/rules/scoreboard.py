"""The scoreboard's lines: each player's total, last round, rank, and how close to the end."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from app.rules.games import Best, EndRule
from app.rules.messages import N_, Message, Np_
from app.rules.scoring import GameRules, best_seats, ranks


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
    margin: int = 10  # within this many of the end, the row says so (the game's: GameRules)
    highest_wins: bool = False  # the end comes with a win, not a danger: no warning, a distance

    @property
    def gauge(self) -> int | None:
        """Return the gauge's value: the total, capped at the limit (as a <meter> would)."""
        return None if self.limit is None else min(self.total, self.limit)

    @property
    def warning(self) -> Message | None:
        """Say, in words and not by colour alone, that this player is close to the end: ending
        the game (lowest wins), or how far from victory (highest wins)."""
        if self.spare is None or self.limit is None or self.spare > self.margin:
            return None
        if self.ended and self.spare >= 0:  # a margin means nothing once someone passed the end
            return None
        return _warning(
            self.limit, self.spare, self.reaching_ends, self.counts_heads, self.highest_wins
        )

    @property
    def danger(self) -> bool:
        """Tell whether the row's words warn of a danger (drawn in red): never where the highest
        total wins, as the player near the end is about to win."""
        return self.warning is not None and not self.highest_wins


def _warning(
    limit: int, spare: int, reaching_ends: bool, counts_heads: bool, highest_wins: bool
) -> Message | None:
    if highest_wins:
        # The end is a win for whoever is ahead when it comes: say the points that reach it.
        # Past it (a tie playing on, or the game over) the status says the rest.
        if spare < 0:
            return None
        return Np_("À %(num)d point de la victoire", "À %(num)d points de la victoire", spare + 1)
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


def offline_rules(
    game_rules: GameRules, played: int, dealer: int | None = None
) -> dict[str, object]:
    """Return what static/tally.js needs to count rounds that wait for the network as the server
    will: the page carries it as data, so no rule is written twice (the words come translated
    with it: offline_warnings; tests/e2e/test_tally.py plays the same rounds through both)."""
    return {
        "best": game_rules.best.value,
        "lastAllowed": game_rules.last_allowed,
        "roundCount": game_rules.round_count if game_rules.end is EndRule.ROUNDS else None,
        "played": played,
        "close": game_rules.margin,
        "points": game_rules.game.offline_points,  # a named rule of tally.js (Skyjo's doubling)
        "tiePlaysOn": game_rules.game.tie_plays_on,  # Flip 7: a tie at the end plays on
        "deal": game_rules.game.deal_rule.value,  # a named rule of tally.js: who deals next
        "dealer": dealer,  # who deals the first round that waits (None: not known)
    }


def offline_warnings(game_rules: GameRules) -> tuple[Message | None, ...]:
    """Return the row's words for each `spare` static/tally.js may find close to the end, from
    -1 (the end reached) to the game's margin, in that order (None: no words): static/waiting.js
    shows them, translated by the server, and words no rule itself (none when the game lasts
    rounds)."""
    if game_rules.last_allowed is None:
        return ()
    reaching, heads = game_rules.end is EndRule.AT_OR_ABOVE, game_rules.game.counts_heads
    highest = game_rules.best is Best.HIGHEST
    return tuple(
        _warning(game_rules.limit, spare, reaching, heads, highest)
        for spare in range(-1, game_rules.margin + 1)
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
            margin=game_rules.margin,
            highest_wins=game_rules.best is Best.HIGHEST,
        )
        for seat, name in enumerate(players)
    )
