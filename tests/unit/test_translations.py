"""Every text marked for translation is translated, in every language, and none is left fuzzy."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from app.platform.languages import LANGUAGES

ROOT = Path(__file__).resolve().parents[2]
CATALOGS = ROOT / "app" / "translations"
PYBABEL = Path(sys.executable).parent / "pybabel"


@pytest.fixture(scope="module")
def marked_texts(tmp_path_factory) -> Catalog:
    """Extract the texts marked in app/ and templates/ now, as `make translations` does."""
    template = tmp_path_factory.mktemp("extract") / "messages.pot"
    subprocess.run(
        [str(PYBABEL), "-q", "extract", "-F", "babel.cfg", "-o", str(template), "."],
        cwd=ROOT,
        check=True,
    )
    with template.open("rb") as file:
        return read_po(file)


def _catalog(language: str) -> Catalog:
    with (CATALOGS / language / "LC_MESSAGES" / "messages.po").open("rb") as file:
        return read_po(file)


def _forms(string: str | tuple[str, ...]) -> tuple[str, ...]:
    return string if isinstance(string, tuple) else (string,)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_marked_text_is_translated_and_none_is_fuzzy(marked_texts, language):
    catalog = _catalog(language)
    missing, untranslated, fuzzy = [], [], []
    for marked in marked_texts:
        if not marked.id:
            continue  # the header
        entry = catalog.get(marked.id)
        if entry is None:
            missing.append(marked.id)
        elif entry.fuzzy:
            fuzzy.append(marked.id)
        elif not all(_forms(entry.string)) or len(_forms(entry.string)) < (
            catalog.num_plurals if entry.pluralizable else 1
        ):
            untranslated.append(marked.id)

    assert (missing, untranslated, fuzzy) == ([], [], []), (
        f"{language}: run `make translations`, then translate (missing, untranslated, fuzzy)"
    )


@pytest.mark.parametrize("language", LANGUAGES)
def test_translations_keep_the_placeholders_of_the_french_text(language):
    problems = [
        (message.id, [str(error) for error in errors])
        for message, errors in _catalog(language).check()
    ]

    assert problems == []
