"""Flip 7 (The Op): a round scores 0 (a bust) to 171, only what a hand can make; highest wins."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import cache
from itertools import combinations

from app.rules.games.base import (
    Best,
    CardBox,
    CardCount,
    CountedHand,
    EndRule,
    RoundGame,
    RoundScores,
)
from app.rules.messages import N_, Message, Names, Np_, Refusal

NUMBERS = range(13)  # number cards 0 to 12; a hand holds each at most once (a second one busts)
ADDED = (2, 4, 6, 8, 10)  # the +N modifiers, one of each
FLIP_7 = 7  # seven distinct numbers: a Flip 7, +15, and the round ends
FLIP_7_BONUS = 15
LIMIT = 200


@cache
def reachable_scores(factors: tuple[int, ...] = (1, 2)) -> frozenset[int]:
    """Return every score a hand can make: its numbers, doubled by the ×2 (numbers only), plus
    the +N cards it holds, plus 15 for a Flip 7; and 0, a bust. `factors`: (1,) for a hand
    without the ×2."""
    added = {sum(cards) for k in range(len(ADDED) + 1) for cards in combinations(ADDED, k)}
    scores = {0}
    for count in range(FLIP_7 + 1):
        bonus = FLIP_7_BONUS if count == FLIP_7 else 0
        for numbers in combinations(NUMBERS, count):
            for factor in factors:
                scores |= {sum(numbers) * factor + more + bonus for more in added}
    return frozenset(scores)


def most_without_double() -> int:
    """Return the best a hand makes without the ×2 (108): the deck holds one ×2, so in one round
    at most one player scores more."""
    return max(reachable_scores((1,)))


def _unreachable_note() -> Message:
    """Say which scores no hand makes, from the computed set: « 146, 148 … 170 »."""
    top = max(reachable_scores())
    missing = [score for score in range(top + 1) if score not in reachable_scores()]
    return N_(
        "Au Flip 7, une manche vaut de 0 (perdu) à %(top)s points, sauf %(missing)s\u202f: aucune "
        "main ne les fait.",
        top=top,
        missing=f"{missing[0]}, {missing[1]} … {missing[-1]}",
    )


def _one_double(players: Sequence[str], doubled: Sequence[int], most: int) -> Message:
    """Say why two scores above 108 cannot share a round, naming their players (a round-wide
    refusal: neither score is wrong alone)."""
    return N_(
        "Une seule carte ×2 dans le paquet\u202f: %(names)s ne peuvent pas tous dépasser "
        "%(most)s points dans la même manche (au-delà, il faut le ×2).",
        names=Names(tuple(players[seat] for seat in doubled)),
        most=most,
    )


# « Compter les cartes »: a hand's boxes, by their value in the form. The deck holds n copies of
# the number n (one 0), and one of each modifier and of the ×2.
DOUBLE = "x2"
BUST = "perdu"
COPIES = {str(number): max(number, 1) for number in NUMBERS} | {f"+{more}": 1 for more in ADDED}
COPIES[DOUBLE] = 1


class Flip7Cards(CardCount):
    """A Flip 7 round counted from the cards each player kept, ticked: its numbers, doubled by
    the ×2 (numbers only), then its +N cards, then 15 for seven numbers (a Flip 7); a bust (or
    nothing ticked) scores 0."""

    lead = N_(
        "Cochez les cartes que chaque joueur garde à la fin de la manche, ou "
        "«\u202fPerdu\u202f»\u202f: le compteur fait le calcul et vérifie la manche avec le paquet."
    )
    boxes = (
        *(CardBox(str(number), str(number)) for number in NUMBERS),
        *(CardBox(f"+{more}", f"+{more}") for more in ADDED),
        CardBox(DOUBLE, "×2"),
        CardBox(BUST, N_("Perdu")),
    )

    def count_hand(self, typed: Sequence[str]) -> CountedHand:
        """Score a hand from its boxes ticked, or refuse more than seven numbers (the seventh
        ends the round) and a box this game does not have (a hand-made form)."""
        known = [box.value for box in self.boxes]
        strange = [value for value in typed if value not in known]
        if strange:
            raise Refusal.of(
                N_("«\u202f%(typed)s\u202f» n’est pas une carte du Flip 7.", typed=strange[0][:20])
            )
        ticked = set(typed)
        cards = tuple(value for value in known if value in ticked)  # in the deck's order
        numbers = [number for number in NUMBERS if str(number) in ticked]
        if len(numbers) > FLIP_7:
            raise Refusal.of(
                N_(
                    "Plus de sept nombres\u202f: au septième nombre différent, c’est un Flip 7 "
                    "et la manche s’arrête."
                )
            )
        if BUST in ticked:
            return CountedHand(0, "0", (N_("Perdu"),), cards)
        added = [more for more in ADDED if f"+{more}" in ticked]
        doubled = DOUBLE in ticked
        flip_7 = len(numbers) == FLIP_7
        score = sum(numbers) * (2 if doubled else 1) + sum(added) + (FLIP_7_BONUS if flip_7 else 0)
        terms = [_numbers_term(numbers, doubled)] if numbers or doubled else []
        terms += [str(more) for more in added]
        terms += [str(FLIP_7_BONUS)] if flip_7 else []
        made = " + ".join(terms) or "0"
        shown = made if made == str(score) else f"{made} = {score}"
        notes = (N_("Flip 7\u202f: +%(bonus)s", bonus=FLIP_7_BONUS),) if flip_7 else ()
        return CountedHand(score, shown, notes, cards)

    def deck_refusals(self, hands: Sequence[CountedHand], players: Sequence[str]) -> list[Message]:
        """Refuse a card ticked for more players than the deck has of it (each modifier and the
        ×2 once, the number n n times), and seven numbers in two hands (the first ends the
        round)."""
        held = Counter(card for hand in hands for card in hand.cards)
        refusals: list[Message] = []
        for box in self.boxes:
            copies = COPIES.get(box.value)
            if copies is not None and held[box.value] > copies:
                holders = [
                    players[seat] for seat, hand in enumerate(hands) if box.value in hand.cards
                ]
                refusals.append(
                    Np_(
                        "Le paquet n’a qu’une carte %(card)s, cochée ici pour %(names)s.",
                        "Le paquet n’a que %(num)s cartes %(card)s, cochées ici pour %(names)s.",
                        copies,
                        card=box.label,
                        names=Names(tuple(holders)),
                    )
                )
        flips = [
            players[seat]
            for seat, hand in enumerate(hands)
            if BUST not in hand.cards
            and sum(card in hand.cards for card in map(str, NUMBERS)) == FLIP_7
        ]
        if len(flips) > 1:
            refusals.append(
                N_(
                    "Un seul Flip 7 par manche, car il la finit aussitôt\u202f: %(names)s ont "
                    "chacun sept nombres.",
                    names=Names(tuple(flips)),
                )
            )
        return refusals


def _numbers_term(numbers: Sequence[int], doubled: bool) -> str:
    """Write a hand's numbers, doubled where it holds the ×2: « (3 + 5 + 12) × 2 », « 5 × 2 »."""
    added = " + ".join(map(str, numbers)) or "0"
    if not doubled:
        return added
    return f"({added}) × 2" if len(numbers) > 1 else f"{added} × 2"


FLIP7_CARDS = Flip7Cards()


class Flip7(RoundGame):
    key = "flip-7"
    name = N_("Flip 7")
    summary = N_(
        "De 2 à 10 joueurs\u202f; le plus grand total gagne\u202f; fin dès qu’un total atteint 200."
    )
    min_players = 2
    max_players = 10
    best = Best.HIGHEST
    default_end = EndRule.AT_OR_ABOVE
    default_limit = LIMIT
    ends = (EndRule.AT_OR_ABOVE, EndRule.ROUNDS)
    bgg_id = 420087
    bgstats_name = "Flip 7"
    score_range = (0, max(reachable_scores()))
    # A hand that does not bust makes some 20 to 40 points: within 30 of 200, a good round wins.
    close_to_end = 30
    tie_plays_on = True
    card_count = FLIP7_CARDS

    @property
    def most_without_double(self) -> int:
        """The rules page's figure: above it, a hand holds the deck's one ×2."""
        return most_without_double()

    def check_round(
        self, typed: RoundScores, players: Sequence[str], variants: frozenset[str] = frozenset()
    ) -> RoundScores:
        """Refuse a score no hand can make (past 144 only the ×2 with seven cards goes, and its
        +15 makes it odd), and two hands above 108 in one round (the deck has one ×2)."""
        if len(typed.scores) != len(players):
            raise Refusal.of(N_("Il faut %(players)s scores, un par joueur.", players=len(players)))
        errors = {
            seat: _unreachable_note()
            for seat, score in enumerate(typed.scores)
            if score not in reachable_scores()
        }
        if errors:
            raise Refusal(errors, [])
        most = most_without_double()
        doubled = [seat for seat, score in enumerate(typed.scores) if score > most]
        if len(doubled) > 1:
            raise Refusal.of(_one_double(players, doubled, most))
        return RoundScores(typed.scores)


FLIP7 = Flip7()
