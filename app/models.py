"""The tables: games, their players, rounds and the heads each player took in each round."""

from __future__ import annotations

import secrets
from datetime import UTC, datetime

from sqlalchemy import CheckConstraint, ForeignKey, Index, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from app import rules
from app.extensions import db


def new_public_id() -> str:
    """Return a random id for URLs: 128 bits, so game addresses cannot be guessed or counted."""
    return secrets.token_urlsafe(16)


def utcnow() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


class Game(db.Model):
    __tablename__ = "game"
    __table_args__ = (
        Index("ix_game_device_recent", "device_hash", "created_at", "id"),
        Index("ix_game_device_origin", "device_hash", "origin_id"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    public_id: Mapped[str] = mapped_column(String(32), unique=True, default=new_public_id)
    device_hash: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    finished_at: Mapped[datetime | None]
    end_rule: Mapped[str] = mapped_column(String(16), default=rules.EndRule.ABOVE.value)
    limit: Mapped[int] = mapped_column("head_limit", default=rules.DEFAULT_LIMIT)
    round_count: Mapped[int | None]
    pro: Mapped[bool] = mapped_column(default=False)
    # Bumped by every change, so an edit made from a stale page (another tab) can be refused.
    version: Mapped[int] = mapped_column(default=1, server_default="1")
    # The id the game had where it was exported from, so that importing it twice adds it once.
    origin_id: Mapped[str | None] = mapped_column(String(64))

    players: Mapped[list[Player]] = relationship(
        back_populates="game", order_by="Player.seat", cascade="all, delete-orphan"
    )
    rounds: Mapped[list[Round]] = relationship(
        back_populates="game", order_by="Round.number", cascade="all, delete-orphan"
    )

    @property
    def rules(self) -> rules.GameRules:
        return rules.GameRules(
            end=rules.EndRule(self.end_rule),
            limit=self.limit,
            round_count=self.round_count,
            pro=self.pro,
        )

    @property
    def scoresheet(self) -> rules.Scoresheet:
        by_seat = {player.id: player.seat for player in self.players}
        rounds = []
        for round_ in self.rounds:
            heads = [0] * len(self.players)
            for score in round_.scores:
                heads[by_seat[score.player_id]] = score.heads
            rounds.append(tuple(heads))
        return rules.Scoresheet(tuple(p.name for p in self.players), tuple(rounds), self.rules)


class Player(db.Model):
    __tablename__ = "player"
    __table_args__ = (UniqueConstraint("game_id", "seat"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"))
    seat: Mapped[int]
    name: Mapped[str] = mapped_column(String(rules.MAX_NAME_LENGTH))

    game: Mapped[Game] = relationship(back_populates="players")


class Round(db.Model):
    __tablename__ = "round"
    # The database itself refuses a second round with the same number: the last guard against a
    # double tap or a retried request recording a round twice.
    __table_args__ = (UniqueConstraint("game_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"))
    number: Mapped[int]
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    game: Mapped[Game] = relationship(back_populates="rounds")
    scores: Mapped[list[Score]] = relationship(
        back_populates="round", cascade="all, delete-orphan"
    )


class Score(db.Model):
    """The heads one player took in one round."""

    __tablename__ = "score"
    __table_args__ = (CheckConstraint("heads >= 0", name="heads_not_negative"),)

    round_id: Mapped[int] = mapped_column(
        ForeignKey("round.id", ondelete="CASCADE"), primary_key=True
    )
    player_id: Mapped[int] = mapped_column(
        ForeignKey("player.id", ondelete="CASCADE"), primary_key=True
    )
    heads: Mapped[int]

    round: Mapped[Round] = relationship(back_populates="scores")
    player: Mapped[Player] = relationship()
