"""Constant work per page: the game page, a round submission and the history page each send the
database a small fixed number of statements, whatever the size of the game or of the history.

Counted with SQLAlchemy's before_cursor_execute on the app's engine, on SQLite and PostgreSQL,
with the rate limiter on and the device cookie renewed on every response, as in production.
"""

from __future__ import annotations

import pytest

from app.platform.extensions import db

from .table import Device, listing, statements

pytestmark = pytest.mark.storage  # on SQLite and PostgreSQL

# Statements per request: a game page is one read (the game and its kept sheet; its players and
# rounds too for a game stored without one), a round two writes.
BUDGET = 5
# A round submission: the page's read, two writes and one INSERT more, its entry in the game's
# story (« Le fil de la partie », app/services/story.py): 6.
WRITE_BUDGET = BUDGET + 1


@pytest.fixture
def app_settings() -> dict:
    return {"RATELIMIT_ENABLED": True}  # its counters must not cost a query


@pytest.fixture
def device(app, client) -> Device:
    return Device(app, client)


def _counted(app, send, expected_status: int) -> list[str]:
    with statements(app) as seen:
        response = send()
    assert response.status_code == expected_status, response.get_data(as_text=True)[:2000]
    return list(seen)


def _assert_within_budget(cases: dict[str, list[str]], budget: int = BUDGET) -> None:
    for case, seen in cases.items():
        assert len(seen) <= budget, f"{case}: {len(seen)} statements\n{listing(seen)}"


def _assert_same_count(cases: dict[str, list[str]]) -> None:
    assert len({len(seen) for seen in cases.values()}) == 1, "\n".join(
        f"{case}: {len(seen)}\n{listing(seen)}" for case, seen in cases.items()
    )


def test_game_page_issues_at_most_5_statements_whatever_the_players_rounds_and_games(
    app, client, device
):
    fresh, small, big = device.store_games((2, 0), (2, 1), (10, 20))
    cases = {}
    for case, public_id in [
        ("2 players, 0 rounds", fresh),
        ("2 players, 1 round", small),
        ("10 players, 20 rounds", big),
    ]:
        cases[f"{case}, 3 games"] = _counted(app, lambda: client.get(f"/parties/{public_id}"), 200)
    device.store_games(*[(4, 3)] * 56)
    cases["10 players, 20 rounds, 60 games"] = _counted(
        app, lambda: client.get(f"/parties/{big}"), 200
    )
    (unkept,) = device.store_games((10, 20), kept=False)
    unkept_case = _counted(app, lambda: client.get(f"/parties/{unkept}"), 200)

    _assert_within_budget({**cases, "10 players, 20 rounds, no kept sheet": unkept_case})
    # The game and its kept sheet are one row, whatever its players and rounds.
    _assert_same_count(cases)


def _submissions(app, device: Device) -> dict[str, list[str]]:
    """Record the next round of a small and of a large game, as a plain post and as htmx."""
    cases = {}
    small_plain, small_htmx, big_plain, big_htmx = device.store_games(
        (2, 1), (2, 1), (10, 19), (10, 19)
    )
    device.store_games(*[(4, 3)] * 56)
    for htmx, status in ((False, 303), (True, 200)):
        kind = "htmx" if htmx else "plain"
        small, big = (small_htmx, big_htmx) if htmx else (small_plain, big_plain)
        cases[f"{kind}: 2 players, round 2"] = _counted(
            app, lambda: device.play_round(small, 2, 2, htmx=htmx), status
        )
        cases[f"{kind}: 10 players, round 20"] = _counted(
            app, lambda: device.play_round(big, 20, 10, htmx=htmx), status
        )
    return cases


def test_round_submission_work_does_not_grow_with_players_or_rounds(app, device):
    cases = _submissions(app, device)

    _assert_same_count({case: seen for case, seen in cases.items() if case.startswith("plain")})
    _assert_same_count({case: seen for case, seen in cases.items() if case.startswith("htmx")})


def test_round_submission_issues_at_most_6_statements_and_its_notice(app, device):
    cases = _submissions(app, device)

    # On PostgreSQL the game's live pages (another phone, another tab) hear of the round by one
    # NOTIFY, sent at commit: not a read or a write of the game, outside the budget.
    with app.app_context():
        postgresql = db.engine.dialect.name == "postgresql"
    for case, seen in cases.items():
        notices = [statement for statement in seen if statement.startswith("SELECT pg_notify")]
        assert len(notices) == postgresql, f"{case}: {len(notices)} notices"
    _assert_within_budget(
        {
            case: [s for s in seen if not s.startswith("SELECT pg_notify")]
            for case, seen in cases.items()
        },
        WRITE_BUDGET,
    )


def test_history_page_issues_at_most_5_statements_whatever_the_games_stored(app, client, device):
    device.store_game(2, 1)
    cases = {"1 game": _counted(app, lambda: client.get("/historique"), 200)}
    device.store_games((10, 20), *[(4, 3)] * 58)
    cases["60 games, newest page"] = _counted(app, lambda: client.get("/historique"), 200)
    cases["60 games, oldest page"] = _counted(app, lambda: client.get("/historique?page=3"), 200)

    _assert_within_budget(cases)
    _assert_same_count(cases)


def test_home_page_issues_at_most_5_statements_whatever_the_game_in_progress(app, client, device):
    cases = {"no game": _counted(app, lambda: client.get("/"), 200)}
    device.store_games((2, 1))
    cases["2 players, 1 round in progress"] = _counted(app, lambda: client.get("/"), 200)
    device.store_games(*[(4, 3)] * 50, (10, 20))
    cases["10 players, 20 rounds in progress, 52 games"] = _counted(
        app, lambda: client.get("/"), 200
    )

    _assert_within_budget(cases)
    _assert_same_count({case: seen for case, seen in cases.items() if case != "no game"})
