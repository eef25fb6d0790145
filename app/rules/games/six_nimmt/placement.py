"""Card placement: what the round assistant does with the cards of a round, by the rules.

Rows are tuples of cards, oldest first; seats are 0-based, rows too (« Rangée 1 » is row 0).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

from app.rules.games.six_nimmt.cards import HAND_SIZE, ROW_LENGTH, ROWS, row_heads


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
class RowsRound:
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

    def with_turn(self, cards: Sequence[int]) -> RowsRound:
        if self.waiting or self.is_complete:
            raise ValueError("this round takes no more cards now")
        return RowsRound(self.players, self.starts, (*self.turns, PlayedTurn(tuple(cards))))

    def with_choice(self, row: int) -> RowsRound:
        if self.waiting is None:
            raise ValueError("no card waits for a choice")
        if not 0 <= row < ROWS:
            raise ValueError(f"no row {row + 1}")
        last = PlayedTurn(self.turns[-1].cards, row)
        return RowsRound(self.players, self.starts, (*self.turns[:-1], last))

    def without_last_turn(self) -> RowsRound:
        return RowsRound(self.players, self.starts, self.turns[:-1])
