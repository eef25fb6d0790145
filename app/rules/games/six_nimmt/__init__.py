"""« 6 qui prend ! » (Wolfgang Kramer, 1994): what a round may hold, from the deck's heads; its
cards (cards.py), their placement for the round assistant (placement.py), the pro deck."""

from __future__ import annotations

from collections.abc import Sequence

from app.rules.games.base import Best, EndRule, RoundGame, RoundScores, Tool, Variant
from app.rules.games.six_nimmt.cards import (
    DECK_SIZE,
    DEFAULT_LIMIT,
    HAND_SIZE,
    ROW_LENGTH,
    ROWS,
    cards_by_heads,
    check_cards,
    check_pile,
    heads,
    max_heads_for_player,
    max_heads_for_round,
    row_heads,
)
from app.rules.games.six_nimmt.placement import PlayedTurn, RowChosen, RowsRound, SixthCard
from app.rules.messages import N_, Message, Refusal

# Someone always takes at least one card: 4 rows absorb at most 16 cards and 10n >= 20 are played.
MIN_HEADS_FOR_ROUND = 1

# Only cards 1 to 10n + 4 are used (cards.deck_size): tighter bounds, the same refusals. Its key
# is the database's column `pro` and the export's key "pro".
PRO = Variant(
    key="pro",
    label=N_("Variante pro"),
    hint=N_(
        "Variante pro\u202f: seules les cartes 1 à %(hand)s × joueurs + %(rows)s sont utilisées.",
        hand=HAND_SIZE,
        rows=ROWS,
    ),
    note=N_("%(rule)s · variante pro"),
    sentence=N_(
        "Variante pro\u202f: cartes 1 à %(hand)s × joueurs + %(rows)s.", hand=HAND_SIZE, rows=ROWS
    ),
)


def pro_deck(variants: frozenset[str]) -> bool:
    """Tell whether the table plays with the pro deck (cards 1 to 10n + 4)."""
    return PRO.key in variants


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
    other_limit = True
    variants = (PRO,)
    tools = (Tool.ASSISTANT, Tool.HEAD_COUNT)
    score_range = (0, max_heads_for_player(10))
    # The cards, for the rules page and the round assistant's words.
    deck_size = DECK_SIZE
    hand_size = HAND_SIZE
    rows = ROWS
    row_length = ROW_LENGTH

    def player_range(self, players: int, variants: frozenset[str] = frozenset()) -> tuple[int, int]:
        """Return 0 to the heads of the heaviest cards one player can take (cards.py)."""
        return 0, max_heads_for_player(players, pro_deck(variants))

    def check_round(
        self, typed: RoundScores, players: Sequence[str], variants: frozenset[str] = frozenset()
    ) -> RoundScores:
        """Refuse heads outside the bounds the deck allows (cards.py computes them)."""
        heads_taken, pro = typed.scores, pro_deck(variants)
        n = len(players)
        most_for_player = self.player_range(n, variants)[1]
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

# What 6 qui prend's tools (the round assistant, the count of a pile) ask of its cards.
__all__ = [
    "DEFAULT_LIMIT",
    "MIN_HEADS_FOR_ROUND",
    "PRO",
    "PlayedTurn",
    "ROWS",
    "RowChosen",
    "RowsRound",
    "SIX_NIMMT",
    "SixNimmt",
    "SixthCard",
    "cards_by_heads",
    "check_cards",
    "check_pile",
    "heads",
    "pro_deck",
    "row_heads",
]
