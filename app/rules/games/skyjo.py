"""Skyjo (Magilano): a round scores −17 to 140 a player; whoever ended the round may be doubled."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from app.rules.games.base import (
    Best,
    CardCount,
    CountedHand,
    DealRule,
    EndRule,
    RoundGame,
    RoundScores,
)
from app.rules.messages import N_, Message, Names, Refusal

# 12 cards of −2 to 12; three equal cards in a column are discarded. The lowest hand is five −2
# and seven −1 (no column of three alike); the highest, four columns of 12, 12, 11.
LOWEST_SCORE = 5 * -2 + 7 * -1
HIGHEST_SCORE = 4 * (12 + 12 + 11)
LIMIT = 100

# The deck: five −2, ten −1, fifteen 0, ten of each 1 to 12 (150 cards).
DECK = {-2: 5, -1: 10, 0: 15} | {value: 10 for value in range(1, 13)}
HAND = 12  # cards in front of a player: 4 columns of 3
COLUMNS = 4
# Cards of one value a hand can keep: two a column (three equal ones are discarded). It is what
# keeps a count within HIGHEST_SCORE: eight 12s and four 11s.
MOST_ALIKE = 2 * COLUMNS
SEPARATORS = re.compile(r"[\s,;]+")
MINUS = (
    "-\u2212\u2013"  # a keyboard's hyphen, the minus of a phone's symbols, an autocorrected dash
)


def card_text(value: int) -> str:
    """Write a card as printed: « −2 » with a true minus."""
    return f"\u2212{-value}" if value < 0 else str(value)


def _card(word: str) -> int | None:
    """Return the card a word names (« 12 », « -2 », « −1 »), or None."""
    digits = word[1:] if word[:1] in MINUS else word
    if not (digits.isascii() and digits.isdigit() and len(digits) <= 2):
        return None
    value = -int(digits) if word[:1] in MINUS else int(digits)
    return value if value in DECK else None


class SkyjoCards(CardCount):
    """A Skyjo round counted from the cards left in front of each player, typed: their sum, as
    they lie (the doubling of whoever ended the round is the round form's)."""

    lead = N_(
        "Tapez les cartes qui restent devant chaque joueur à la fin de la manche (une colonne de "
        "trois cartes égales est déjà défaussée)\u202f: le compteur les additionne et vérifie la "
        "manche avec le paquet."
    )
    hint = N_("Cartes, séparées par des espaces ou des virgules\u202f: 12 −2 0 5 5")

    def count_hand(self, typed: Sequence[str]) -> CountedHand:
        """Sum the cards typed, or refuse a word that is no card, more than 12 cards, and more
        than eight of a value (in four columns, three of them would share one, discarded)."""
        words = [word for text in typed for word in SEPARATORS.split(text) if word]
        for word in words:
            if _card(word) is None:
                raise Refusal.of(
                    N_(
                        "«\u202f%(typed)s\u202f» n’est pas une carte du Skyjo (de −2 à 12).",
                        typed=word[:20],
                    )
                )
        values = [value for word in words if (value := _card(word)) is not None]
        if len(values) > HAND:
            raise Refusal.of(
                N_(
                    "%(count)s cartes\u202f: un joueur en a 12 au plus devant lui.",
                    count=len(values),
                )
            )
        alike = [value for value, count in Counter(values).items() if count > MOST_ALIKE]
        if alike:
            raise Refusal.of(
                N_(
                    "Plus de huit cartes %(card)s\u202f: sur 4 colonnes, trois seraient dans la "
                    "même colonne, et défaussées.",
                    card=card_text(alike[0]),
                )
            )
        score = sum(values)
        made = " ".join(
            card_text(value) if at == 0 else f"{'−' if value < 0 else '+'} {abs(value)}"
            for at, value in enumerate(values)
        )
        shown = made if len(values) == 1 else f"{made} = {card_text(score)}" if values else "0"
        return CountedHand(score, shown, (), tuple(map(str, values)))

    def deck_refusals(self, hands: Sequence[CountedHand], players: Sequence[str]) -> list[Message]:
        """Refuse more cards of a value, all hands together, than the deck holds."""
        held = Counter(int(card) for hand in hands for card in hand.cards)
        return [
            N_(
                "Le paquet n’a que %(copies)s cartes %(card)s, il y en a %(held)s ici (%(names)s).",
                copies=copies,
                card=card_text(value),
                held=held[value],
                names=Names(
                    tuple(
                        players[seat] for seat, hand in enumerate(hands) if str(value) in hand.cards
                    )
                ),
            )
            for value, copies in DECK.items()
            if held[value] > copies
        ]


SKYJO_CARDS = SkyjoCards()


class Skyjo(RoundGame):
    key = "skyjo"
    name = N_("Skyjo")
    summary = N_(
        "De 2 à 8 joueurs\u202f; le plus petit total gagne\u202f; fin dès qu’un total atteint 100."
    )
    min_players = 2
    max_players = 8
    best = Best.LOWEST
    default_end = EndRule.AT_OR_ABOVE
    default_limit = LIMIT
    ends = (EndRule.AT_OR_ABOVE, EndRule.ROUNDS)
    bgg_id = 204135
    bgstats_name = "Skyjo"
    round_ender = True
    scores_are_points = False
    offline_points = "ender-doubled"  # static/tally.js's name for `points` below
    score_range = (LOWEST_SCORE, HIGHEST_SCORE)
    # A round's scores run to 140, but most hands end between 10 and 30 points: within 25 of
    # 100, one more round may well end the game.
    close_to_end = 25
    card_count = SKYJO_CARDS
    # The rule book: whoever ended a round starts the next (no one deals in turn).
    deal_rule = DealRule.ROUND_ENDER
    deals = N_("commence")
    who_deals = N_("Qui commence ?")

    def check_round(
        self, typed: RoundScores, players: Sequence[str], variants: frozenset[str] = frozenset()
    ) -> RoundScores:
        """Refuse a score no hand can make, and a round that does not say who ended it."""
        if len(typed.scores) != len(players):
            raise Refusal.of(N_("Il faut %(players)s scores, un par joueur.", players=len(players)))
        errors: dict[int, Message] = {
            seat: N_(
                "Au Skyjo, une manche vaut de %(low)s à %(high)s points pour un joueur.",
                low=LOWEST_SCORE,
                high=HIGHEST_SCORE,
            )
            for seat, score in enumerate(typed.scores)
            if not LOWEST_SCORE <= score <= HIGHEST_SCORE
        }
        whole = []
        if typed.ended_by is None or not 0 <= typed.ended_by < len(players):
            whole.append(N_("Dites qui a fini la manche (il a retourné toutes ses cartes)."))
        if errors or whole:
            raise Refusal(errors, whole)
        return typed

    def points(self, typed: RoundScores) -> tuple[int, ...]:
        """Double the score of whoever ended the round when it is positive and not strictly the
        lowest of the round (a tie for the lowest doubles; 0 or less never does)."""
        ender = typed.ended_by
        if ender is None:
            return typed.scores
        score = typed.scores[ender]
        strictly_lowest = all(score < other for s, other in enumerate(typed.scores) if s != ender)
        if score <= 0 or strictly_lowest:
            return typed.scores
        return tuple(
            value * 2 if seat == ender else value for seat, value in enumerate(typed.scores)
        )


SKYJO = Skyjo()
