"""Re-extract the texts marked for translation and bring every catalog up to date (make translations).

French is the source language: msgids are the French texts, so the French catalog is filled in
here, each entry with its own msgid (it exists for French plural forms: « 0 manche, 2 manches »).
Other languages get the new texts empty and changed ones marked fuzzy, to translate by hand;
tests/unit/test_translations.py fails until none is left. A language added to app/platform/languages.py's
LANGUAGES gets its catalog here.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.platform.languages import DEFAULT_LANGUAGE, LANGUAGES  # noqa: E402

CATALOGS = ROOT / "app" / "translations"
PYBABEL = str(Path(sys.executable).parent / "pybabel")
# Locations by file only and no wrapping: catalogs change only where texts do (fewer conflicts).
# Np_ marks a sentence with a plural in the rules (app/rules/messages.py), as ngettext does.
EXTRACT = [
    "--add-location=file",
    "--sort-output",
    "--no-wrap",
    "--add-comments=Translators:",
    "--keyword=Np_:1,2",
]


def extract(template: Path) -> None:
    """Write every marked text of app/ and templates/ into a template catalog (.pot)."""
    command = [PYBABEL, "extract", "-F", "babel.cfg", *EXTRACT, "-o", str(template), "."]
    subprocess.run([*command, "--project=six-qui-prend"], cwd=ROOT, check=True)


def catalog_path(language: str) -> Path:
    return CATALOGS / language / "LC_MESSAGES" / "messages.po"


def update(template: Path, language: str) -> None:
    """Create a language's catalog, or add the new texts to it and drop those gone."""
    target = ["-i", str(template), "-d", str(CATALOGS), "-l", language, "--no-wrap"]
    if catalog_path(language).exists():
        subprocess.run(
            [PYBABEL, "update", *target, "--ignore-obsolete", "--ignore-pot-creation-date"],
            check=True,
        )
    else:
        subprocess.run([PYBABEL, "init", *target], check=True)


def tidy(language: str) -> None:
    """Fill in the header; for French, translate every text into itself, plural forms included."""
    path = catalog_path(language)
    with path.open("rb") as file:
        catalog = read_po(file)
    catalog.header_comment = (
        f"# {LANGUAGES[language]}: the texts of the « 6 qui prend ! » counter.\n"
        "# Each msgid is the French text; README.md (Languages) says how to update this file."
    )
    catalog.msgid_bugs_address = ""
    catalog.last_translator = catalog.language_team = ""
    if language == DEFAULT_LANGUAGE:
        for message in catalog:
            if not message.id:
                continue  # the header
            if message.pluralizable:  # French (CLDR): one, many (millions), other
                singular, plural = message.id
                message.string = (singular, *[plural] * (catalog.num_plurals - 1))
            else:
                message.string = message.id
            message.flags.discard("fuzzy")
    with path.open("wb") as file:
        write_po(file, catalog, width=0, sort_output=True, ignore_obsolete=True)


def main() -> None:
    with tempfile.TemporaryDirectory() as work:
        template = Path(work) / "messages.pot"
        extract(template)
        for language in LANGUAGES:
            update(template, language)
    for language in LANGUAGES:
        tidy(language)
        with catalog_path(language).open("rb") as file:
            catalog = read_po(file)
        todo = [m for m in catalog if m.id and (m.fuzzy or not all(_forms(m.string)))]
        print(f"{language}: {len(todo)} text(s) to translate in {catalog_path(language)}")


def _forms(string: str | tuple[str, ...]) -> tuple[str, ...]:
    return string if isinstance(string, tuple) else (string,)


if __name__ == "__main__":
    main()
