"""The round games the counter keeps, each one module (or package) behind one interface
(base.RoundGame), declaring what follows from it.

Everything outside app/rules/games asks a game through `game_of(key)` or GAMES, and reads its
declarations; nothing else knows a game's rules or names one. To add a game: a module here with
its RoundGame, its entry in GAMES, its words in the catalogs (docs/architecture.md).
"""

from app.rules.games.base import (
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
)
from app.rules.games.flip7 import FLIP7
from app.rules.games.free import FREE_GAME
from app.rules.games.six_nimmt import SIX_NIMMT
from app.rules.games.skyjo import SKYJO

# In the order the new-game form offers them.
GAMES: dict[str, RoundGame] = {game.key: game for game in (SIX_NIMMT, SKYJO, FLIP7, FREE_GAME)}
# The game the new-game form preselects, and that records from before there were others were
# played at: the first offered.
DEFAULT_GAME = next(iter(GAMES.values()))


def game_of(key: str) -> RoundGame:
    """Return the game stored under `key` (KeyError for a game this counter does not know)."""
    return GAMES[key]


__all__ = [
    "Best",
    "CardBox",
    "CardCount",
    "CountedHand",
    "DEFAULT_GAME",
    "DealRule",
    "EndRule",
    "GAMES",
    "RoundGame",
    "RoundScores",
    "Tool",
    "Variant",
    "game_of",
]
