"""The writes on whole games: start one, delete it, play again with the same players.

Each is one unit of work (app/services/unit_of_work.py), as the rounds' writes are
(app/services/rounds.py).
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import ScalarSelect, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import aliased

from app import rules
from app.platform.extensions import db
from app.rules import N_
from app.services import story
from app.services.access import load_game, load_own_game, with_sheets
from app.services.refusals import GameNotFound, RoundRefused, check_version
from app.services.saved_game import SavedGame, kept_sheet
from app.services.unit_of_work import UnitOfWork
from app.storage.models import Game, Player


def start_game(
    device_hash: str,
    typed_names: Sequence[str],
    game_rules: rules.GameRules,
    creation_key: str | None = None,
    after: str | None = None,
) -> SavedGame:
    """Seat the players of a new game; raise rules.Refusal if the names cannot start one.

    A creation_key already used by this device returns the game it created (a repeat). `after`
    (« Autre jeu, même table ») names the game the table played before: the new one joins its
    evening and its table, and takes its follow address once it is over (the big screen goes on
    with the table). A game this phone may not see is ignored: the new game begins an evening.
    """
    names = rules.seat_players(typed_names, game_rules.game.max_players)
    try:
        with UnitOfWork() as work:
            existing = _created_with(device_hash, creation_key) if creation_key else None
            if existing is not None:
                return SavedGame.of(existing)
            game = _seated(device_hash, names, game_rules, creation_key)
            before = _seen_game(after, device_hash)
            if before is not None:
                _follows(before, game, work)
            return SavedGame.of(game)
    except IntegrityError:  # PostgreSQL: the same form sent twice at the same moment
        existing = _created_with(device_hash, creation_key)
        if existing is None:
            raise
        return SavedGame.of(existing)


def _seated(
    device_hash: str, names: Sequence[str], game_rules: rules.GameRules, creation_key: str | None
) -> Game:
    """Add a new game with these players in these seats (inside a unit of work). The names are
    not checked here: a rematch seats them as they sat, one the rules refuse since it was stored
    (a direction control, two names that now read alike) included."""
    game = Game(
        device_hash=device_hash,
        game=game_rules.game.key,
        title=game_rules.title,
        best=game_rules.chosen_best.value if game_rules.chosen_best else None,
        end_rule=game_rules.end.value,
        limit=game_rules.limit,
        round_count=game_rules.round_count,
        pro="pro" in game_rules.variants,
        players=[Player(seat=seat, name=name) for seat, name in enumerate(names)],
        rounds=[],
        dealer=0,  # the first player deals, until the table draws lots or says otherwise
        creation_key=creation_key,
        version=1,
        kept_sheet=kept_sheet(rules.Scoresheet(tuple(names), (), game_rules), version=1),
    )
    db.session.add(game)
    db.session.flush()
    return game


def _seen_game(public_id: str | None, device_hash: str) -> Game | None:
    """The game named by a new-game form's `after`, locked, if this phone may see it."""
    if not public_id:
        return None
    try:
        return load_game(public_id, device_hash, for_update=True)
    except GameNotFound:  # a hand-made value, or a phone unseated since: a new evening
        return None


def _follows(old: Game, game: Game, work: UnitOfWork) -> None:
    """Make `game` the one the table plays after `old` (inside its unit of work): the same
    evening (which `old` begins, if it was played alone) and table; the follow address moves on
    from a finished game (its streams look again), as with a rematch."""
    if old.evening_id is None:
        old.evening_id = old.id
    game.evening_id = old.evening_id
    game.table_id = old.table_id
    game.colours = _evening_colours(game)
    if old.follow_token is not None and SavedGame.of(old).scoresheet.is_over:
        work.announce(old)
        token, old.follow_token = old.follow_token, None
        db.session.flush()  # the token is unique: off the old game before on the new one
        game.follow_token = token
        work.announce(game)


def _evening_colours(game: Game) -> list[int]:
    """Return each seat's colour in a game joining an evening: a name that sat in an earlier game
    of the evening keeps the colour it first had there (the chart, the scoreboard, the sheet,
    the big screen), the others take those left (rules.player_colours)."""
    db.session.flush()  # the new game has its id: it is not one of the earlier games
    earlier = db.session.execute(
        select(Game.colours, Player.seat, Player.name)
        .join(Player, Player.game_id == Game.id)
        .where(Game.evening_id == game.evening_id, Game.id != game.id)
        .order_by(Game.id, Player.seat)
    )
    had = [(name, colours[seat] if colours else seat) for colours, seat, name in earlier]
    return list(rules.player_colours([player.name for player in game.players], had))


def already_created(device_hash: str | None, creation_key: str | None) -> bool:
    """Whether this device already started a game with this form (a second tap, or the form
    sent again): starting it again finds that game and creates none."""
    if device_hash is None or not creation_key:
        return False
    found = select(Game.id).where(
        Game.device_hash == device_hash, Game.creation_key == creation_key
    )
    return db.session.scalar(found.limit(1)) is not None


def _created_with(device_hash: str, creation_key: str | None) -> Game | None:
    return db.session.scalars(
        select(Game)
        .where(Game.device_hash == device_hash, Game.creation_key == creation_key)
        .options(*with_sheets())
    ).first()


def delete_game(public_id: str, device_hash: str | None, version: int | None) -> None:
    """Delete the device's game with its players and rounds, as the page drawn from `version`
    showed it; raise GameChanged if rounds were written since (the page asked about another
    game), GameNotFound (a repeat finds nothing: the game is gone), OwnPhoneOnly for a phone
    that joined its table."""
    with UnitOfWork() as work:
        game = load_own_game(public_id, device_hash)
        check_version(SavedGame.of(game), version, NOT_DELETED)
        work.announce(game)  # its followers see the share end
        db.session.delete(game)
        if game.evening_id is not None:
            _leave_evening(game.evening_id)


def _leave_evening(evening: int) -> None:
    """After a game of this evening was deleted (inside its unit of work): a game left alone in
    it is played alone again, and its page no longer links an evening of one."""
    db.session.flush()
    left = db.session.scalars(select(Game).where(Game.evening_id == evening).limit(2)).all()
    if len(left) == 1:
        left[0].evening_id = None


# A rematch's creation key names the game it follows: a second tap (or another phone of the
# table) finds the same new game, and the old game's pages find where the table went on.
REMATCH_KEY = "revanche:"


def rematch_of(game: SavedGame) -> str | None:
    """Return the public id of the game the table went on with after this one, if any: its
    rematch, or the game « Autre jeu, même table » started from it."""
    return db.session.scalar(select(rematch_column()).where(Game.public_id == game.public_id))


def rematch_column() -> ScalarSelect[str]:
    """The public id of the game the table went on with after each game (or NULL), as a column
    of a select on Game: the next game of its evening (a rematch and « Autre jeu, même table »
    both join the evening: app/services/evenings.py), one indexed look-up a row."""
    after = aliased(Game)
    return (
        select(after.public_id)
        .where(after.evening_id == Game.evening_id, after.id > Game.id)
        .order_by(after.id)
        .limit(1)
        .scalar_subquery()
    )


def rematch(public_id: str, device_hash: str | None, version: int | None) -> SavedGame:
    """Start a new game with the same players, in the same seats, under the same rules, after
    the end of the game as the page drawn from `version` showed it.

    It belongs to the same phone and the same table as the old one (a second tap, or another
    phone of the table, finds the same new game: its key is the old game's), and the follow
    address goes on with it: followers and the big screen see the new game without a new link.
    Raise GameChanged if the game changed since its page was drawn (reopened by « Annuler la
    manche » on another phone), RoundRefused if it is not over (a hand-made request).
    """
    with UnitOfWork() as work:
        old = load_game(public_id, device_hash, for_update=True)
        before = SavedGame.of(old)
        # A second tap finds the game as the first left it: a rematch does not change the old game.
        check_version(before, version, REOPENED)
        sheet = before.scoresheet
        if not sheet.is_over:
            raise RoundRefused(before, rules.Refusal.of(NOT_OVER))
        key = REMATCH_KEY + old.public_id
        existing = _created_with(old.device_hash, key)
        if existing is not None:
            return SavedGame.of(existing)
        game = _seated(old.device_hash, sheet.players, sheet.rules, key)
        story.record(old, device_hash, story.REMATCH)  # the old game's story says where it went
        # Its streams look again (while it has its follow token), and move on: the followers'
        # and those of the table's other phones and of this phone's other tabs.
        work.announce(old)
        _follows(old, game, work)
        return SavedGame.of(game)


NOT_DELETED = N_(
    "La partie a changé sur un autre téléphone ou un autre onglet : rien n’a été supprimé. "
    "Voici ce qu’elle est maintenant."
)
REOPENED = N_(
    "La partie a changé sur un autre téléphone ou un autre onglet : elle n’est plus celle que "
    "montrait cette page. Aucune nouvelle partie n’a été commencée ; voici la feuille à jour."
)
NOT_OVER = N_(
    "La partie n’est pas terminée : « Rejouer avec les mêmes joueurs » vient après la fin. "
    "Aucune nouvelle partie n’a été commencée."
)
