"""The lines `make run` prints are in the terminal's language when the counter speaks it."""

from __future__ import annotations

import pytest

from app.announce import terminal_language

LOCALE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


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
