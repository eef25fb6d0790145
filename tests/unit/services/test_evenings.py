"""The evening's service (app/services/evenings.py) on a real database: the games a rematch and
« Autre jeu, même table » join to an evening, who may see it, its ranking, the names seen before
a game. The pages are in tests/integration/test_evening.py; the ranking's rules in
tests/unit/test_evening.py."""

from __future__ import annotations

import pytest

from app import rules
from app.rules import EndRule, GameRules
from app.rules.games.six_nimmt import SIX_NIMMT
from app.services import evenings, games, reads, rounds, sharing, tables
from app.services.refusals import GameNotFound

pytestmark = pytest.mark.storage

DEVICE, OTHER = "the-table-phone", "another-phone"
SIX = GameRules.of(SIX_NIMMT)
DICE = GameRules.of(rules.GAMES["libre"], end=EndRule.ROUNDS, round_count=1, title="Dés")


@pytest.fixture(autouse=True)
def app_context(app):
    with app.app_context():
        yield


def finish(public_id: str, scores, device=DEVICE) -> None:
    version = reads.find_game(public_id, device).version
    rounds.record_round(public_id, device, 1, rules.RoundScores(tuple(scores)), version=version)


def alone(public_id: str) -> bool:
    """Whether the game is played alone: no evening, and no evening page."""
    with pytest.raises(GameNotFound):
        evenings.evening(public_id, DEVICE)
    return reads.find_game(public_id, DEVICE).evening is None


def rematch(public_id: str, device=DEVICE) -> str:
    version = reads.find_game(public_id, device).version
    return games.rematch(public_id, device, version).public_id


def test_a_rematch_and_another_game_join_the_evening_of_the_first():
    first = games.start_game(DEVICE, ["Anna", "Ben"], SIX).public_id
    finish(first, [70, 3])  # Ben wins
    second = rematch(first)
    finish(second, [2, 70])  # Anna wins
    third = games.start_game(DEVICE, ["anna", "Ben", "Chloé"], DICE, after=second).public_id
    finish(third, [4, 4, 9])  # Anna and Ben share it

    evening = evenings.evening(second, DEVICE)

    assert [entry.game.public_id for entry in evening.games] == [first, second, third]
    assert evenings.evening(first, DEVICE) == evenings.evening(third, DEVICE) == evening
    ranking = [(line.name, line.games, line.wins, line.rank) for line in evening.ranking]
    # Anna: places 2, 1, 1 → 4/3; Ben: 1, 2, 1 → 4/3: a shared first place; Chloé third.
    assert ranking == [("Anna", 3, 2, 1), ("Ben", 3, 2, 1), ("Chloé", 1, 0, 3)]


def test_a_plain_new_game_starts_an_evening_of_its_own():
    first = games.start_game(DEVICE, ["Anna", "Ben"], SIX).public_id
    finish(first, [70, 3])
    plain = games.start_game(DEVICE, ["Anna", "Ben"], DICE).public_id

    assert alone(first) and alone(plain)


def test_a_game_this_phone_may_not_see_is_ignored_and_the_new_game_begins_an_evening():
    theirs = games.start_game(OTHER, ["Anna", "Ben"], SIX).public_id
    finish(theirs, [70, 3], device=OTHER)

    for after in (theirs, "x" * 200, "\x00", "../../", ""):
        mine = games.start_game(DEVICE, ["Anna", "Ben"], DICE, after=after).public_id
        assert alone(mine)
    assert reads.find_game(theirs, OTHER).evening is None


def test_every_phone_of_the_table_sees_the_same_evening_and_no_other_phone_does():
    first = games.start_game(DEVICE, ["Anna", "Ben"], SIX).public_id
    token = tables.invite(first, DEVICE)
    tables.join(token, OTHER)
    finish(first, [70, 3])
    # The phone that joined starts the next game: it is the table's, whoever owns it.
    second = games.start_game(OTHER, ["Anna", "Ben"], DICE, after=first).public_id

    assert evenings.evening(first, DEVICE) == evenings.evening(second, OTHER)
    with pytest.raises(GameNotFound):
        evenings.evening(second, "a-stranger")


def test_a_name_keeps_its_colour_through_the_evening_and_the_others_take_those_left():
    first = games.start_game(DEVICE, ["Ben", "Anna", "Chloé"], SIX).public_id
    finish(first, [70, 3, 5])
    second = games.start_game(DEVICE, ["anna", "Dora", "Ben"], DICE, after=first).public_id
    finish(second, [4, 9, 1])
    third = rematch(second)  # the same seats: the same colours
    fourth = games.start_game(DEVICE, ["Eve", "Chloé", "Dora"], DICE, after=third).public_id

    def colours(public_id):
        return reads.find_game(public_id, DEVICE).scoresheet.colours

    assert colours(first) == (0, 1, 2)  # by seat, as every game played alone
    assert colours(second) == (1, 3, 0)  # Anna and Ben as before; Dora one no one had
    assert colours(third) == colours(second)
    assert colours(fourth) == (4, 2, 3)  # Chloé's from the first game, Dora's from the second


def test_the_follow_address_goes_on_to_the_next_game_once_the_game_is_over():
    first = games.start_game(DEVICE, ["Anna", "Ben"], SIX).public_id
    sharing.share_game(first, DEVICE)
    token = sharing.follow_token(first, DEVICE)[0]
    in_progress = games.start_game(DEVICE, ["Anna", "Ben"], DICE, after=first).public_id
    assert sharing.followed_game(token).public_id == first  # a game in play keeps its screen
    finish(first, [70, 3])

    following = games.start_game(DEVICE, ["Anna", "Ben"], DICE, after=first).public_id

    assert sharing.followed_game(token).public_id == following != in_progress
    followed = evenings.followed_evening(sharing.followed_game(token))
    assert followed is not None and len(followed.games) == 3


def test_a_game_left_alone_by_deletions_is_played_alone_again():
    first = games.start_game(DEVICE, ["Anna", "Ben"], SIX).public_id
    finish(first, [70, 3])
    second = rematch(first)
    third = games.start_game(DEVICE, ["Anna", "Ben"], DICE, after=second).public_id

    games.delete_game(first, DEVICE, reads.find_game(first, DEVICE).version)
    assert len(evenings.evening(third, DEVICE).games) == 2  # the evening goes on without it
    games.delete_game(second, DEVICE, reads.find_game(second, DEVICE).version)

    assert alone(third)
