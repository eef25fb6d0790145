"""The type of the shared result's image: its fonts (the DejaVu Sans shipped in app/web/fonts, no
system font assumed), the width of a text, and how a text wraps and shrinks to fit its room
(app/web/result_image.py lays them out)."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from PIL import ImageFont

FONTS = Path(__file__).parent / "fonts"
REGULAR, BOLD = "DejaVuSans.ttf", "DejaVuSans-Bold.ttf"
# Break after a space (dropped) or after a hyphen (kept); a no-break space (U+202F, « gagne ! »)
# never breaks.
_PIECES = re.compile(r"[^ -]*-|[^ ]+|  *")


@lru_cache(maxsize=48)
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONTS / (BOLD if bold else REGULAR)), size)


# The fitting measures the same names and pieces at the same sizes again at each scale it tries.
@lru_cache(maxsize=4096)
def width_of(text: str, size: int, bold: bool = False) -> float:
    return font(size, bold).getlength(text)


def wrap(text: str, size: int, bold: bool, room: int) -> list[str]:
    """Cut a text into lines no wider than `room` at its spaces and hyphens (a word wider than
    the room stays whole on its own line: the caller then draws it smaller)."""
    lines: list[str] = []
    current = ""
    # A number stays with its word (« 15 têtes », « 29 nov. »): a no-break space, drawn the same.
    for piece in _PIECES.findall(re.sub(r"(?<=\d) ", "\u00a0", text)):
        candidate = current + piece
        if current and not piece.isspace() and width_of(candidate.rstrip(), size, bold) > room:
            lines.append(current.rstrip())
            current = piece
        else:
            current = candidate
    if current.strip():
        lines.append(current.rstrip())
    return [line.lstrip() for line in lines]


def fit(text: str, size: int, bold: bool, room: int, *, smallest: int) -> tuple[int, list[str]]:
    """Return the size and lines that show the whole text within `room`: smaller down to
    `smallest` on one line, then wrapped at that size, then smaller still if a word alone is
    wider than the room."""
    # Widths grow with the size (nearly in proportion): start from the size that should fit.
    at_size = width_of(text, size, bold)
    start = size if at_size <= room else min(size, int(size * room / at_size) + 1)
    for candidate in range(start, smallest - 1, -1):
        if width_of(text, candidate, bold) <= room:
            return candidate, [text]
    candidate = smallest
    while True:
        lines = wrap(text, candidate, bold, room)
        if all(width_of(line, candidate, bold) <= room for line in lines) or candidate <= 8:
            return candidate, lines
        candidate -= 1


def paragraph(
    text: str, size: int, bold: bool, room: int, most_lines: int
) -> tuple[int, list[str]]:
    """Return the largest size (down to 8) at which a sentence (the headline, the facts) wraps
    within `room` in at most `most_lines` lines, and its lines."""

    def fits(candidate: int) -> list[str] | None:
        lines = wrap(text, candidate, bold, room)
        wide = any(width_of(line, candidate, bold) > room for line in lines)
        return None if wide or len(lines) > most_lines else lines

    # Halving the range, not one size at a time: a shared win of ten long names tried 30 sizes,
    # each a wrap of a long sentence, at each of the layout's scales (0.5 s a drawing).
    best = (8, wrap(text, 8, bold, room))
    low, high = 8, size
    while low <= high:
        middle = (low + high) // 2
        lines = fits(middle)
        if lines is None:
            high = middle - 1
        else:
            best, low = (middle, lines), middle + 1
    return best


def line_height(size: int) -> int:
    return round(size * 1.25)
