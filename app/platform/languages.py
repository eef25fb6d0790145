"""Languages: French (the source), English and German, chosen per person, through Flask-Babel.

The language is the `lang` cookie when the person picked one with the switch on every page,
else the browser's first language among ours (Accept-Language), else French. Texts are marked
with `_`/`ngettext` where they are written (`N_` in the rules and forms, which say what is wrong
as a Message that `translate` turns into the person's language); their msgids are the French
texts themselves. `make translations` re-extracts and updates the catalogs.
"""

from __future__ import annotations

import math
import re
import unicodedata
from datetime import timedelta
from typing import Any, cast
from urllib.parse import urlsplit

from babel import Locale, UnknownLocaleError
from babel.lists import format_list
from babel.support import NullTranslations
from flask import Blueprint, Flask, Response, g, redirect, request
from flask_babel import Babel, format_decimal, format_timedelta, get_locale, get_translations

from app.platform import devices
from app.rules.messages import Message, Names

DEFAULT_LANGUAGE = "fr"
# Each language, named in itself: the switch shows these names, exactly (ui-contract « Languages »).
LANGUAGES = {"fr": "Français", "en": "English", "de": "Deutsch"}
LANGUAGE_COOKIE = "lang"
LANGUAGE_COOKIE_DAYS = 400  # the longest lifetime browsers accept, as for the device cookie

bp = Blueprint("languages", __name__)


def select_locale() -> str:
    """Return the person's language, with the browser's region when it has one for it.

    The language is their choice, else the browser's first that we speak, else French; the
    region (« en-GB », « de-CH ») only shapes dates and numbers: the texts are the language's.
    """
    preferred = [value.replace("-", "_") for value, _quality in request.accept_languages]
    chosen = request.cookies.get(LANGUAGE_COOKIE)
    spoken = [value for value in preferred if _language_of(value) in LANGUAGES]
    language = chosen if chosen in LANGUAGES else _language_of(spoken[0]) if spoken else None
    for value in spoken:
        if _language_of(value) == language:
            try:
                return str(Locale.parse(value))
            except (ValueError, UnknownLocaleError):
                break
    return language or DEFAULT_LANGUAGE


def _language_of(locale: str) -> str:
    return locale.split("_")[0].lower()


def current_language() -> str:
    """Return the code of the language this request is answered in (`fr`, `en` or `de`)."""
    locale = get_locale()
    return locale.language if locale else DEFAULT_LANGUAGE


def catalog() -> NullTranslations:
    """Return the request's catalog, looked up once: Flask-Babel's own look-up (its context,
    domain, locale and cache key) took about as long as the rest of a text's rendering, and a
    10-player game page has about 90 texts."""
    found = g.get("catalog")
    if found is None:
        found = g.catalog = get_translations()
    return found


def gettext(text: str, **values: Any) -> str:
    translated = catalog().ugettext(text)
    return translated % values if values else translated


# Bidi classes that can move the text around a name: right-to-left letters, and the explicit
# embeddings, overrides and isolates (a name ending in U+202E would reverse the rest).
_REORDERING = {"R", "AL", "LRE", "RLE", "LRO", "RLO", "PDF", "LRI", "RLI", "FSI", "PDI"}


def isolated(name: str) -> str:
    """Return a name as it may sit inside a sentence: between U+2068 and U+2069 (first strong
    isolate, pop isolate) when it could reorder its neighbours, as is, invisible marks spared,
    when it cannot (a chat or a screen reader gets the plain name)."""
    if any(unicodedata.bidirectional(char) in _REORDERING for char in name):
        return f"\u2068{name}\u2069"
    return name


_NUMBER_BLANK = re.compile(r"%\((\w+)\)d")


def translate(message: object) -> Any:
    """Return what the rules or a form said (a Message, its values too) in the request's
    language; players' names (Names) joined as the language does, each set apart from the
    sentence; a whole number written as the language does (« 999 999 », « 999,999 »,
    « 999.999 »); anything else (a name, what was typed) as it is."""
    if isinstance(message, Names):
        return format_list([isolated(name) for name in message.names], locale=get_locale())
    if isinstance(message, Message):
        values = {name: translate(value) for name, value in message.values.items()}
        if message.plural is None:
            text = catalog().ugettext(message.text)
        else:  # chosen by the count itself, not by how it is written
            count = cast(int, message.values["num"])  # Np_ takes an int
            text = catalog().ungettext(message.text, message.plural, count)
        # « %(num)d » wants a number: the numbers are written out already, as text.
        return _NUMBER_BLANK.sub(r"%(\1)s", text) % values if values else text
    if isinstance(message, int) and not isinstance(message, bool):
        # A Message's value: what was typed stays a string, as typed, and a form field's value
        # is never drawn from a Message.
        return format_decimal(message)
    return message


def wait_in_words(seconds: float) -> str:
    """Say a wait in the page's language, rounded: « 40 secondes », « 12 minutes », « 1 heure »."""
    wait = timedelta(seconds=max(1, math.ceil(seconds)))
    return str(format_timedelta(wait, threshold=1))


def same_site_path(target: str | None) -> str:
    """Return `target` if it is a path on this site, else the home page (no open redirect)."""
    if not target or "\\" in target or any(ord(char) < 32 for char in target):
        return "/"
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not target.startswith("/") or target.startswith("//"):
        return "/"
    return target


def here() -> str:
    """Return the address the language switch comes back to: this page, once in the new language.

    A page answering a POST (a refused round, say) cannot be fetched again by a link: it comes
    back to the page the form was on, which the browser sends as the referrer (same site only).
    """
    if request.method == "GET":
        return request.full_path.removesuffix("?")
    referrer = urlsplit(request.referrer or "")
    if referrer.netloc != request.host:
        return "/"
    return same_site_path(referrer.path + (f"?{referrer.query}" if referrer.query else ""))


@bp.get("/langue/<any(fr, en, de):code>")
@devices.as_the_page_it_returns_to
def choose_language(code: str):
    """Remember the language chosen and show the same page again in it."""
    response = redirect(same_site_path(request.args.get("next")), 303)
    response.set_cookie(
        LANGUAGE_COOKIE,
        code,
        max_age=LANGUAGE_COOKIE_DAYS * 24 * 3600,
        secure=request.is_secure,
        httponly=True,
        samesite="Lax",
    )
    return response


def say_language(response: Response) -> Response:
    """Say which language a page is in, and that it depends on the browser and the cookies."""
    if response.mimetype in ("text/html", "text/csv", "application/manifest+json"):
        response.headers["Content-Language"] = current_language()
        response.vary.update(("Accept-Language", "Cookie"))
    return response


def init_app(app: Flask) -> None:
    Babel(
        app,
        locale_selector=select_locale,
        default_locale=DEFAULT_LANGUAGE,
        default_timezone=app.config["TIME_ZONE"],
    )
    # Instead of Flask-Babel's (same texts, same newstyle formatting by Jinja): see `catalog`.
    app.jinja_env.install_gettext_callables(  # type: ignore[attr-defined]
        lambda text: catalog().ugettext(text),
        lambda singular, plural, n: catalog().ungettext(singular, plural, n),
        newstyle=True,
    )
    app.register_blueprint(bp)
    app.after_request(say_language)
    app.jinja_env.globals.update(languages=LANGUAGES, current_language=current_language, here=here)
    app.add_template_filter(translate)  # a label or message that may come from the rules
