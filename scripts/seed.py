"""Fill a database with many games fast (Core bulk inserts), for benchmarks and trying the history.

    .venv/bin/python scripts/seed.py --games 100000            # into the database `make run` uses
    .venv/bin/python scripts/seed.py --games 10 --players 10 --rounds 20 --token <device token>

Games are written with explicit ids in one transaction per table chunk, through the app's own
table definitions, so they look exactly like games the counter recorded. Prints the device token
(the value of the device cookie) that owns them, so a browser or a load tool can open them.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

import sqlalchemy as sa
from flask import Flask, g

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app import rules
from app.platform.devices import claim_device, current_device_hash
from app.platform.extensions import db
from app.rules.games.six_nimmt import SIX_NIMMT
from app.services.saved_game import kept_sheet
from app.storage.models import Game, Player, Round, new_public_id, utcnow

NAMES = ["Alice", "Bruno", "Chloé", "Damien", "Élodie", "Farid", "Gaëlle", "Hugo", "Inès", "Jules"]
CHUNK = 20_000  # rows per executemany: bounded memory, still few round trips


@dataclass(frozen=True)
class Shape:
    """What each seeded game looks like."""

    players: int = 3
    rounds: int = 5
    finished: bool = True


def new_device(app: Flask) -> tuple[str, str]:
    """Have the app issue a device token, as it does to a new browser; return (token, hash)."""
    with app.test_request_context():
        owner = claim_device()
        return g.device_token, owner


def device_hash(app: Flask, token: str) -> str:
    """Return the hash the app stores for a device cookie (asked of the app, not recomputed)."""
    name = app.config["DEVICE_COOKIE_NAME"]
    with app.test_request_context(headers={"Cookie": f"{name}={token}"}):
        found = current_device_hash()
    if found is None:
        raise ValueError("not a valid device token")
    return found


def sheet_of(shape: Shape) -> rules.Scoresheet:
    """Return the rounds every game of this shape holds, checked by the game's own rules.

    Heads drawn like a real table's (mostly a few, sometimes a whole row), the same for every
    game of a shape; a running game stays under 66, a finished one goes past it in its last round.
    """
    draw = random.Random(f"{shape.players}-{shape.rounds}-{shape.finished}")
    names = tuple(NAMES[: shape.players])
    for _ in range(1000):
        sheet = rules.Scoresheet(names, (), rules.GameRules.of(SIX_NIMMT))
        for number in range(1, shape.rounds + 1):
            heads = [draw.choice((0, 0, 1, 1, 2, 3, 5, 8)) for _ in names]
            if shape.finished and number == shape.rounds:
                heads[0] = max(heads[0], 67 - sheet.totals[0])
            try:
                sheet = sheet.with_round(sheet.check_round(rules.RoundScores(tuple(heads))))
            except rules.Refusal:
                break
        else:
            if sheet.is_over == shape.finished:
                return sheet
    raise ValueError(f"{shape} does not make a {'finished' if shape.finished else 'running'} game")


def writing(engine: sa.Engine):
    """Begin a transaction that takes SQLite's write lock at once (BEGIN IMMEDIATE, as the app's
    writes do), so seeding next to a running server waits its turn instead of failing."""
    return engine.execution_options(sqlite_begin="IMMEDIATE").begin()


def _next_id(connection: sa.Connection, table: sa.Table) -> int:
    return (connection.scalar(sa.select(sa.func.max(table.c.id))) or 0) + 1


def _chunks(rows: Iterator, size: int = CHUNK) -> Iterator[list]:
    chunk: list = []
    for row in rows:
        chunk.append(row)
        if len(chunk) == size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def _insert_many(
    connection: sa.Connection, table: sa.Table, columns: Sequence[str], rows: Iterator[tuple]
) -> None:
    """Insert rows (tuples in the order of `columns`) with the driver's executemany.

    Much faster than an ORM or Core insert per row for hundreds of thousands of rows; values
    that need encoding (JSON, dates) are encoded beforehand with the column's own type.
    """
    preparer = connection.dialect.identifier_preparer
    marker = "?" if connection.dialect.paramstyle == "qmark" else "%s"
    sql = (
        f"INSERT INTO {preparer.format_table(table)} "
        f"({', '.join(preparer.format_column(table.c[name]) for name in columns)}) "
        f"VALUES ({', '.join([marker] * len(columns))})"
    )
    for chunk in _chunks(rows):
        connection.exec_driver_sql(sql, chunk)


def _encoder(connection: sa.Connection, column: sa.Column):
    """Return how the column's type encodes a value for this database (as SQLAlchemy would)."""
    encode = column.type.bind_processor(connection.dialect)
    return (
        (lambda value: value)
        if encode is None
        else (lambda value: None if value is None else encode(value))
    )


def seed_games(
    connection: sa.Connection,
    device_hashes: Sequence[str],
    shape: Shape,
    *,
    newest: datetime | None = None,
) -> list[str]:
    """Insert one game of `shape` per device hash given (repeat a hash for many games).

    The games are dated one minute apart, the first the newest, ending at `newest` (now by
    default). Return their public ids in the same order.
    """
    game_table, player_table, round_table = Game.__table__, Player.__table__, Round.__table__
    first_game, first_player, first_round = (
        _next_id(connection, table) for table in (game_table, player_table, round_table)
    )
    newest = newest or utcnow()
    public_ids = [new_public_id() for _ in device_hashes]
    sheet = sheet_of(shape)
    heads = [list(line) for line in sheet.rounds]

    stamp = _encoder(connection, game_table.c.created_at)
    as_json = _encoder(connection, round_table.c.heads)
    encoded_heads = [as_json(line) for line in heads]
    game_columns = (
        "id",
        "public_id",
        "device_hash",
        "created_at",
        "end_rule",
        "head_limit",
        "round_count",
        "pro",
        "version",
        "kept_sheet",
    )
    flag = _encoder(connection, game_table.c.pro)(False)
    version = 1 + shape.rounds  # as if each round had been recorded by the counter
    kept = _encoder(connection, game_table.c.kept_sheet)(kept_sheet(sheet, version))

    def games() -> Iterator[tuple]:
        for index, (owner, public_id) in enumerate(zip(device_hashes, public_ids, strict=True)):
            created = newest - timedelta(minutes=index)
            yield (
                first_game + index,
                public_id,
                owner,
                stamp(created),
                "above",
                66,
                None,
                flag,
                version,
                kept,
            )

    def players() -> Iterator[tuple]:
        for index in range(len(device_hashes)):
            for seat in range(shape.players):
                yield (
                    first_player + index * shape.players + seat,
                    first_game + index,
                    seat,
                    NAMES[seat],
                )

    def rounds() -> Iterator[tuple]:
        for index in range(len(device_hashes)):
            for number in range(1, shape.rounds + 1):
                yield (
                    first_round + index * shape.rounds + number - 1,
                    first_game + index,
                    number,
                    encoded_heads[number - 1],
                )

    _insert_many(connection, game_table, game_columns, games())
    _insert_many(connection, player_table, ("id", "game_id", "seat", "name"), players())
    _insert_many(connection, round_table, ("id", "game_id", "number", "heads"), rounds())
    if connection.dialect.name == "postgresql":  # explicit ids: move the sequences past them
        for table in (game_table, player_table, round_table):
            connection.execute(
                sa.text(
                    f"SELECT setval(pg_get_serial_sequence('{table.name}', 'id'), "
                    f"(SELECT max(id) FROM {table.name}))"
                )
            )
    return public_ids


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--in-progress", action="store_true", help="games not finished")
    parser.add_argument("--token", help="device cookie value owning the games (default: a new one)")
    args = parser.parse_args(argv)

    from app import create_app

    app = create_app()
    token = args.token or new_device(app)[0]
    shape = Shape(args.players, args.rounds, finished=not args.in_progress)
    started = time.perf_counter()
    with app.app_context(), writing(db.engine) as connection:
        if connection.dialect.name == "sqlite":
            connection.exec_driver_sql(
                "PRAGMA cache_size=-262144"
            )  # 256 MiB: indexes stay in memory
        seed_games(connection, [device_hash(app, token)] * args.games, shape)
    elapsed = time.perf_counter() - started
    print(f"{args.games} games ({shape.players} players, {shape.rounds} rounds) in {elapsed:.1f} s")
    print(f"device cookie: {app.config['DEVICE_COOKIE_NAME']}={token}")


if __name__ == "__main__":
    main()
