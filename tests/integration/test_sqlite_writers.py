"""On SQLite, the app's writers queue on a lock file (app/__init__.py, _WriterQueue) for exactly
as long as their write transaction lasts; readers never touch it."""

from __future__ import annotations

import fcntl
import os
import shutil

import pytest

from app.extensions import db


@pytest.fixture
def database_url(sqlite_template, tmp_path) -> str:
    """SQLite only (PostgreSQL queues writers with its row lock)."""
    path = tmp_path / "test.sqlite"
    shutil.copyfile(sqlite_template, path)
    return f"sqlite:///{path}"


@pytest.fixture
def queue(app):
    """Yield an open descriptor on the writers' lock file, to probe it from outside."""
    with app.app_context():
        fd = os.open(db.engine.url.database + ".writers", os.O_RDWR | os.O_CREAT, 0o600)
        yield fd
        os.close(fd)


def _free(fd: int) -> bool:
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    fcntl.flock(fd, fcntl.LOCK_UN)
    return True


@pytest.mark.parametrize("end", ["commit", "rollback"])
def test_a_write_transaction_holds_the_queue_until_it_ends(app, queue, end):
    with app.app_context():
        writer = db.engine.connect().execution_options(sqlite_begin="IMMEDIATE")
        writer.begin()
        writer.exec_driver_sql("UPDATE game SET version = version WHERE 0")
        assert not _free(queue)

        getattr(writer, end)()
        assert not _free(queue)  # still checked out: the queue is left when it returns to the pool
        writer.close()
        assert _free(queue)


def test_readers_do_not_queue(app, queue):
    with app.app_context(), db.engine.connect() as reader:
        reader.exec_driver_sql("SELECT count(*) FROM game").scalar()
        assert _free(queue)


def test_a_recorded_round_leaves_the_queue_free(app, client, queue):
    from .actions import play_round, start_game

    public_id = start_game(client, ["Alice", "Bob"])
    assert play_round(client, public_id, 1, [3, 5]).status_code == 303
    assert _free(queue)
