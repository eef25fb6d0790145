"""What every round game on the counter is: one small interface, `RoundGame`, that the rest of the
app asks — its name, who may sit, what a round may hold, how typed scores become points, when it
ends and who wins, its words and its BoardGameGeek id. Each game is one module beside this one."""

from __future__ import annotations

import abc
import enum
from collections.abc import Sequence
from dataclasses import dataclass

from app.rules.messages import Message


class EndRule(enum.StrEnum):
    """When the game ends."""

    ABOVE = "above"  # some total strictly above the limit (6 qui prend's rule book: above 66)
    AT_OR_ABOVE = "at_or_above"  # some total at the limit or above (« 66 ou plus », Skyjo's 100)
    ROUNDS = "rounds"  # after a fixed number of rounds


class Best(enum.StrEnum):
    """Which total wins."""

    LOWEST = "lowest"
    HIGHEST = "highest"


@dataclass(frozen=True)
class RoundScores:
    """A round as typed: each player's score in seat order, and who ended it where the game says
    so (Skyjo's « A fini la manche »; None elsewhere)."""

    scores: tuple[int, ...]
    ended_by: int | None = None


class RoundGame(abc.ABC):
    """A game played in rounds whose scores add up. Subclasses set the class attributes and
    override `check_round` (what a round may hold) and, where typed scores are not the points,
    `points`. Instances hold nothing: one per game, in app.rules.games.GAMES."""

    key: str  # stored with each game and in exports: never changes
    name: Message  # the game's own name (« 6 nimmt! » in German; Skyjo and Flip 7 everywhere)
    summary: Message  # the new-game form's line: players, who wins, the end
    min_players: int
    max_players: int
    best: Best | None  # None: the table chooses (a free game)
    default_end: EndRule
    default_limit: int | None  # None: the table must give a limit or a number of rounds
    ends: tuple[EndRule, ...]  # the end rules a table may choose, the default first
    bgg_id: int | None  # BoardGameGeek's id, for BG Stats
    bgstats_name: str  # the name BG Stats knows the game by
    counts_heads: bool = False  # « têtes » (6 qui prend) rather than « points »
    round_ender: bool = False  # a round names who ended it (Skyjo)
    table_tools: bool = False  # « Assistant de manche », « Compter les têtes », « Variante pro »
    score_range: tuple[int, int] = (0, 0)  # the lowest and highest score a player can type
    # The limits a game may have: those a table chooses at « Autre limite » (6 qui prend, a free
    # game); for Skyjo and Flip 7, whose limit is their own, what imported games were held to.
    limit_range: tuple[int, int] = (10, 500)
    # False where `points` changes a round's typed scores (Skyjo): a sheet of any other game
    # takes its rounds as its points, without asking round by round (3,000 games: 40 ms).
    scores_are_points: bool = True
    # Within this many points of the end, a player's row says so. A game's own: 6 qui prend's
    # players take about 10 heads a round; Skyjo's and Flip 7's rounds reach 140 and 171.
    close_to_end: int = 10
    # A tie for the best total at the end plays another round rather than sharing the win
    # (Flip 7: The Op's FAQ); the game goes on until one is ahead.
    tie_plays_on: bool = False

    @abc.abstractmethod
    def check_round(
        self, typed: RoundScores, players: Sequence[str], *, pro: bool = False
    ) -> RoundScores:
        """Return the round as typed, or raise Refusal saying, field by field, what is allowed.

        The numbers come parsed (forms and imports read the text); `pro` is 6 qui prend's
        variant, which the other games do not offer."""

    def margin(self, limit: int) -> int:
        """Return how near `limit` a total is when its row says so (most games: close_to_end)."""
        return self.close_to_end

    def player_range(self, players: int, pro: bool = False) -> tuple[int, int]:
        """Return the lowest and highest score one player may have in a round at this table:
        the page refuses others before it draws the round (static/waiting.js); check_round
        refuses them with the game's own words."""
        return self.score_range

    def points(self, typed: RoundScores) -> tuple[int, ...]:
        """Return the points each player scores for a round as typed (most games: the scores)."""
        return typed.scores
