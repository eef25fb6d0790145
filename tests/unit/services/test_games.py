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
from app.rules.games.six_nimmt import SIX_NIMMT
from app.services import games, reads, rounds, saved_game
from app.services.refusals import GameChanged, GameNotFound, RoundRefused, StaleRound
from app.storage.models import Game

pytestmark = pytest.mark.storage  # what is stored, on SQLite and PostgreSQL

DEVICE = "the-table-phone"
NAMES = ("Alice", "Bruno", "Chloé")


@pytest.fixture(autouse=True)
def app_context(app):
    with app.app_context():
        yield


def new_game(*played, names=NAMES, game_rules=GameRules.of(SIX_NIMMT)) -> str:
    """Start a game on DEVICE, record these rounds, and return its public id."""
    public_id = games.start_game(DEVICE, list(names), game_rules).public_id
    for number, heads in enumerate(played, start=1):
        record(public_id, number, heads)
    return public_id


def stored(public_id: str) -> saved_game.SavedGame:
    return reads.find_game(public_id, DEVICE)


def rounds_of(public_id: str) -> tuple[tuple[int, ...], ...]:
    return stored(public_id).scoresheet.rounds


# Each write sent from a page drawn now (the game's version as it stands), unless told `drawn`.
NOW = object()


def record(public_id, number, scores, ended_by=None, *, drawn=NOW):
    version = stored(public_id).version if drawn is NOW else drawn
    typed = rules.RoundScores(tuple(scores), ended_by)
    return rounds.record_round(public_id, DEVICE, number, typed, version=version)


def cancel(public_id, number, *, drawn=NOW):
    version = stored(public_id).version if drawn is NOW else drawn
    return rounds.cancel_round(public_id, DEVICE, number, version=version)


def restore(public_id, number, *, drawn=NOW, shown=None):
    game = stored(public_id)
    shown = shown or game.restorable_round
    version = game.version if drawn is NOW else drawn
    return rounds.restore_round(public_id, DEVICE, number, shown, version=version)


def edit(public_id, number, scores, *, drawn=NOW):
    version = stored(public_id).version if drawn is NOW else drawn
    return rounds.edit_round(
        public_id, DEVICE, number, rules.RoundScores(tuple(scores)), version=version
    )


def delete(public_id, *, drawn=NOW):
    version = stored(public_id).version if drawn is NOW else drawn
    return games.delete_game(public_id, DEVICE, version)


def rematch(public_id, *, drawn=NOW):
    version = stored(public_id).version if drawn is NOW else drawn
    return games.rematch(public_id, DEVICE, version)


# --- Recording a round ----------------------------------------------------------------------------


def test_a_round_is_recorded_and_the_version_goes_up():
    public_id = new_game()
    before = stored(public_id)

    after = record(public_id, 1, [5, 0, 12])

    assert after.scoresheet.rounds == ((5, 0, 12),)
    assert after.version == before.version + 1
    assert rounds_of(public_id) == ((5, 0, 12),)


def test_impossible_heads_raise_round_refused_with_the_rules_refusal_and_the_game():
    public_id = new_game([5, 0, 12])
    before = stored(public_id)

    with pytest.raises(RoundRefused) as refused:
        record(public_id, 2, [98, 0, 0])

    assert isinstance(refused.value.refusal, rules.Refusal)
    assert set(refused.value.refusal.fields) == {0}
    assert "au plus 97" in str(refused.value.refusal.fields[0])
    assert refused.value.game.scoresheet.rounds == ((5, 0, 12),)
    assert stored(public_id).version == before.version
    assert rounds_of(public_id) == ((5, 0, 12),)


@pytest.mark.parametrize("number", [None, 0, 3])
def test_a_round_form_whose_round_is_not_the_next_one_of_its_version_is_refused(number):
    public_id = new_game([5, 0, 12])

    with pytest.raises(RoundRefused) as refused:
        record(public_id, number, [1, 2, 3])

    assert "ne dit pas quelle manche" in str(refused.value.refusal)
    assert rounds_of(public_id) == ((5, 0, 12),)


def test_no_round_is_recorded_after_the_end():
    public_id = new_game([67, 1, 1])

    with pytest.raises(RoundRefused) as refused:
        record(public_id, 2, [1, 1, 1])

    assert "terminée" in str(refused.value.refusal)
    assert rounds_of(public_id) == ((67, 1, 1),)


def test_the_rounds_of_a_pro_game_are_held_to_the_pro_deck():
    public_id = new_game(
        game_rules=GameRules.of(SIX_NIMMT, variants={"pro"})
    )  # 3 players: at most 51 in a round

    with pytest.raises(RoundRefused):
        record(public_id, 1, [20, 20, 12])
    record(public_id, 1, [20, 20, 11])

    assert rounds_of(public_id) == ((20, 20, 11),)


# --- Cancelling and restoring ---------------------------------------------------------------------


def test_cancelling_removes_the_last_round_and_offers_it_back():
    public_id = new_game([5, 6, 7], [10, 3, 2])
    before = stored(public_id)

    after = cancel(public_id, 2)

    assert after.scoresheet.rounds == ((5, 6, 7),)
    assert after.restorable == 2
    assert after.restorable_round == rules.RoundScores((10, 3, 2))
    assert after.version == before.version + 1


@pytest.mark.parametrize("number", [None, 0, 1])
def test_a_cancel_whose_round_is_not_the_last_of_its_version_is_refused(number):
    public_id = new_game([5, 6, 7], [1, 1, 1])

    with pytest.raises(StaleRound) as stale:
        cancel(public_id, number)

    assert "ne dit pas quelle manche il annule" in str(stale.value.refusal)
    assert len(rounds_of(public_id)) == 2


def test_cancelled_rounds_come_back_last_cancelled_first_exactly_as_they_were():
    public_id = new_game([1, 2, 3], [4, 5, 6], [7, 8, 9])
    cancel(public_id, 3)
    cancel(public_id, 2)

    assert restore(public_id, 2).restorable == 3
    after = restore(public_id, 3)

    assert after.scoresheet.rounds == ((1, 2, 3), (4, 5, 6), (7, 8, 9))
    assert after.restorable is None


def test_a_round_recorded_after_a_cancel_drops_the_cancelled_one():
    public_id = new_game([5, 6, 7])
    cancel(public_id, 1)

    after = record(public_id, 1, [2, 9, 1])

    assert after.scoresheet.rounds == ((2, 9, 1),)
    assert after.restorable is None


def test_cancelling_the_round_that_ended_the_game_reopens_it_and_restoring_ends_it_again():
    public_id = new_game([60, 1, 1], [10, 1, 1])

    reopened = cancel(public_id, 2)
    ended = restore(public_id, 2)

    assert not reopened.scoresheet.is_over
    assert ended.scoresheet.is_over
    assert ended.scoresheet.rounds == ((60, 1, 1), (10, 1, 1))


def test_a_round_cannot_be_restored_once_the_game_has_ended():
    public_id = new_game([10, 1, 1], [10, 1, 1])
    cancel(public_id, 2)
    edit(public_id, 1, [67, 1, 1])  # the correction ends the game

    with pytest.raises(RoundRefused) as refused:
        restore(public_id, 2)

    assert "rien n’a été rétabli" in str(refused.value.refusal)
    assert rounds_of(public_id) == ((67, 1, 1),)
    assert stored(public_id).restorable == 2  # still offered, should the end be undone


# --- Correcting a round ---------------------------------------------------------------------------


def test_an_edit_replaces_the_round_and_the_version_goes_up():
    public_id = new_game([1, 2, 3], [10, 0, 7])
    version = stored(public_id).version

    after = edit(public_id, 2, [0, 12, 5])

    assert after.scoresheet.rounds == ((1, 2, 3), (0, 12, 5))
    assert after.version == version + 1


def test_impossible_heads_in_an_edit_raise_round_refused_and_store_nothing():
    public_id = new_game([1, 2, 3])
    version = stored(public_id).version

    with pytest.raises(RoundRefused) as refused:
        edit(public_id, 1, [98, 1, 1])

    assert set(refused.value.refusal.fields) == {0}
    assert rounds_of(public_id) == ((1, 2, 3),)
    assert stored(public_id).version == version


def test_an_edit_in_a_pro_game_is_held_to_the_pro_deck():
    public_id = new_game([20, 20, 11], game_rules=GameRules.of(SIX_NIMMT, variants={"pro"}))

    with pytest.raises(RoundRefused):
        edit(public_id, 1, [20, 20, 12])


def test_a_correction_that_would_have_ended_the_game_earlier_is_refused():
    public_id = new_game([10, 5], [20, 5], [1, 1], names=("Alice", "Bruno"))

    with pytest.raises(RoundRefused) as refused:
        edit(public_id, 1, [60, 5])  # 60 + 20 > 66 after round 2

    assert "après la manche 2" in str(refused.value.refusal)
    assert rounds_of(public_id) == ((10, 5), (20, 5), (1, 1))


def test_a_correction_can_end_the_game_and_another_can_reopen_it():
    public_id = new_game([10, 5], [20, 5], names=("Alice", "Bruno"))

    ended = edit(public_id, 2, [60, 5])
    reopened = edit(public_id, 2, [6, 5])

    assert ended.scoresheet.is_over
    assert not reopened.scoresheet.is_over
    assert reopened.scoresheet.next_round == 3


@pytest.mark.parametrize("number", [0, 2])
def test_editing_a_round_that_was_never_played_is_not_found(number):
    public_id = new_game([1, 2, 3])

    with pytest.raises(GameNotFound):
        edit(public_id, number, [1, 1, 1])


# --- One true sheet: every write acts on the game its page showed, or on nothing ------------------
# Each case: a page drawn at some version, the game changed since (on another phone or tab), and
# the write sent from that page. Drawn from an older game, it is refused (GameChanged) and changes
# nothing; the same write sent twice is a repeat (StaleRound), never a conflict.


def _skyjo_ended_by_another():
    return new_game(game_rules=GameRules.of(rules.game_of("skyjo")))


STALE_WRITES = {
    # name: (the rounds played, what another phone does after the page was drawn, the write)
    "a round after another round 1": (
        [],
        lambda g: record(g, 1, [9, 9, 9]),
        lambda g, v: record(g, 1, [1, 2, 3], drawn=v),
    ),
    "a round after a correction": (
        [[1, 2, 3]],
        lambda g: edit(g, 1, [3, 2, 1]),
        lambda g, v: record(g, 2, [4, 4, 4], drawn=v),
    ),
    "a round after a cancel": (
        [[1, 2, 3], [4, 5, 6]],
        lambda g: cancel(g, 2),
        lambda g, v: record(g, 3, [1, 1, 1], drawn=v),
    ),
    "a cancel after another round in its place": (
        [[1, 2, 3], [4, 5, 6]],
        lambda g: (cancel(g, 2), record(g, 2, [7, 7, 7])),
        lambda g, v: cancel(g, 2, drawn=v),
    ),
    "a cancel after a round more": (
        [[1, 2, 3]],
        lambda g: record(g, 2, [7, 7, 7]),
        lambda g, v: cancel(g, 1, drawn=v),
    ),
    "a restore after another round in its place": (
        [[1, 2, 3], [4, 5, 6]],
        lambda g: (cancel(g, 2), record(g, 2, [7, 7, 7])),
        lambda g, v: restore(g, 2, drawn=v, shown=rules.RoundScores((4, 5, 6))),
    ),
    "a correction of a round cancelled meanwhile": (
        [[1, 2, 3], [4, 5, 6]],
        lambda g: cancel(g, 2),
        lambda g, v: edit(g, 2, [6, 5, 4], drawn=v),
    ),
    "a correction after another correction": (
        [[1, 2, 3]],
        lambda g: edit(g, 1, [2, 2, 2]),
        lambda g, v: edit(g, 1, [3, 3, 3], drawn=v),
    ),
    "a delete of a game played on meanwhile": (
        [[1, 2, 3]],
        lambda g: record(g, 2, [4, 4, 4]),
        lambda g, v: delete(g, drawn=v),
    ),
    "a rematch of a game reopened meanwhile": (
        [[60, 1, 1], [10, 1, 1]],
        lambda g: cancel(g, 2),
        lambda g, v: rematch(g, drawn=v),
    ),
}


@pytest.mark.parametrize("played, meanwhile, write", STALE_WRITES.values(), ids=STALE_WRITES)
def test_a_write_drawn_from_an_older_game_is_refused_and_changes_nothing(played, meanwhile, write):
    public_id = new_game(*played)
    drawn = stored(public_id).version
    meanwhile(public_id)
    before = stored(public_id)

    with pytest.raises(GameChanged) as changed:
        write(public_id, drawn)

    assert "La partie a changé" in str(changed.value.refusal)
    assert changed.value.game == before  # the game as it stands, to show
    assert stored(public_id) == before
    assert len(reads.all_games(DEVICE)) == 1  # no rematch started


@pytest.mark.parametrize("write", [w for *_, w in STALE_WRITES.values()], ids=STALE_WRITES)
def test_a_write_that_names_no_version_is_from_no_game(write):
    public_id = new_game([60, 1, 1], [10, 1, 1])
    before = stored(public_id)

    with pytest.raises((GameChanged, StaleRound)):
        write(public_id, None)

    assert stored(public_id) == before


REPEATS = {
    "a round": ([], lambda g, v: record(g, 1, [1, 2, 3], drawn=v), "déjà enregistrée"),
    "a cancel": ([[1, 2, 3]], lambda g, v: cancel(g, 1, drawn=v), "déjà annulée"),
    "a correction": (
        [[1, 2, 3]],
        lambda g, v: edit(g, 1, [3, 2, 1], drawn=v),
        "tient déjà ces valeurs",
    ),
}


@pytest.mark.parametrize("played, write, says", REPEATS.values(), ids=REPEATS)
def test_the_same_write_sent_twice_is_a_repeat_not_a_conflict(played, write, says):
    public_id = new_game(*played)
    drawn = stored(public_id).version
    write(public_id, drawn)
    after = stored(public_id)

    with pytest.raises(StaleRound) as stale:
        write(public_id, drawn)  # a double tap, a retry, a waiting round sent again

    assert says in str(stale.value.refusal)
    assert stored(public_id) == after


def test_a_restore_sent_twice_is_a_repeat_not_a_conflict():
    public_id = new_game([1, 2, 3])
    cancel(public_id, 1)
    page = stored(public_id)
    restore(public_id, 1)

    with pytest.raises(StaleRound) as stale:
        restore(public_id, 1, drawn=page.version, shown=page.restorable_round)

    assert "déjà rétablie" in str(stale.value.refusal)
    assert rounds_of(public_id) == ((1, 2, 3),)


def test_a_round_recorded_elsewhere_with_the_same_scores_is_a_repeat():
    public_id = new_game([1, 2, 3])
    drawn = stored(public_id).version
    record(public_id, 2, [4, 5, 6])  # another phone, the same round

    with pytest.raises(StaleRound):
        record(public_id, 2, [4, 5, 6], drawn=drawn)

    assert rounds_of(public_id) == ((1, 2, 3), (4, 5, 6))


def test_a_round_sent_after_the_game_ended_elsewhere_says_how_to_reopen_it():
    public_id = new_game([60, 1, 1])
    drawn = stored(public_id).version
    record(public_id, 2, [10, 1, 1])  # the end, on another phone

    with pytest.raises(GameChanged) as changed:
        record(public_id, 2, [3, 3, 3], drawn=drawn)

    assert "terminée" in str(changed.value.refusal)
    assert "Annuler la manche" in str(changed.value.refusal)


# --- Starting, rematching, deleting ---------------------------------------------------------------


def test_the_same_creation_key_twice_starts_one_game():
    first = games.start_game(DEVICE, ["Alice", "Bruno"], GameRules.of(SIX_NIMMT), "form-key")
    second = games.start_game(DEVICE, ["Alice", "Bruno"], GameRules.of(SIX_NIMMT), "form-key")

    assert second.public_id == first.public_id
    assert len(reads.all_games(DEVICE)) == 1


def test_names_that_cannot_sit_at_a_table_start_no_game():
    with pytest.raises(rules.Refusal):
        games.start_game(DEVICE, ["Alice", " alice"], GameRules.of(SIX_NIMMT))

    assert reads.all_games(DEVICE) == []


@pytest.mark.parametrize(
    "game_rules, played",
    [
        (
            GameRules.of(SIX_NIMMT, end=EndRule.AT_OR_ABOVE, variants={"pro"}),
            [[40, 2, 3], [26, 1, 1]],
        ),
        (GameRules.of(SIX_NIMMT, limit=30), [[31, 2, 3]]),
        (GameRules.of(SIX_NIMMT, end=EndRule.ROUNDS, round_count=2), [[1, 2, 3], [1, 1, 1]]),
    ],
    ids=["66 or more, pro", "another limit", "a number of rounds"],
)
def test_a_rematch_keeps_the_seats_and_the_rules(game_rules, played):
    old = new_game(*played, names=("Chloé", "Alice", "Bruno"), game_rules=game_rules)

    new = rematch(old)

    assert new.public_id != old
    assert new.scoresheet.players == ("Chloé", "Alice", "Bruno")
    assert new.scoresheet.rules == game_rules
    assert new.scoresheet.rounds == ()
    assert rounds_of(old) == tuple(map(tuple, played))


def test_two_rematches_of_a_game_give_the_same_new_game():
    old = new_game([67, 1, 1])

    assert rematch(old).public_id == rematch(old).public_id
    assert len(reads.all_games(DEVICE)) == 2


def test_a_game_in_progress_has_no_rematch():
    public_id = new_game([5, 6, 7])

    with pytest.raises(RoundRefused) as refused:
        rematch(public_id)

    assert "pas terminée" in str(refused.value.refusal)
    assert len(reads.all_games(DEVICE)) == 1


def test_a_deleted_game_is_gone_and_a_second_delete_finds_nothing():
    kept = new_game([70, 1, 1])
    deleted = new_game([5, 6, 7])

    drawn = stored(deleted).version
    delete(deleted, drawn=drawn)

    with pytest.raises(GameNotFound):
        reads.find_game(deleted, DEVICE)
    with pytest.raises(GameNotFound):
        delete(deleted, drawn=drawn)
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
    record(doubled, 1, [20, 3, 5], ended_by=0)
    played = new_game([5, 6, 7], [1, 2, 3], [4, 4, 4])
    cancel(played, 3)
    cancel(played, 2)
    restore(played, 2)
    edit(played, 2, [70, 0, 1])
    next_game = rematch(played).public_id

    kept = every_game()

    assert set(kept) == {doubled, played, next_game}
    for public_id, game in kept.items():  # as the page reads it, from its rows
        assert game.scoresheet == stored(public_id).scoresheet
    assert kept[played].scoresheet.rounds == ((5, 6, 7), (70, 0, 1))
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
    "record": lambda g, device: rounds.record_round(
        g, device, 2, rules.RoundScores((1, 1, 1)), version=4
    ),
    "cancel": lambda g, device: rounds.cancel_round(g, device, 1, version=4),
    "restore": lambda g, device: rounds.restore_round(g, device, 2, None, version=4),
    "edit": lambda g, device: rounds.edit_round(
        g, device, 1, rules.RoundScores((9, 9, 9)), version=4
    ),
    "rematch": lambda g, device: games.rematch(g, device, 4),
    "delete": lambda public_id, device: games.delete_game(public_id, device, 4),
}


@pytest.mark.parametrize("device", ["another-phone", None], ids=["another device", "no cookie"])
@pytest.mark.parametrize("call", CALLS.values(), ids=CALLS.keys())
def test_another_devices_game_does_not_exist_for_it(call, device):
    public_id = new_game([5, 6, 7], [1, 2, 3])
    cancel(public_id, 2)
    before = stored(public_id)

    with pytest.raises(GameNotFound):
        call(public_id, device)

    assert stored(public_id) == before
    assert len(reads.all_games(DEVICE)) == 1
