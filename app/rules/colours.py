"""Which colour and marker shape each player gets (the chart's, the scoreboard's, the sheet's):
an index into the palette, chosen once here so that every place draws a player alike."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from app.rules.names import name_key

# The palette's size (app/web/chart.py's COLOURS and MARKERS, app.css's .mk0 … .mk9).
COLOUR_COUNT = 10


def player_colours(
    names: Sequence[str], earlier: Iterable[tuple[str, int]] = ()
) -> tuple[int, ...]:
    """Return each seat's colour index, in seat order: the seat's own by default (a rematch keeps
    its seats, so its colours); a name that had a colour earlier (`earlier`: names and the
    indexes they had, the first one a name had kept, as in an evening's earlier games, names
    compared as the table does) keeps it, and the others take, in seat order, the lowest
    indexes no one had yet (a player back later in the evening finds theirs free), then those
    no one at this table keeps."""
    known: dict[str, int] = {}
    for name, index in earlier:
        known.setdefault(name_key(name), index % COLOUR_COUNT)
    kept: list[int | None] = []
    for name in names:
        had_one = known.get(name_key(name))
        kept.append(had_one if had_one not in kept else None)
    had = set(known.values())
    free = [index for index in range(COLOUR_COUNT) if index not in kept]
    left = iter(sorted(free, key=lambda index: index in had))
    # More than ten players with earlier colours between them: the rest share, by seat.
    return tuple(
        index if index is not None else next(left, seat % COLOUR_COUNT)
        for seat, index in enumerate(kept)
    )
