"""One write, one transaction: the unit of work every service opens around a use case.

    with UnitOfWork() as work:
        game = load_game(..., for_update=True)
        ...                         # check, change; a refusal is an exception raised here
        work.announce(game)         # its followers hear of it once this commits

On leaving the block without an exception the unit commits; on any exception it rolls back
(nothing half-stored, the game's lock freed at once) and lets the exception go on to the view.
Views never commit. What must follow a commit — telling the followers of a changed game, on
every worker and replica — is the `announce` call above, not a listener hidden in the session.
(Each process's listening thread wakes its own streams: on PostgreSQL from the NOTIFY, on SQLite
from its look at the versions; waking them here too would make each stream read twice.)
"""

from __future__ import annotations

from collections.abc import Iterable
from types import TracebackType

from app.platform import live
from app.platform.extensions import db
from app.storage.models import Game


class UnitOfWork:
    """A write transaction: commits on success, rolls back on any exception."""

    def __init__(self) -> None:
        self._announced: set[int] = set()

    def __enter__(self) -> UnitOfWork:
        # SQLite: take the write lock when the transaction starts (BEGIN IMMEDIATE) rather than at
        # the first write, so a read-then-write never fails with "database is locked" half-way.
        # Only the first statement of a transaction can choose: end any read left open first.
        session = db.session()
        if session.in_transaction():
            session.commit()
        session.connection(execution_options={"sqlite_begin": "IMMEDIATE"})
        return self

    def announce(self, game: Game) -> None:
        """Tell the game's followers, the other phones of its table and this phone's other tabs
        that it changed, once (and only if) this write commits."""
        self._announced.add(game.id)

    def announce_ids(self, game_ids: Iterable[int]) -> None:
        """Announce games by their row's id (what a bulk write has of them)."""
        self._announced.update(game_ids)

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if kind is not None:
            db.session.rollback()
            return
        changed = sorted(self._announced)
        # PostgreSQL delivers a NOTIFY at COMMIT and only if the transaction commits: the notice
        # is queued here, inside it, and leaves with the write or not at all.
        live.queue_notices(db.session(), changed)
        db.session.commit()


def check_database(*, write: bool) -> None:
    """Read a real table (SELECT 1 reads no file: a corrupted one answered it), then, if asked,
    commit a write (only a commit reaches the disk: a full one, a read-only one). The write
    changes nothing: alembic_version's one row, set to itself. Raises SQLAlchemy's error."""
    db.session.execute(db.select(db.func.max(Game.id)))
    if write:
        with UnitOfWork():
            db.session.execute(db.text("UPDATE alembic_version SET version_num = version_num"))
    else:
        db.session.rollback()
