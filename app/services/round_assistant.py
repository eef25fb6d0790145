"""The round assistant's service: lay the rows, place a turn, take a row, take a turn back.

Each write loads its game with a lock (as app.services.rounds does), checks, writes and returns the
assistant as it now stands; the view only commits. A double tap, a second tab or a retried
request comes after the first and is found stale by the turn number it carries: a turn is never
placed twice. A refused step changes nothing, frees the lock at once and raises an exception
that carries the assistant as it stands, to show it again. What is stored is only what the
table typed and chose; app.rules replays it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Row, select

from app import rules
from app.platform.extensions import db
from app.rules.games import six_nimmt
from app.services.access import load_game  # a write's load, lock included
from app.services.reads import read_game, rows_round_of
from app.services.refusals import GameChanged, GameNotFound, check_version
from app.services.saved_game import SavedGame
from app.services.unit_of_work import UnitOfWork
from app.storage.models import Game, RowsRoundState

ROW_LABELS = tuple(
    rules.N_("Rangée %(number)s", number=row) for row in range(1, six_nimmt.ROWS + 1)
)


@dataclass(frozen=True)
class Assistant:
    """The assistant's round for a game's next round, as the page shows it.

    `rows_round` is None until the rows are laid; `dropped` names a round the assistant had begun
    but that was recorded by hand meanwhile; `taken_back` holds the cards of a turn just taken
    back, to type again.
    """

    game: SavedGame
    rows_round: six_nimmt.RowsRound | None
    dropped: int | None = None
    taken_back: tuple[int, ...] = ()

    @property
    def round_number(self) -> int:
        return self.game.scoresheet.next_round

    @property
    def next_turn(self) -> int:
        """Return the number of the turn to place next (1 to 10)."""
        return (self.rows_round.turns_placed if self.rows_round else 0) + 1

    @property
    def turn_count(self) -> int:
        """Return how many turns are stored, the one waiting for a choice included."""
        return len(self.rows_round.turns) if self.rows_round else 0


class StepRefused(Exception):
    """A step that changed nothing: `assistant` is the assistant as it stands, `refusal` why."""

    def __init__(self, assistant: Assistant, refusal: rules.Refusal):
        super().__init__(str(refusal))
        self.assistant = assistant
        self.refusal = refusal


class StaleStep(StepRefused):
    """A step already done or overtaken (a repeat, another tab): nothing to do."""


class CardsRefused(StepRefused):
    """Cards that cannot be laid or played now; says why, field by field."""


class SheetChanged(StepRefused):
    """A step from a page drawn from an older game (a round recorded, cancelled or corrected on
    another phone since): nothing done, the cards typed kept."""


CHANGED = rules.N_(
    "La partie a changé sur un autre téléphone ou un autre onglet : rien n’a été placé. Voici "
    "la table à jour ; vos cartes sont gardées."
)


def _state_of(game: Game) -> RowsRoundState | None:
    return db.session.scalars(
        select(RowsRoundState).where(RowsRoundState.game_id == game.id)
    ).one_or_none()


def _assistant(game: SavedGame, state: RowsRoundState | Row[Any] | None) -> Assistant:
    sheet = game.scoresheet
    if rules.Tool.ASSISTANT not in sheet.rules.game.tools:  # it places 6 qui prend's cards
        raise GameNotFound(game.public_id)
    if state is None:
        return Assistant(game, None)
    rows_round = rows_round_of(state, len(sheet.players))
    if state.round_number == sheet.next_round:
        return Assistant(game, rows_round)
    # That round was recorded (or cancelled) on the game page: this state is for another round.
    # One begun, with turns placed, and left unfinished is named (until new rows are laid), so
    # the table knows where its turns went; rows laid and no turn placed lost nothing to say.
    recorded_by_hand = (
        state.round_number < sheet.next_round
        and rows_round.turns_placed > 0
        and not rows_round.is_complete
    )
    return Assistant(game, None, state.round_number if recorded_by_hand else None)


def assistant(public_id: str, device_hash: str | None) -> Assistant:
    """Return the assistant's round for the device's game, or raise GameNotFound (also for a
    game that is not « 6 qui prend ! »)."""
    return _assistant(*read_game(public_id, device_hash, with_rows=True))


def _open(
    public_id: str, device_hash: str | None, version: int | None
) -> tuple[Game, RowsRoundState | None, Assistant]:
    """Load the game locked for a write (inside a unit of work), with its assistant state;
    refuse if the game changed since the step's page was drawn from its `version`, or is over.
    (The assistant's own steps change no version: a repeat is found by its turn.)"""
    game = load_game(public_id, device_hash, for_update=True)
    state = _state_of(game)
    current = _assistant(SavedGame.of(game), state)
    try:
        check_version(current.game, version, CHANGED)
    except GameChanged as changed:
        raise SheetChanged(current, changed.refusal) from changed
    if current.game.scoresheet.is_over:
        over = rules.N_("La partie est terminée : l’assistant n’a plus de manche à placer.")
        raise CardsRefused(current, rules.Refusal.of(over))
    return game, state, current


def _live(
    public_id: str, device_hash: str | None, version: int | None
) -> tuple[RowsRoundState, Assistant, six_nimmt.RowsRound]:
    _game, state, current = _open(public_id, device_hash, version)
    if (
        state is None or current.rows_round is None
    ):  # no rows laid for this round (dropped, never laid)
        raise StaleStep(
            current, rules.Refusal.of(rules.N_("Les rangées de cette manche ne sont pas posées."))
        )
    return state, current, current.rows_round


def lay_rows(
    public_id: str,
    device_hash: str | None,
    number: int | None,
    cards: Sequence[int | None],
    *,
    version: int | None,
) -> Assistant:
    """Start the assistant's round `number` with the four cards that start the rows.

    Raise StaleStep if the rows of that round are already laid, CardsRefused if the cards
    cannot be (or the game is over), GameNotFound.
    """
    with UnitOfWork():
        game, state, current = _open(public_id, device_hash, version)
        if number != current.round_number or current.rows_round is not None:
            raise StaleStep(current, rules.Refusal.of(rules.N_("Ces rangées étaient déjà posées.")))
        sheet = current.game.scoresheet
        try:
            starts = six_nimmt.check_cards(
                cards,
                ROW_LABELS,
                players=len(sheet.players),
                pro=six_nimmt.pro_deck(sheet.rules.variants),
            )
        except rules.Refusal as refusal:
            raise CardsRefused(current, refusal) from refusal
        if state is not None:  # an earlier round's: this one replaces it
            db.session.delete(state)
            db.session.flush()
        db.session.add(
            RowsRoundState(game_id=game.id, round_number=number, starts=list(starts), turns=[])
        )
        db.session.flush()
        return Assistant(current.game, six_nimmt.RowsRound(len(sheet.players), starts))


def clear_rows(
    public_id: str, device_hash: str | None, number: int | None, *, version: int | None
) -> Assistant:
    """Pick the rows of round `number` up again, to lay them anew (a card mistyped), as long as
    no turn is placed on them.

    Raise StaleStep if there is nothing to pick up (already done) or turns are on the rows.
    """
    with UnitOfWork():
        state, current, rows_round = _live(public_id, device_hash, version)
        if number != current.round_number or rows_round.turns:
            raise StaleStep(
                current, rules.Refusal.of(rules.N_("Les rangées étaient déjà reprises."))
            )
        db.session.delete(state)
        db.session.flush()
        return Assistant(current.game, None)


def place_cards(
    public_id: str,
    device_hash: str | None,
    turn: int | None,
    cards: Sequence[int | None],
    *,
    version: int | None,
) -> Assistant:
    """Place turn `turn` from the card each player revealed (seat order), or stop at the card
    whose player must choose a row.

    Raise StaleStep if that turn is not the next one (a repeat), CardsRefused if a card cannot
    be played.
    """
    with UnitOfWork():
        state, current, rows_round = _live(public_id, device_hash, version)
        if rows_round.waiting or rows_round.is_complete or turn != current.next_turn:
            raise StaleStep(current, rules.Refusal.of(rules.N_("Ce tour était déjà placé.")))
        sheet = current.game.scoresheet
        try:
            played = six_nimmt.check_cards(
                cards,
                sheet.players,
                players=len(sheet.players),
                pro=six_nimmt.pro_deck(sheet.rules.variants),
                seen=rows_round.cards_seen,
            )
        except rules.Refusal as refusal:
            raise CardsRefused(current, refusal) from refusal
        return _saved(state, current, rows_round.with_turn(played))


def choose_row(
    public_id: str,
    device_hash: str | None,
    turn: int | None,
    row: int | None,
    *,
    version: int | None,
) -> Assistant:
    """Let the player of the too-low card of turn `turn` take row `row` (1 to 4); the turn goes
    on. Raise StaleStep if no card of that turn waits for a choice (already chosen: a repeat).
    """
    with UnitOfWork():
        state, current, rows_round = _live(public_id, device_hash, version)
        if (
            rows_round.waiting is None
            or turn != current.turn_count
            or row is None
            or not 1 <= row <= six_nimmt.ROWS
        ):
            raise StaleStep(current, rules.Refusal.of(rules.N_("Cette rangée était déjà choisie.")))
        return _saved(state, current, rows_round.with_choice(row - 1))


def take_back_turn(
    public_id: str, device_hash: str | None, turn: int | None, *, version: int | None
) -> Assistant:
    """Take back turn `turn` if it is the last one (placed, or waiting for its choice), with its
    choice. Raise StaleStep if it is not (already taken back: a repeat)."""
    with UnitOfWork():
        state, current, rows_round = _live(public_id, device_hash, version)
        if turn is None or turn < 1 or turn != current.turn_count:
            raise StaleStep(current, rules.Refusal.of(rules.N_("Ce tour était déjà annulé.")))
        saved = _saved(state, current, rows_round.without_last_turn())
        return Assistant(saved.game, saved.rows_round, taken_back=rows_round.turns[-1].cards)


def _saved(state: RowsRoundState, current: Assistant, rows_round: six_nimmt.RowsRound) -> Assistant:
    # A new list, so that the JSON column is seen as changed.
    state.turns = [{"cards": list(turn.cards), "row": turn.chosen_row} for turn in rows_round.turns]
    db.session.flush()
    return Assistant(current.game, rows_round)
