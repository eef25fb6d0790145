"""The rules of the round games the counter keeps: each game behind one interface (`games/`:
« 6 qui prend ! » first), the cards and their heads, the players' names, scoring (the rules a
table chose, totals, the end, leaders, winners: `scoring.py`, `sheet.py`), card placement for the
round assistant, and the scoreboard's lines.

Pure Python: no Flask, no database, no I/O, checked by mypy --strict. What the rules say to players
is a Message (a French sentence with named blanks, translated by the web layer, which knows the
person's language); what cannot be is a Refusal. The modules are read through this package:
`from app import rules`, then `rules.Scoresheet`, `rules.heads`…
"""

from app.rules.cards import (
    DECK_SIZE,
    DEFAULT_LIMIT,
    HAND_SIZE,
    ROUND_COUNT_RANGE,
    ROW_LENGTH,
    ROWS,
    cards_by_heads,
    check_cards,
    check_pile,
    deck_size,
    heads,
    max_heads_for_player,
    max_heads_for_round,
    row_heads,
)
from app.rules.games import DEFAULT_GAME, GAMES, Best, EndRule, RoundGame, RoundScores, game_of
from app.rules.games.six_nimmt import MIN_HEADS_FOR_ROUND
from app.rules.messages import (
    N_,
    FieldKey,
    Message,
    Np_,
    Refusal,
)
from app.rules.names import (
    MAX_NAME_LENGTH,
    MAX_PLAYERS,
    MAX_TITLE_LENGTH,
    MIN_PLAYERS,
    is_invisible,
    name_key,
    seat_players,
    unreadable,
)
from app.rules.placement import (
    Placed,
    Placement,
    PlayedTurn,
    RowChoice,
    RowChosen,
    RowsRound,
    SixthCard,
    TurnPlaced,
    place_turn,
)
from app.rules.result import (
    Placing,
    Result,
    placings,
    play_on,
    result_of,
    rule_in_force,
    rule_sentence,
)
from app.rules.scoreboard import Standing, standings
from app.rules.scoring import (
    GameRules,
    best_seats,
    check_round,
    lowest,
    ranks,
    totals,
)
from app.rules.sheet import MAX_ROUNDS, Scoresheet, WrongRound

__all__ = [
    "Placing",
    "Result",
    "placings",
    "play_on",
    "result_of",
    "rule_in_force",
    "rule_sentence",
    "Best",
    "DEFAULT_GAME",
    "MAX_TITLE_LENGTH",
    "GAMES",
    "RoundGame",
    "RoundScores",
    "best_seats",
    "game_of",
    "DECK_SIZE",
    "DEFAULT_LIMIT",
    "EndRule",
    "FieldKey",
    "GameRules",
    "HAND_SIZE",
    "MAX_NAME_LENGTH",
    "MAX_PLAYERS",
    "MIN_HEADS_FOR_ROUND",
    "MIN_PLAYERS",
    "Message",
    "N_",
    "Np_",
    "Placed",
    "Placement",
    "PlayedTurn",
    "ROUND_COUNT_RANGE",
    "ROWS",
    "ROW_LENGTH",
    "Refusal",
    "RowChoice",
    "RowChosen",
    "Scoresheet",
    "WrongRound",
    "MAX_ROUNDS",
    "SixthCard",
    "Standing",
    "RowsRound",
    "TurnPlaced",
    "cards_by_heads",
    "check_cards",
    "check_pile",
    "check_round",
    "deck_size",
    "heads",
    "is_invisible",
    "lowest",
    "max_heads_for_player",
    "max_heads_for_round",
    "name_key",
    "place_turn",
    "ranks",
    "row_heads",
    "seat_players",
    "standings",
    "totals",
    "unreadable",
]
