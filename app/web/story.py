"""A game's story (« Le fil de la partie »): every change of its sheet, newest first, on a page of
its own — read the request, call the service (app/services/story.py), render."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from flask import Blueprint, render_template

from app.platform.devices import current_device_hash
from app.services import story

bp = Blueprint("story", __name__)


@dataclass(frozen=True)
class StoryLine:
    """One entry as the page says it: names in place of seats (the template has the words)."""

    at: datetime
    phone: int
    own: bool
    imported: bool  # its phone was one of the place the game was imported from
    kind: str
    round: int | None
    scores: tuple[tuple[str, int], ...]  # the round recorded, cancelled or put back
    changes: tuple[tuple[str, int, int], ...]  # a correction: each score that changed
    ended_by: str | None  # who ended the round (a correction: after)
    was_ended_by: str | None  # a correction that changed who ended it: before
    dealer: str | None  # who deals from now on
    was_dealer: str | None

    @classmethod
    def of(cls, entry: story.Entry, players: Sequence[str]) -> StoryLine:
        change = entry.change
        scores = _seated(players, change.get("scores"))
        was = _seated(players, change.get("was"))
        changes = tuple(
            (name, before, after)
            for (name, before), (_, after) in zip(was, scores, strict=False)
            if before != after
        )
        ended_by, was_ended_by = _name(players, change, "ended_by"), None
        if entry.kind == story.EDITED:
            was_ended_by = _name(players, change, "was_ended_by")
            if was_ended_by == ended_by:  # unchanged: nothing to say
                ended_by = was_ended_by = None
        dealer, was_dealer = _name(players, change, "seat"), _name(players, change, "was_seat")
        if change.get("was_seat") == change.get("seat"):  # lots that drew who dealt, told before
            was_dealer = None
        return cls(
            at=entry.at,
            phone=entry.phone,
            own=entry.own,
            imported=entry.imported,
            kind=entry.kind,
            round=entry.round,
            scores=() if was else scores,
            changes=changes,
            ended_by=ended_by,
            was_ended_by=was_ended_by,
            dealer=dealer,
            was_dealer=was_dealer,
        )


def _seated(players: Sequence[str], scores: Any) -> tuple[tuple[str, int], ...]:
    if not isinstance(scores, list):
        return ()
    return tuple(zip(players, scores, strict=False))


def _name(players: Sequence[str], change: Mapping[str, Any], key: str) -> str | None:
    seat = change.get(key)
    return players[seat] if isinstance(seat, int) and 0 <= seat < len(players) else None


@bp.get("/parties/<public_id>/fil")
def story_page(public_id: str) -> str:
    """Show every change of a game's sheet, newest first: what, when, which phone."""
    told = story.story(public_id, current_device_hash())
    sheet = told.game.scoresheet
    lines = [StoryLine.of(entry, sheet.players) for entry in told.entries]
    return render_template("game/story.html", game=told.game, sheet=sheet, lines=lines)
