"""Unit tests of app.web.result.text and app.web.result.picture: what the shared result's image says
(through the card it is drawn from), and that every text of it is whole and inside its room."""

from __future__ import annotations

import io
from datetime import datetime

import pytest
from fontTools.ttLib import TTFont
from PIL import Image

from app.rules import GameRules, Scoresheet
from app.rules.games.six_nimmt import SIX_NIMMT
from app.services.saved_game import SavedGame
from app.web.result.fonts import pieces
from app.web.result.picture import HEIGHT, WIDTH, draw, layout, png
from app.web.result.text import image_card, result_card

N = "\u202f"
LONG_TEN = (
    "Marie-Christine",
    "Bartholomé",
    "Maximilien",
    "Jean-Baptiste de La Tour-Dupin",  # 30 characters, the longest name a table takes
    "Wolfgang Großmüller-Schäfer",
    "WWWWWWWWWWWWWWWWWWWWWWWWWWWWWW",  # 30 of the widest letter, nowhere to wrap
    "Zoé",
    "Hildegard von Bingen-Äbtissin",
    "Łukasz Żółkiewski",
    "Ève-Marie Dœuf",
)


def finished(names, *rounds, game_rules=GameRules.of(SIX_NIMMT)):
    sheet = Scoresheet(tuple(names), tuple(tuple(r) for r in rounds), game_rules)
    assert sheet.is_over
    return SavedGame("g1", 4, datetime(2026, 11, 29, 20, 5), sheet)


# Chinese, Japanese, Korean, Thai (with its marks), emoji (Unicode 6 and 9), U+FDFD (the widest
# glyph there is) and a name of several scripts at once.
ANY_SCRIPT = finished(
    ["王小明", "山田さくら", "김민준", "สมชาย ใจดี", "Zoé 🎲🦄", "\ufdfd", "Ana 李 ไทย 😀"],
    [3, 7, 12, 9, 4, 5, 70],
)
THREE = finished(["Brice", "Chloé", "Aube"], [5, 9, 30], [10, 10, 40])
TEN = finished(LONG_TEN, [3, 7, 12, 9, 4, 5, 8, 10, 2, 6], [10, 9, 8, 7, 6, 5, 4, 3, 2, 61])


@pytest.fixture
def speaking(app):
    """Enter a request in a language, as the image's request would."""

    def enter(language: str):
        return app.test_request_context(headers={"Accept-Language": language})

    return enter


def test_the_card_says_winner_totals_ranks_rounds_limit_and_date(speaking):
    with speaking("fr"):
        card = result_card(THREE)

    assert card.title == f"6 qui prend{N}!"
    assert card.headline == f"Brice gagne avec 15 têtes{N}!"
    assert [(line.rank, line.name, line.total, line.winner, line.note) for line in card.lines] == [
        ("1", "Brice", "15", True, ""),
        ("2", "Chloé", "19", False, ""),
        ("3", "Aube", "70", False, "A dépassé 66"),
    ]
    assert card.facts == ("2 manches", f"Fin{N}: plus de 66 têtes", "29 nov. 2026, 21:05")
    assert card.text == "Brice gagne avec 15 têtes\u202f! — Chloé 19, Aube 70 — 2 manches"


def test_the_card_speaks_german_with_the_games_german_names(speaking):
    with speaking("de"):
        card = result_card(THREE)

    assert card.title == "6 nimmt!"
    assert card.headline == "Brice gewinnt mit 15 Hornochsen!"
    assert card.facts[:2] == ("2 Runden", "Ende: über 66 Hornochsen")
    assert card.text == "Brice gewinnt mit 15 Hornochsen! — Chloé 19, Aube 70 — 2 Runden"


def test_a_shared_win_names_every_winner(speaking):
    game = finished(["Ana", "Ben", "Cléo"], [10, 10, 67])
    with speaking("en"):
        card = result_card(game)

    assert card.headline == "Shared win: Ana and Ben, tied on 10 bullheads."
    assert card.text == "Shared win: Ana and Ben, tied on 10 bullheads. — Cléo 67 — 1 round"
    assert [line.rank for line in card.lines] == ["1", "1", "3"]


def test_the_png_decodes_at_its_size(speaking):
    with speaking("fr"):
        data = png(result_card(THREE))

    image = Image.open(io.BytesIO(data))
    assert (image.format, image.size) == ("PNG", (WIDTH, HEIGHT))


def whole(lines: list[str]) -> str:
    """Put a wrapped text back together: a break drops a space, or follows a hyphen."""
    text = ""
    for line in lines:
        text += line if not text or text.endswith("-") else " " + line
    return text.replace("\u00a0", " ")


@pytest.mark.parametrize("language", ["fr", "en", "de"])
@pytest.mark.parametrize(
    "game", [THREE, TEN, ANY_SCRIPT], ids=["3 players", "10 long names", "names in any script"]
)
def test_the_image_draws_every_text_of_the_card_whole_and_inside_its_room(speaking, language, game):
    with speaking(language):
        card = result_card(game)
    placed = layout(card)

    parts: dict[str, list[str]] = {}
    for text in placed.texts:
        parts.setdefault(text.part, []).append(text.text)
        left, top, right, bottom = text.bounds()
        box_left, box_top, box_right, box_bottom = text.box
        assert 0 <= left <= right <= WIDTH and 0 <= top <= bottom <= HEIGHT, text
        # Inside its room: a glyph's ink may lean 3 px out of its advance (« Ł », « W »).
        assert box_left - 3 <= left and right <= box_right + 3, text
        assert box_top <= top and bottom <= box_bottom, text
    assert whole(parts.pop("title")) == card.title
    assert whole(parts.pop("headline")) == card.headline
    # The facts on one line, or each on its own lines.
    assert whole(parts.pop("facts")) in (" · ".join(card.facts), " ".join(card.facts))
    for index, line in enumerate(card.lines):
        assert whole(parts.pop(f"name {index}")) == line.name
        assert parts.pop(f"rank {index}") == [line.rank]
        assert parts.pop(f"total {index}") == [line.total]
        assert parts.pop(f"note {index}", []) == ([line.note] if line.note else [])
    assert parts == {}, "a text drawn that the card does not say"


def test_a_name_in_any_script_is_drawn_with_fonts_that_have_its_glyphs(speaking):
    with speaking("fr"):
        placed = layout(result_card(ANY_SCRIPT))

    for text in placed.texts:
        for run_font, run, _left in pieces(text.text, text.size, text.bold):
            glyphs = TTFont(run_font.path, lazy=True)["cmap"].getBestCmap()
            assert [char for char in run if ord(char) not in glyphs] == [], text.text


def test_rows_never_overlap_each_other_nor_the_facts(speaking):
    with speaking("de"):
        placed = layout(result_card(TEN))

    rows = sorted({text.box[1:4:2] for text in placed.texts if text.part.startswith("name")})
    facts_top = min(text.box[1] for text in placed.texts if text.part == "facts")
    for (_top, bottom), (next_top, _bottom) in zip(rows, rows[1:]):
        assert bottom <= next_top
    assert rows[-1][1] <= facts_top


def test_a_name_that_could_reorder_the_sentence_is_isolated_in_it(speaking):
    game = finished(["Bob\u202e", "אביגיל", "Alice"], [2, 3, 70])
    with speaking("fr"):
        card = result_card(game)

    assert card.headline.startswith("\u2068Bob\u202e\u2069 gagne")
    assert card.text == (
        "\u2068Bob\u202e\u2069 gagne avec 2 têtes\u202f! — \u2068אביגיל\u2069 3, Alice 70 — 1 manche"
    )
    assert [line.name for line in card.lines] == ["Bob\u202e", "אביגיל", "Alice"]  # drawn alone


def test_the_image_is_drawn_per_language_not_per_region(speaking):
    with speaking("fr-CA"):
        regional = image_card(TEN)
    with speaking("fr"):
        french = image_card(TEN)
    with speaking("en-AU"):
        english = image_card(TEN)

    assert regional == french and regional.language == "fr"
    assert english.language == "en"


def test_stacked_combining_marks_stay_inside_their_row(speaking):
    marks = "".join(chr(code) for code in range(0x0300, 0x0315)) * 3
    game = finished(["Ana", "Zo" + marks + "é", "Ben"], [1, 2, 70])
    with speaking("fr"):
        card = result_card(game)
    placed = {text.part: text for text in layout(card).texts}
    row = placed["name 1"].box
    image = draw(card)  # before the PNG's palette, which depends on every colour drawn

    # Above and below the row of « Zo…é », the card's paper and rows as drawn without that name.
    plain = finished(["Ana", "Zoé", "Ben"], [1, 2, 70])
    with speaking("fr"):
        reference = draw(result_card(plain))
    for box in ((0, 0, WIDTH, row[1]), (0, row[3], WIDTH, HEIGHT)):
        assert image.crop(box).tobytes() == reference.crop(box).tobytes()


def test_each_row_has_the_players_colour_mark_before_the_name_within_the_row(speaking):
    with speaking("fr"):
        card = result_card(THREE)
        placed = layout(card)

    # Brice 15, Chloé 19, Aube 70: best first, each with the colour of their seat.
    assert [line.colour for line in card.lines] == [0, 1, 2]
    names = [text for text in placed.texts if text.part.startswith("name")]
    assert [mark.colour for mark in placed.marks] == [0, 1, 2]
    for mark, name in zip(placed.marks, names, strict=True):
        left, top, right, bottom = mark.box
        assert right <= name.x and name.box[1] <= top < bottom <= name.box[3]
    image = draw(card)
    middle = [((m.box[0] + m.box[2]) // 2, (m.box[1] + m.box[3]) // 2) for m in placed.marks]
    assert image.getpixel(middle[0]) == (0xB3, 0x59, 0x00)  # a filled circle, the chart's first
