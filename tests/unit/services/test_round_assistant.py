"""What the round assistant's service decides, called directly on a real database: rows laid
once, a turn placed once, a too-low card waiting for its player, turns taken back, refusals that
store nothing. Where each card goes is app.rules' (tests/unit/test_placement.py)."""

from __future__ import annotations

import pytest

from app.rules import GameRules, RoundScores
from app.rules.games.six_nimmt import SIX_NIMMT
from app.services import games, reads, rounds
from app.services import round_assistant as table
from app.services.refusals import GameNotFound
from app.services.round_assistant import CardsRefused, SheetChanged, StaleStep

pytestmark = pytest.mark.storage  # what is stored, on SQLite and PostgreSQL

DEVICE = "the-table-phone"
NAMES = ["Alice", "Bruno", "Chloé"]
STARTS = [18, 31, 47, 72]  # rules.md's example


@pytest.fixture(autouse=True)
def app_context(app):
    with app.app_context():
        yield


@pytest.fixture
def public_id() -> str:
    return games.start_game(DEVICE, NAMES, GameRules.of(SIX_NIMMT)).public_id


@pytest.fixture
def laid(public_id) -> str:
    """A game whose assistant rows for round 1 are laid."""
    table.lay_rows(public_id, DEVICE, 1, STARTS, version=version_of(public_id))
    return public_id


def version_of(public_id: str) -> int:
    """The game's version as it stands: each step sent from a page drawn now."""
    return reads.find_game(public_id, DEVICE).version


def now(public_id: str) -> table.Assistant:
    return table.assistant(public_id, DEVICE)


def test_the_rows_are_laid_once(public_id):
    laid = table.lay_rows(public_id, DEVICE, 1, STARTS, version=version_of(public_id))

    with pytest.raises(StaleStep):
        table.lay_rows(public_id, DEVICE, 1, [1, 2, 3, 4], version=version_of(public_id))

    assert laid.rows_round.rows == ((18,), (31,), (47,), (72,))
    assert now(public_id).rows_round.rows == ((18,), (31,), (47,), (72,))


def test_rows_that_cannot_be_are_refused_and_nothing_is_laid(public_id):
    with pytest.raises(CardsRefused) as refused:
        table.lay_rows(public_id, DEVICE, 1, [18, 31, 105, 72], version=version_of(public_id))

    assert set(refused.value.refusal.fields) == {2}
    assert now(public_id).rows_round is None


def test_a_turn_is_placed_once(laid):
    placed = table.place_cards(laid, DEVICE, 1, [50, 75, 19], version=version_of(laid))

    with pytest.raises(StaleStep) as stale:
        table.place_cards(laid, DEVICE, 1, [50, 75, 19], version=version_of(laid))

    assert placed.next_turn == 2
    assert "déjà placé" in str(stale.value.refusal)
    assert now(laid).rows_round.rows == ((18, 19), (31,), (47, 50), (72, 75))


def test_a_card_seen_earlier_this_round_is_refused_and_nothing_is_placed(laid):
    table.place_cards(laid, DEVICE, 1, [50, 75, 19], version=version_of(laid))

    with pytest.raises(CardsRefused) as refused:
        table.place_cards(laid, DEVICE, 2, [51, 52, 19], version=version_of(laid))

    assert set(refused.value.refusal.fields) == {2}
    assert refused.value.assistant.next_turn == 2
    assert now(laid).turn_count == 1


def test_a_too_low_card_waits_for_its_players_choice(laid):
    waiting = table.place_cards(laid, DEVICE, 1, [50, 9, 75], version=version_of(laid))

    assert waiting.rows_round.waiting.seat == 1  # Bruno chooses; the software never does
    assert waiting.rows_round.rows == ((18,), (31,), (47,), (72,))  # nothing placed until then
    with pytest.raises(StaleStep):
        table.place_cards(laid, DEVICE, 2, [51, 52, 53], version=version_of(laid))

    chosen = table.choose_row(laid, DEVICE, 1, 3, version=version_of(laid))

    assert chosen.rows_round.rows == ((18,), (31, 50), (9,), (72, 75))
    assert chosen.rows_round.heads_taken == (0, 1, 0)
    assert chosen.next_turn == 2


def test_a_choice_sent_again_changes_nothing(laid):
    table.place_cards(laid, DEVICE, 1, [50, 9, 75], version=version_of(laid))
    table.choose_row(laid, DEVICE, 1, 3, version=version_of(laid))

    with pytest.raises(StaleStep):
        table.choose_row(laid, DEVICE, 1, 2, version=version_of(laid))

    assert now(laid).rows_round.rows == ((18,), (31, 50), (9,), (72, 75))


def test_the_last_turn_is_taken_back_once_with_its_cards_to_type_again(laid):
    table.place_cards(laid, DEVICE, 1, [50, 75, 19], version=version_of(laid))
    table.place_cards(
        laid, DEVICE, 2, [9, 51, 76], version=version_of(laid)
    )  # Alice's 9 waits for her choice

    back = table.take_back_turn(laid, DEVICE, 2, version=version_of(laid))

    assert back.taken_back == (9, 51, 76)
    assert back.rows_round.waiting is None
    assert back.rows_round.rows == ((18, 19), (31,), (47, 50), (72, 75))
    with pytest.raises(StaleStep):
        table.take_back_turn(laid, DEVICE, 2, version=version_of(laid))


def test_a_turn_taken_back_takes_its_choice_back_too(laid):
    table.place_cards(laid, DEVICE, 1, [50, 9, 75], version=version_of(laid))
    table.choose_row(laid, DEVICE, 1, 2, version=version_of(laid))

    back = table.take_back_turn(laid, DEVICE, 1, version=version_of(laid))

    assert back.rows_round.rows == ((18,), (31,), (47,), (72,))
    assert back.rows_round.heads_taken == (0, 0, 0)


def test_the_rows_are_picked_up_again_only_before_the_first_turn(laid):
    assert table.clear_rows(laid, DEVICE, 1, version=version_of(laid)).rows_round is None
    with pytest.raises(StaleStep):
        table.clear_rows(laid, DEVICE, 1, version=version_of(laid))
    table.lay_rows(laid, DEVICE, 1, [1, 2, 3, 4], version=version_of(laid))
    table.place_cards(laid, DEVICE, 1, [50, 75, 19], version=version_of(laid))

    with pytest.raises(StaleStep):
        table.clear_rows(laid, DEVICE, 1, version=version_of(laid))

    assert now(laid).rows_round.rows[3] == (4, 19, 50, 75)


def test_the_pro_deck_refuses_cards_above_10n_plus_4():
    public_id = games.start_game(DEVICE, NAMES, GameRules.of(SIX_NIMMT, variants={"pro"})).public_id

    with pytest.raises(CardsRefused) as refused:
        table.lay_rows(public_id, DEVICE, 1, [1, 2, 3, 35], version=version_of(public_id))
    table.lay_rows(public_id, DEVICE, 1, [1, 2, 3, 34], version=version_of(public_id))

    assert set(refused.value.refusal.fields) == {3}


def test_a_finished_game_has_no_round_to_place(public_id):
    rounds.record_round(
        public_id, DEVICE, 1, RoundScores((70, 1, 1)), version=version_of(public_id)
    )

    with pytest.raises(CardsRefused) as refused:
        table.lay_rows(public_id, DEVICE, 2, STARTS, version=version_of(public_id))

    assert "terminée" in str(refused.value.refusal)


def test_a_round_recorded_by_hand_drops_the_assistants_round(laid):
    table.place_cards(laid, DEVICE, 1, [50, 75, 19], version=version_of(laid))

    rounds.record_round(laid, DEVICE, 1, RoundScores((5, 6, 7)), version=version_of(laid))

    assert now(laid).dropped == 1
    assert now(laid).rows_round is None
    assert table.lay_rows(laid, DEVICE, 2, [1, 2, 3, 4], version=version_of(laid)).round_number == 2


def test_a_round_recorded_by_hand_before_any_turn_drops_the_rows_without_a_word(laid):
    rounds.record_round(laid, DEVICE, 1, RoundScores((5, 6, 7)), version=version_of(laid))

    assert now(laid).dropped is None  # nothing had been placed: nothing to say was left aside
    assert now(laid).rows_round is None


# A whole round of 3 players: 30 cards on rows starting 10, 20, 30, 40, two too-low cards.
ROUND_STARTS = [10, 20, 30, 40]
ROUND_TURNS = [
    [41, 42, 43],
    [44, 45, 46],
    [5, 47, 48],
    [49, 50, 51],
    [52, 53, 54],
    [1, 2, 3],
    [55, 56, 57],
    [58, 59, 60],
    [61, 62, 63],
    [64, 65, 66],
]


def test_a_finished_round_fills_the_game_pages_round_form(public_id):
    table.lay_rows(public_id, DEVICE, 1, ROUND_STARTS, version=version_of(public_id))
    for turn, cards in enumerate(ROUND_TURNS, start=1):
        if table.place_cards(
            public_id, DEVICE, turn, cards, version=version_of(public_id)
        ).rows_round.waiting:
            table.choose_row(public_id, DEVICE, turn, 1, version=version_of(public_id))
    finished = now(public_id).rows_round

    _game, help_ = reads.game_to_score(public_id, DEVICE, {})

    assert finished.is_complete
    assert help_.filled_by_assistant
    assert help_.typed == [str(heads) for heads in finished.heads_taken]


def test_heads_carried_by_the_address_fill_their_seat_only(public_id):
    _game, help_ = reads.game_to_score(public_id, DEVICE, {1: 7, 9: 3})

    assert help_.typed == ["", "7", ""]
    assert not help_.filled_by_assistant


STEPS = {
    "read": lambda public_id, device: table.assistant(public_id, device),
    "lay": lambda public_id, device: table.lay_rows(public_id, device, 1, [1, 2, 3, 4], version=1),
    "place": lambda public_id, device: table.place_cards(
        public_id, device, 1, [50, 75, 19], version=1
    ),
    "choose": lambda public_id, device: table.choose_row(public_id, device, 1, 1, version=1),
    "take back": lambda public_id, device: table.take_back_turn(public_id, device, 1, version=1),
    "pick up": lambda public_id, device: table.clear_rows(public_id, device, 1, version=1),
    "score": lambda public_id, device: reads.game_to_score(public_id, device, {}),
}


@pytest.mark.parametrize("step", STEPS.values(), ids=STEPS.keys())
def test_another_devices_game_has_no_assistant_for_it(laid, step):
    with pytest.raises(GameNotFound):
        step(laid, "another-phone")

    assert now(laid).rows_round.rows == ((18,), (31,), (47,), (72,))


def test_a_step_from_a_page_drawn_before_a_round_recorded_elsewhere_places_nothing(laid):
    drawn = version_of(laid)
    rounds.record_round(laid, DEVICE, 1, RoundScores((5, 6, 7)), version=drawn)  # on the game page

    with pytest.raises(SheetChanged) as changed:
        table.place_cards(laid, DEVICE, 1, [50, 75, 19], version=drawn)

    assert "La partie a changé" in str(changed.value.refusal)
    assert changed.value.assistant.round_number == 2
    assert now(laid).rows_round is None
