"""The rules of the round games the counter keeps: each game behind one interface, declaring what
follows from it (`games/`: « 6 qui prend ! » and its cards in `games/six_nimmt/`), the players'
names, scoring (the rules a table chose, totals, the end, leaders, winners: `scoring.py`,
`sheet.py`), the result, and the scoreboard's lines.

Pure Python: no Flask, no database, no I/O, checked by mypy --strict. What the rules say to players
is a Message (a French sentence with named blanks, translated by the web layer, which knows the
person's language); what cannot be is a Refusal. The other layers read this package, `from app
import rules`, then `rules.Scoresheet`, `rules.GAMES`…: it holds what they ask for, no more. A
game's own things (6 qui prend's cards, for its round assistant) are imported from its module.
"""

from app.rules.colours import COLOUR_COUNT, player_colours
from app.rules.evening import EveningLine, evening_ranking
from app.rules.games import (
    DEFAULT_GAME,
    GAMES,
    Best,
    CardBox,
    CardCount,
    CountedHand,
    DealRule,
    EndRule,
    RoundGame,
    RoundScores,
    Tool,
    Variant,
    game_of,
)
from app.rules.messages import N_, FieldKey, Message, Np_, Refusal
from app.rules.names import (
    MAX_NAME_LENGTH,
    MAX_PLAYERS,
    MAX_TITLE_LENGTH,
    MIN_PLAYERS,
    name_key,
    seat_players,
    unreadable,
)
from app.rules.result import (
    Placing,
    placings,
    play_on,
    result_of,
    rule_in_force,
    rule_sentence,
)
from app.rules.scoring import ROUND_COUNT_RANGE, GameRules
from app.rules.sheet import Scoresheet, WrongRound

__all__ = [
    "Best",
    "CardBox",
    "CardCount",
    "CountedHand",
    "COLOUR_COUNT",
    "DEFAULT_GAME",
    "DealRule",
    "EndRule",
    "EveningLine",
    "FieldKey",
    "GAMES",
    "GameRules",
    "MAX_NAME_LENGTH",
    "MAX_PLAYERS",
    "MAX_TITLE_LENGTH",
    "MIN_PLAYERS",
    "Message",
    "N_",
    "Np_",
    "Placing",
    "ROUND_COUNT_RANGE",
    "Refusal",
    "RoundGame",
    "RoundScores",
    "Scoresheet",
    "Tool",
    "Variant",
    "WrongRound",
    "evening_ranking",
    "game_of",
    "name_key",
    "placings",
    "player_colours",
    "play_on",
    "result_of",
    "rule_in_force",
    "rule_sentence",
    "seat_players",
    "unreadable",
]
