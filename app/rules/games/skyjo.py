"""Skyjo (Magilano): a round scores −17 to 140 a player; whoever ended the round may be doubled."""

from __future__ import annotations

from collections.abc import Sequence

from app.rules.games.base import Best, DealRule, EndRule, RoundGame, RoundScores
from app.rules.messages import N_, Message, Refusal

# 12 cards of −2 to 12; three equal cards in a column are discarded. The lowest hand is five −2
# and seven −1 (no column of three alike); the highest, four columns of 12, 12, 11.
LOWEST_SCORE = 5 * -2 + 7 * -1
HIGHEST_SCORE = 4 * (12 + 12 + 11)
LIMIT = 100


class Skyjo(RoundGame):
    key = "skyjo"
    name = N_("Skyjo")
    summary = N_(
        "De 2 à 8 joueurs\u202f; le plus petit total gagne\u202f; fin dès qu’un total atteint 100."
    )
    min_players = 2
    max_players = 8
    best = Best.LOWEST
    default_end = EndRule.AT_OR_ABOVE
    default_limit = LIMIT
    ends = (EndRule.AT_OR_ABOVE, EndRule.ROUNDS)
    bgg_id = 204135
    bgstats_name = "Skyjo"
    round_ender = True
    scores_are_points = False
    offline_points = "ender-doubled"  # static/tally.js's name for `points` below
    score_range = (LOWEST_SCORE, HIGHEST_SCORE)
    # A round's scores run to 140, but most hands end between 10 and 30 points: within 25 of
    # 100, one more round may well end the game.
    close_to_end = 25
    # The rule book: whoever ended a round starts the next (no one deals in turn).
    deal_rule = DealRule.ROUND_ENDER
    deals = N_("commence")
    who_deals = N_("Qui commence ?")

    def check_round(
        self, typed: RoundScores, players: Sequence[str], variants: frozenset[str] = frozenset()
    ) -> RoundScores:
        """Refuse a score no hand can make, and a round that does not say who ended it."""
        if len(typed.scores) != len(players):
            raise Refusal.of(N_("Il faut %(players)s scores, un par joueur.", players=len(players)))
        errors: dict[int, Message] = {
            seat: N_(
                "Au Skyjo, une manche vaut de %(low)s à %(high)s points pour un joueur.",
                low=LOWEST_SCORE,
                high=HIGHEST_SCORE,
            )
            for seat, score in enumerate(typed.scores)
            if not LOWEST_SCORE <= score <= HIGHEST_SCORE
        }
        whole = []
        if typed.ended_by is None or not 0 <= typed.ended_by < len(players):
            whole.append(N_("Dites qui a fini la manche (il a retourné toutes ses cartes)."))
        if errors or whole:
            raise Refusal(errors, whole)
        return typed

    def points(self, typed: RoundScores) -> tuple[int, ...]:
        """Double the score of whoever ended the round when it is positive and not strictly the
        lowest of the round (a tie for the lowest doubles; 0 or less never does)."""
        ender = typed.ended_by
        if ender is None:
            return typed.scores
        score = typed.scores[ender]
        strictly_lowest = all(score < other for s, other in enumerate(typed.scores) if s != ender)
        if score <= 0 or strictly_lowest:
            return typed.scores
        return tuple(
            value * 2 if seat == ender else value for seat, value in enumerate(typed.scores)
        )


SKYJO = Skyjo()
