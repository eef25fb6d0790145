"""The score chart: every player's running total by round, drawn as SVG by the server.

Geometry from a Scoresheet; templates/game/_chart.html turns it into markup. Each player gets a
colour *and* a marker shape, so lines can be told apart without colour. The text alternative is
in the request's language (Flask-Babel; French outside a request).
"""

from __future__ import annotations

from dataclasses import dataclass

from flask_babel import gettext, ngettext

from app.rules import EndRule, Scoresheet

PLOT_WIDTH, HEIGHT = 228, 220
# The right margin holds each line's label at its end (the name and the total, whole: a name is
# never cut), so that ten lines can be told apart without going back and forth to a legend. It
# is as wide as the longest label; the SVG scales to its box, so a long name makes it flatter.
LEFT, TOP, BOTTOM = 34, 10, 26
LABEL_GAP = 11  # user units between two end labels (their font is 10)
LABEL_CHAR_WIDTH = 6.2  # user units per character at font size 10, wide letters included

# Okabe–Ito colours (distinguishable with common colour-vision deficiencies), darkened for contrast.
COLOURS = (
    "#b35900",
    "#0072b2",
    "#007a5a",
    "#a3005c",
    "#5a4a00",
    "#3b3b98",
    "#8c2d04",
    "#006d77",
    "#6a3d9a",
    "#444444",
)
MARKERS = (
    "circle",
    "square",
    "triangle",
    "diamond",
    "cross",
    "circle-open",
    "square-open",
    "triangle-open",
    "diamond-open",
    "plus",
)


@dataclass(frozen=True)
class Line:
    name: str
    colour: str
    marker: str
    points: tuple[tuple[float, float], ...]
    total: int
    label_y: float = 0.0  # where the end label sits: at the line's end, moved apart from others

    @property
    def label(self) -> str:
        return f"\u2068{self.name}\u2069 {self.total}"  # the name isolated: it may be right-to-left

    @property
    def path(self) -> str:
        return " ".join(
            # Whole user units: the chart is drawn about 1 px per unit, so half a unit is
            # invisible, and 10 lines of 20 rounds weigh 0.4 KB less (compressed).
            f"{'M' if i == 0 else 'L'}{x:.0f},{y:.0f}"
            for i, (x, y) in enumerate(self.points)
        )


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    lines: tuple[Line, ...]
    limit_y: float | None
    limit: int | None
    y_ticks: tuple[tuple[float, int], ...]
    x_ticks: tuple[tuple[float, int], ...]
    plot: tuple[float, float, float, float]  # left, top, right, bottom
    description: str

    @property
    def limit_label_y(self) -> float | None:
        """The limit's label's baseline: just above its line, or just below it where the line is
        the plot's top (Flip 7's 200, Skyjo's 100), so that no letter is cut off at the edge."""
        if self.limit_y is None:
            return None
        above = self.limit_y - 4
        return above if above - 9 >= 0 else self.limit_y + 13  # its font is 11


def _nice_step(top: int) -> int:
    """Return a round step (5, 10, 20, 25, 50, 100, 200, 250, 500…) giving at most 6 labels."""
    scale = 1
    while True:
        for step in (5 * scale, 10 * scale, 20 * scale, 25 * scale, 50 * scale):
            if top / step <= 6:
                return step
        scale *= 10


def _spread_labels(lines: tuple[Line, ...], top: float, bottom: float) -> tuple[Line, ...]:
    """Place each end label at its line's end, moved apart so that no two overlap."""
    order = sorted(range(len(lines)), key=lambda i: (lines[i].points[-1][1], i))
    wanted = [lines[i].points[-1][1] + 3.5 for i in order]  # the text's baseline
    placed: list[float] = []
    for y in wanted:  # downwards: at its line's end, or just below the label above
        placed.append(max(y, placed[-1] + LABEL_GAP) if placed else max(y, top + 6))
    # Upwards from the plot's bottom: a label pushed below it moves up, and those above only as
    # far as they must (moving them all up alike took the top one out of the chart, away from
    # its line). Ten labels take half the plot's height: they always fit.
    lowest = bottom
    for k in range(len(placed) - 1, -1, -1):
        placed[k] = min(placed[k], lowest)
        lowest = placed[k] - LABEL_GAP
    label_y = dict(zip(order, placed, strict=True))
    return tuple(
        Line(line.name, line.colour, line.marker, line.points, line.total, label_y[i])
        for i, line in enumerate(lines)
    )


def score_chart(sheet: Scoresheet) -> Chart | None:
    """Return the chart of a game, or None before the first round."""
    if not sheet.rounds:
        return None
    rounds = len(sheet.rounds)
    limit = sheet.rules.limit if sheet.rules.end is not EndRule.ROUNDS else None
    highest = max([*sheet.totals, limit or 0, 10])
    # Totals may go below zero (Skyjo, a free game): the axis then starts at a step below.
    lowest = min(0, *(total for running in sheet.running_totals for total in running))
    step = _nice_step(highest - lowest)
    top = -(-highest // step) * step
    bottom = (lowest // step) * step
    longest = max(len(f"{name} {total}") for name, total in zip(sheet.players, sheet.totals))
    width = LEFT + PLOT_WIDTH + 10 + round(longest * LABEL_CHAR_WIDTH)
    left, right, upper, lower = LEFT, LEFT + PLOT_WIDTH, TOP, HEIGHT - BOTTOM

    def x(round_number: int) -> float:
        return left + (right - left) * round_number / rounds

    def y(total: int) -> float:
        return lower - (lower - upper) * (total - bottom) / (top - bottom)

    lines = tuple(
        Line(
            name=name,
            colour=COLOURS[seat % len(COLOURS)],
            marker=MARKERS[seat % len(MARKERS)],
            points=(
                (x(0), y(0)),
                *((x(r + 1), y(t[seat])) for r, t in enumerate(sheet.running_totals)),
            ),
            total=sheet.totals[seat],
        )
        for seat, name in enumerate(sheet.players)
    )
    lines = _spread_labels(lines, upper + 4, lower)
    every = max(1, -(-rounds // 10))  # at most about ten round labels on a phone
    x_ticks = tuple((x(r), r) for r in range(0, rounds + 1, every))
    y_ticks = tuple((y(v), v) for v in range(bottom, top + 1, step))
    standing = ", ".join(f"{line.name} {line.total}" for line in lines)
    description = ngettext(
        "Totaux cumulés après %(num)d manche. Totaux actuels : %(standing)s.",
        "Totaux cumulés après chacune des %(num)d manches. Totaux actuels : %(standing)s.",
        rounds,
        standing=standing,
    )
    if limit:
        limit_line = gettext("La ligne pointillée marque la limite de %(limit)s.", limit=limit)
        description = f"{description} {limit_line}"
    return Chart(
        width,
        HEIGHT,
        lines,
        y(limit) if limit else None,
        limit,
        y_ticks,
        x_ticks,
        (left, upper, right, lower),
        description,
    )
