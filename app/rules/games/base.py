"""What every round game on the counter is: one small interface, `RoundGame`, that the rest of the
app asks — its name, who may sit, what a round may hold, how typed scores become points, when it
ends and who wins, its words and its BoardGameGeek id — and what follows from it, declared rather
than known elsewhere: the choices a table has on the new-game form (its ends, « Autre limite », its
variants, a free game's name and winner rule), its offline points rule, its tools, its count of a
round from the cards. Each game is one module (or package) beside this one."""

from __future__ import annotations

import abc
import enum
from collections.abc import Sequence
from dataclasses import dataclass

from app.rules.messages import N_, Message, Refusal


class EndRule(enum.StrEnum):
    """When the game ends."""

    ABOVE = "above"  # some total strictly above the limit (6 qui prend's rule book: above 66)
    AT_OR_ABOVE = "at_or_above"  # some total at the limit or above (« 66 ou plus », Skyjo's 100)
    ROUNDS = "rounds"  # after a fixed number of rounds


class Best(enum.StrEnum):
    """Which total wins."""

    LOWEST = "lowest"
    HIGHEST = "highest"


class Tool(enum.StrEnum):
    """A help the game page links to below the round form, where the game offers it."""

    ASSISTANT = "assistant"  # « Assistant de manche »: places the cards of a round
    HEAD_COUNT = "head-count"  # « Compter les têtes »: counts a pile of cards


class DealRule(enum.StrEnum):
    """Who deals (or starts) the next round: its value is static/tally.js's name for it, so a
    round counted offline moves the marker as the server will."""

    NEXT_SEAT = "next-seat"  # the next player in seat order, after the last the first
    ROUND_ENDER = "round-ender"  # whoever ended the round (Skyjo)


@dataclass(frozen=True)
class Variant:
    """A variant a table may choose before starting (6 qui prend's « Variante pro »): its key is
    what GameRules.variants holds (stored and exported under that name), the new-game form shows
    its label and hint, and the rules say `note` after the end rule (`%(rule)s` is the rule) and
    `sentence` after the game page's sentence."""

    key: str
    label: Message
    hint: Message
    note: Message
    sentence: Message


@dataclass(frozen=True)
class RoundScores:
    """A round as typed: each player's score in seat order, and who ended it where the game says
    so (Skyjo's « A fini la manche »; None elsewhere)."""

    scores: tuple[int, ...]
    ended_by: int | None = None


@dataclass(frozen=True)
class CardBox:
    """A card a hand is ticked from on « Compter les cartes »: the box's value in the form, and
    its name on the page (the card's own figures, « 12 », « ×2 », or a word to translate)."""

    value: str
    label: str | Message


@dataclass(frozen=True)
class CountedHand:
    """A player's cards, counted: the score, the sum that made it in figures and signs alone
    (« (3 + 5 + 12) × 2 + 4 = 44 »: the same in every language), what is said beside it
    (« Flip 7 : +15 »), and the cards read, by their value in the form (for the deck's check)."""

    score: int
    sum: str
    notes: tuple[Message, ...] = ()
    cards: tuple[str, ...] = ()


class CardCount(abc.ABC):
    """« Compter les cartes »: a round counted from the cards each player holds at its end, and
    checked against the deck the table plays with. A game declares its own (RoundGame.card_count);
    the page shows its boxes (or one text field a player, where `boxes` is empty) and asks it."""

    lead: Message  # what the page says first: what to tick or type
    boxes: tuple[CardBox, ...] = ()  # a hand's cards, ticked one by one; none: typed as text
    hint: Message | None = None  # the text field's description: how to type a hand

    @abc.abstractmethod
    def count_hand(self, typed: Sequence[str]) -> CountedHand:
        """Return a hand's score and how it was made, from what the form sent for the player
        (the boxes ticked, or the text typed), or raise Refusal.of(what is wrong with it)."""

    @abc.abstractmethod
    def deck_refusals(self, hands: Sequence[CountedHand], players: Sequence[str]) -> list[Message]:
        """Return what the deck cannot give to these hands together, naming the cards and the
        players: nothing for a round the deck can deal."""

    def count_round(
        self, typed: Sequence[Sequence[str]], players: Sequence[str]
    ) -> tuple[CountedHand, ...]:
        """Return each player's counted hand, in seat order, or raise one Refusal: what is wrong
        with a hand by seat, and what the deck cannot give to the hands that are right alone
        (every mistake at once, not one more after each correction)."""
        counted: dict[int, CountedHand] = {}
        errors: dict[int, Message] = {}
        for seat, hand in enumerate(typed):
            try:
                counted[seat] = self.count_hand(hand)
            except Refusal as refused:
                errors[seat] = refused.said()
        hands = tuple(counted.values())  # in seat order, the refused ones left out
        whole = self.deck_refusals(hands, [players[seat] for seat in counted])
        if errors or whole:
            raise Refusal(errors, whole)
        return hands


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
    # The new-game form's « Autre limite »: the table may type a limit of its own (limit_range).
    other_limit: bool = False
    # A free game's « Nom du jeu »: the table names the game (and, with `best` None, says which
    # total wins: « Qui gagne ? »).
    table_names_it: bool = False
    variants: tuple[Variant, ...] = ()  # chosen on the new-game form: GameRules.variants
    tools: tuple[Tool, ...] = ()  # the helps the game page offers (the assistant, the count)
    # « Compter les cartes »: a round counted from each player's cards (Skyjo, Flip 7); None
    # where the game has no such count. Its page and link follow from it.
    card_count: CardCount | None = None
    # How static/tally.js turns a round's scores into points offline, by name (its table of
    # named rules): None where the scores are the points; "ender-doubled" for Skyjo's doubling.
    # A game whose `points` is its own needs a rule of that table, or its rounds typed offline
    # are counted on the server only.
    offline_points: str | None = None
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
    # Who deals or starts the next round, and the words for it: the scoreboard's marker (« donne »)
    # and the form that sets it by hand (« Qui donne ? »).
    deal_rule: DealRule = DealRule.NEXT_SEAT
    deals: Message = N_("donne")
    who_deals: Message = N_("Qui donne ?")

    @property
    def chooses_best(self) -> bool:
        """Tell whether the table says which total wins (« Qui gagne ? »: a free game)."""
        return self.best is None

    @property
    def end_choices(self) -> tuple[EndRule, ...]:
        """Return the ends at the game's own limit a table picks between on the new-game form
        (6 qui prend: « Plus de 66 », « 66 ou plus »); none where the game's own end goes without
        a choice (Skyjo, Flip 7) or where it has no limit of its own (a free game)."""
        at_limit = tuple(end for end in self.ends if end is not EndRule.ROUNDS)
        return at_limit if self.default_limit is not None and len(at_limit) > 1 else ()

    @abc.abstractmethod
    def check_round(
        self, typed: RoundScores, players: Sequence[str], variants: frozenset[str] = frozenset()
    ) -> RoundScores:
        """Return the round as typed, or raise Refusal saying, field by field, what is allowed.

        The numbers come parsed (forms and imports read the text); `variants`: the keys of the
        game's variants the table chose (GameRules.variants), read by the game that has them."""

    def margin(self, limit: int) -> int:
        """Return how near `limit` a total is when its row says so (most games: close_to_end)."""
        return self.close_to_end

    def player_range(self, players: int, variants: frozenset[str] = frozenset()) -> tuple[int, int]:
        """Return the lowest and highest score one player may have in a round at this table:
        the page refuses others before it draws the round (static/waiting.js); check_round
        refuses them with the game's own words."""
        return self.score_range

    def points(self, typed: RoundScores) -> tuple[int, ...]:
        """Return the points each player scores for a round as typed (most games: the scores)."""
        return typed.scores

    def next_dealer(self, dealer: int, typed: RoundScores, seats: int) -> int:
        """Return the seat that deals (or starts) the round after `typed`, which `dealer` dealt:
        by the game's deal_rule. A round that names no ender (one imported so) passes the deal
        to the next seat."""
        if self.deal_rule is DealRule.ROUND_ENDER and typed.ended_by is not None:
            return typed.ended_by % seats
        return (dealer + 1) % seats
