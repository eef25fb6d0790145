"""What an import makes of a game the phone already has: the file's copy against the phone's."""

from __future__ import annotations

import pytest

from app import rules
from app.rules.games.skyjo import SKYJO
from app.services.imports import rounds_beyond

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
        (skyjo(FIRST), rules.Scoresheet(TRIO, ((10, 20, 5), (4, 8, 12))), None),  # another game
    ],
)
def test_the_rounds_a_copy_has_beyond_the_phones_or_none_where_they_parted(here, there, beyond):
    assert rounds_beyond(here, there) == beyond
