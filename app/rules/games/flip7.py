"""Flip 7 (The Op): a round scores 0 (a bust) to 171, only what a hand can make; highest wins."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import combinations

from app.rules.games.base import Best, EndRule, RoundGame, RoundScores
from app.rules.messages import N_, Message, Refusal

NUMBERS = range(13)  # number cards 0 to 12; a hand holds each at most once (a second one busts)
ADDED = (2, 4, 6, 8, 10)  # the +N modifiers, one of each
FLIP_7 = 7  # seven distinct numbers: a Flip 7, +15, and the round ends
FLIP_7_BONUS = 15
LIMIT = 200


@cache
def reachable_scores() -> frozenset[int]:
    """Return every score a hand can make: its numbers, doubled by the ×2 (numbers only), plus
    the +N cards it holds, plus 15 for a Flip 7; and 0, a bust."""
    added = {sum(cards) for k in range(len(ADDED) + 1) for cards in combinations(ADDED, k)}
    scores = {0}
    for count in range(FLIP_7 + 1):
        bonus = FLIP_7_BONUS if count == FLIP_7 else 0
        for numbers in combinations(NUMBERS, count):
            for factor in (1, 2):
                scores |= {sum(numbers) * factor + more + bonus for more in added}
    return frozenset(scores)


def _unreachable_note() -> Message:
    """Say which scores no hand makes, from the computed set: « 146, 148 … 170 »."""
    top = max(reachable_scores())
    missing = [score for score in range(top + 1) if score not in reachable_scores()]
    return N_(
        "Au Flip 7, une manche vaut de 0 (perdu) à %(top)s points, sauf %(missing)s\u202f: aucune "
        "main ne les fait.",
        top=top,
        missing=f"{missing[0]}, {missing[1]} … {missing[-1]}",
    )


class Flip7(RoundGame):
    key = "flip-7"
    name = N_("Flip 7")
    summary = N_(
        "De 2 à 10 joueurs\u202f; le plus grand total gagne\u202f; fin dès qu’un total atteint 200."
    )
    min_players = 2
    max_players = 10
    best = Best.HIGHEST
    default_end = EndRule.AT_OR_ABOVE
    default_limit = LIMIT
    ends = (EndRule.AT_OR_ABOVE, EndRule.ROUNDS)
    bgg_id = 420087
    bgstats_name = "Flip 7"
    score_range = (0, max(reachable_scores()))

    def check_round(
        self, typed: RoundScores, players: Sequence[str], *, pro: bool = False
    ) -> RoundScores:
        """Refuse a score no hand can make (past 144 only the ×2 with seven cards goes, and its
        +15 makes it odd)."""
        if len(typed.scores) != len(players):
            raise Refusal.of(N_("Il faut %(players)s scores, un par joueur.", players=len(players)))
        errors = {
            seat: _unreachable_note()
            for seat, score in enumerate(typed.scores)
            if score not in reachable_scores()
        }
        if errors:
            raise Refusal(errors, [])
        return RoundScores(typed.scores)


FLIP7 = Flip7()
