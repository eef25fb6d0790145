"""A table playing through the forms, as test-client requests: the games the budgets are measured on."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from html.parser import HTMLParser

from flask import Flask, g
from flask.testing import FlaskClient
from sqlalchemy import event

from app.platform.devices import claim_device
from app.platform.extensions import db
from app.services.saved_game import keep_sheet
from app.storage.models import Game, Player, Round

HTMX = {"HX-Request": "true"}
NAMES = ["Alice", "Bruno", "Chloé", "Damien", "Élodie", "Farid", "Gaëlle", "Hugo", "Inès", "Jules"]
LIGHT_ROUND = [3, 1, 2, 0, 3, 2, 1, 0, 2, 1]  # a round that ends no game started with heads_of


def heads_of(players: int, rounds: int) -> list[list[int]]:
    """Rounds as a real table plays them (mostly a few heads, now and then a whole row), the
    same for a given shape, every total staying under 66 so that the game is still going.

    Varied numbers matter: identical rounds would compress far better than real ones.
    """
    draw = random.Random(f"{players}x{rounds}")
    totals, lines = [0] * players, []
    while len(lines) < rounds:
        heads = [draw.choice((0, 0, 1, 1, 2, 3, 5, 8)) for _ in range(players)]
        if sum(heads) and all(t + h <= 60 for t, h in zip(totals, heads, strict=True)):
            totals = [t + h for t, h in zip(totals, heads, strict=True)]
            lines.append(heads)
    return lines


class Device:
    """A phone at the table: a browser with its device cookie, and its games put straight in the
    database (one transaction for many games, so a test can store sixty in a blink)."""

    def __init__(self, app: Flask, client: FlaskClient) -> None:
        self.app, self.client = app, client
        with app.test_request_context():  # a token issued by the app, as to a new browser
            self.device_hash = claim_device()
            token = g.device_token
        client.set_cookie(app.config["DEVICE_COOKIE_NAME"], token)

    def store_games(self, *shapes: tuple[int, int], kept: bool = True) -> list[str]:
        """Store one game per (players, rounds) shape, with light rounds, and its kept sheet
        unless told not to (a game stored by other means than the services); return their ids."""
        with self.app.app_context():
            games = [
                Game(
                    device_hash=self.device_hash,
                    players=[Player(seat=seat, name=NAMES[seat]) for seat in range(players)],
                )
                for players, _ in shapes
            ]
            db.session.add_all(games)
            for game, (_, rounds) in zip(games, shapes, strict=True):
                lines = heads_of(len(game.players), rounds)
                game.rounds.extend(Round(number=n, scores=h) for n, h in enumerate(lines, 1))
                game.version = rounds + 1  # as if played forward only: once more for each round
            if kept:
                db.session.flush()  # the columns' defaults (its game, its version) set
                for game in games:
                    keep_sheet(game)  # as every write of the services does
            db.session.commit()
            return [game.public_id for game in games]

    def store_game(self, players: int, rounds: int) -> str:
        return self.store_games((players, rounds))[0]

    def play_round(self, public_id: str, number: int, players: int, *, htmx: bool = False):
        """Send the round form as the page does (htmx) or as a plain form post."""
        data = {"number": str(number), "version": str(number)}  # a game played forward only
        data.update({f"score-{seat}": str(LIGHT_ROUND[seat]) for seat in range(players)})
        return self.client.post(
            f"/parties/{public_id}/manches", data=data, headers=HTMX if htmx else {}
        )


@contextmanager
def statements(app: Flask) -> Iterator[list[str]]:
    """Collect the SQL statements sent to the app's database while the block runs.

    Transaction control (BEGIN/COMMIT/ROLLBACK) is left out: SQLite's BEGIN goes through the
    cursor here while psycopg sends PostgreSQL's implicitly, so only queries compare fairly. So
    are the two `PRAGMA busy_timeout` that frame SQLite's BEGIN IMMEDIATE (app/__init__.py: the
    write lock is waited for by sleeps that yield to the worker's other requests): settings of
    the connection, part of beginning the write, no work on the data.
    """
    seen: list[str] = []

    def record(_conn, _cursor, statement, _parameters, _context, _executemany) -> None:
        words = statement.split()
        if words[0].upper() in ("BEGIN", "COMMIT", "ROLLBACK"):
            return
        if words[0].upper() == "PRAGMA" and words[1].lower().startswith("busy_timeout"):
            return
        seen.append(" ".join(words))

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", record)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", record)


def listing(seen: Sequence[str]) -> str:
    return "\n".join(f"  {index}. {statement[:300]}" for index, statement in enumerate(seen, 1))


class StaticReferences(HTMLParser):
    """The files a browser fetches for a page: stylesheets, scripts and icons it links to."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        rel = set((found.get("rel") or "").lower().split())
        if (
            tag == "link"
            and rel
            & {"stylesheet", "icon", "apple-touch-icon", "manifest", "preload", "modulepreload"}
            and found.get("href")
        ):
            self.urls.append(found["href"])
        elif (
            tag == "script"
            and found.get("src")
            or tag == "img"
            and found.get("src")
            and not found["src"].startswith("data:")
        ):
            self.urls.append(found["src"])


def static_references(html: str) -> list[str]:
    parser = StaticReferences()
    parser.feed(html)
    return parser.urls
