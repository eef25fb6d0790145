"""A script's texts written in a language when the static files are built (app/platform/static_files.py)."""

from __future__ import annotations

from io import BytesIO

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.support import Translations

from app.platform.static_files import translated_script

SCRIPT = b"""const isPlural = (n) => n > 1;
say(_("Hors ligne."));
say(fill(ngettext("%(what)s sera envoy\xc3\xa9e.", "%(what)s seront envoy\xc3\xa9es.", items.length), { what }));
say(_("Pas traduit \xc2\xab ici \xc2\xbb"));
"""


def german() -> Translations:
    catalog = Catalog(locale="de")  # its Plural-Forms: nplurals=2; plural=(n != 1);
    catalog.add("Hors ligne.", "Offline.")
    catalog.add(
        ("%(what)s sera envoyée.", "%(what)s seront envoyées."),
        ("%(what)s wird gesendet.", "%(what)s werden gesendet."),
    )
    file = BytesIO()
    write_mo(file, catalog)
    file.seek(0)
    return Translations(file)


def test_a_script_gets_its_texts_both_plural_forms_and_plural_rule_in_the_language():
    built = translated_script(SCRIPT, german()).decode()

    assert built.splitlines() == [
        "const isPlural = (n) => ((n != 1));",
        'say("Offline.");',
        'say(fill(ngettext("%(what)s wird gesendet.", "%(what)s werden gesendet.", '
        "items.length), { what }));",
        'say("Pas traduit « ici »");',  # not in the catalog: the French text, a plain string
    ]
