"""The tables: games, their players, rounds and each player's score in each round."""

from __future__ import annotations

import secrets
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import JSON, ForeignKey, Index, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from app import rules
from app.platform.extensions import Base, db

# Flask-SQLAlchemy makes db.Model at run time from Base; type checkers only know Base.
if TYPE_CHECKING:
    Model = Base
else:
    Model = db.Model


def new_public_id() -> str:
    """Return a random id for URLs: ~128 bits, so game addresses cannot be guessed or counted.

    It starts with a letter or digit: a leading « - » would read as a formula in a spreadsheet
    (the CSV export then has to quote it) and looks like an option on a command line.
    """
    while True:
        public_id = secrets.token_urlsafe(16)
        if public_id[0].isalnum():
            return public_id


def utcnow() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


class Game(Model):
    __tablename__ = "game"
    __table_args__ = (
        Index("ix_game_device_recent", "device_hash", "created_at", "id"),
        Index("ix_game_device_origin", "device_hash", "origin_id"),
        Index("ix_game_device_creation_key", "device_hash", "creation_key", unique=True),
        Index("ix_game_follow_token", "follow_token", unique=True),
        Index("ix_game_table_recent", "table_id", "created_at", "id"),
        Index("ix_game_evening", "evening_id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    public_id: Mapped[str] = mapped_column(String(32), unique=True, default=new_public_id)
    device_hash: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    # The game played (app/rules/games: « 6 qui prend ! », Skyjo, Flip 7, a free game) and, for a
    # free game, its name and which total wins (NULL: the game's own).
    game: Mapped[str] = mapped_column(
        String(16), default=rules.DEFAULT_GAME.key, server_default=rules.DEFAULT_GAME.key
    )
    title: Mapped[str | None] = mapped_column(String(rules.MAX_TITLE_LENGTH))
    best: Mapped[str | None] = mapped_column(String(8))
    end_rule: Mapped[str] = mapped_column(String(16), default=rules.EndRule.ABOVE.value)
    limit: Mapped[int] = mapped_column("head_limit", default=rules.DEFAULT_GAME.default_limit)
    round_count: Mapped[int | None]
    pro: Mapped[bool] = mapped_column(default=False)
    # Bumped by every change, so an edit made from a stale page (another tab) can be refused.
    version: Mapped[int] = mapped_column(default=1, server_default="1")
    # The id the game had where it was exported from, so that importing it twice adds it once.
    origin_id: Mapped[str | None] = mapped_column(String(64))
    # The key of the form (or of the rematch) that created the game: sending it twice, by a double
    # tap or a retry, finds this game instead of starting a second one.
    creation_key: Mapped[str | None] = mapped_column(String(64))
    # The read-only follow address (/suivre/<token>) while the game is shared, else None.
    follow_token: Mapped[str | None] = mapped_column(String(32))
    # The table of phones that score it with its own (« Inviter à marquer »), else None: every
    # phone of the table may see and write it, and the games that follow from it (rematches).
    table_id: Mapped[int | None] = mapped_column(ForeignKey("shared_table.id", ondelete="SET NULL"))
    # The seat that deals (or starts) the next round, by the game's rule or set by hand; NULL for
    # games from before it was kept, until someone sets it (« Qui donne ? »).
    dealer: Mapped[int | None]
    # The evening it belongs to (« La soirée », app/services/evenings.py): the id of the evening's
    # first game, on each game of an evening of two or more (the first's set when the second
    # joins it: by a rematch or « Autre jeu, même table »); NULL for a game played alone, so a
    # page knows from the game's own row whether to link the evening. A plain number, no
    # foreign key: deleting the first game leaves the others one evening (SQLite gives an id
    # again only above the greatest one left).
    evening_id: Mapped[int | None]
    # Each seat's colour and marker (rules.player_colours) where the game joined an evening: a
    # name seen earlier in it keeps its colour. NULL: by seat, as every game played alone.
    colours: Mapped[list[int] | None] = mapped_column(JSON)

    # The rounds « Annuler la manche » removed, last cancelled last, so that « Rétablir la
    # manche N » can put them back; a new round recorded by hand empties it. NULL: none. Each is
    # its scores, or {"scores": [...], "ended_by": seat, "dealer": seat} where the game asks who
    # ended it or the dealer was kept.
    cancelled_rounds: Mapped[list[list[int] | dict[str, Any]] | None] = mapped_column(JSON)
    # The sheet as typed, whole in this row, written by every change with the version it is of
    # (app/services/saved_game.py, `kept_sheet`): statistics and exports read a phone's thousands
    # of games from one row each, not from every player and round row (docs/reliability.md).
    kept_sheet: Mapped[dict[str, Any] | None] = mapped_column(JSON)

    players: Mapped[list[Player]] = relationship(
        back_populates="game", order_by="Player.seat", cascade="all, delete-orphan"
    )
    rounds: Mapped[list[Round]] = relationship(
        back_populates="game", order_by="Round.number", cascade="all, delete-orphan"
    )


class Player(Model):
    __tablename__ = "player"
    __table_args__ = (UniqueConstraint("game_id", "seat"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"))
    seat: Mapped[int]
    name: Mapped[str] = mapped_column(String(rules.MAX_NAME_LENGTH))

    game: Mapped[Game] = relationship(back_populates="players")


class Round(Model):
    """One validated round: each player's score, in seat order, stored in one row.

    One row per round keeps a round atomic (it is there whole or not at all) and lets a round be
    recorded with a single INSERT.
    """

    __tablename__ = "round"
    # The database itself refuses a second round with the same number: the last guard against a
    # double tap or a retried request recording a round twice.
    __table_args__ = (UniqueConstraint("game_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"))
    number: Mapped[int]
    # The scores typed, in seat order (the heads, in 6 qui prend): the game counts the points.
    # The column keeps its first name, from when 6 qui prend was the only game.
    scores: Mapped[list[int]] = mapped_column("heads", JSON)
    ended_by: Mapped[int | None]  # the seat that ended the round, where the game asks (Skyjo)
    dealer: Mapped[int | None]  # the seat that dealt (or started) it; NULL where not kept
    # When it was recorded (UTC): the last round's says how long the game lasted, for a shared
    # result. None for rounds imported, or recorded before rounds were dated.
    recorded_at: Mapped[datetime | None] = mapped_column(default=utcnow)

    game: Mapped[Game] = relationship(back_populates="rounds")

    @property
    def typed(self) -> rules.RoundScores:
        """The round as typed: the scores and who ended it (`Round(number=…, typed=…)` too)."""
        return rules.RoundScores(tuple(self.scores), self.ended_by)

    @typed.setter
    def typed(self, typed: rules.RoundScores) -> None:
        # A new list: the JSON column only notices a new value.
        self.scores, self.ended_by = list(typed.scores), typed.ended_by


class RowsRoundState(Model):
    """The round assistant's round for a game: the row starts and the turns placed so far.

    One per game, for the round it was started for; the turns are replayed by app.rules, so the
    stored state is only what the table typed and chose: [{"cards": [...], "row": k or null}].
    """

    __tablename__ = "rows_round"

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), unique=True)
    round_number: Mapped[int]
    starts: Mapped[list[int]] = mapped_column(JSON)
    turns: Mapped[list[dict]] = mapped_column(JSON)


class SharedTable(Model):
    """Phones that score one evening together: each keeps its own device token; the server
    keeps which may write the table's games. `invite_token` is the scorer address
    (/rejoindre/<token>, 128 random bits) while the invitation stands, else None."""

    __tablename__ = "shared_table"
    __table_args__ = (Index("ix_shared_table_invite_token", "invite_token", unique=True),)

    id: Mapped[int] = mapped_column(primary_key=True)
    invite_token: Mapped[str | None] = mapped_column(String(32))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class TablePhone(Model):
    """A phone (its device hash) at a table: it may see and score the table's games."""

    __tablename__ = "table_phone"
    __table_args__ = (
        UniqueConstraint("table_id", "device_hash"),
        Index("ix_table_phone_device", "device_hash", "table_id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("shared_table.id", ondelete="CASCADE"))
    device_hash: Mapped[str] = mapped_column(String(64))
    joined_at: Mapped[datetime] = mapped_column(default=utcnow)


class StoryEntry(Model):
    """One change of a game's sheet, for « Le fil de la partie » (app/services/story.py): what
    changed, when, and which phone made it. Read-only once written; it goes with its game.

    `device_hash` is the phone's (resolved to « téléphone N » when read, never shown); None for
    an entry that came in an imported file, whose `phone` is then the number the file gave it.
    `change` holds what the entry says beyond its kind and round (scores, who ended the round,
    the dealer's seat), as app/services/story.py writes it.
    """

    __tablename__ = "story_entry"
    __table_args__ = (Index("ix_story_entry_game", "game_id", "id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"))
    at: Mapped[datetime] = mapped_column(default=utcnow)
    device_hash: Mapped[str | None] = mapped_column(String(64))
    # When that phone joined the game's table, as it stood when it wrote (None: the phone that
    # started the game, or no table): a phone that left since keeps its place among the others.
    joined_at: Mapped[datetime | None]
    phone: Mapped[int | None]
    kind: Mapped[str] = mapped_column(String(16))
    round: Mapped[int | None]
    change: Mapped[dict[str, Any] | None] = mapped_column(JSON)
