"""The score chart: every player's running total by round, drawn as SVG by the server.

Geometry from a Scoresheet; templates/game/_chart.html turns it into markup. Each player gets a
colour *and* a marker shape, so lines can be told apart without colour. The text alternative is
in the request's language (Flask-Babel; French outside a request).
"""

from __future__ import annotations

import math
import re
import unicodedata
from dataclasses import dataclass, replace
from functools import cache, cached_property

from flask_babel import gettext, ngettext

from app.rules import EndRule, Scoresheet

PLOT_WIDTH, HEIGHT = 228, 220
# The right margin holds each line's label at its end (the name and the total, whole: a name is
# never cut), so that ten lines can be told apart without going back and forth to a legend. The
# SVG scales to its box: every unit of width past WIDEST would make all its text smaller (ten
# players and « Marie-Charlotte de Montmorency » drew it 6.7 px high on a 360-pixel phone). So
# a long label first narrows the plot, down to NARROWEST_PLOT, then goes on more lines (at its
# spaces, after a hyphen, else within a long word), and the chart grows taller to hold them.
WIDEST = 330  # user units: what ten short names take (« Gaëlle 12 »); 9.4 px text on a phone
NARROWEST_PLOT = 160
LEFT, TOP, BOTTOM = 34, 10, 26  # LEFT: room for four digits of the axis; more widen it
TICK_DIGIT_WIDTH = 7  # user units a figure of the axis takes at font size 11 (its labels')
LABEL_GAP = 11  # user units between two lines of end labels (their font is 10)
# User units a label's letter takes at font size 10, by its kind, on the high side: measured in
# Chromium's sans-serif here (DejaVu Sans: « i » 2.8, « a » 6.1, « 0 » 6.4, « A » 7.1, « O » 7.9,
# « W » 9.9), where an average of 6.2 let thirty capitals run past the chart's edge.
NARROW, WIDE = " ,.'’-ifjlrtIJ", "mwMW"
LABEL_APART = 3  # more units beside a label of two lines: its lines read as one label
TICK_SPACING = 22  # user units at least between two round numbers of the axis

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

# The same shapes as characters, beside the names (Scores, Manches, the follow page): ✕ rather
# than ✖, which some phones draw as an emoji.
MARKS = ("●", "■", "▲", "◆", "✕", "○", "□", "△", "◇", "✚")


@dataclass(frozen=True)
class Line:
    name: str
    colour: str
    marker: str
    points: tuple[tuple[float, float], ...]
    total: int
    label_y: float = 0.0  # where the end label sits: at the line's end, moved apart from others
    room: float | None = None  # user units a label's line may take; None: on one line
    series: int = 0  # its colour and marker's index (rules.player_colours): app.css's .chart-sN

    @cached_property  # read by the spreading, the chart's width and the template
    def label_lines(self) -> tuple[str, ...]:
        return label_lines(self.name, self.total, self.room)

    @property
    def label_width(self) -> float:
        """User units of the label's longest line."""
        return max(map(_text_width, self.label_lines))

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

    label_gap = LABEL_GAP  # between the lines of a label on two (its tspan's dy)

    @property
    def limit_label_y(self) -> float | None:
        """The limit's label's baseline: just above its line, or just below it where the line is
        the plot's top (Flip 7's 200, Skyjo's 100), so that no letter is cut off at the edge."""
        if self.limit_y is None:
            return None
        above = self.limit_y - 4
        return above if above - 9 >= 0 else self.limit_y + 13  # its font is 11


def label_lines(name: str, total: int, room: float | None) -> tuple[str, ...]:
    """Return a line's end label, the name then the total, in lines of at most `room` units: one
    where it fits, else broken at the name's spaces, after a hyphen, else within a word too long
    for a line; the total ends the last line (broken again where it leaves the total no room).
    The name's parts are isolated: a name may be right-to-left."""
    if room is None or _text_width(f"{name} {total}") <= room:
        return (f"\u2068{name}\u2069 {total}",)
    lines = _wrapped(name, room)
    *lines, last = [*lines[:-1], *_wrapped(lines[-1], room - _text_width(f" {total}"))]
    return (*(f"\u2068{line}\u2069" for line in lines), f"\u2068{last}\u2069 {total}")


def _wrapped(text: str, room: float) -> list[str]:
    """Return the text in lines of at most `room` units, each as full as it can be."""
    lines: list[str] = []
    for word in text.split(" "):
        for k, piece in enumerate(_pieces(word, room)):
            joined = f"{lines[-1]}{' ' if k == 0 else ''}{piece}" if lines else piece
            if lines and _text_width(joined) <= room:
                lines[-1] = joined
            else:
                lines.append(piece)
    return lines


def _pieces(word: str, room: float) -> list[str]:
    """Return a word in pieces of at most `room` units: itself where it fits, else cut after its
    hyphens, and a piece still too wide cut where the room ends (a name is never shortened)."""
    if _text_width(word) <= room:
        return [word]
    pieces = []
    for part in re.split(r"(?<=-)", word):
        while _text_width(part) > room:
            cut = 1
            while _text_width(part[: cut + 1]) <= room:
                cut += 1
            pieces.append(part[:cut])
            part = part[cut:]
        if part:
            pieces.append(part)
    return pieces


def _text_width(text: str) -> float:
    return sum(map(_letter_width, text))


@cache
def _letter_width(letter: str) -> float:
    """User units a letter of a label takes at font size 10 (NARROW, WIDE)."""
    if unicodedata.category(letter) in ("Cf", "Mn"):  # isolating marks, combined accents
        return 0
    if letter in NARROW:
        return 3.5
    if letter in WIDE or unicodedata.east_asian_width(letter) in ("W", "F"):  # emoji, CJK
        return 10
    return 7.9 if letter.isupper() else 6.4


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
    height = [LABEL_GAP * (len(lines[i].label_lines) - 1) for i in order]  # its lines below
    # From the baseline of label k - 1's last line to that of label k's first.
    gap = [
        LABEL_GAP + (LABEL_APART if height[k] or height[k - 1] else 0) for k in range(len(order))
    ]
    placed: list[float] = []
    for k, y in enumerate(wanted):  # downwards: at its line's end, or below the label above
        placed.append(max(y, placed[-1] + height[k - 1] + gap[k]) if k else max(y, top + 6))
    # Upwards from the plot's bottom: a label pushed below it moves up, and those above only as
    # far as they must (moving them all up alike took the top one out of the chart, away from
    # its line). They fit: score_chart makes the plot as tall as they need (_labels_height).
    lowest = bottom
    for k in range(len(placed) - 1, -1, -1):
        placed[k] = min(placed[k], lowest - height[k])
        lowest = placed[k] - gap[k]
    label_y = dict(zip(order, placed, strict=True))
    return tuple(replace(line, label_y=label_y[i]) for i, line in enumerate(lines))


def _labels_height(labels: list[tuple[str, ...]]) -> float:
    """User units from the first label's first baseline to the last one's last, the labels one
    under the other, as _spread_labels puts them at the closest."""
    height = sum(LABEL_GAP * (len(lines) - 1) for lines in labels)
    for above, below in zip(labels, labels[1:]):
        height += LABEL_GAP + (LABEL_APART if len(above) > 1 or len(below) > 1 else 0)
    return height


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
    # The axis's figures sit right-aligned 5 units left of the plot: a free game's 10000 or
    # -2000 needs more room than 66's.
    figures = max(len(str(value)) for value in (top, bottom))
    left = max(LEFT, 6 + TICK_DIGIT_WIDTH * figures)
    # The labels' room: beside the whole plot where they fit within WIDEST, else beside a
    # narrower one, else on more lines; the plot then takes what they leave.
    ends = list(zip(sheet.players, sheet.totals, strict=True))
    widest = max(_text_width(f"{name} {total}") for name, total in ends)
    room = WIDEST - left - 10 - NARROWEST_PLOT if left + PLOT_WIDTH + 10 + widest > WIDEST else None
    labels = [label_lines(name, total, room) for name, total in ends]
    widest = max(_text_width(line) for label in labels for line in label)
    plot_width = min(PLOT_WIDTH, math.floor(WIDEST - left - 10 - widest))
    # Taller where the labels need it: from 10 units below the plot's top (_spread_labels) to
    # its bottom, in the order the lines end (the sum does not depend on it).
    plot_height = max(HEIGHT - TOP - BOTTOM, 10 + _labels_height(labels))
    right, upper, lower = left + plot_width, TOP, TOP + plot_height

    def x(round_number: int) -> float:
        return left + (right - left) * round_number / rounds

    def y(total: int) -> float:
        return lower - (lower - upper) * (total - bottom) / (top - bottom)

    lines = tuple(
        Line(
            name=name,
            colour=COLOURS[sheet.colours[seat]],
            marker=MARKERS[sheet.colours[seat]],
            points=(
                (x(0), y(0)),
                *((x(r + 1), y(t[seat])) for r, t in enumerate(sheet.running_totals)),
            ),
            total=sheet.totals[seat],
            room=room,
            series=sheet.colours[seat],
        )
        for seat, name in enumerate(sheet.players)
    )
    lines = _spread_labels(lines, upper + 4, lower)
    width = round(right) + 10 + round(max(line.label_width for line in lines))
    most_ticks = int(plot_width // TICK_SPACING)  # ten on the whole plot
    every = max(1, -(-rounds // most_ticks))
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
        round(lower + BOTTOM),
        lines,
        y(limit) if limit else None,
        limit,
        y_ticks,
        x_ticks,
        (left, upper, right, lower),
        description,
    )
