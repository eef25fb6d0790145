"""The service layer: each function is one use case — start a game, record, cancel or correct a
round, a rematch, an import — or one read.

A write is one unit of work (app.services.unit_of_work): it loads its game with a lock, checks,
writes, announces the change to the game's followers and returns the game as it now stands; the
unit commits. A refused write raises, inside the unit, an exception that carries the game as it
stands and the refusal (app.rules.Refusal) saying why: the unit rolls back and frees the lock.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, cast

from sqlalchemy import ColumnElement, Row, Table, Text, func, insert, or_, select
from sqlalchemy import cast as cast_as
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import selectinload

from app import rules
from app.platform.extensions import db
from app.rules import N_
from app.services.transfer import ImportedGame
from app.services.unit_of_work import UnitOfWork
from app.storage.models import Game, Player, Round, TablePhone, TableRoundState

PUBLIC_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")  # the alphabet of secrets.token_urlsafe
IN_PROGRESS_LOOKBACK = 20  # how many of the newest games the home page looks through


@dataclass(frozen=True)
class SavedGame:
    """A stored game as pages show it: a frozen copy, still readable after a rollback."""

    public_id: str
    version: int
    created_at: datetime
    scoresheet: rules.Scoresheet
    restorable: int | None = None  # the round « Rétablir la manche N » would put back
    origin_id: str | None = None  # its id on the phone it was imported from (exports keep it)
    played_until: datetime | None = None  # when its last round was recorded (UTC), if dated
    at_table: bool = False  # scored by several phones (app/services/tables.py): live for each
    owner: str = field(default="", repr=False)  # the device hash of the phone that started it

    @classmethod
    def of(cls, game: Game) -> SavedGame:
        """Freeze a game loaded with its players and rounds (ORM objects: what services write)."""
        last = game.rounds[-1].recorded_at if game.rounds else None
        return cls.frozen(
            game, [player.name for player in game.players], [r.heads for r in game.rounds], last
        )

    @classmethod
    def frozen(
        cls,
        game: Game | Row[Any],
        names: Sequence[str],
        rounds: Sequence[Sequence[int]],
        played_until: datetime | None = None,
    ) -> SavedGame:
        """Freeze a game's columns, its players' names in seat order, its rounds in order and when
        the last one was recorded: the one path from stored rows to a game, whether they were read
        as objects or as rows."""
        game_rules = rules.GameRules(
            end=rules.EndRule(game.end_rule),
            limit=game.limit,
            round_count=game.round_count,
            pro=game.pro,
        )
        sheet = rules.Scoresheet(tuple(names), tuple(tuple(heads) for heads in rounds), game_rules)
        restorable = len(rounds) + 1 if game.cancelled_rounds else None
        return cls(
            game.public_id,
            game.version,
            game.created_at,
            sheet,
            restorable,
            game.origin_id,
            played_until,
            game.table_id is not None,
            game.device_hash,
        )


class GameNotFound(Exception):
    """No such game for this device (another device's games do not exist for it)."""


class OwnPhoneOnly(Exception):
    """What only the phone that started the game may do (delete it, stop its sharing or its
    invitation, unseat the others), asked by a phone that joined its table."""


class Refused(Exception):
    """A write that changed nothing: `game` is the game as it stands, `refusal` says why."""

    def __init__(self, game: SavedGame, refusal: rules.Refusal):
        super().__init__(str(refusal))
        self.game = game
        self.refusal = refusal


class StaleRound(Refused):
    """A repeat: the round was already recorded, cancelled or restored (a double tap, a retry,
    another tab). Nothing to do: the answer is the sheet as it stands, with the refusal said."""


class SheetChanged(Refused):
    """A round form for a later round than the next one (rounds were cancelled elsewhere: another
    tab, another phone) or for a round recorded elsewhere with other heads, since the form was
    shown. Nothing was recorded; the values come back."""


class GameChanged(Refused):
    """An edit made from a page opened before the game last changed (another tab, another hand)."""


class RoundRefused(Refused):
    """Heads that cannot be a round of this game, or a round sent after the end."""


def with_sheets() -> tuple[Any, ...]:
    """Return the loader options that bring a game's players and rounds: three queries whatever
    the number of games (the games, their players, their rounds)."""
    return (selectinload(Game.players), selectinload(Game.rounds))


def reachable_by(device_hash: str) -> ColumnElement[bool]:
    """The games a phone may see and score: its own, and those of the tables it joined."""
    tables = select(TablePhone.table_id).where(TablePhone.device_hash == device_hash)
    return or_(Game.device_hash == device_hash, Game.table_id.in_(tables))


def _look_for(public_id: str, device_hash: str | None) -> str:
    # No cookie, or an address no game can have: nothing to look up.
    if device_hash is None or not PUBLIC_ID.fullmatch(public_id):
        raise GameNotFound(public_id)
    return device_hash


def load_game(public_id: str, device_hash: str | None, *, for_update: bool = False) -> Game:
    """Return the device's game with its players and rounds, locked for a write if asked (inside
    a unit of work; for services only: pages get a SavedGame), or raise GameNotFound."""
    device = _look_for(public_id, device_hash)
    query = (
        select(Game)
        .where(Game.public_id == public_id, reachable_by(device))
        .options(*with_sheets())
    )
    if for_update:
        # PostgreSQL: lock the game's row until the write commits; SQLite has nothing to add
        # (a write transaction, BEGIN IMMEDIATE, holds the whole database).
        query = query.with_for_update(of=Game)
    game = db.session.scalars(query).one_or_none()
    if game is None:
        raise GameNotFound(public_id)
    return game


def load_own_game(public_id: str, device_hash: str | None) -> Game:
    """Return the device's own game locked for a write (load_game), or raise OwnPhoneOnly when
    this phone only joined its table (GameNotFound when it cannot see it at all)."""
    game = load_game(public_id, device_hash, for_update=True)
    if game.device_hash != device_hash:
        raise OwnPhoneOnly(public_id)
    return game


def find_game(public_id: str, device_hash: str | None) -> SavedGame:
    """Return the device's game, or raise GameNotFound."""
    return read_game(public_id, device_hash)[0]


# What a page reads of a game: its own columns (SavedGame.frozen) and its rounds' heads.
_SHOWN = (
    Game.id,
    Game.public_id,
    Game.version,
    Game.created_at,
    Game.end_rule,
    Game.limit,
    Game.round_count,
    Game.pro,
    Game.cancelled_rounds,
    Game.origin_id,
    Game.table_id,
    Game.device_hash,
    Round.heads,
    Round.recorded_at,
)


def read_game(
    public_id: str, device_hash: str | None, *, with_table: bool = False
) -> tuple[SavedGame, Row[Any] | None]:
    """Return the device's game as a page shows it, and the assistant's stored round if asked
    (its round_number, starts and turns; None when there is none); or raise GameNotFound.

    Read as rows, not objects: the game with its rounds (and the assistant's round) in one
    statement, its players' names in another. A page costs about half the CPU to read this way
    than through the ORM with its loaders (docs/performance.md, « The game page's server time »).
    """
    device = _look_for(public_id, device_hash)
    query = select(*_SHOWN).outerjoin(Round, Round.game_id == Game.id)
    if with_table:
        query = query.add_columns(
            TableRoundState.round_number, TableRoundState.starts, TableRoundState.turns
        ).outerjoin(TableRoundState, TableRoundState.game_id == Game.id)
    query = query.where(Game.public_id == public_id, reachable_by(device))
    rows = db.session.execute(query.order_by(Round.number)).all()
    if not rows:
        raise GameNotFound(public_id)
    first = rows[0]
    names = db.session.scalars(
        select(Player.name).where(Player.game_id == first.id).order_by(Player.seat)
    ).all()
    rounds = [row.heads for row in rows if row.heads is not None]
    table = first if with_table and first.starts is not None else None
    return SavedGame.frozen(first, names, rounds, rows[-1].recorded_at), table


def start_game(
    device_hash: str,
    typed_names: Sequence[str],
    game_rules: rules.GameRules,
    creation_key: str | None = None,
) -> SavedGame:
    """Seat the players of a new game; raise rules.Refusal if the names cannot start one.

    A creation_key already used by this device returns the game it created (a repeat).
    """
    names = rules.seat_players(typed_names)
    try:
        with UnitOfWork():
            existing = _created_with(device_hash, creation_key) if creation_key else None
            if existing is not None:
                return SavedGame.of(existing)
            game = Game(
                device_hash=device_hash,
                end_rule=game_rules.end.value,
                limit=game_rules.limit,
                round_count=game_rules.round_count,
                pro=game_rules.pro,
                players=[Player(seat=seat, name=name) for seat, name in enumerate(names)],
                rounds=[],
                creation_key=creation_key,
            )
            db.session.add(game)
            db.session.flush()
            return SavedGame.of(game)
    except IntegrityError:  # PostgreSQL: the same form sent twice at the same moment
        existing = _created_with(device_hash, creation_key)
        if existing is None:
            raise
        return SavedGame.of(existing)


def _created_with(device_hash: str, creation_key: str | None) -> Game | None:
    return db.session.scalars(
        select(Game)
        .where(Game.device_hash == device_hash, Game.creation_key == creation_key)
        .options(*with_sheets())
    ).first()


ALREADY_RECORDED = N_("Cette manche était déjà enregistrée : voici la feuille à jour.")
ALREADY_RESTORED = N_("Cette manche était déjà rétablie : voici la feuille à jour.")


def record_round(
    public_id: str, device_hash: str | None, number: int | None, heads_taken: Sequence[int]
) -> SavedGame:
    """Record round `number` of the device's game; return the game as it now stands.

    Raise StaleRound if that round is already recorded with these heads (a repeat),
    SheetChanged if it was recorded with others or rounds were cancelled since the form was
    shown (the values come back for the next round), RoundRefused if the heads
    cannot be a round or the game is over, GameNotFound.
    """
    with UnitOfWork() as work:
        game = load_game(public_id, device_hash, for_update=True)
        before = SavedGame.of(game)
        sheet = before.scoresheet
        if number is None:
            unnumbered = N_(
                "Ce formulaire ne dit pas quelle manche il enregistre : rechargez la page."
            )
            raise RoundRefused(before, rules.Refusal.of(unnumbered))
        if number < sheet.next_round:
            if number >= 1 and list(sheet.rounds[number - 1]) != list(heads_taken):
                # Not a repeat: another phone or tab recorded this round with other heads.
                taken = _recorded_since(number, sheet.next_round)
                raise SheetChanged(before, rules.Refusal.of(taken))
            raise StaleRound(before, rules.Refusal.of(ALREADY_RECORDED))
        if number > sheet.next_round:
            raise SheetChanged(before, rules.Refusal.of(_cancelled_since(sheet.next_round, number)))
        try:
            checked = sheet.check_round(heads_taken)
        except rules.Refusal as refusal:
            raise RoundRefused(before, refusal) from refusal
        game.rounds.append(Round(number=number, heads=checked))
        game.cancelled_rounds = None  # a new round by hand: the cancelled ones are no longer next
        try:
            db.session.flush()
        except IntegrityError as error:  # another worker recorded it first (unique game + number)
            raise StaleRound(before, rules.Refusal.of(ALREADY_RECORDED)) from error
        return _changed(work, game)


def _recorded_since(number: int, next_round: int) -> rules.Message:
    return N_(
        "La manche %(number)s a été enregistrée sur un autre onglet ou un autre téléphone, avec "
        "d’autres têtes. Rien n’a été enregistré\u202f: vos valeurs sont ci-dessous, pour la "
        "manche %(next)s\u202f; vérifiez-les puis validez, ou corrigez la manche %(number)s.",
        number=number,
        next=next_round,
    )


def _cancelled_since(next_round: int, number: int) -> rules.Message:
    if number == next_round + 1:
        return N_(
            "La feuille a changé sur un autre onglet ou un autre téléphone : la manche "
            "%(number)s y a été annulée. Rien n’a été enregistré : vos valeurs sont ci-dessous, "
            "pour la manche %(number)s ; vérifiez-les puis validez.",
            number=next_round,
        )
    return N_(
        "La feuille a changé sur un autre onglet ou un autre téléphone : les manches %(first)s "
        "à %(last)s y ont été annulées. Rien n’a été enregistré : vos valeurs sont ci-dessous, "
        "pour la manche %(first)s ; vérifiez-les puis validez.",
        first=next_round,
        last=number - 1,
    )


def cancel_round(public_id: str, device_hash: str | None, number: int | None) -> SavedGame:
    """Remove round `number` of the device's game if it is the last one, which reopens a
    finished game; return the game as it now stands.

    The round is kept aside so that restore_round can put it back.
    Raise StaleRound when it is not the last round: already cancelled (a repeat), or rounds
    recorded elsewhere since, or a form that names no round.
    """
    with UnitOfWork() as work:
        game = load_game(public_id, device_hash, for_update=True)
        last = len(game.rounds)
        message: rules.Message | None = None
        if number is None or number < 1:
            message = N_("Ce formulaire ne dit pas quelle manche il annule : rien n’a été annulé.")
        elif number > last:
            message = N_(
                "La manche %(number)s était déjà annulée : voici la feuille à jour.", number=number
            )
        elif number < last:
            message = N_(
                "La feuille a changé sur un autre onglet ou un autre téléphone : la manche "
                "%(number)s y a été enregistrée depuis. Rien n’a été annulé ; pour annuler la "
                "manche %(number)s, utilisez « Annuler la manche » de la feuille à jour.",
                number=last,
            )
        if message:
            raise StaleRound(SavedGame.of(game), rules.Refusal.of(message))
        cancelled = game.rounds.pop()
        # A new list, not an append: the JSON column only notices a new value.
        game.cancelled_rounds = [*(game.cancelled_rounds or []), list(cancelled.heads)]
        db.session.delete(cancelled)
        return _changed(work, game)


def restore_round(public_id: str, device_hash: str | None, number: int | None) -> SavedGame:
    """Put back round `number`, the last one cancelled, exactly as it was; return the game as it
    now stands.

    Raise StaleRound when it is not the round waiting to be restored (already restored: a
    repeat; or a round recorded since), RoundRefused if it no longer fits (the game ended).
    """
    with UnitOfWork() as work:
        game = load_game(public_id, device_hash, for_update=True)
        before = SavedGame.of(game)
        if number is None or number != before.restorable:
            raise StaleRound(before, rules.Refusal.of(ALREADY_RESTORED))
        stack = list(game.cancelled_rounds or [])
        heads_taken = stack.pop()
        if before.scoresheet.is_over:  # the heads were a round once: only the end stands in the way
            ended = N_("La partie est terminée : rien n’a été rétabli.")
            raise RoundRefused(before, rules.Refusal.of(ended))
        game.rounds.append(Round(number=number, heads=before.scoresheet.check_round(heads_taken)))
        game.cancelled_rounds = stack or None
        try:
            db.session.flush()
        except IntegrityError as error:  # another worker put it back first
            raise StaleRound(before, rules.Refusal.of(ALREADY_RESTORED)) from error
        return _changed(work, game)


def delete_game(public_id: str, device_hash: str | None) -> None:
    """Delete the device's game with its players and rounds, or raise GameNotFound (a repeat
    finds nothing: the game is gone); OwnPhoneOnly for a phone that joined its table."""
    with UnitOfWork() as work:
        game = load_own_game(public_id, device_hash)
        work.announce(game)  # its followers see the share end
        db.session.delete(game)


GAME_CHANGED = N_(
    "La partie a changé depuis l’ouverture de ce formulaire (une autre page ou un autre joueur) : "
    "rien n’a été enregistré. Vérifiez la feuille à jour ci-dessous puis enregistrez à nouveau."
)


def edit_round(
    public_id: str,
    device_hash: str | None,
    number: int,
    version: int | None,
    heads_taken: Sequence[int],
) -> SavedGame:
    """Replace the heads of round `number`, checked like a new round; return the game as it now
    stands. The end follows: an edit can end the game or reopen it.

    Raise GameNotFound if there is no such round, GameChanged if the game changed since the
    form was shown, RoundRefused if the heads cannot be, or would have ended the game before
    its last round.
    """
    with UnitOfWork() as work:
        game = load_game(public_id, device_hash, for_update=True)
        before = SavedGame.of(game)
        sheet = before.scoresheet
        if not 1 <= number <= len(sheet.rounds):
            raise GameNotFound(f"{public_id} round {number}")
        if version != game.version:
            raise GameChanged(before, rules.Refusal.of(GAME_CHANGED))
        try:
            checked = rules.check_round(heads_taken, sheet.players, sheet.rules.pro)
            sheet.with_round_replaced(number, checked)
        except rules.Refusal as refusal:
            raise RoundRefused(before, refusal) from refusal
        game.rounds[number - 1].heads = checked
        return _changed(work, game)


def _changed(work: UnitOfWork, game: Game) -> SavedGame:
    # Every change bumps the version, so that an edit made from a stale page can be refused.
    game.version += 1
    db.session.flush()
    work.announce(game)
    return SavedGame.of(game)


def rematch(public_id: str, device_hash: str | None) -> SavedGame:
    """Start a new game with the same players, in the same seats, under the same rules.

    It belongs to the same phone and the same table as the old one (a second tap, or another
    phone of the table, finds the same new game: its key is the old game's), and the follow
    address goes on with it: followers and the big screen see the new game without a new link.
    """
    old = load_game(public_id, device_hash)
    key = f"revanche:{old.public_id}"
    sheet = SavedGame.of(old).scoresheet
    new = start_game(old.device_hash, sheet.players, sheet.rules, key)
    with UnitOfWork() as work:
        old = load_game(public_id, device_hash, for_update=True)
        game = load_game(new.public_id, old.device_hash, for_update=True)
        game.table_id = old.table_id
        if old.follow_token is not None and game.follow_token is None:
            work.announce(old)  # while it has the token: its streams look again, and move on
            token, old.follow_token = old.follow_token, None
            db.session.flush()  # the token is unique: off the old game before on the new one
            game.follow_token = token
            work.announce(game)
        return SavedGame.of(game)


def game_in_progress(device_hash: str | None) -> SavedGame | None:
    """Return the device's most recent unfinished game among its newest ones, if any."""
    if device_hash is None:
        return None
    recent = db.session.scalars(
        select(Game)
        .where(reachable_by(device_hash))
        .order_by(Game.created_at.desc(), Game.id.desc())
        .limit(IN_PROGRESS_LOOKBACK)
        .options(*with_sheets())
    )
    frozen = (SavedGame.of(game) for game in recent)
    return next((game for game in frozen if not game.scoresheet.is_over), None)


@dataclass(frozen=True)
class HistoryPage:
    games: list[SavedGame]
    page: int
    has_next: bool


def history(device_hash: str | None, page: int, per_page: int) -> HistoryPage:
    """Return one page of the device's games, newest first, with their players and rounds."""
    if device_hash is None:
        return HistoryPage([], 1, False)
    page = max(1, page)
    # One more than a page tells whether an older page exists, without a COUNT.
    found = db.session.scalars(
        select(Game)
        .where(reachable_by(device_hash))
        .order_by(Game.created_at.desc(), Game.id.desc())
        .offset((page - 1) * per_page)
        .limit(per_page + 1)
        .options(*with_sheets())
    ).all()
    return HistoryPage(
        [SavedGame.of(game) for game in found[:per_page]], page, len(found) > per_page
    )


def history_mark(device_hash: str | None) -> tuple[int, int, int]:
    """Return a mark of everything `all_games` would read, that changes whenever any of it does
    (a game added, removed, or changed: each change moves its version): one aggregate over an
    index, where reading the games of a long history costs a few hundred milliseconds."""
    if device_hash is None:
        return (0, 0, 0)
    count, versions, ids = db.session.execute(
        select(
            func.count(),
            func.coalesce(func.sum(Game.version), 0),
            func.coalesce(func.sum(Game.id), 0),
        ).where(reachable_by(device_hash))
    ).one()
    return int(count), int(versions), int(ids)


def all_games(device_hash: str | None) -> list[SavedGame]:
    """Return every game of the device, oldest first, with players and rounds."""
    if device_hash is None:
        return []
    # Read as rows, three statements (the games, their players, their rounds), not as objects:
    # 3,000 games of 10 rounds took 3 s of CPU through the ORM's loaders (docs/reliability.md).
    reachable = select(Game.id).where(reachable_by(device_hash)).scalar_subquery()
    names: dict[int, list[str]] = defaultdict(list)
    for game_id, name in db.session.execute(
        select(Player.game_id, Player.name)
        .where(Player.game_id.in_(reachable))
        .order_by(Player.game_id, Player.seat)
    ):
        names[game_id].append(name)
    rows = db.session.execute(
        select(Round.game_id, cast_as(Round.heads, Text), Round.recorded_at)
        .where(Round.game_id.in_(reachable))
        .order_by(Round.game_id, Round.number)
    ).all()
    # The heads as one JSON document: one decoding, not one per round (half the time).
    every_heads = json.loads("[" + ",".join(row[1] for row in rows) + "]")
    rounds: dict[int, list[Any]] = defaultdict(list)  # each game's (heads, recorded_at)
    for (game_id, _, recorded_at), heads in zip(rows, every_heads, strict=True):
        rounds[game_id].append((heads, recorded_at))
    found = db.session.execute(
        select(*_SHOWN[: _SHOWN.index(Round.heads)])
        .where(reachable_by(device_hash))
        .order_by(Game.created_at, Game.id)
    )
    return [
        SavedGame.frozen(
            game,
            names[game.id],
            [heads for heads, _ in rounds[game.id]],
            rounds[game.id][-1][1] if rounds[game.id] else None,
        )
        for game in found
    ]


def _table(model: type[Game | Player | Round]) -> Table:
    return cast(Table, model.__table__)


def import_games(
    device_hash: str,
    imported: Sequence[ImportedGame],
    allow: Callable[[int], None] = lambda _count: None,
) -> tuple[int, int]:
    """Add the imported games the device does not have yet; return (added, already there).

    `allow` is told how many games would be added (the file's, less those already here) before
    any is; it may refuse them all by raising (the hourly allowance: rate_limits.py)."""
    with UnitOfWork():
        ids = {game.origin_id for game in imported}
        known = set(
            db.session.scalars(
                select(Game.public_id).where(
                    Game.device_hash == device_hash, Game.public_id.in_(ids)
                )
            )
        ) | set(
            db.session.scalars(
                select(Game.origin_id).where(
                    Game.device_hash == device_hash, Game.origin_id.in_(ids)
                )
            )
        )
        fresh: list[ImportedGame] = []
        for game in imported:
            if game.origin_id not in known:
                known.add(game.origin_id)
                fresh.append(game)
        allow(len(fresh))
        if not fresh:
            return 0, len(imported)
        # Three bulk INSERTs of plain rows (games with RETURNING ids, then players, then rounds)
        # rather than one ORM object per row: storing the biggest allowed file (2 MB, about 3,500
        # games) went from ~10 s to ~1 s of a worker (docs/reliability.md, « Imports »).
        game_ids = db.session.scalars(
            insert(_table(Game)).returning(Game.id, sort_by_parameter_order=True),
            [
                {
                    "device_hash": device_hash,
                    "origin_id": game.origin_id,
                    "created_at": game.created_at,
                    "end_rule": game.sheet.rules.end.value,
                    "head_limit": game.sheet.rules.limit,
                    "round_count": game.sheet.rules.round_count,
                    "pro": game.sheet.rules.pro,
                }
                for game in fresh
            ],
        ).all()
        db.session.execute(
            insert(_table(Player)),
            [
                {"game_id": game_id, "seat": seat, "name": name}
                for game_id, game in zip(game_ids, fresh, strict=True)
                for seat, name in enumerate(game.sheet.players)
            ],
        )
        rounds = [
            # No date: an imported round was not recorded now (its game then says no length).
            {"game_id": game_id, "number": number, "heads": list(heads), "recorded_at": None}
            for game_id, game in zip(game_ids, fresh, strict=True)
            for number, heads in enumerate(game.sheet.rounds, start=1)
        ]
        if rounds:
            db.session.execute(insert(_table(Round)), rounds)
        added = len(fresh)
        return added, len(imported) - added
