"""SIGKILL the whole server again and again during a burst of rounds: nothing acknowledged is lost.

Four tables keep recording rounds while gunicorn (master and workers, the whole process group) is
killed at random moments and restarted. A table whose request fails waits for the server to come
back and sends the same round again, as a phone retrying after a lost answer would. After each
kill the SQLite file must pass `PRAGMA integrity_check`, hold every acknowledged round with all its
heads, no round with some players' heads missing, and round numbers without gaps.
"""

from __future__ import annotations

import os
import random
import sqlite3
import threading
from dataclasses import dataclass, field

import pytest
import requests

from scripts.lib.phones import Database, Phone, round_form, stored_games
from scripts.lib.servers import Gunicorn, migrate, server_env

pytestmark = pytest.mark.slow

KILLS = int(os.environ.get("CRASH_KILLS", "4"))  # a longer soak: CRASH_KILLS=20 (4.5 s a kill)
WORKERS = 2
TABLES = 4
MOST_ROUNDS = 200  # with at most 2 heads a round and a limit of 500, no game can end before this
DEADLINE = 60.0  # for any one wait: a server coming back, a table making progress


def typed_heads(table: int, number: int, players: int) -> tuple[int, ...]:
    """The heads a table types for a round: always the same for the same round, so retries agree."""
    heads = [(table + number * (seat + 1)) % 3 for seat in range(players)]
    if not any(heads):
        heads[0] = 1  # someone always takes a card
    return tuple(heads)


@dataclass
class Table:
    index: int
    phone: Phone
    game: str
    players: int
    token: str
    next_number: int = 1
    acknowledged: set[int] = field(default_factory=set)


class Burst:
    """Tables recording rounds in threads, while the test kills and restarts the server."""

    def __init__(self, tables: list[Table]):
        self.tables = tables
        self.changed = threading.Condition()
        self.life = 1  # how many times the server has come up
        self.sent = 0
        self.interrupted = 0  # requests that got no answer because the server died under them
        self.stopping = False
        self.problems: list[str] = []
        self.threads = [threading.Thread(target=self._play, args=(t,), daemon=True) for t in tables]

    def start(self) -> None:
        for thread in self.threads:
            thread.start()

    def server_back(self) -> None:
        with self.changed:
            self.life += 1
            self.changed.notify_all()

    def wait_for_requests(self, count: int) -> None:
        """Wait until `count` more round submissions have been sent."""
        with self.changed:
            target = self.sent + count
            assert self.changed.wait_for(lambda: self.sent >= target or self.problems, DEADLINE), (
                f"the tables sent no request for {DEADLINE}s"
            )
        assert not self.problems, self.problems

    def acknowledged(self) -> dict[str, set[int]]:
        with self.changed:
            return {t.game: set(t.acknowledged) for t in self.tables}

    def wait_for_one_more_round_each(self) -> None:
        with self.changed:
            before = {t.game: len(t.acknowledged) for t in self.tables}
            assert self.changed.wait_for(
                lambda: (
                    self.problems or all(len(t.acknowledged) > before[t.game] for t in self.tables)
                ),
                DEADLINE,
            ), "a table recorded nothing after the last restart"
        assert not self.problems, self.problems

    def stop(self) -> None:
        with self.changed:
            self.stopping = True
            self.changed.notify_all()
        for thread in self.threads:
            thread.join(DEADLINE)
            assert not thread.is_alive(), "a table did not stop"

    def _play(self, table: Table) -> None:
        while table.next_number <= MOST_ROUNDS:
            with self.changed:
                if self.stopping:
                    return
                life = self.life
                self.sent += 1
                self.changed.notify_all()
            number = table.next_number
            heads = typed_heads(table.index, number, table.players)
            try:
                answer = table.phone.post(
                    f"/parties/{table.game}/manches", round_form(table.token, number, heads)
                )
            except requests.RequestException:
                # The server died under the request: wait for it to come back, then send it again.
                with self.changed:
                    self.interrupted += 1
                    back = self.changed.wait_for(
                        lambda: self.life > life or self.stopping, 2 * DEADLINE
                    )
                    if not back:
                        self.problems.append(f"table {table.index}: the server never came back")
                        self.changed.notify_all()
                        return
                continue
            acknowledged = answer.status_code == 303 and (
                answer.headers.get("Location") == f"/parties/{table.game}"
            )
            if not acknowledged:
                with self.changed:
                    self.problems.append(
                        f"table {table.index}, round {number}: {answer.status_code} "
                        f"{answer.text[:500]!r}"
                    )
                    self.changed.notify_all()
                return
            with self.changed:
                table.acknowledged.add(number)
                table.next_number = number + 1
                self.changed.notify_all()


def check_database(
    database: Database, tables: list[Table], acknowledged: dict[str, set[int]], when: str
) -> int:
    """The file is sound, holds every acknowledged round whole, and nothing else but whole rounds.

    Return how many rounds are stored whose answer has not come back (yet, or ever).
    """
    assert database.path is not None
    with sqlite3.connect(database.path) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)], when
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == [], when
    conn.close()
    stored = stored_games(database)
    unanswered = 0
    for table in tables:
        game = stored[table.game]
        acked = acknowledged[table.game]
        numbers = sorted(game.rounds)
        assert numbers == list(range(1, len(numbers) + 1)), f"{when}: gaps in {numbers}"
        assert acked <= set(numbers), f"{when}: acknowledged {sorted(acked - set(numbers))} lost"
        # Each table has one request in flight at most: one round past the acknowledged ones.
        assert len(numbers) <= len(acked) + 1, f"{when}: rounds {numbers} but {sorted(acked)} sent"
        for number in numbers:
            assert sorted(game.rounds[number]) == list(range(game.players)), (
                f"{when}: round {number} of table {table.index} half stored: {game.rounds[number]}"
            )
            assert game.heads(number) == typed_heads(table.index, number, game.players), when
        unanswered += len(numbers) - len(acked)
    return unanswered


def test_every_acknowledged_round_survives_repeated_sigkills(tmp_path):
    seed = int(os.environ.get("CRASH_SEED", random.randrange(2**32)))
    chance = random.Random(seed)
    path = tmp_path / "game.sqlite"
    database = Database("sqlite", f"sqlite:///{path}", path)
    env = server_env(database.url, tmp_path / "instance")
    migrate(env, tmp_path / "migrate.log")
    server = Gunicorn(env, tmp_path / "gunicorn.log", workers=WORKERS)
    burst: Burst | None = None
    stored_unanswered = 0
    try:
        server.start()
        tables = []
        for index in range(TABLES):
            phone = Phone(server.url, timeout=DEADLINE)
            names = [f"Joueur {seat + 1}" for seat in range(2 + index)]
            game = phone.start_game(names, end="other_limit", limit="500")
            token, _ = phone.open_game(game)
            tables.append(Table(index, phone, game, len(names), token))
        burst = Burst(tables)
        burst.start()

        for kill in range(1, KILLS + 1):
            burst.wait_for_requests(chance.randint(1, 3 * TABLES))
            # The pause chooses the moment of the kill within the requests in flight; it waits
            # for nothing.
            threading.Event().wait(chance.uniform(0, 0.2))
            server.kill()
            stored_unanswered += check_database(
                database, tables, burst.acknowledged(), f"kill {kill}, seed {seed}"
            )
            server.start()
            burst.server_back()

        burst.wait_for_one_more_round_each()
        burst.stop()
        server.stop()
    finally:
        if burst is not None:
            burst.stop()
        server.stop()

    assert not burst.problems, burst.problems
    # Every table's last answer came back, so what is stored is exactly what was acknowledged.
    acknowledged = burst.acknowledged()
    assert check_database(database, tables, acknowledged, f"the end, seed {seed}") == 0
    assert burst.interrupted > 0, "no kill caught a request in flight: nothing was tested"
    print(  # the figures docs/reliability.md quotes (pytest -rP shows them)
        f"seed {seed}: {KILLS} kills, {burst.sent} submissions, {burst.interrupted} cut off, "
        f"{sum(map(len, acknowledged.values()))} rounds acknowledged, {stored_unanswered} found "
        "stored at a kill before their answer came back"
    )
