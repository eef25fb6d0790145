"""Who deals (or starts) the next round, as the services keep it, called directly on a real
database: the game's rule passes it round by round, a cancel moves it back and a restore puts it
back, a correction leaves it (unless it changes whom the rule passes it to), and the table sets it
by hand or by lot (app/services/dealing.py), each such write checked against the page's version.
"""

from __future__ import annotations

import pytest

from app import rules
from app.rules import GameRules
from app.services import dealing, games, reads, rounds
from app.services.dealing import DealerRefused
from app.services.refusals import GameChanged, StaleRound

pytestmark = pytest.mark.storage  # what is stored, on SQLite and PostgreSQL

DEVICE = "the-table-phone"
NAMES = ("Alice", "Bruno", "Chloé")
SIX = GameRules.of(rules.GAMES["6-qui-prend"])
SKYJO = GameRules.of(rules.GAMES["skyjo"])


@pytest.fixture(autouse=True)
def app_context(app):
    with app.app_context():
        yield


def sheet(public_id):
    return reads.find_game(public_id, DEVICE).scoresheet


def version(public_id):
    return reads.find_game(public_id, DEVICE).version


def record(public_id, scores, ended_by=None):
    number = sheet(public_id).next_round
    typed = rules.RoundScores(tuple(scores), ended_by)
    return rounds.record_round(public_id, DEVICE, number, typed, version=version(public_id))


def cancel(public_id):
    number = len(sheet(public_id).rounds)
    return rounds.cancel_round(public_id, DEVICE, number, version=version(public_id))


def set_dealer(public_id, seat):
    return dealing.set_dealer(public_id, DEVICE, seat, version=version(public_id))


def test_the_first_player_deals_then_the_deal_goes_round_the_table():
    public_id = games.start_game(DEVICE, list(NAMES), SIX).public_id
    dealt = [sheet(public_id).dealer]
    for _ in range(3):
        dealt.append(record(public_id, [1, 2, 3]).scoresheet.dealer)

    assert dealt == [0, 1, 2, 0]
    assert sheet(public_id).dealers == (0, 1, 2)


def test_a_cancel_moves_the_deal_back_and_a_restore_puts_it_back():
    public_id = games.start_game(DEVICE, list(NAMES), SIX).public_id
    record(public_id, [1, 2, 3])
    record(public_id, [1, 2, 3])

    assert cancel(public_id).scoresheet.dealer == 1
    game = reads.find_game(public_id, DEVICE)
    restored = rounds.restore_round(
        public_id, DEVICE, 2, game.restorable_round, version=game.version
    )

    assert restored.scoresheet.dealers == (0, 1)
    assert restored.scoresheet.dealer == 2


def test_in_skyjo_whoever_ended_the_round_starts_the_next_and_a_correction_follows_the_ender():
    public_id = games.start_game(DEVICE, list(NAMES), SKYJO).public_id
    assert record(public_id, [10, 4, 30], ended_by=1).scoresheet.dealer == 1

    corrected = rounds.edit_round(
        public_id, DEVICE, 1, rules.RoundScores((10, 4, 30), 2), version=version(public_id)
    )

    assert corrected.scoresheet.dealer == 2
    assert corrected.scoresheet.dealers == (0,)


def test_a_correction_of_the_scores_alone_leaves_the_deal_where_it_is():
    public_id = games.start_game(DEVICE, list(NAMES), SIX).public_id
    record(public_id, [1, 2, 3])
    set_dealer(public_id, 0)

    corrected = rounds.edit_round(
        public_id, DEVICE, 1, rules.RoundScores((4, 2, 3)), version=version(public_id)
    )

    assert corrected.scoresheet.dealer == 0


def test_set_by_hand_that_player_deals_the_next_round_and_the_turn_goes_on_from_them():
    public_id = games.start_game(DEVICE, list(NAMES), SIX).public_id
    before = version(public_id)

    changed = set_dealer(public_id, 2)
    after = record(public_id, [1, 2, 3])

    assert changed.version == before + 1
    assert after.scoresheet.dealers == (2,)
    assert after.scoresheet.start_player == 2
    assert after.scoresheet.dealer == 0


def test_lots_pick_one_of_the_players_before_the_first_round_only():
    public_id = games.start_game(DEVICE, list(NAMES), SIX).public_id

    drawn = dealing.set_dealer(public_id, DEVICE, None, version=version(public_id))
    assert drawn.scoresheet.dealer in range(len(NAMES))

    record(public_id, [1, 2, 3])
    with pytest.raises(DealerRefused):
        dealing.set_dealer(public_id, DEVICE, None, version=version(public_id))


def test_a_dealer_set_from_an_older_page_changes_nothing():
    public_id = games.start_game(DEVICE, list(NAMES), SIX).public_id
    drawn = version(public_id)
    record(public_id, [1, 2, 3])

    with pytest.raises(GameChanged):
        dealing.set_dealer(public_id, DEVICE, 2, version=drawn)
    assert sheet(public_id).dealer == 1


def test_the_same_dealer_set_twice_is_a_repeat():
    public_id = games.start_game(DEVICE, list(NAMES), SIX).public_id
    drawn = version(public_id)
    dealing.set_dealer(public_id, DEVICE, 2, version=drawn)

    with pytest.raises(StaleRound):
        dealing.set_dealer(public_id, DEVICE, 2, version=drawn)


@pytest.mark.parametrize("seat", [-1, 3])
def test_a_seat_the_game_does_not_have_is_refused(seat):
    public_id = games.start_game(DEVICE, list(NAMES), SIX).public_id

    with pytest.raises(DealerRefused):
        set_dealer(public_id, seat)
    assert sheet(public_id).dealer == 0


def test_no_one_deals_once_the_game_is_over():
    public_id = games.start_game(DEVICE, ["Alice", "Bruno"], SIX).public_id
    over = record(public_id, [70, 2])

    assert over.scoresheet.deals_next is None
    with pytest.raises(DealerRefused):
        set_dealer(public_id, 0)
