"""The shared result as a PNG image (1080 × 1080, the square chat apps show whole), drawn by
Pillow with the fonts shipped in app/web/result/font_files (DejaVu Sans, then Noto Sans for the
scripts it lacks: app/web/result/fonts.py), no system font assumed.

`layout` places the card's texts (app/web/result/text.py) and nothing else: a name too long for
its column is drawn smaller, then wrapped at its spaces and hyphens, never cut; when the whole
does not fit (ten players with long names) everything is drawn smaller together. `draw` paints
that layout. Tests read the layout to check that every text is whole and inside its box.
"""

from __future__ import annotations

import io
import threading
from collections import OrderedDict
from dataclasses import dataclass, replace
from typing import Any

from PIL import Image, ImageColor, ImageDraw, ImageFont

from app.web.chart import COLOURS, MARKERS
from app.web.result.fonts import ascent, fit, line_height, paragraph, pieces, width_of, wrap
from app.web.result.text import ResultCard

WIDTH = HEIGHT = 1080
MARGIN = 64

# The counter's own colours (static/app.css): its dark red, on paper.
PAPER = (251, 246, 238)
INK = (43, 29, 22)
MUTED = (107, 90, 78)
BAND = (122, 31, 31)
ON_BAND = (255, 255, 255)
WINNER_ROW = (246, 227, 180)
RULE = (226, 214, 198)
CROSSED = (155, 44, 44)

LARGEST = 1.3  # a few players are drawn larger than ten
RANK_WIDTH = 90  # at scale 1: room for « 10 »
TOTAL_WIDTH = 150  # room for « 104 »
MARK_WIDTH = 44  # the player's colour mark before the name


@dataclass(frozen=True)
class Text:
    """One line of text as drawn: what part of the card it shows (« title », « name 3 »…), and
    the box (left, top, right, bottom) of the room it has."""

    part: str
    text: str
    x: int
    y: int
    size: int
    bold: bool
    colour: tuple[int, int, int]
    box: tuple[int, int, int, int]
    align: str = "left"  # or "right": then x is the right edge

    def runs(self) -> list[tuple[ImageFont.FreeTypeFont, str, tuple[float, int]]]:
        """Return each run's font, text and baseline's start (left, y), as drawn."""
        # Texts hang from DejaVu's ascender, not their own ink: « Zoé » and « Ève » share a
        # baseline, and so do the runs of « Zoé 山田 ».
        left = self.x - (width_of(self.text, self.size, self.bold) if self.align == "right" else 0)
        baseline = self.y + ascent(self.size, self.bold)
        return [
            (run_font, run, (left + start, baseline))
            for run_font, run, start in pieces(self.text, self.size, self.bold)
        ]

    def bounds(self) -> tuple[int, int, int, int]:
        """Return the ink's box, as Pillow draws this text."""
        inks = []
        for run_font, run, (x, y) in self.runs():
            ink = run_font.getbbox(run, anchor="ls")
            inks.append(_shifted((int(ink[0]), int(ink[1]), int(ink[2]), int(ink[3])), round(x), y))
        if not inks:
            return (round(self.x), self.y, round(self.x), self.y)
        return (
            min(ink[0] for ink in inks),
            min(ink[1] for ink in inks),
            max(ink[2] for ink in inks),
            max(ink[3] for ink in inks),
        )


@dataclass(frozen=True)
class Band:
    """A filled rectangle: the title's band, a winner's row, a rule between rows."""

    box: tuple[int, int, int, int]
    colour: tuple[int, int, int]


@dataclass(frozen=True)
class Mark:
    """A player's colour and marker shape, the chart's (chart.COLOURS, chart.MARKERS), drawn
    before the name: the name says who it is, the mark ties the row to the page's colours."""

    box: tuple[int, int, int, int]
    colour: int  # the index of rules.player_colours


@dataclass(frozen=True)
class Layout:
    bands: tuple[Band, ...]
    texts: tuple[Text, ...]
    scale: float
    marks: tuple[Mark, ...] = ()


def _shifted(box: tuple[int, int, int, int], x: int, y: int) -> tuple[int, int, int, int]:
    return (box[0] + x, box[1] + y, box[2] + x, box[3] + y)


# A face costs ~225 kB and 0.3 ms to open: a drawing uses a dozen sizes, the fitting tries more.
def layout(card: ResultCard) -> Layout:
    """Place the card's texts, as large as they fit."""
    scale = LARGEST
    while True:
        placed = _layout_at(card, scale)
        if placed is not None or scale < 0.4:
            return placed or _layout_at(card, scale, force=True)  # type: ignore[return-value]
        scale *= 0.93


def _layout_at(card: ResultCard, scale: float, force: bool = False) -> Layout | None:
    def px(value: float) -> int:
        return max(1, round(value * scale))

    bands: list[Band] = []
    texts: list[Text] = []
    marks: list[Mark] = []
    left, right = MARGIN, WIDTH - MARGIN
    room = right - left

    # The title band: the same at every scale.
    band_height = 132
    bands.append(Band((0, 0, WIDTH, band_height), BAND))
    size, lines = fit(card.title, 64, True, room, smallest=40)
    box = (left, 0, right, band_height)
    texts.append(
        Text("title", lines[0], left, (band_height - size) // 2 - 4, size, True, ON_BAND, box)
    )

    # The facts at the bottom (the rounds, the rule, the date): on one line, else one a line.
    size = min(px(32), 32)
    lines = [" · ".join(card.facts)]
    if width_of(lines[0], size) > room:
        size = min(size, *(paragraph(fact, 32, False, room, 1)[0] for fact in card.facts))
        lines = [line for fact in card.facts for line in wrap(fact, size, False, room)]
    facts_top = HEIGHT - MARGIN + 16 - len(lines) * line_height(size)
    box = (left, facts_top, right, HEIGHT)
    for index, line in enumerate(lines):
        top = facts_top + index * line_height(size)
        texts.append(Text("facts", line, left, top, size, False, MUTED, box))

    # The headline, then one row per player, in the space between (centred in it).
    fixed_bands, fixed_texts = len(bands), len(texts)
    top = band_height + px(44)
    size, lines = paragraph(card.headline, min(px(54), 60), True, room, 3)
    box = (left, top, right, top + len(lines) * line_height(size))
    for line in lines:
        texts.append(Text("headline", line, left, top, size, True, INK, box))
        top += line_height(size)
    top += px(30)

    rank_width, total_width, mark_width = px(RANK_WIDTH), px(TOTAL_WIDTH), px(MARK_WIDTH)
    name_left = left + rank_width + mark_width
    name_room = room - rank_width - mark_width - total_width - px(16)
    padding, figures, note_size = px(12), px(46), px(28)
    for index, row in enumerate(card.lines):
        size, lines = fit(row.name, px(46), row.winner, name_room, smallest=px(32))
        # As tall as its name, and at least as its figures (a long name is drawn smaller).
        name_height = max(len(lines) * line_height(size), line_height(figures))
        height = name_height + (line_height(note_size) if row.note else 0)
        row_top, row_bottom = top, top + height + 2 * padding
        if row.winner:
            bands.append(Band((left - 16, row_top, right + 16, row_bottom), WINNER_ROW))
        elif index:
            bands.append(Band((left, row_top, right, row_top + 2), RULE))
        y = row_top + padding
        # The rank and the total, each at the size that fits its column (« 104 » at the most).
        rank_size = fit(row.rank, figures, True, rank_width - 12, smallest=8)[0]
        box = (left, row_top, left + rank_width, row_bottom)
        texts.append(Text(f"rank {index}", row.rank, left, y, rank_size, True, MUTED, box))
        total_size = fit(row.total, figures, True, total_width, smallest=8)[0]
        box = (right - total_width, row_top, right, row_bottom)
        texts.append(
            Text(f"total {index}", row.total, right, y, total_size, True, INK, box, "right")
        )
        # The mark, as high as a capital of the name's first line, in the room before it.
        side, middle = px(MARK_WIDTH * 0.55), y + ascent(size) - round(size * 0.36)
        mark_left = name_left - mark_width
        marks.append(
            Mark((mark_left, middle - side // 2, mark_left + side, middle + side // 2), row.colour)
        )
        box = (name_left, row_top, name_left + name_room, row_bottom)
        for line in lines:
            texts.append(Text(f"name {index}", line, name_left, y, size, row.winner, INK, box))
            y += line_height(size)
        y = row_top + padding + name_height
        if row.note:
            texts.append(
                Text(f"note {index}", row.note, name_left, y, note_size, False, CROSSED, box)
            )
        top = row_bottom
    spare = facts_top - px(20) - top
    if spare < 0 and not force:
        return None
    down = max(0, spare) // 2
    bands[fixed_bands:] = [_moved(band, down) for band in bands[fixed_bands:]]
    texts[fixed_texts:] = [_moved(text, down) for text in texts[fixed_texts:]]
    return Layout(tuple(bands), tuple(texts), scale, tuple(_moved(mark, down) for mark in marks))


def _moved(item: Band | Text | Mark, down: int) -> Any:
    left, top, right, bottom = item.box
    box = (left, top + down, right, bottom + down)
    if isinstance(item, Band | Mark):
        return replace(item, box=box)
    return replace(item, y=item.y + down, box=box)


def draw(card: ResultCard) -> Image.Image:
    """Paint the card's layout."""
    image = Image.new("RGB", (WIDTH, HEIGHT), PAPER)
    pen = ImageDraw.Draw(image)
    placed = layout(card)
    for band in placed.bands:
        pen.rectangle(band.box, fill=band.colour)
    for text in placed.texts:
        _paint(image, text)
    for mark in placed.marks:
        _mark(pen, mark)
    return image


def _mark(pen: ImageDraw.ImageDraw, mark: Mark) -> None:
    """Draw a player's marker shape in their colour, as the chart draws it."""
    left, top, right, bottom = mark.box
    colour = ImageColor.getrgb(COLOURS[mark.colour])
    shape = MARKERS[mark.colour]
    width = max(2, (right - left) // 6)
    x, y = (left + right) / 2, (top + bottom) / 2
    outline: dict[str, Any] = (
        {"outline": colour, "width": width} if shape.endswith("-open") else {"fill": colour}
    )
    kind = shape.removesuffix("-open")
    if kind == "circle":
        pen.ellipse(mark.box, **outline)
    elif kind == "square":
        pen.rectangle(mark.box, **outline)
    elif kind == "triangle":
        pen.polygon([(x, top), (right, bottom), (left, bottom)], **outline)
    elif kind == "diamond":
        pen.polygon([(x, top), (right, y), (x, bottom), (left, y)], **outline)
    elif kind == "cross":
        pen.line([(left, top), (right, bottom)], fill=colour, width=width + 1)
        pen.line([(left, bottom), (right, top)], fill=colour, width=width + 1)
    else:  # plus
        pen.line([(left, y), (right, y)], fill=colour, width=width + 1)
        pen.line([(x, top), (x, bottom)], fill=colour, width=width + 1)


def _paint(image: Image.Image, text: Text) -> None:
    """Paint a text inside its box and nowhere else: a name of stacked combining marks (« Z̸̢̛͓̈́̀… »)
    would otherwise reach over the rows above and below it."""
    left, top, right, bottom = text.box
    ink = Image.new("L", (right - left, bottom - top), 0)
    pen = ImageDraw.Draw(ink)
    for run_font, run, (x, y) in text.runs():
        pen.text((x - left, y - top), run, font=run_font, fill=255, anchor="ls")
    image.paste(text.colour, (left, top, right, bottom), ink)


# Drawn once per card and process, then served from here: a card holds everything the image
# says, language included, so a changed game is a new card. 64 images of ~30 kB at most.
# Measured on this project's 2-core machine (docs/reliability.md, « Limits »): ten players, long
# names in a shared win, 30-45 ms from nothing (layout, drawing and PNG), the PNG most of it.
CACHED = 64
_drawn: OrderedDict[ResultCard, bytes] = OrderedDict()
_lock = threading.Lock()


def is_drawn(card: ResultCard) -> bool:
    """Say whether this card's image is at hand (then `png` costs nothing)."""
    with _lock:
        return card in _drawn


def png(card: ResultCard) -> bytes:
    """Return the card as PNG bytes, drawn once while it stays among the last CACHED asked."""
    with _lock:
        if card in _drawn:
            _drawn.move_to_end(card)
            return _drawn[card]
    buffer = io.BytesIO()
    # A palette of 64 colours: the image is flat colours and their antialiasing. 31 kB against
    # 88 kB in RGB; the fast octree in 29 ms, where median cut took 100 ms and « optimize » 50.
    draw(card).quantize(colors=64, method=Image.Quantize.FASTOCTREE).save(buffer, "PNG")
    with _lock:
        _drawn[card] = buffer.getvalue()
        while len(_drawn) > CACHED:
            _drawn.popitem(last=False)
    return buffer.getvalue()


def forget_drawings() -> None:
    """Empty the cache (tests and benchmarks measure a drawing from nothing)."""
    with _lock:
        _drawn.clear()
    width_of.cache_clear()
