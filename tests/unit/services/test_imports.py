"""What an import makes of a game the phone already has (the file's copy against the phone's),
and of a game the file lists more than once."""

from __future__ import annotations

from datetime import datetime

import pytest

from app import rules
from app.rules.games.six_nimmt import SIX_NIMMT
from app.rules.games.skyjo import SKYJO
from app.services.import_file import ImportedGame
from app.services.imports import one_copy_each, rounds_beyond

TRIO = ("Alice", "Bruno", "Chloé")


def skyjo(
    *rounds: tuple[tuple[int, ...], int], players: tuple[str, ...] = TRIO
) -> rules.Scoresheet:
    return rules.Scoresheet(
        players,
        tuple(scores for scores, _ in rounds),
        rules.GameRules.of(SKYJO),
        tuple(ender for _, ender in rounds),
    )


FIRST, SECOND = ((10, 20, 5), 2), ((4, 8, 12), 0)


@pytest.mark.parametrize(
    ("here", "there", "beyond"),
    [
        (skyjo(FIRST), skyjo(FIRST, SECOND), 1),  # played on there
        (skyjo(), skyjo(FIRST, SECOND), 2),
        (skyjo(FIRST, SECOND), skyjo(FIRST), 0),  # played on here
        (skyjo(FIRST), skyjo(FIRST), 0),
        (skyjo(FIRST), skyjo(((10, 20, 5), 1), SECOND), None),  # the same scores, another ender
        (skyjo(FIRST), skyjo(((10, 20, 6), 2), SECOND), None),
        (skyjo(FIRST), skyjo(FIRST, SECOND, players=("Alice", "Bruno", "Chloe")), None),
        (
            skyjo(FIRST),
            rules.Scoresheet(TRIO, ((10, 20, 5), (4, 8, 12)), rules.GameRules.of(SIX_NIMMT)),
            None,
        ),  # another game
    ],
)
def test_the_rounds_a_copy_has_beyond_the_phones_or_none_where_they_parted(here, there, beyond):
    assert rounds_beyond(here, there) == beyond


THIRD, OTHER = ((1, 2, 3), 1), ((9, 9, 9), 0)


def copy_of(origin: str, *rounds: tuple[tuple[int, ...], int]) -> ImportedGame:
    return ImportedGame(origin, datetime(2026, 12, 1), skyjo(*rounds))


@pytest.mark.parametrize(
    ("copies", "kept", "left_out"),
    [
        pytest.param([("a", [FIRST]), ("b", [FIRST])], [0, 1], 0, id="two games"),
        pytest.param([("a", [FIRST]), ("a", [FIRST])], [0], 0, id="the same copy twice"),
        pytest.param([("a", [FIRST]), ("a", [FIRST, SECOND])], [1], 0, id="played on after"),
        pytest.param([("a", [FIRST, SECOND]), ("a", [FIRST])], [0], 0, id="played on before"),
        pytest.param([("a", [FIRST, SECOND]), ("a", [FIRST, OTHER])], [0], 1, id="parted"),
        pytest.param(
            [("a", [FIRST]), ("a", [FIRST, OTHER]), ("a", [FIRST, SECOND, THIRD])],
            [1],
            1,
            id="played on, then a copy parted from it",
        ),
    ],
)
def test_one_copy_of_each_game_is_kept_and_the_copies_gone_another_way_counted(
    copies, kept, left_out
):
    imported = [copy_of(origin, *rounds) for origin, rounds in copies]

    assert one_copy_each(imported) == ([imported[i] for i in kept], left_out)
