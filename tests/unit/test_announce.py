"""What `make run` prints: lines in the terminal's language, a QR code that reads on any terminal."""

from __future__ import annotations

import io
import re

import pytest
import segno

from app.platform.banner import print_qr, terminal_language

LOCALE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
CELL = re.compile(r"\033\[(30|97);(40|107)m▀")


@pytest.mark.parametrize(
    ("environment", "language"),
    [
        ({"LANG": "de_DE.UTF-8"}, "de"),
        ({"LANG": "en_GB.UTF-8"}, "en"),
        ({"LANGUAGE": "es:en", "LANG": "es_ES.UTF-8"}, "en"),
        ({"LC_ALL": "fr_CA.UTF-8", "LANG": "de_DE.UTF-8"}, "fr"),
        ({"LANG": "C.UTF-8"}, "fr"),
        ({}, "fr"),
    ],
)
def test_the_terminal_language_is_the_first_the_counter_speaks(monkeypatch, environment, language):
    for variable in LOCALE_VARIABLES:
        monkeypatch.delenv(variable, raising=False)
    for variable, value in environment.items():
        monkeypatch.setenv(variable, value)

    assert terminal_language() == language


def test_the_terminal_qr_code_draws_every_module_in_its_own_colour():
    out = io.StringIO()
    print_qr("http://192.168.1.20:8000/", out, border=2)
    drawn = []
    for line in out.getvalue().splitlines():
        cells = CELL.findall(line)
        drawn.append([top == "30" for top, _ in cells])
        drawn.append([bottom == "40" for _, bottom in cells])
    expected = [
        [bool(bit) for bit in row]
        for row in segno.make("http://192.168.1.20:8000/", error="m").matrix_iter(border=2)
    ]
    assert drawn[: len(expected)] == expected
    # An odd number of rows: the last line's lower half is light (quiet zone), never dark.
    assert not any(dark for row in drawn[len(expected) :] for dark in row)
