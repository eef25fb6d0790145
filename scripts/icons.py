"""Draw the home-screen icons (PNG) from the look of static/icon.svg: a red square with a white 6.

Run once when the icon changes, then commit the PNGs: `.venv/bin/pip install pillow` (not a
dependency of the app) and `.venv/bin/python scripts/icons.py`. Browsers want PNGs for an
installed app (the SVG stays the tab's icon); four colours (red, white and two edge tones) keep each file under 3 KB.
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

STATIC = Path(__file__).resolve().parent.parent / "static"
ACCENT = (0x7A, 0x1F, 0x1F)
WHITE = (0xFF, 0xFF, 0xFF)
FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"


def draw(size: int, *, maskable: bool = False, rounded: bool = True) -> Image.Image:
    """The icon at `size` px; a maskable one fills its square and keeps the 6 in the safe zone."""
    scale = 4  # drawn large, then reduced: smooth edges
    big = size * scale
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0) if rounded and not maskable else ACCENT)
    pen = ImageDraw.Draw(image)
    if rounded and not maskable:
        pen.rounded_rectangle((0, 0, big - 1, big - 1), radius=big * 14 // 64, fill=ACCENT)
    # The SVG's 6 is 34/64 of the square; a maskable icon's safe zone is the centre 80 % circle.
    font = ImageFont.truetype(FONT, big * (28 if maskable else 34) // 64)
    pen.text((big / 2, big / 2), "6", font=font, fill=WHITE, anchor="mm")
    small = image.resize((size, size), Image.Resampling.LANCZOS)
    return small.quantize(colors=4, method=Image.Quantize.FASTOCTREE)


def main() -> None:
    draw(192).save(STATIC / "icon-192.png", optimize=True)
    draw(512).save(STATIC / "icon-512.png", optimize=True)
    draw(512, maskable=True).save(STATIC / "icon-maskable-512.png", optimize=True)
    # iOS rounds the corners itself and shows transparency as black: a full square.
    draw(180, rounded=False).save(STATIC / "apple-touch-icon.png", optimize=True)


if __name__ == "__main__":
    main()
