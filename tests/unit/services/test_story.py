"""The story of a game (« Le fil de la partie »), as the services write and read it: each change of
the sheet tells one entry in its own unit of work; a repeat or a refused write tells none; the
phones are numbered in the order they came to the game's table."""

from __future__ import annotations

import pytest

from app import rules
from app.platform.extensions import db
from app.services import dealing, games, rounds, story, tables
from app.services.refusals import GameChanged, RoundRefused, StaleRound
from app.storage.models import StoryEntry
from tests.unit.services.test_games import (
    DEVICE,
    cancel,
    edit,
    new_game,
    record,
    rematch,
    restore,
    stored,
)

pytestmark = pytest.mark.storage  # what is stored, on SQLite and PostgreSQL


@pytest.fixture(autouse=True)
def app_context(app):
    with app.app_context():
        yield


def told(public_id: str, reader: str = DEVICE) -> list[tuple]:
    """The story as (kind, round, phone, own) tuples, oldest first."""
    entries = reversed(story.story(public_id, reader).entries)
    return [(e.kind, e.round, e.phone, e.own) for e in entries]


def test_each_change_of_the_sheet_tells_one_entry_in_order():
    public_id = new_game([1, 2, 3], [4, 5, 6])
    cancel(public_id, 2)
    restore(public_id, 2)
    edit(public_id, 1, [1, 7, 3])

    assert told(public_id) == [
        (story.RECORDED, 1, 1, True),
        (story.RECORDED, 2, 1, True),
        (story.CANCELLED, 2, 1, True),
        (story.RESTORED, 2, 1, True),
        (story.EDITED, 1, 1, True),
    ]


def test_an_entry_keeps_what_changed():
    public_id = new_game([1, 2, 3])
    edit(public_id, 1, [1, 7, 3])
    cancel(public_id, 1)

    cancelled, edited, recorded = story.story(public_id, DEVICE).entries
    assert recorded.change == {"scores": [1, 2, 3]}
    assert edited.change == {"scores": [1, 7, 3], "was": [1, 2, 3]}
    assert cancelled.change == {"scores": [1, 7, 3]}


def test_a_correction_of_who_ended_a_skyjo_round_keeps_both():
    public_id = new_game(game_rules=rules.GameRules.of(rules.game_of("skyjo")))
    record(public_id, 1, [10, 20, 30], ended_by=0)
    version = stored(public_id).version
    typed = rules.RoundScores((10, 20, 30), 1)
    rounds.edit_round(public_id, DEVICE, 1, typed, version=version)

    edited = story.story(public_id, DEVICE).entries[0]
    assert edited.change == {
        "scores": [10, 20, 30],
        "ended_by": 1,
        "was": [10, 20, 30],
        "was_ended_by": 0,
    }


def test_a_rematch_is_told_on_the_game_it_came_from_once():
    old = new_game([67, 1, 1])
    rematch(old)
    rematch(old)  # a second tap finds the same new game

    assert told(old)[-1] == (story.REMATCH, None, 1, True)
    assert len(told(old)) == 2


REPEATS = {
    "a round": ([], lambda g, v: record(g, 1, [1, 2, 3], drawn=v)),
    "a cancel": ([[1, 2, 3]], lambda g, v: cancel(g, 1, drawn=v)),
    "a correction": ([[1, 2, 3]], lambda g, v: edit(g, 1, [3, 2, 1], drawn=v)),
}


@pytest.mark.parametrize("played, write", REPEATS.values(), ids=REPEATS)
def test_a_repeat_tells_nothing(played, write):
    public_id = new_game(*played)
    drawn = stored(public_id).version
    write(public_id, drawn)
    before = told(public_id)

    with pytest.raises(StaleRound):
        write(public_id, drawn)

    assert told(public_id) == before


def test_a_refused_or_stale_write_tells_nothing():
    public_id = new_game([1, 2, 3])
    drawn = stored(public_id).version
    record(public_id, 2, [4, 4, 4])
    before = told(public_id)

    with pytest.raises(RoundRefused):
        record(public_id, 3, [500, 1, 1])  # scores a round cannot have
    with pytest.raises(GameChanged):
        edit(public_id, 1, [3, 2, 1], drawn=drawn)  # from a page drawn before round 2

    assert told(public_id) == before


def test_a_correction_that_changes_nothing_tells_nothing_and_leaves_the_version():
    public_id = new_game([1, 2, 3], [4, 5, 6])
    before, drawn = told(public_id), stored(public_id).version

    answer = edit(public_id, 2, [4, 5, 6])  # « Modifier la manche 2 », saved as it was

    assert told(public_id) == before
    assert answer.version == stored(public_id).version == drawn


def test_the_dealer_chosen_by_hand_who_already_deals_tells_nothing_and_leaves_the_version():
    public_id = new_game()
    drawn = stored(public_id).version

    answer = dealing.set_dealer(public_id, DEVICE, 0, version=drawn)  # Alice deals already

    assert told(public_id) == []
    assert answer.version == stored(public_id).version == drawn


def test_lots_that_draw_who_already_deals_tell_the_draw_with_no_before(monkeypatch):
    public_id = new_game()
    monkeypatch.setattr(dealing.secrets, "randbelow", lambda _: 0)  # Alice, who deals already
    drawn = stored(public_id).version

    answer = dealing.set_dealer(public_id, DEVICE, None, version=drawn)

    (entry,) = story.story(public_id, DEVICE).entries
    assert (entry.kind, entry.change) == (story.DEALER, {"seat": 0})
    # Lots were drawn: a write like any other, so a second tap from the same page draws no more.
    assert answer.version == drawn + 1


def _seat(public_id: str, device: str) -> None:
    token = tables.invite(public_id, DEVICE)
    tables.join(token, device)


def test_phones_are_numbered_in_the_order_they_joined_and_the_reader_is_its_own():
    public_id = new_game()
    _seat(public_id, "second-phone")
    _seat(public_id, "third-phone")
    record(public_id, 1, [1, 2, 3])
    version = stored(public_id).version
    typed = rules.RoundScores((1, 2, 4))
    rounds.edit_round(public_id, "third-phone", 1, typed, version=version)
    rounds.cancel_round(public_id, "second-phone", 1, version=version + 1)

    assert told(public_id) == [
        (story.RECORDED, 1, 1, True),
        (story.EDITED, 1, 3, False),
        (story.CANCELLED, 1, 2, False),
    ]
    assert [own for *_, own in told(public_id, "third-phone")] == [False, True, False]


def test_a_phone_that_left_the_table_keeps_its_number():
    public_id = new_game()
    _seat(public_id, "second-phone")
    _seat(public_id, "third-phone")
    rounds.record_round(public_id, "second-phone", 1, rules.RoundScores((1, 2, 3)), version=1)
    rounds.record_round(public_id, "third-phone", 2, rules.RoundScores((1, 2, 3)), version=2)
    tables.leave(public_id, "second-phone")

    assert [phone for _, _, phone, _ in told(public_id)] == [2, 3]


def test_the_story_goes_with_its_game():
    public_id = new_game([1, 2, 3])
    games.delete_game(public_id, DEVICE, stored(public_id).version)

    assert db.session.scalar(db.select(db.func.count()).select_from(StoryEntry)) == 0
