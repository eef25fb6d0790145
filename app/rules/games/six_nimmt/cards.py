"""The cards of « 6 qui prend ! »: the deck, the heads each card carries, how many heads a round
can hold, and which numbers can be the cards typed at the table."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from app.rules.messages import N_, Message, Refusal

DECK_SIZE = 104
HAND_SIZE = 10
ROWS = 4
ROW_LENGTH = 5
DEFAULT_LIMIT = 66  # the rule book's end: a total above 66


def heads(card: int) -> int:
    """Return the bullheads printed on a card (1 to 104)."""
    if not 1 <= card <= DECK_SIZE:
        raise ValueError(f"no card {card} in the deck")
    if card == 55:
        return 7
    if card % 11 == 0:
        return 5
    if card % 10 == 0:
        return 3
    if card % 5 == 0:
        return 2
    return 1


@cache
def _heaviest_first(deck_size: int) -> tuple[int, ...]:
    return tuple(sorted((heads(card) for card in range(1, deck_size + 1)), reverse=True))


def deck_size(players: int, pro: bool = False) -> int:
    """Return how many cards are used: all 104, or only 1 to 10n + 4 with the « pro » variant."""
    return HAND_SIZE * players + ROWS if pro else DECK_SIZE


def most_cards_taken(players: int) -> int:
    """Return the most cards one player can take in a round: at most one full row (5 cards) per
    turn, so 50, and never more than the 10n cards that can leave the table (4 always stay)."""
    return min(ROW_LENGTH * HAND_SIZE, HAND_SIZE * players)


def max_heads_for_player(players: int, pro: bool = False) -> int:
    """Return the most heads one player can take in a round: those of the heaviest cards."""
    return sum(_heaviest_first(deck_size(players, pro))[: most_cards_taken(players)])


def max_heads_for_round(players: int, pro: bool = False) -> int:
    """Return the most heads all players together can take in a round: the heaviest 10n cards."""
    return sum(_heaviest_first(deck_size(players, pro))[: HAND_SIZE * players])


def row_heads(row: Sequence[int]) -> int:
    """Return the heads of the cards of a row."""
    return sum(heads(card) for card in row)


def _card_range(players: int, pro: bool) -> Message:
    top = deck_size(players, pro)
    if pro:
        return N_("de 1 à %(top)s (variante pro à %(players)s joueurs)", top=top, players=players)
    return N_("de 1 à %(top)s", top=top)


def check_cards(
    cards: Sequence[int | None],
    labels: Sequence[str | Message],
    *,
    players: int,
    pro: bool = False,
    seen: frozenset[int] = frozenset(),
) -> tuple[int, ...]:
    """Return the cards given in these fields (one per label; None for a blank one), or raise
    Refusal saying, field by field, what is wrong.

    Each must be a card of this game's deck, not one already `seen` this round, and no two alike.
    The numbers come parsed (the forms read the text).
    """
    top = deck_size(players, pro)
    field_errors: dict[int, Message] = {}
    checked: list[int] = []
    first_field: dict[int, int] = {}
    for index, label in enumerate(labels):
        card = cards[index] if index < len(cards) else None
        if card is None:
            field_errors[index] = N_(
                "Tapez le numéro de la carte, %(range)s.", range=_card_range(players, pro)
            )
        elif not 1 <= card <= top:
            field_errors[index] = N_(
                "%(card)s n’est pas une carte de ce jeu : %(range)s.",
                card=card,
                range=_card_range(players, pro),
            )
        elif card in seen:
            field_errors[index] = N_(
                "Le %(card)s est déjà sur la table ou a déjà été joué.", card=card
            )
        elif card in first_field:
            other = labels[first_field[card]]
            field_errors[index] = N_(
                "Le %(card)s est donné deux fois (%(first)s et %(second)s).",
                card=card,
                first=other,
                second=label,
            )
            field_errors.setdefault(first_field[card], field_errors[index])
        else:
            first_field[card] = index
            checked.append(card)
    if field_errors:
        raise Refusal(field_errors, [])
    return tuple(checked)


def check_pile(cards: Sequence[int], players: int, pro: bool = False) -> tuple[int, ...]:
    """Return the cards of a pile, or raise Refusal naming each number that is not a card
    of this game, or that is there twice."""
    if not cards:
        raise Refusal({}, [N_("Tapez les numéros des cartes, séparés par des espaces.")])
    top = deck_size(players, pro)
    errors: list[Message] = []
    for index, card in enumerate(cards):
        if not 1 <= card <= top:
            errors.append(
                N_(
                    "« %(card)s » n’est pas une carte de ce jeu : %(range)s.",
                    card=card,
                    range=_card_range(players, pro),
                )
            )
        elif card in cards[:index]:
            errors.append(
                N_(
                    "Le %(card)s est tapé deux fois : chaque carte n’existe qu’une fois.",
                    card=card,
                )
            )
    most = most_cards_taken(players)
    if len(cards) > most:
        errors.append(
            N_(
                "Une pile a au plus %(most)s cartes dans une manche à %(players)s joueurs.",
                most=most,
                players=players,
            )
        )
    if errors:
        raise Refusal({}, errors)
    return tuple(cards)


def cards_by_heads() -> list[tuple[int, tuple[int, ...]]]:
    """Return (heads, the cards that carry them) for the whole deck, most heads first."""
    values = sorted({heads(card) for card in range(1, DECK_SIZE + 1)}, reverse=True)
    return [
        (value, tuple(card for card in range(1, DECK_SIZE + 1) if heads(card) == value))
        for value in values
    ]
