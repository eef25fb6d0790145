"""Build the fallback fonts of the shared result's image (app/web/result/font_files/Noto*) from
Debian's Noto packages: the scripts DejaVu Sans lacks, in a few MB (app/web/result/fonts.py,
FACES).

    apt-get install fonts-noto-core fonts-noto-cjk fonts-noto-color-emoji fonts-symbola
    .venv/bin/python scripts/subset_fonts.py

Thai and Arabic (U+FDFD) are copied whole; the CJK font is cut to the characters of everyday names
(all GB 2312 hanzi, JIS level 1 kanji, the 2,350 hangul of KS X 1001, Big5's frequent hanzi, kana:
12,072 characters, 2.5 MB of the package's 20 MB); Symbola (monochrome, Unicode 9) to the emoji
DejaVu lacks that Noto Color Emoji has (bitmaps Pillow draws at one size only, 10 MB).
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTFont

OUT = Path(__file__).resolve().parents[1] / "app" / "web" / "result" / "font_files"
NOTO = Path("/usr/share/fonts/truetype/noto")
SYMBOLA = Path("/usr/share/fonts/truetype/ancient-scripts/Symbola_hint.ttf")  # fonts-symbola
CJK = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")
CJK_SIMPLIFIED = 2  # the collection's Simplified Chinese face: JP, KR, SC, TC, HK


def everyday_cjk() -> set[int]:
    """Return the code points of the CJK characters names are written with, from legacy codecs."""
    chars: set[str] = set()

    def rows(codec: str, leads: range, trails: list[int]) -> None:
        for lead in leads:
            for trail in trails:
                try:
                    chars.update(bytes([lead, trail]).decode(codec))
                except UnicodeDecodeError:
                    pass

    high = list(range(0xA1, 0xFF))
    rows("gb2312", range(0xB0, 0xF8), high)  # the 6,763 hanzi
    rows("euc_jp", range(0xA4, 0xA6), high)  # hiragana, katakana
    rows("euc_jp", range(0xB0, 0xD0), high)  # JIS level 1 kanji
    rows("euc_kr", range(0xB0, 0xC9), high)  # the 2,350 hangul syllables
    rows("big5", range(0xA4, 0xC7), list(range(0x40, 0x7F)) + high)  # frequent traditional
    points = {ord(char) for char in chars}
    points.update(range(0x3000, 0x3040))  # CJK punctuation
    points.update(range(0x30A0, 0x3100))  # katakana
    points.update(range(0xFF00, 0xFFF0))  # full-width forms
    return points


def cut(source: Path, target: Path, points: set[int], number: int = 0, *, layout: bool) -> None:
    options = subset.Options()
    # The CJK glyphs need no substitution nor positioning across a line (2.5 MB without, 4.6 with).
    options.layout_features = ["*"] if layout else []
    options.hinting = False
    options.name_IDs = ["*"]  # the copyright and licence names stay in the file
    options.font_number = number
    font = subset.load_font(str(source), options)
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=points)
    subsetter.subset(font)
    subset.save_font(font, str(target), options)


def main() -> None:
    for name in ("NotoSansThai-Regular", "NotoSansThai-Bold", "NotoSansArabic-Regular"):
        shutil.copy(NOTO / f"{name}.ttf", OUT / f"{name}.ttf")
    cut(CJK, OUT / "NotoSansCJKsc-Everyday.otf", everyday_cjk(), CJK_SIMPLIFIED, layout=False)
    dejavu = set(TTFont(OUT / "DejaVuSans.ttf")["cmap"].getBestCmap())
    emoji = set(TTFont(NOTO / "NotoColorEmoji.ttf")["cmap"].getBestCmap())
    cut(SYMBOLA, OUT / "Symbola-Emoji.ttf", emoji - dejavu, layout=True)
    for path in sorted([*OUT.glob("Noto*"), *OUT.glob("Symbola*")]):
        print(f"{path.stat().st_size:>10,} {path.name}", file=sys.stderr)


if __name__ == "__main__":
    main()
