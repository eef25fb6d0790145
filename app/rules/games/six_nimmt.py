"""« 6 qui prend ! » (Wolfgang Kramer, 1994): what a round may hold, from the deck's heads."""

from __future__ import annotations

from collections.abc import Sequence

from app.rules.cards import DEFAULT_LIMIT, max_heads_for_player, max_heads_for_round
from app.rules.games.base import Best, EndRule, RoundGame, RoundScores
from app.rules.messages import N_, Message, Refusal

# Someone always takes at least one card: 4 rows absorb at most 16 cards and 10n >= 20 are played.
MIN_HEADS_FOR_ROUND = 1


class SixNimmt(RoundGame):
    key = "6-qui-prend"
    name = N_("6 qui prend\u202f!")
    summary = N_(
        "De 2 à 10 joueurs\u202f; le plus petit total gagne\u202f; l’assistant de manche et le "
        "compte des têtes."
    )
    min_players = 2
    max_players = 10
    best = Best.LOWEST
    default_end = EndRule.ABOVE
    default_limit = DEFAULT_LIMIT
    ends = (EndRule.ABOVE, EndRule.AT_OR_ABOVE, EndRule.ROUNDS)
    bgg_id = 432
    bgstats_name = "6 nimmt!"
    counts_heads = True
    table_tools = True
    score_range = (0, max_heads_for_player(10))

    def player_range(self, players: int, pro: bool = False) -> tuple[int, int]:
        """Return 0 to the heads of the heaviest cards one player can take (app/rules/cards.py)."""
        return 0, max_heads_for_player(players, pro)

    def check_round(
        self, typed: RoundScores, players: Sequence[str], *, pro: bool = False
    ) -> RoundScores:
        """Refuse heads outside the bounds the deck allows (app/rules/cards.py computes them)."""
        heads_taken = typed.scores
        n = len(players)
        most_for_player = self.player_range(n, pro)[1]
        most_for_round = max_heads_for_round(n, pro)
        if len(heads_taken) != n:
            raise Refusal.of(N_("Il faut %(players)s nombres de têtes, un par joueur.", players=n))
        player_errors: dict[int, Message] = {}
        for seat, value in enumerate(heads_taken):
            if value < 0:
                player_errors[seat] = N_(
                    "De 0 à %(most)s têtes pour un joueur en une manche.", most=most_for_player
                )
            elif value > most_for_player:
                player_errors[seat] = N_(
                    "%(value)s, c’est trop — %(players)s joueurs : au plus %(most)s têtes pour "
                    "un joueur en une manche.",
                    value=value,
                    players=n,
                    most=most_for_player,
                )
        if player_errors:
            raise Refusal(player_errors, [])
        total = sum(heads_taken)
        if total < MIN_HEADS_FOR_ROUND:
            raise Refusal.of(
                N_(
                    "Personne n’a pris de tête ? Impossible : à chaque manche, au moins un "
                    "joueur ramasse des cartes."
                )
            )
        if total > most_for_round:
            raise Refusal.of(
                N_(
                    "Cette manche compte %(total)s têtes en tout, c’est trop — %(players)s "
                    "joueurs : au plus %(most)s têtes en une manche, tous joueurs ensemble.",
                    total=total,
                    players=n,
                    most=most_for_round,
                )
            )
        return RoundScores(tuple(heads_taken))


SIX_NIMMT = SixNimmt()
