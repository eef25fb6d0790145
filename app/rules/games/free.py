"""« Partie libre »: any game scored in rounds; the table names it and says which total wins."""

from __future__ import annotations

from collections.abc import Sequence

from app.rules.games.base import EndRule, RoundGame, RoundScores
from app.rules.messages import N_, Refusal

# Not a rule of any game: the size a score field holds, so that a slip of the thumb (a score of
# 10⁹) is caught rather than added.
SCORE_RANGE = (-99_999, 99_999)
# Any limit rounds of such scores reach: Belote is played to 1,000 or 2,000, Mille Bornes to 5,000.
LIMIT_RANGE = (1, 999_999)
# The page carries a row's words for each margin, for the rounds counted offline
# (scoreboard.offline_warnings): 52 of them at most, not 100,000 for a game to 999,999.
MOST_MARGIN = 50


class FreeGame(RoundGame):
    key = "libre"
    name = N_("Partie libre")
    summary = N_(
        "Tout jeu en manches\u202f: son nom, qui gagne, la fin\u202f; tout score est accepté."
    )
    min_players = 2
    max_players = 10
    best = None  # the table chooses
    default_end = EndRule.AT_OR_ABOVE
    default_limit = None  # the table gives a limit or a number of rounds
    ends = (EndRule.AT_OR_ABOVE, EndRule.ROUNDS)
    bgg_id = None
    bgstats_name = ""  # the name the table typed
    score_range = SCORE_RANGE
    limit_range = LIMIT_RANGE
    other_limit = True
    table_names_it = True

    def margin(self, limit: int) -> int:
        """A tenth of the limit the table chose (its scores are whatever its game's are: a Yams
        to 300, a Belote to 1,000), at most MOST_MARGIN."""
        return max(1, min(limit // 10, MOST_MARGIN))

    def check_round(
        self, typed: RoundScores, players: Sequence[str], variants: frozenset[str] = frozenset()
    ) -> RoundScores:
        """Take any whole scores, negative ones too."""
        if len(typed.scores) != len(players):
            raise Refusal.of(N_("Il faut %(players)s scores, un par joueur.", players=len(players)))
        low, high = SCORE_RANGE
        errors = {
            seat: N_("Un score va de %(low)s à %(high)s.", low=low, high=high)
            for seat, score in enumerate(typed.scores)
            if not low <= score <= high
        }
        if errors:
            raise Refusal(errors, [])
        return RoundScores(typed.scores)


FREE_GAME = FreeGame()
