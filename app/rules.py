"""The rules of « 6 qui prend ! »: heads, round bounds, end of game, leaders, winners.

Pure Python: no Flask, no database, no I/O. What the rules say to players is a Message: a
French sentence with named blanks, translated by the web layer, which knows the person's language.
"""

from __future__ import annotations

import enum
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache, cached_property

MIN_PLAYERS = 2
MAX_PLAYERS = 10
MAX_NAME_LENGTH = 30
DECK_SIZE = 104
HAND_SIZE = 10
ROWS = 4
ROW_LENGTH = 5
DEFAULT_LIMIT = 66
LIMIT_RANGE = (10, 500)
ROUND_COUNT_RANGE = (1, 50)


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


def max_heads_for_player(players: int, pro: bool = False) -> int:
    """Return the most heads one player can take in a round.

    A player takes at most one full row (5 cards) per turn, so at most 50 cards, and never more
    than the 10n cards that can leave the table (4 always stay, one per row).
    """
    cards = min(ROW_LENGTH * HAND_SIZE, HAND_SIZE * players)
    return sum(_heaviest_first(deck_size(players, pro))[:cards])


def max_heads_for_round(players: int, pro: bool = False) -> int:
    """Return the most heads all players together can take in a round: the heaviest 10n cards."""
    return sum(_heaviest_first(deck_size(players, pro))[: HAND_SIZE * players])


@dataclass(frozen=True)
class Message:
    """A sentence for the players: a French text with %(name)s blanks, and what fills them.

    The rules cannot know the person's language, and must not import Flask to ask: they say
    what is wrong, and the layer that answers the request translates `text` (the catalogs' msgid)
    and fills in `values` (app.i18n.translate). str() gives the French sentence (logs, tests).
    """

    text: str
    values: Mapping[str, object] = field(default_factory=dict)

    def __str__(self) -> str:
        return self.text % {name: str(value) for name, value in self.values.items()}


# N_ is gettext's usual name for "mark now, translate later", and one of pybabel's keywords.
def N_(text: str, **values: object) -> Message:
    """Mark a sentence for translation (pybabel extracts N_) and keep its values for later."""
    return Message(text, values)


# Someone always takes at least one card: 4 rows absorb at most 16 cards and 10n >= 20 are played.
MIN_HEADS_FOR_ROUND = 1


class InvalidRound(Exception):
    """A round that cannot have happened; says why, per player and for the whole round."""

    def __init__(self, player_errors: dict[int, Message], round_errors: list[Message]):
        super().__init__("; ".join(map(str, [*player_errors.values(), *round_errors])))
        self.player_errors = player_errors
        self.round_errors = round_errors


class InvalidPlayers(Exception):
    """Names that cannot start a game; says why, per seat and for the whole table."""

    def __init__(self, seat_errors: dict[int, Message], table_errors: list[Message]):
        super().__init__("; ".join(map(str, [*seat_errors.values(), *table_errors])))
        self.seat_errors = seat_errors
        self.table_errors = table_errors


class _Refusal(Exception):
    """A refusal that says why in one Message."""

    def __init__(self, message: Message):
        super().__init__(str(message))
        self.message = message


class GameOver(_Refusal):
    """A round was entered after the game ended (or a correction would have ended it earlier)."""


class InvalidGameRules(_Refusal):
    """An end-of-game rule with a limit or a round count out of range."""


# Characters that show nothing by themselves: format characters (zero-width spaces and joiners,
# direction marks and overrides such as U+202E), marks with nothing to sit on, spaces.
_INVISIBLE = ("Cf", "Mn", "Me", "Zs")


def _without_format_characters(name: str) -> str:
    return "".join(char for char in name if unicodedata.category(char) != "Cf")


def name_key(name: str) -> str:
    """Return the form of a name used to tell players apart: case, outer spaces and invisible
    format characters ignored (« Al\u200bice » is « Alice »)."""
    return _without_format_characters(unicodedata.normalize("NFC", name)).strip().casefold()


def is_invisible(name: str) -> bool:
    """Tell whether a name would show nothing on screen."""
    return all(unicodedata.category(char) in _INVISIBLE for char in name)


def seat_players(typed: Sequence[str]) -> list[str]:
    """Return the names that start a game, in seat order, or raise InvalidPlayers.

    Blank fields are ignored; the index of each error is the position of the field as typed.
    """
    seated = [(index, " ".join(name.split())) for index, name in enumerate(typed) if name.strip()]
    seat_errors: dict[int, Message] = {}
    first_seen: dict[str, int] = {}
    for index, name in seated:
        if any(unicodedata.category(char) in ("Cc", "Cs") for char in name):
            seat_errors[index] = N_(
                "Ce nom contient un caractère invisible ou invalide : retapez-le."
            )
        elif is_invisible(name):
            seat_errors[index] = N_(
                "Ce nom ne montre que des caractères invisibles : tapez un nom."
            )
        elif len(name) > MAX_NAME_LENGTH:
            seat_errors[index] = N_(
                "Ce nom fait %(length)s caractères : %(most)s au plus.",
                length=len(name),
                most=MAX_NAME_LENGTH,
            )
        elif name_key(name) in first_seen:
            # The name isolated (U+2068 … U+2069): one ending in U+202E cannot reverse the rest.
            seat_errors[index] = N_(
                "« %(name)s » est déjà à la table : donnez un autre nom.",
                name=f"\u2068{name}\u2069",
            )
        else:
            first_seen[name_key(name)] = index
    table_errors: list[Message] = []
    if len(seated) < MIN_PLAYERS:
        table_errors.append(
            N_(
                "Il faut au moins %(least)s joueurs : saisissez au moins %(least)s noms.",
                least=MIN_PLAYERS,
            )
        )
    if len(seated) > MAX_PLAYERS:
        table_errors.append(N_("On joue à %(most)s au plus : retirez des noms.", most=MAX_PLAYERS))
    if seat_errors or table_errors:
        raise InvalidPlayers(seat_errors, table_errors)
    return [name for _, name in seated]


class EndRule(enum.StrEnum):
    """When the game ends."""

    ABOVE = "above"  # some total strictly above the limit (the rule book: above 66)
    AT_OR_ABOVE = "at_or_above"  # some total at the limit or above (« 66 ou plus »)
    ROUNDS = "rounds"  # after a fixed number of rounds


@dataclass(frozen=True)
class GameRules:
    """The rules a table agreed on before starting; the defaults are the rule book's."""

    end: EndRule = EndRule.ABOVE
    limit: int = DEFAULT_LIMIT
    round_count: int | None = None
    pro: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "end", EndRule(self.end))  # accept "above" as well as the member
        if self.end is EndRule.ROUNDS:
            low, high = ROUND_COUNT_RANGE
            if self.round_count is None or not low <= self.round_count <= high:
                raise InvalidGameRules(
                    N_("Le nombre de manches va de %(low)s à %(high)s.", low=low, high=high)
                )
        else:
            low, high = LIMIT_RANGE
            if not low <= self.limit <= high:
                raise InvalidGameRules(
                    N_("La limite va de %(low)s à %(high)s.", low=low, high=high)
                )

    def has_crossed(self, total: int) -> bool:
        """Tell whether a total ends the game (never, when the game lasts a number of rounds)."""
        if self.end is EndRule.ABOVE:
            return total > self.limit
        if self.end is EndRule.AT_OR_ABOVE:
            return total >= self.limit
        return False

    def is_over(self, totals: Sequence[int], rounds_played: int) -> bool:
        """Tell whether the game ends after a round that left these totals."""
        if self.end is EndRule.ROUNDS:
            return rounds_played >= (self.round_count or 0)
        return any(self.has_crossed(total) for total in totals)


def check_round(heads_taken: Sequence[int], players: Sequence[str], pro: bool = False) -> list[int]:
    """Return the heads of a round, in seat order, or raise InvalidRound saying what is allowed.

    The numbers come parsed (forms and imports read the text); this checks only what a round of
    this game can hold.
    """
    n = len(players)
    most_for_player = max_heads_for_player(n, pro)
    most_for_round = max_heads_for_round(n, pro)
    player_errors: dict[int, Message] = {}
    if len(heads_taken) != n:
        raise InvalidRound(
            {}, [N_("Il faut %(players)s nombres de têtes, un par joueur.", players=n)]
        )
    for seat, value in enumerate(heads_taken):
        if value < 0:
            player_errors[seat] = N_(
                "De 0 à %(most)s têtes pour un joueur en une manche.", most=most_for_player
            )
        elif value > most_for_player:
            player_errors[seat] = N_(
                "%(value)s, c’est trop — %(players)s joueurs : au plus %(most)s têtes pour un "
                "joueur en une manche.",
                value=value,
                players=n,
                most=most_for_player,
            )
    round_errors: list[Message] = []
    if not player_errors:
        total = sum(heads_taken)
        if total < MIN_HEADS_FOR_ROUND:
            round_errors.append(
                N_(
                    "Personne n’a pris de tête ? Impossible : à chaque manche, au moins un "
                    "joueur ramasse des cartes."
                )
            )
        elif total > most_for_round:
            round_errors.append(
                N_(
                    "Cette manche compte %(total)s têtes en tout, c’est trop — %(players)s "
                    "joueurs : au plus %(most)s têtes en une manche, tous joueurs ensemble.",
                    total=total,
                    players=n,
                    most=most_for_round,
                )
            )
    if player_errors or round_errors:
        raise InvalidRound(player_errors, round_errors)
    return list(heads_taken)


def totals(rounds: Sequence[Sequence[int]], players: int) -> list[int]:
    """Return each player's total over the rounds, in seat order."""
    sums = [0] * players
    for heads_taken in rounds:
        for seat, value in enumerate(heads_taken):
            sums[seat] += value
    return sums


def lowest(totals_: Sequence[int]) -> frozenset[int]:
    """Return the seats holding the lowest total (all of them on a tie)."""
    if not totals_:
        return frozenset()
    best = min(totals_)
    return frozenset(seat for seat, total in enumerate(totals_) if total == best)


@dataclass(frozen=True)
class Scoresheet:
    """A game's players, its rounds so far and what follows from them."""

    players: tuple[str, ...]
    rounds: tuple[tuple[int, ...], ...] = ()
    rules: GameRules = field(default_factory=GameRules)

    @cached_property
    def totals(self) -> list[int]:
        return totals(self.rounds, len(self.players))

    @cached_property
    def running_totals(self) -> list[list[int]]:
        """Return each player's total after each round (one list per round)."""
        running, sums = [], [0] * len(self.players)
        for heads_taken in self.rounds:
            sums = [total + value for total, value in zip(sums, heads_taken, strict=True)]
            running.append(sums)
        return running

    @property
    def next_round(self) -> int:
        return len(self.rounds) + 1

    @cached_property
    def is_over(self) -> bool:
        return bool(self.rounds) and self.rules.is_over(self.totals, len(self.rounds))

    @cached_property
    def leaders(self) -> frozenset[int]:
        """Return the seats at the lowest total; nobody leads before the first round."""
        return lowest(self.totals) if self.rounds else frozenset()

    @cached_property
    def winners(self) -> frozenset[int]:
        """Return the seats that won (several on a shared win); nobody until the game is over."""
        return self.leaders if self.is_over else frozenset()

    @cached_property
    def crossers(self) -> frozenset[int]:
        """Return the seats whose total ended the game by crossing the limit."""
        if not self.is_over:
            return frozenset()
        return frozenset(s for s, total in enumerate(self.totals) if self.rules.has_crossed(total))

    @cached_property
    def standings(self) -> tuple[Standing, ...]:
        """Return the scoreboard's lines, in seat order: total, last round, rank, margin."""
        return standings(self)

    def check_round(self, heads_taken: Sequence[int]) -> list[int]:
        """Return the heads of the next round or raise GameOver / InvalidRound."""
        if self.is_over:
            raise GameOver(
                N_("La partie est terminée : annulez la dernière manche pour la rouvrir.")
            )
        return check_round(heads_taken, self.players, self.rules.pro)

    def with_round(self, heads_taken: Sequence[int]) -> Scoresheet:
        return Scoresheet(self.players, (*self.rounds, tuple(heads_taken)), self.rules)

    def with_round_replaced(self, number: int, heads_taken: Sequence[int]) -> Scoresheet:
        """Return the sheet with round `number` corrected, or raise GameOver.

        A correction may end the game, but only at the last round: had the game ended earlier,
        the rounds after it would never have been played.
        """
        rounds = list(self.rounds)
        rounds[number - 1] = tuple(heads_taken)
        sheet = Scoresheet(self.players, tuple(rounds), self.rules)
        for played, running in enumerate(sheet.running_totals[:-1], start=1):
            if self.rules.is_over(running, played):
                raise GameOver(
                    N_(
                        "Avec ces têtes, la partie se serait terminée après la manche "
                        "%(number)s : annulez d’abord les manches suivantes, ou corrigez "
                        "autrement.",
                        number=played,
                    )
                )
        return sheet


# --- Card placement: what the table assistant does with the cards of a round ---------------------
# Rows are tuples of cards, oldest first; seats are 0-based, rows too (« Rangée 1 » is row 0).


@dataclass(frozen=True)
class Placed:
    """A card went after the row whose last card was lower and closest."""

    seat: int
    card: int
    row: int
    taken: tuple[int, ...] = ()


@dataclass(frozen=True)
class SixthCard:
    """A card would have been the sixth of its row: its player took the five, it starts the row."""

    seat: int
    card: int
    row: int
    taken: tuple[int, ...]


@dataclass(frozen=True)
class RowChosen:
    """A card lower than every row's end: its player took the row they chose, it starts it."""

    seat: int
    card: int
    row: int
    taken: tuple[int, ...]


Placement = Placed | SixthCard | RowChosen


@dataclass(frozen=True)
class RowChoice:
    """A card lower than every row's end waits for its player to choose a row to take."""

    seat: int
    card: int
    costs: tuple[int, ...]  # the heads each row would cost, row by row


@dataclass(frozen=True)
class TurnPlaced:
    """What a turn did: the rows after it, and its placements from the lowest card up.

    While `waiting` is set nothing of the turn is placed: the rows are those before the turn.
    """

    rows: tuple[tuple[int, ...], ...]
    placements: tuple[Placement, ...] = ()
    waiting: RowChoice | None = None


def row_heads(row: Sequence[int]) -> int:
    """Return the heads of the cards of a row."""
    return sum(heads(card) for card in row)


def place_turn(
    rows: Sequence[Sequence[int]], cards: dict[int, int], chosen_row: int | None = None
) -> TurnPlaced:
    """Place the cards revealed in a turn (seat → card) on the rows, from the lowest card up.

    A card lower than every row's end needs its player's choice: without `chosen_row` the turn
    stops before placing anything and says who must choose; with it, that player takes the row.
    Only the lowest card of a turn can be too low, so a turn needs at most one choice.
    """
    table = [tuple(row) for row in rows]
    placements: list[Placement] = []
    for seat, card in sorted(cards.items(), key=lambda item: item[1]):
        lower = [index for index, row in enumerate(table) if row[-1] < card]
        if not lower:
            if chosen_row is None:
                costs = tuple(row_heads(row) for row in table)
                return TurnPlaced(
                    tuple(tuple(row) for row in rows), (), RowChoice(seat, card, costs)
                )
            if not 0 <= chosen_row < len(table):
                raise ValueError(f"no row {chosen_row + 1}")
            placements.append(RowChosen(seat, card, chosen_row, table[chosen_row]))
            table[chosen_row] = (card,)
            chosen_row = None
            continue
        row = max(lower, key=lambda index: table[index][-1])
        if len(table[row]) == ROW_LENGTH:
            placements.append(SixthCard(seat, card, row, table[row]))
            table[row] = (card,)
        else:
            placements.append(Placed(seat, card, row))
            table[row] = (*table[row], card)
    if chosen_row is not None:
        raise ValueError("no card of this turn is lower than every row's end")
    return TurnPlaced(tuple(table), tuple(placements))


@dataclass(frozen=True)
class PlayedTurn:
    """The cards a turn revealed, in seat order, and the row chosen if one was too low."""

    cards: tuple[int, ...]
    chosen_row: int | None = None


@dataclass(frozen=True)
class TableRound:
    """A round on the table: the four row starts and the turns so far, replayed from the start.

    The last turn may be waiting for a choice (`waiting`); a round is complete after ten turns.
    """

    players: int
    starts: tuple[int, ...]
    turns: tuple[PlayedTurn, ...] = ()

    @cached_property
    def _replayed(self) -> tuple[tuple[tuple[int, ...], ...], tuple[TurnPlaced, ...]]:
        rows: tuple[tuple[int, ...], ...] = tuple((card,) for card in self.starts)
        placed: list[TurnPlaced] = []
        for turn in self.turns:
            result = place_turn(rows, dict(enumerate(turn.cards)), turn.chosen_row)
            placed.append(result)
            rows = result.rows
        return rows, tuple(placed)

    @property
    def rows(self) -> tuple[tuple[int, ...], ...]:
        return self._replayed[0]

    @property
    def placed(self) -> tuple[TurnPlaced, ...]:
        """Return what each turn did, in order."""
        return self._replayed[1]

    @property
    def waiting(self) -> RowChoice | None:
        """Return the choice the last turn waits for, if any."""
        return self.placed[-1].waiting if self.placed else None

    @property
    def turns_placed(self) -> int:
        """Return how many turns are wholly placed (a turn waiting for a choice is not)."""
        return len(self.turns) - (1 if self.waiting else 0)

    @property
    def is_complete(self) -> bool:
        return self.turns_placed == HAND_SIZE

    @cached_property
    def piles(self) -> tuple[tuple[int, ...], ...]:
        """Return the cards each player took this round, in seat order."""
        piles: list[list[int]] = [[] for _ in range(self.players)]
        for turn in self.placed:
            for placement in turn.placements:
                piles[placement.seat].extend(placement.taken)
        return tuple(tuple(pile) for pile in piles)

    @property
    def heads_taken(self) -> tuple[int, ...]:
        """Return the heads each player took this round, in seat order."""
        return tuple(row_heads(pile) for pile in self.piles)

    @property
    def cards_seen(self) -> frozenset[int]:
        """Return every card laid or revealed this round (each card exists once)."""
        return frozenset(self.starts) | {card for turn in self.turns for card in turn.cards}

    def with_turn(self, cards: Sequence[int]) -> TableRound:
        if self.waiting or self.is_complete:
            raise ValueError("this round takes no more cards now")
        return TableRound(self.players, self.starts, (*self.turns, PlayedTurn(tuple(cards))))

    def with_choice(self, row: int) -> TableRound:
        if self.waiting is None:
            raise ValueError("no card waits for a choice")
        if not 0 <= row < ROWS:
            raise ValueError(f"no row {row + 1}")
        last = PlayedTurn(self.turns[-1].cards, row)
        return TableRound(self.players, self.starts, (*self.turns[:-1], last))

    def without_last_turn(self) -> TableRound:
        return TableRound(self.players, self.starts, self.turns[:-1])


class InvalidCards(Exception):
    """Numbers that cannot be these cards; says why, per field and for the whole set."""

    def __init__(self, field_errors: dict[int, Message], errors: list[Message]):
        super().__init__("; ".join(map(str, [*field_errors.values(), *errors])))
        self.field_errors = field_errors
        self.errors = errors


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
    InvalidCards saying, field by field, what is wrong.

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
        raise InvalidCards(field_errors, [])
    return tuple(checked)


def check_pile(cards: Sequence[int], players: int, pro: bool = False) -> tuple[int, ...]:
    """Return the cards of a pile, or raise InvalidCards naming each number that is not a card
    of this game, or that is there twice."""
    if not cards:
        raise InvalidCards({}, [N_("Tapez les numéros des cartes, séparés par des espaces.")])
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
    if errors:
        raise InvalidCards({}, errors)
    return tuple(cards)


def cards_by_heads() -> list[tuple[int, tuple[int, ...]]]:
    """Return (heads, the cards that carry them) for the whole deck, most heads first."""
    values = sorted({heads(card) for card in range(1, DECK_SIZE + 1)}, reverse=True)
    return [
        (value, tuple(card for card in range(1, DECK_SIZE + 1) if heads(card) == value))
        for value in values
    ]


CLOSE_TO_LIMIT = 10  # heads: within this many of the limit, a player's row warns


@dataclass(frozen=True)
class Standing:
    """One player's line of the scoreboard: what the table wants to see at a glance."""

    seat: int
    name: str
    total: int
    last: int | None  # the heads of the last round, None before the first one
    rank: int | None  # 1 for the leaders; ties share a rank (1, 1, 3); None before a round
    leads: bool
    limit: int | None  # the gauge's end, when the game ends on a limit
    spare: int | None  # heads still allowed before this player ends the game (None: no limit)
    reaching_ends: bool = False  # « 66 ou plus »: reaching the limit ends the game

    @property
    def gauge(self) -> int | None:
        """Return the gauge's value: the total, capped at the limit (as a <meter> would)."""
        return None if self.limit is None else min(self.total, self.limit)

    @property
    def warning(self) -> Message | None:
        """Say, in words and not by colour alone, that this player is close to ending the game."""
        if self.spare is None or self.spare > CLOSE_TO_LIMIT:
            return None
        if self.spare < 0:
            if self.reaching_ends:
                return N_("A atteint %(limit)s", limit=self.limit)
            return N_("A dépassé %(limit)s", limit=self.limit)
        if self.spare == 0:
            return N_("À la limite\u202f: la moindre tête finit la partie")
        return N_("Marge avant la fin\u202f: %(spare)s", spare=self.spare)


def ranks(totals_: Sequence[int]) -> list[int]:
    """Return each seat's rank, lowest total first; tied totals share a rank (1, 1, 3)."""
    return [1 + sum(other < total for other in totals_) for total in totals_]


def _spare(game_rules: GameRules, total: int) -> int | None:
    if game_rules.end is EndRule.ROUNDS:
        return None
    last_allowed = game_rules.limit if game_rules.end is EndRule.ABOVE else game_rules.limit - 1
    return last_allowed - total


def standings(sheet: Scoresheet) -> tuple[Standing, ...]:
    """Return the scoreboard's lines, in seat order."""
    played = bool(sheet.rounds)
    ranked = ranks(sheet.totals)
    limit = None if sheet.rules.end is EndRule.ROUNDS else sheet.rules.limit
    return tuple(
        Standing(
            seat=seat,
            name=name,
            total=sheet.totals[seat],
            last=sheet.rounds[-1][seat] if played else None,
            rank=ranked[seat] if played else None,
            leads=seat in sheet.leaders,
            limit=limit,
            spare=_spare(sheet.rules, sheet.totals[seat]),
            reaching_ends=sheet.rules.end is EndRule.AT_OR_ABOVE,
        )
        for seat, name in enumerate(sheet.players)
    )
