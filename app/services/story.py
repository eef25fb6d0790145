"""The story of a game (« Le fil de la partie »): every change of its sheet, when, and which of the
table's phones made it.

A write adds its entry with `record`, inside its own unit of work: the entry is stored with the
change or not at all (a refused write, a repeat, rolls both back or never gets there). Entries
are never changed afterwards; they go with their game (deleted with it, exported, imported).

Which phone: each entry keeps the phone's device hash, never shown. It is told as a number when
read: « téléphone 1 » is the phone that started the game, then « téléphone 2 », … in the order
the others joined its table. A phone that left the table has no seat any more: each entry also
keeps when its phone joined (StoryEntry.joined_at), so it keeps its place; a phone that joined,
wrote nothing and left is in no entry and counts for nobody (the numbers are those of the phones
the story and the table know, the same on every phone at one moment). The
reader's own phone is « ce téléphone ». An entry from an imported file keeps the number the
file gave it (`StoryEntry.phone`): the phones of another place have no hash here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import select

from app import rules
from app.platform.extensions import db
from app.services.access import look_for, reachable_by
from app.services.reads import find_game
from app.services.refusals import GameNotFound
from app.services.saved_game import SavedGame
from app.storage.models import Game, StoryEntry, TablePhone

# What an entry says happened (StoryEntry.kind; the same words in the export).
RECORDED = "recorded"  # a round recorded (typed, or brought from the round assistant)
CANCELLED = "cancelled"  # « Annuler la manche »
RESTORED = "restored"  # « Rétablir la manche »
EDITED = "edited"  # a round corrected: `was` and `scores`, `was_ended_by` and `ended_by`
DEALER = "dealer"  # who deals (or starts) set by hand: `was_seat` → `seat`
REMATCH = "rematch"  # « Rejouer avec les mêmes joueurs », on the game it came from
IMPORTED = "imported"  # the game came from a file (or its next rounds did: `round`, the last)
KINDS = frozenset({RECORDED, CANCELLED, RESTORED, EDITED, DEALER, REMATCH, IMPORTED})
# The keys a `change` may hold: scores by seat, and seats.
SCORE_KEYS = ("scores", "was")
SEAT_KEYS = ("ended_by", "was_ended_by", "seat", "was_seat")


def record(
    game: Game,
    device_hash: str | None,
    kind: str,
    round_number: int | None = None,
    change: Mapping[str, Any] | None = None,
) -> None:
    """Add an entry to the game's story, inside the write's unit of work: one INSERT at its next
    flush, committed with the change it tells or not at all. `change` holds what the entry says
    beyond its kind and round (`round_change`, `edit_change`, `dealer_change`)."""
    joined: Any = None
    if game.table_id is not None and device_hash != game.device_hash:
        # Read by the INSERT itself: no statement more for the write.
        joined = (
            select(TablePhone.joined_at)
            .where(TablePhone.table_id == game.table_id, TablePhone.device_hash == device_hash)
            .scalar_subquery()
        )
    db.session.add(
        StoryEntry(
            game_id=game.id,
            device_hash=device_hash,
            joined_at=joined,
            kind=kind,
            round=round_number,
            change=dict(change) if change else None,
        )
    )


def round_change(typed: rules.RoundScores) -> dict[str, Any]:
    """What an entry keeps of a round recorded, cancelled or restored: its scores, who ended it."""
    change: dict[str, Any] = {"scores": list(typed.scores)}
    if typed.ended_by is not None:
        change["ended_by"] = typed.ended_by
    return change


def edit_change(was: rules.RoundScores, now: rules.RoundScores) -> dict[str, Any]:
    """What an entry keeps of a corrected round: the round before and after (the page shows
    what differs)."""
    change = {**round_change(now), "was": list(was.scores)}
    if was.ended_by is not None:
        change["was_ended_by"] = was.ended_by
    return change


def dealer_change(was: int | None, seat: int) -> dict[str, Any]:
    """What an entry keeps of a change of who deals (or starts): the seat before (None: nobody
    yet) and after (app/services/dealing.py's set_dealer). Lots that draw who deals already keep
    no seat before: « Alice donne », not « Alice donne (avant : Alice) »."""
    return {"seat": seat} if was in (None, seat) else {"seat": seat, "was_seat": was}


@dataclass(frozen=True)
class Entry:
    """One entry as a page or an export reads it: `phone` is its phone's number (1: the phone
    that started the game), `own` whether it is the reader's phone."""

    at: datetime
    phone: int
    own: bool
    kind: str
    round: int | None
    change: Mapping[str, Any] = field(default_factory=dict)
    imported: bool = False  # told in an imported file: its phone was one of another place


@dataclass(frozen=True)
class Story:
    game: SavedGame
    entries: tuple[Entry, ...]  # newest first


def story(public_id: str, device_hash: str | None) -> Story:
    """Return the story of a game this phone may see (as its page: GameNotFound otherwise),
    newest first."""
    game = find_game(public_id, device_hash)
    device = look_for(public_id, device_hash)
    found = db.session.execute(
        select(Game.id, Game.table_id).where(Game.public_id == public_id, reachable_by(device))
    ).one_or_none()
    if found is None:  # deleted between the two reads
        raise GameNotFound(public_id)
    entries = _entries_of([found.id], {found.id: (game.owner, found.table_id)}, device)
    return Story(game, tuple(reversed(entries.get(found.id, []))))


def stories_of(
    device_hash: str | None, game_ids: Sequence[str] | None = None
) -> dict[str, list[Entry]]:
    """Return the stories of the games this phone may see (or of those among them with these
    public ids), oldest entry first, by public id: what an export writes."""
    if device_hash is None:
        return {}
    query = select(Game.id, Game.public_id, Game.device_hash, Game.table_id).where(
        reachable_by(device_hash)
    )
    if game_ids is not None:
        query = query.where(Game.public_id.in_(game_ids))
    games = db.session.execute(query).all()
    by_id = _entries_of(
        [g.id for g in games], {g.id: (g.device_hash, g.table_id) for g in games}, device_hash
    )
    return {g.public_id: by_id[g.id] for g in games if g.id in by_id}


def _entries_of(
    game_ids: Sequence[int], owners: Mapping[int, tuple[str, int | None]], reader: str
) -> dict[int, list[Entry]]:
    """Return these games' entries, oldest first, their phones numbered: two statements
    whatever the number of games (the entries, the phones seated at their tables)."""
    if not game_ids:
        return {}
    rows = db.session.execute(
        select(StoryEntry)
        .where(StoryEntry.game_id.in_(game_ids))
        .order_by(StoryEntry.game_id, StoryEntry.id)
    ).scalars()
    by_game: dict[int, list[StoryEntry]] = {}
    for row in rows:
        by_game.setdefault(row.game_id, []).append(row)
    if not by_game:
        return {}
    tables = {owners[game_id][1] for game_id in by_game} - {None}
    seated: dict[int, list[tuple[str, datetime]]] = {}
    if tables:
        for table_id, device, joined in db.session.execute(
            select(TablePhone.table_id, TablePhone.device_hash, TablePhone.joined_at).where(
                TablePhone.table_id.in_(tables)
            )
        ):
            seated.setdefault(table_id, []).append((device, joined))
    told: dict[int, list[Entry]] = {}
    for game_id, rows_of_game in by_game.items():
        owner, table_id = owners[game_id]
        numbers = phone_numbers(owner, seated.get(table_id, []) if table_id else [], rows_of_game)
        told[game_id] = [
            Entry(
                at=row.at,
                phone=numbers[row.device_hash] if row.device_hash else row.phone or 1,
                own=row.device_hash == reader,
                kind=row.kind,
                round=row.round,
                change=row.change or {},
                imported=row.device_hash is None,
            )
            for row in rows_of_game
        ]
    return told


def phone_numbers(
    owner: str, seated: Iterable[tuple[str, datetime]], entries: Iterable[StoryEntry]
) -> dict[str, int]:
    """Number the phones of a game: 1 for the one that started it, then the others in the order
    they joined its table; a phone no longer seated from its first entry (oldest first)."""
    since: dict[str, datetime] = {}
    for device, joined in seated:
        since[device] = joined
    for entry in entries:
        if entry.device_hash is not None:
            joined = entry.joined_at or entry.at
            since[entry.device_hash] = min(since.get(entry.device_hash, joined), joined)
    since.pop(owner, None)
    # The hash only breaks a tie of two equal times, the same way on every read.
    others = sorted(since, key=lambda device: (since[device], device))
    return {owner: 1} | {device: number for number, device in enumerate(others, start=2)}
