"""The round games the counter keeps, each one module behind one interface (base.RoundGame).

Everything outside app/rules asks a game through `game_of(key)`; nothing else knows a game's
rules. To add a game: a module here with its RoundGame, and its entry in GAMES.
"""

from app.rules.games.base import Best, EndRule, RoundGame, RoundScores
from app.rules.games.flip7 import FLIP7
from app.rules.games.free import FREE_GAME
from app.rules.games.six_nimmt import SIX_NIMMT
from app.rules.games.skyjo import SKYJO

# In the order the new-game form offers them.
GAMES: dict[str, RoundGame] = {game.key: game for game in (SIX_NIMMT, SKYJO, FLIP7, FREE_GAME)}
DEFAULT_GAME = SIX_NIMMT


def game_of(key: str) -> RoundGame:
    """Return the game stored under `key` (KeyError for a game this counter does not know)."""
    return GAMES[key]


__all__ = ["Best", "DEFAULT_GAME", "EndRule", "GAMES", "RoundGame", "RoundScores", "game_of"]
