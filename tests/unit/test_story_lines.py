"""What « Le fil de la partie » says of an entry (app/web/story.py): names in place of seats, and
of a correction only what changed."""

from __future__ import annotations

from datetime import datetime

from app.services import story
from app.web.story import StoryLine

PLAYERS = ("Alice", "Bruno", "Chloé")
AT = datetime(2026, 12, 5, 20, 15)


def line(kind: str, change: dict) -> StoryLine:
    return StoryLine.of(story.Entry(AT, 2, False, kind, 1, change), PLAYERS)


def test_a_correction_names_each_score_that_changed_and_no_other():
    told = line(story.EDITED, {"scores": [5, 7, 3], "was": [5, 2, 3]})

    assert told.changes == (("Bruno", 2, 7),)
    assert told.scores == ()
    assert told.ended_by is None and told.was_ended_by is None


def test_a_correction_of_who_ended_a_skyjo_round_names_both():
    change = {"scores": [4, 9, 1], "was": [4, 9, 1], "ended_by": 2, "was_ended_by": 0}

    told = line(story.EDITED, change)

    assert (told.was_ended_by, told.ended_by) == ("Alice", "Chloé")
    assert told.changes == ()


def test_a_correction_that_keeps_who_ended_the_round_says_nothing_of_it():
    change = {"scores": [4, 9, 2], "was": [4, 9, 1], "ended_by": 2, "was_ended_by": 2}

    assert line(story.EDITED, change).ended_by is None


def test_a_round_recorded_keeps_its_scores_by_name_and_who_ended_it():
    told = line(story.RECORDED, {"scores": [4, 9, 1], "ended_by": 1})

    assert told.scores == (("Alice", 4), ("Bruno", 9), ("Chloé", 1))
    assert told.ended_by == "Bruno"


def test_a_change_of_dealer_names_both_players():
    told = line(story.DEALER, story.dealer_change(0, 2))

    assert (told.was_dealer, told.dealer) == ("Alice", "Chloé")
    assert line(story.DEALER, story.dealer_change(None, 1)).was_dealer is None
