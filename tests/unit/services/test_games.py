"""What the game services decide, called directly on a real database (a migrated temporary one):
a round recorded once, refusals that store nothing, cancel and restore, corrections, one game per
creation key, rematches, another device's games. What the views add (statuses, redirects, htmx
parts, the refused form shown again) is in tests/integration."""

from __future__ import annotations

import pytest
from sqlalchemy import update

from app import rules
from app.platform.extensions import db
from app.rules import EndRule, GameRules
from app.services import games, reads, rounds, saved_game
from app.services.saved_game import (
    GameChanged,
    GameNotFound,
    RoundRefused,
    SheetChanged,
    StaleRound,
)
from app.storage.models import Game

pytestmark = pytest.mark.storage  # what is stored, on SQLite and PostgreSQL

DEVICE = "the-table-phone"
NAMES = ("Alice", "Bruno", "Chloé")


@pytest.fixture(autouse=True)
def app_context(app):
    with app.app_context():
        yield


def new_game(*played, names=NAMES, game_rules=GameRules()) -> str:
    """Start a game on DEVICE, record these rounds, and return its public id."""
    public_id = games.start_game(DEVICE, list(names), game_rules).public_id
    for number, heads in enumerate(played, start=1):
        rounds.record_round(public_id, DEVICE, number, heads)
    return public_id


def stored(public_id: str) -> saved_game.SavedGame:
    return reads.find_game(public_id, DEVICE)


def rounds_of(public_id: str) -> tuple[tuple[int, ...], ...]:
    return stored(public_id).scoresheet.rounds


# --- Recording a round ----------------------------------------------------------------------------


def test_a_round_is_recorded_and_the_version_goes_up():
    public_id = new_game()
    before = stored(public_id)

    after = rounds.record_round(public_id, DEVICE, 1, [5, 0, 12])

    assert after.scoresheet.rounds == ((5, 0, 12),)
    assert after.version == before.version + 1
    assert rounds_of(public_id) == ((5, 0, 12),)


def test_a_round_sent_again_raises_stale_round_and_stores_nothing():
    public_id = new_game([5, 0, 12])
    before = stored(public_id)

    with pytest.raises(StaleRound) as stale:
        rounds.record_round(public_id, DEVICE, 1, [5, 0, 12])

    assert "déjà enregistrée" in str(stale.value.refusal)
    assert stale.value.game.scoresheet.rounds == ((5, 0, 12),)
    assert stored(public_id).version == before.version
    assert rounds_of(public_id) == ((5, 0, 12),)


def test_a_round_recorded_meanwhile_with_other_heads_raises_sheet_changed_naming_it():
    public_id = new_game([5, 0, 12])
    before = stored(public_id)

    with pytest.raises(SheetChanged) as changed:
        rounds.record_round(public_id, DEVICE, 1, [9, 9, 9])

    assert "La manche 1 a été enregistrée sur un autre" in str(changed.value.refusal)
    assert stored(public_id).version == before.version
    assert rounds_of(public_id) == ((5, 0, 12),)


def test_a_round_zero_is_a_repeat_even_before_any_round():
    public_id = new_game()

    with pytest.raises(StaleRound):
        rounds.record_round(public_id, DEVICE, 0, [1, 2, 3])

    assert rounds_of(public_id) == ()


@pytest.mark.parametrize(
    "number, says",
    [
        pytest.param(3, "la manche 2 y a été annulée", id="one round ahead"),
        pytest.param(4, "les manches 2 à 3 y ont été annulées", id="several rounds ahead"),
    ],
)
def test_a_form_for_a_later_round_raises_sheet_changed_naming_the_rounds_cancelled(number, says):
    public_id = new_game([5, 0, 12])

    with pytest.raises(SheetChanged) as changed:
        rounds.record_round(public_id, DEVICE, number, [1, 2, 3])

    assert says in str(changed.value.refusal)
    assert rounds_of(public_id) == ((5, 0, 12),)


def test_impossible_heads_raise_round_refused_with_the_rules_refusal_and_the_game():
    public_id = new_game([5, 0, 12])
    before = stored(public_id)

    with pytest.raises(RoundRefused) as refused:
        rounds.record_round(public_id, DEVICE, 2, [98, 0, 0])

    assert isinstance(refused.value.refusal, rules.Refusal)
    assert set(refused.value.refusal.fields) == {0}
    assert "au plus 97" in str(refused.value.refusal.fields[0])
    assert refused.value.game.scoresheet.rounds == ((5, 0, 12),)
    assert stored(public_id).version == before.version
    assert rounds_of(public_id) == ((5, 0, 12),)


def test_a_round_form_that_names_no_round_is_refused():
    public_id = new_game()

    with pytest.raises(RoundRefused) as refused:
        rounds.record_round(public_id, DEVICE, None, [1, 2, 3])

    assert "ne dit pas quelle manche" in str(refused.value.refusal)
    assert rounds_of(public_id) == ()


def test_no_round_is_recorded_after_the_end():
    public_id = new_game([67, 1, 1])

    with pytest.raises(RoundRefused) as refused:
        rounds.record_round(public_id, DEVICE, 2, [1, 1, 1])

    assert "terminée" in str(refused.value.refusal)
    assert rounds_of(public_id) == ((67, 1, 1),)


def test_the_rounds_of_a_pro_game_are_held_to_the_pro_deck():
    public_id = new_game(game_rules=GameRules(pro=True))  # 3 players: at most 51 in a round

    with pytest.raises(RoundRefused):
        rounds.record_round(public_id, DEVICE, 1, [20, 20, 12])
    rounds.record_round(public_id, DEVICE, 1, [20, 20, 11])

    assert rounds_of(public_id) == ((20, 20, 11),)


# --- Cancelling and restoring ---------------------------------------------------------------------


def test_cancelling_removes_the_last_round_and_offers_it_back():
    public_id = new_game([5, 6, 7], [10, 3, 2])
    before = stored(public_id)

    after = rounds.cancel_round(public_id, DEVICE, 2)

    assert after.scoresheet.rounds == ((5, 6, 7),)
    assert after.restorable == 2
    assert after.version == before.version + 1


def test_a_repeated_cancel_raises_stale_round_and_removes_nothing_more():
    public_id = new_game([5, 6, 7], [10, 3, 2])
    rounds.cancel_round(public_id, DEVICE, 2)

    with pytest.raises(StaleRound) as stale:
        rounds.cancel_round(public_id, DEVICE, 2)

    assert "La manche 2 était déjà annulée" in str(stale.value.refusal)
    assert rounds_of(public_id) == ((5, 6, 7),)


def test_a_cancel_of_a_round_that_is_no_longer_the_last_is_refused():
    public_id = new_game([5, 6, 7], [10, 3, 2], [1, 1, 1])  # round 3 recorded on another tab

    with pytest.raises(StaleRound) as stale:
        rounds.cancel_round(public_id, DEVICE, 2)

    assert "la manche 3 y a été enregistrée depuis" in str(stale.value.refusal)
    assert len(rounds_of(public_id)) == 3


@pytest.mark.parametrize("number", [None, 0])
def test_a_cancel_that_names_no_round_is_refused(number):
    public_id = new_game([5, 6, 7])

    with pytest.raises(StaleRound) as stale:
        rounds.cancel_round(public_id, DEVICE, number)

    assert "ne dit pas quelle manche il annule" in str(stale.value.refusal)
    assert rounds_of(public_id) == ((5, 6, 7),)


def test_cancelled_rounds_come_back_last_cancelled_first_exactly_as_they_were():
    public_id = new_game([1, 2, 3], [4, 5, 6], [7, 8, 9])
    rounds.cancel_round(public_id, DEVICE, 3)
    rounds.cancel_round(public_id, DEVICE, 2)

    assert rounds.restore_round(public_id, DEVICE, 2).restorable == 3
    after = rounds.restore_round(public_id, DEVICE, 3)

    assert after.scoresheet.rounds == ((1, 2, 3), (4, 5, 6), (7, 8, 9))
    assert after.restorable is None


def test_a_repeated_restore_raises_stale_round_and_puts_back_nothing_more():
    public_id = new_game([5, 6, 7])
    rounds.cancel_round(public_id, DEVICE, 1)
    rounds.restore_round(public_id, DEVICE, 1)

    with pytest.raises(StaleRound) as stale:
        rounds.restore_round(public_id, DEVICE, 1)

    assert "déjà rétablie" in str(stale.value.refusal)
    assert rounds_of(public_id) == ((5, 6, 7),)


def test_a_round_recorded_after_a_cancel_drops_the_cancelled_one():
    public_id = new_game([5, 6, 7])
    rounds.cancel_round(public_id, DEVICE, 1)

    after = rounds.record_round(public_id, DEVICE, 1, [2, 9, 1])

    assert after.scoresheet.rounds == ((2, 9, 1),)
    assert after.restorable is None
    with pytest.raises(StaleRound):
        rounds.restore_round(public_id, DEVICE, 2)


def test_cancelling_the_round_that_ended_the_game_reopens_it_and_restoring_ends_it_again():
    public_id = new_game([60, 1, 1], [10, 1, 1])

    reopened = rounds.cancel_round(public_id, DEVICE, 2)
    ended = rounds.restore_round(public_id, DEVICE, 2)

    assert not reopened.scoresheet.is_over
    assert ended.scoresheet.is_over
    assert ended.scoresheet.rounds == ((60, 1, 1), (10, 1, 1))


def test_a_round_cannot_be_restored_once_the_game_has_ended():
    public_id = new_game([10, 1, 1], [10, 1, 1])
    rounds.cancel_round(public_id, DEVICE, 2)
    version = stored(public_id).version
    rounds.edit_round(public_id, DEVICE, 1, version, [67, 1, 1])  # the correction ends the game

    with pytest.raises(RoundRefused) as refused:
        rounds.restore_round(public_id, DEVICE, 2)

    assert "rien n’a été rétabli" in str(refused.value.refusal)
    assert rounds_of(public_id) == ((67, 1, 1),)
    assert stored(public_id).restorable == 2  # still offered, should the end be undone


# --- Correcting a round ---------------------------------------------------------------------------


def test_an_edit_replaces_the_round_and_the_version_goes_up():
    public_id = new_game([1, 2, 3], [10, 0, 7])
    version = stored(public_id).version

    after = rounds.edit_round(public_id, DEVICE, 2, version, [0, 12, 5])

    assert after.scoresheet.rounds == ((1, 2, 3), (0, 12, 5))
    assert after.version == version + 1


def test_an_edit_from_before_the_last_change_raises_game_changed_and_stores_nothing():
    public_id = new_game([1, 2, 3])
    opened_at = stored(public_id).version
    rounds.record_round(public_id, DEVICE, 2, [4, 5, 6])  # another tab

    with pytest.raises(GameChanged) as changed:
        rounds.edit_round(public_id, DEVICE, 1, opened_at, [9, 9, 9])

    assert "rien n’a été enregistré" in str(changed.value.refusal)
    assert changed.value.game.scoresheet.rounds == ((1, 2, 3), (4, 5, 6))
    assert rounds_of(public_id) == ((1, 2, 3), (4, 5, 6))


@pytest.mark.parametrize(
    "since_opened",
    [
        pytest.param(lambda game, _: rounds.cancel_round(game, DEVICE, 2), id="a cancel"),
        pytest.param(
            lambda game, v: rounds.edit_round(game, DEVICE, 1, v, [5, 5, 5]), id="an edit"
        ),
        pytest.param(None, id="no version in the form"),
    ],
)
def test_an_edit_the_game_moved_past_raises_game_changed_and_stores_nothing(since_opened):
    public_id = new_game([1, 2, 3], [4, 5, 6])
    opened_at = stored(public_id).version if since_opened else None
    if since_opened:
        since_opened(public_id, opened_at)  # in another tab
    before = rounds_of(public_id)

    with pytest.raises(GameChanged):
        rounds.edit_round(public_id, DEVICE, 1, opened_at, [7, 7, 7])

    assert rounds_of(public_id) == before


def test_impossible_heads_in_an_edit_raise_round_refused_and_store_nothing():
    public_id = new_game([1, 2, 3])
    version = stored(public_id).version

    with pytest.raises(RoundRefused) as refused:
        rounds.edit_round(public_id, DEVICE, 1, version, [98, 1, 1])

    assert set(refused.value.refusal.fields) == {0}
    assert rounds_of(public_id) == ((1, 2, 3),)
    assert stored(public_id).version == version


def test_an_edit_in_a_pro_game_is_held_to_the_pro_deck():
    public_id = new_game([20, 20, 11], game_rules=GameRules(pro=True))
    version = stored(public_id).version

    with pytest.raises(RoundRefused):
        rounds.edit_round(public_id, DEVICE, 1, version, [20, 20, 12])


def test_a_correction_that_would_have_ended_the_game_earlier_is_refused():
    public_id = new_game([10, 5], [20, 5], [1, 1], names=("Alice", "Bruno"))
    version = stored(public_id).version

    with pytest.raises(RoundRefused) as refused:
        rounds.edit_round(public_id, DEVICE, 1, version, [60, 5])  # 60 + 20 > 66 after round 2

    assert "après la manche 2" in str(refused.value.refusal)
    assert rounds_of(public_id) == ((10, 5), (20, 5), (1, 1))


def test_a_correction_can_end_the_game_and_another_can_reopen_it():
    public_id = new_game([10, 5], [20, 5], names=("Alice", "Bruno"))

    ended = rounds.edit_round(public_id, DEVICE, 2, stored(public_id).version, [60, 5])
    reopened = rounds.edit_round(public_id, DEVICE, 2, ended.version, [6, 5])

    assert ended.scoresheet.is_over
    assert not reopened.scoresheet.is_over
    assert reopened.scoresheet.next_round == 3


@pytest.mark.parametrize("number", [0, 2])
def test_editing_a_round_that_was_never_played_is_not_found(number):
    public_id = new_game([1, 2, 3])

    with pytest.raises(GameNotFound):
        rounds.edit_round(public_id, DEVICE, number, stored(public_id).version, [1, 1, 1])


# --- Starting, rematching, deleting ---------------------------------------------------------------


def test_the_same_creation_key_twice_starts_one_game():
    first = games.start_game(DEVICE, ["Alice", "Bruno"], GameRules(), "form-key")
    second = games.start_game(DEVICE, ["Alice", "Bruno"], GameRules(), "form-key")

    assert second.public_id == first.public_id
    assert len(reads.all_games(DEVICE)) == 1


def test_names_that_cannot_sit_at_a_table_start_no_game():
    with pytest.raises(rules.Refusal):
        games.start_game(DEVICE, ["Alice", " alice"], GameRules())

    assert reads.all_games(DEVICE) == []


@pytest.mark.parametrize(
    "game_rules",
    [
        GameRules(end=EndRule.AT_OR_ABOVE, pro=True),
        GameRules(limit=30),
        GameRules(end=EndRule.ROUNDS, round_count=2),
    ],
    ids=["66 or more, pro", "another limit", "a number of rounds"],
)
def test_a_rematch_keeps_the_seats_and_the_rules(game_rules):
    old = new_game([1, 2, 3], names=("Chloé", "Alice", "Bruno"), game_rules=game_rules)

    new = games.rematch(old, DEVICE)

    assert new.public_id != old
    assert new.scoresheet.players == ("Chloé", "Alice", "Bruno")
    assert new.scoresheet.rules == game_rules
    assert new.scoresheet.rounds == ()
    assert rounds_of(old) == ((1, 2, 3),)


def test_two_rematches_of_a_game_give_the_same_new_game():
    old = new_game([67, 1, 1])

    assert games.rematch(old, DEVICE).public_id == games.rematch(old, DEVICE).public_id
    assert len(reads.all_games(DEVICE)) == 2


def test_a_deleted_game_is_gone_and_a_second_delete_finds_nothing():
    kept = new_game([70, 1, 1])
    deleted = new_game([5, 6, 7])

    games.delete_game(deleted, DEVICE)

    with pytest.raises(GameNotFound):
        reads.find_game(deleted, DEVICE)
    with pytest.raises(GameNotFound):
        games.delete_game(deleted, DEVICE)
    assert [game.public_id for game in reads.all_games(DEVICE)] == [kept]


def test_the_game_in_progress_is_the_latest_unfinished_one():
    new_game()
    latest = new_game([5, 6, 7])
    new_game([70, 1, 1])  # finished: nothing to resume there

    assert reads.game_in_progress(DEVICE).public_id == latest
    assert reads.game_in_progress("another-phone") is None


# --- Every game at once (statistics, exports): each game's kept sheet -----------------------------


def every_game() -> dict[str, saved_game.SavedGame]:
    return {game.public_id: game for game in reads.all_games(DEVICE)}


def test_every_write_keeps_the_sheet_every_game_is_read_from():
    skyjo = GameRules.of(rules.game_of("skyjo"))
    doubled = games.start_game(DEVICE, list(NAMES), skyjo).public_id
    rounds.record_round(doubled, DEVICE, 1, [20, 3, 5], ended_by=0)
    played = new_game([5, 6, 7], [1, 2, 3], [4, 4, 4])
    rounds.cancel_round(played, DEVICE, 3)
    rounds.cancel_round(played, DEVICE, 2)
    rounds.restore_round(played, DEVICE, 2)
    rounds.edit_round(played, DEVICE, 1, stored(played).version, [9, 0, 1])
    rematch = games.rematch(played, DEVICE).public_id

    kept = every_game()

    assert set(kept) == {doubled, played, rematch}
    for public_id, game in kept.items():  # as the page reads it, from its rows
        assert game.scoresheet == stored(public_id).scoresheet
    assert kept[played].scoresheet.rounds == ((9, 0, 1), (1, 2, 3))
    assert kept[doubled].scoresheet.points == ((40, 3, 5),)


@pytest.mark.parametrize("change", ["missing", "older"])
def test_a_sheet_not_kept_for_its_version_is_read_from_the_rows(change):
    public_id = new_game([5, 6, 7])
    other = new_game([1, 2, 3])
    # A game stored by other means than the services (an older release, a script): no sheet,
    # or one that an unkept write left behind.
    values = {"kept_sheet": None} if change == "missing" else {"version": Game.version + 1}
    db.session.execute(update(Game).where(Game.public_id == public_id).values(**values))
    db.session.commit()

    kept = every_game()

    assert kept[public_id].scoresheet == stored(public_id).scoresheet
    assert kept[other].scoresheet.rounds == ((1, 2, 3),)


# --- Another device -------------------------------------------------------------------------------

CALLS = {
    "find": lambda public_id, device: reads.find_game(public_id, device),
    "record": lambda public_id, device: rounds.record_round(public_id, device, 2, [1, 1, 1]),
    "cancel": lambda public_id, device: rounds.cancel_round(public_id, device, 1),
    "restore": lambda public_id, device: rounds.restore_round(public_id, device, 2),
    "edit": lambda public_id, device: rounds.edit_round(public_id, device, 1, 3, [9, 9, 9]),
    "rematch": lambda public_id, device: games.rematch(public_id, device),
    "delete": lambda public_id, device: games.delete_game(public_id, device),
}


@pytest.mark.parametrize("device", ["another-phone", None], ids=["another device", "no cookie"])
@pytest.mark.parametrize("call", CALLS.values(), ids=CALLS.keys())
def test_another_devices_game_does_not_exist_for_it(call, device):
    public_id = new_game([5, 6, 7], [1, 2, 3])
    rounds.cancel_round(public_id, DEVICE, 2)
    before = stored(public_id)

    with pytest.raises(GameNotFound):
        call(public_id, device)

    assert stored(public_id) == before
    assert len(reads.all_games(DEVICE)) == 1
