"""The unit of work every write runs in: what it wrote is committed, or on any exception gone."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from app.platform.extensions import db
from app.rules import GameRules, RoundScores
from app.rules.games.six_nimmt import SIX_NIMMT
from app.services import access, games, reads, rounds
from app.services.unit_of_work import UnitOfWork
from app.storage.models import Game, Round

pytestmark = pytest.mark.storage  # a transaction of each database

DEVICE = "the-table-phone"


@pytest.fixture(autouse=True)
def app_context(app):
    with app.app_context():
        yield


def test_a_write_is_committed_when_the_block_ends():
    public_id = games.start_game(DEVICE, ["Alice", "Bruno"], GameRules.of(SIX_NIMMT)).public_id

    with UnitOfWork():
        game = access.load_game(public_id, DEVICE, for_update=True)
        game.rounds.append(Round(number=1, scores=[3, 4]))
    db.session.remove()  # a new session: only what was committed is there

    # Its rows, not a page's read: that reads the sheet the services keep with each write.
    stored = select(Round.scores).join(Game).where(Game.public_id == public_id)
    assert db.session.scalars(stored).all() == [[3, 4]]


def test_an_exception_after_a_write_rolls_it_back():
    public_id = games.start_game(DEVICE, ["Alice", "Bruno"], GameRules.of(SIX_NIMMT)).public_id

    with pytest.raises(RuntimeError), UnitOfWork():
        game = access.load_game(public_id, DEVICE, for_update=True)
        game.rounds.append(Round(number=1, scores=[3, 4]))
        db.session.flush()  # written inside the transaction…
        raise RuntimeError("…then something fails before the end of the use case")

    assert reads.find_game(public_id, DEVICE).scoresheet.rounds == ()
    version = reads.find_game(public_id, DEVICE).version
    rounds.record_round(
        public_id, DEVICE, 1, RoundScores((5, 6)), version=version
    )  # the game's lock was freed
