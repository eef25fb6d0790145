"""The type of the shared result's image: its fonts (shipped in app/web/result/font_files, no
system font assumed), the width of a text, and how a text wraps and shrinks to fit its room
(app/web/result/picture.py lays them out).

A name may be in any script: each character is drawn with the first of FACES that has a glyph for
it (DejaVu Sans for Latin, Greek, Cyrillic, Hebrew, Arabic…; then Noto Sans for Thai, for U+FDFD
and Arabic's ligatures, for Chinese, Japanese and Korean; Symbola for the emoji DejaVu lacks), so
a text is drawn as runs, one per font, on one baseline. Why these files and not the whole Noto
families: docs/reliability.md (« The image's fonts »).
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from pathlib import Path

from fontTools.ttLib import TTFont
from PIL import ImageFont

FONTS = Path(__file__).parent / "font_files"
# (regular, bold) in the order a character looks for its glyph; a face without a bold of its own
# draws bold text regular (its script stays readable; the winner's row says who won).
FACES = (
    ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf"),
    ("NotoSansThai-Regular.ttf", "NotoSansThai-Bold.ttf"),
    ("NotoSansArabic-Regular.ttf", "NotoSansArabic-Regular.ttf"),
    ("NotoSansCJKsc-Everyday.otf", "NotoSansCJKsc-Everyday.otf"),
    ("Symbola-Emoji.ttf", "Symbola-Emoji.ttf"),
)
# Marks, joiners, variation selectors and skin tones belong to the character before them: shaped
# with it, in its font.
_CLINGING = {"Mn", "Mc", "Me", "Cf", "Sk"}
# Break after a space (dropped) or after a hyphen (kept); a no-break space (U+202F, « gagne ! »)
# never breaks.
_PIECES = re.compile(r"[^ -]*-|[^ ]+|  *")


# A face at one size costs ~225 kB: the fitting tries a few dozen sizes of DejaVu, and a name in
# another script a few of its own (with 96 kept, names in five fonts reopened 84 a drawing; 128
# kept: none, ~25 MB at the most).
@lru_cache(maxsize=128)
def font(size: int, bold: bool = False, face: int = 0) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONTS / FACES[face][bold]), size)


@lru_cache(maxsize=len(FACES))
def _coverage(face: int) -> frozenset[int]:
    """Return the code points a face has a glyph for (read once, when a text first needs it)."""
    opened = TTFont(FONTS / FACES[face][0], lazy=True)
    # Glyphs by number, not their names: reading the CJK font's 12,000 names took 250 ms.
    opened.setGlyphOrder([str(glyph) for glyph in range(opened["maxp"].numGlyphs)])
    return frozenset(opened["cmap"].getBestCmap())


@lru_cache(maxsize=4096)
def _face_of(char: str) -> int:
    point = ord(char)
    for face in range(len(FACES)):
        if point in _coverage(face):
            return face
    return 0  # drawn as DejaVu's empty box: no shipped font has it


@lru_cache(maxsize=4096)
def runs(text: str) -> tuple[tuple[int, str], ...]:
    """Cut a text into runs (face, text), each drawn with one face."""
    cut: list[tuple[int, str]] = []
    for char in text:
        face = _face_of(char)
        if cut and (face == cut[-1][0] or unicodedata.category(char) in _CLINGING):
            cut[-1] = (cut[-1][0], cut[-1][1] + char)
        else:
            cut.append((face, char))
    return tuple(cut)


def pieces(
    text: str, size: int, bold: bool = False
) -> list[tuple[ImageFont.FreeTypeFont, str, float]]:
    """Return the text's runs as drawn: each run's font, text and distance from the text's left."""
    placed, left = [], 0.0
    for face, run in runs(text):
        placed.append((font(size, bold, face), run, left))
        left += font(size, bold, face).getlength(run)
    return placed


def ascent(size: int, bold: bool = False) -> int:
    """Return how far DejaVu's ascender is above the baseline: every run shares that baseline."""
    return font(size, bold).getmetrics()[0]


# The fitting measures the same names and pieces at the same sizes again at each scale it tries.
@lru_cache(maxsize=4096)
def width_of(text: str, size: int, bold: bool = False) -> float:
    return sum(font(size, bold, face).getlength(run) for face, run in runs(text))


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
