"""Static files under content-hashed names, precompressed and cached for a year; HTML compressed.

At create_app time every file of static/ is copied into a build folder under instance/ as
`name.<hash>.ext`, with a gzip and a brotli twin. WhiteNoise serves those straight from the
WSGI layer (the right encoding for the request's Accept-Encoding, `immutable` caching), so a
repeat visit never asks for them again and a new version gets a new URL. The plain names still
work, without the long cache, for pages rendered before a deploy. Pages themselves are
compressed per response by Flask-Compress. A page holds the stylesheet itself, so that its
first paint needs the page alone (docs/performance.md; the CSP allows exactly that text, by its
hash), unless the service worker says, in the page's request, that it holds this version of the
file: only then is it linked. A script that shows texts of its own is built once
per language, its texts translated from the catalogs, and each page links its language's copy.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import json
import os
import re
import tempfile
from collections.abc import Mapping
from gettext import NullTranslations
from pathlib import Path

import brotli
import rcssmin
import rjsmin
from babel.support import Translations
from flask import Flask, Response, current_app, request, url_for
from flask_compress import Compress
from markupsafe import Markup
from whitenoise import WhiteNoise

from app.platform.languages import LANGUAGES, current_language

HASH_LENGTH = 12  # hex digits of SHA-256: 48 bits, plenty to tell versions of one file apart
IMMUTABLE = "public, max-age=31536000, immutable"
PLAIN_MAX_AGE = 60  # seconds: an unhashed name may change content at the next deploy
STYLESHEET = "app.css"
# Sent by the service worker (templates/installed_app/sw.js) with a page's request: the hashed
# URL of the stylesheet its cache holds. Not a cookie: a browser that evicted its caches keeps
# its cookies, and would then wait for the stylesheet, render-blocking, one RTT more.
STYLESHEET_HEADER = "X-Feuille-De-Style"
# Scripts that write texts on screen (offline notices): one copy per language, `pwa.en.js`…
# Built at startup rather than sent with a catalog: the phone gets its language's texts only.
LOCALIZED = ("pwa.js", "waiting.js")


def hashed_name(name: str, content: bytes) -> str:
    """Return `dir/stem.<hash>.ext` for a file's relative name and content."""
    digest = hashlib.sha256(content).hexdigest()[:HASH_LENGTH]
    directory, _, filename = name.rpartition("/")
    stem, dot, extension = filename.rpartition(".")
    hashed = f"{stem}.{digest}.{extension}" if dot else f"{filename}.{digest}"
    return f"{directory}/{hashed}" if directory else hashed


def _write_atomically(path: Path, content: bytes) -> None:
    """Write a file so that a reader (another worker starting) sees all of it or nothing."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile(dir=path.parent, prefix=".tmp-", delete=False) as file:
        file.write(content)
    try:
        os.chmod(file.name, 0o644)
        os.replace(file.name, path)  # atomic on POSIX: the name points to the old or the new file
    except BaseException:
        Path(file.name).unlink(missing_ok=True)
        raise


def sent_form(name: str, content: bytes) -> bytes:
    """Return a file as it is sent: CSS and JavaScript minified (rcssmin, rjsmin).

    The comments stay in the source, where they explain; a phone does not read them. On the
    10-player game page a first visit is 1.3 KB lighter (compressed) without comments and
    indentation, and 0.3 KB more without the other spaces (rjsmin and rcssmin rather than the
    line filter they replaced, on 2026-12-01: tests/performance/test_bytes.py).
    """
    if name.endswith(".css"):
        return rcssmin.cssmin(content)
    if name.endswith(".js") and not name.endswith(".min.js"):
        return rjsmin.jsmin(content)
    return content


_JS_STRING = r'"(?:[^"\\\n]|\\.)*"'
_JS_TEXT = re.compile(rf"\b_\(({_JS_STRING})\)")
_JS_PLURAL_TEXTS = re.compile(rf"\bngettext\(({_JS_STRING}), ({_JS_STRING}),")
_JS_PLURAL_RULE = re.compile(r"const isPlural = \(n\) => [^;\n]+;")


def localized_name(name: str, language: str) -> str:
    """Return the name of a language's copy of a script: `pwa.js` -> `pwa.en.js`."""
    stem, _, extension = name.rpartition(".")
    return f"{stem}.{language}.{extension}"


def translated_script(content: bytes, translations: NullTranslations) -> bytes:
    """Return a script with its texts in a language: `_("…")` becomes the translated string,
    `ngettext("…", "…", n)` gets both forms, and `isPlural` the catalog's rule.

    The script's `ngettext` knows two forms, the first and the plural one: the forms for 1 and 2
    are taken, and `isPlural` is the catalog's rule (`Plural-Forms`, a C expression of n, valid
    JavaScript as it is), non-zero for any form but the first. French, English and German fit.
    """
    text = content.decode()

    def js(string: str) -> str:
        return json.dumps(string, ensure_ascii=False)

    def one(match: re.Match[str]) -> str:
        return js(translations.gettext(json.loads(match[1])))

    def plural(match: re.Match[str]) -> str:
        singular, many = json.loads(match[1]), json.loads(match[2])
        forms = (translations.ngettext(singular, many, n) for n in (1, 2))
        return "ngettext({}, {},".format(*map(js, forms))

    text = _JS_PLURAL_TEXTS.sub(plural, _JS_TEXT.sub(one, text))
    rule = translations.info().get("plural-forms", "plural=(n > 1);")  # French, the source's
    expression = rule.partition("plural=")[2].rstrip("; ")
    return _JS_PLURAL_RULE.sub(f"const isPlural = (n) => ({expression});", text, count=1).encode()


def catalogs(folder: Path) -> dict[str, NullTranslations]:
    """Return each language's compiled catalog (French's texts are the msgids themselves)."""
    return {language: Translations.load(str(folder), [language]) for language in LANGUAGES}


def _compressed_twins(content: bytes) -> dict[str, bytes]:
    """Return the gzip and brotli encodings worth keeping (those smaller than the file)."""
    twins = {
        ".gz": gzip.compress(content, compresslevel=9, mtime=0),
        ".br": brotli.compress(content, quality=11),
    }
    return {suffix: data for suffix, data in twins.items() if len(data) < len(content)}


def build(
    source: Path, target: Path, languages: Mapping[str, NullTranslations] | None = None
) -> dict[str, str]:
    """Copy each file of `source` into `target` under its hashed name, with compressed twins;
    a LOCALIZED script becomes a copy per language instead (as it is, without `languages`).

    Return the manifest: relative name -> hashed relative name. A file already built is left
    alone (its name says its content), so a restart costs one read and one hash per file.
    References inside files (a `url()` in CSS) are not rewritten: none exist today; one would
    still work through the plain name, only without the long cache.
    """
    manifest: dict[str, str] = {}
    for path in sorted(p for p in source.rglob("*") if p.is_file()):
        name = path.relative_to(source).as_posix()
        if name.startswith(".") or "/." in name:
            continue
        content = path.read_bytes()
        files = {name: content}
        if name in LOCALIZED and languages:  # the copies only: every page links one of them
            files = {
                localized_name(name, language): translated_script(content, translations)
                for language, translations in languages.items()
            }
        for file_name, file_content in files.items():
            manifest[file_name] = _build_file(target, file_name, sent_form(name, file_content))
    return manifest


def _build_file(target: Path, name: str, content: bytes) -> str:
    hashed = hashed_name(name, content)
    built = target / hashed
    if not built.exists():
        # Twins first: WhiteNoise looks for them next to the file once the file is there.
        for suffix, data in _compressed_twins(content).items():
            _write_atomically(built.with_name(built.name + suffix), data)
        _write_atomically(built, content)
    return hashed


def asset_url(name: str) -> str:
    """Return the URL of a static file under its content-hashed name (the plain one if unknown);
    for a LOCALIZED script, that of the request's language's copy."""
    manifest: dict[str, str] = current_app.extensions["assets"]
    if name in LOCALIZED:
        name = localized_name(name, current_language())
    return url_for("static", filename=manifest.get(name, name))


def style_hash(css: str) -> str:
    """Return the CSP source that allows exactly this inline stylesheet."""
    digest = base64.b64encode(hashlib.sha256(css.encode()).digest()).decode()
    return f"'sha256-{digest}'"


def stylesheet() -> Markup:
    """Return the page's stylesheet: linked when the service worker holds this version (it
    serves it from its cache: no request, and 1.7 KB less per page), else written into the page
    (its first paint then needs nothing more than the page; the CSP allows that text by its
    hash), whatever the cookies say: a cache may be gone while they stay."""
    url = asset_url(STYLESHEET)
    if request.headers.get(STYLESHEET_HEADER) == url:
        return Markup('<link rel="stylesheet" href="{}">').format(url)
    return Markup("<style>{}</style>").format(Markup(current_app.extensions["inline_css"]))


def vary_on_stylesheet(response: Response) -> Response:
    """A page depends on the service worker's header (an HTTP cache must not mix the two)."""
    if response.mimetype == "text/html":
        response.vary.add(STYLESHEET_HEADER)
    return response


def _static_headers(immutable_names: frozenset[str]):
    def add_headers(headers, _path: str, url: str) -> None:
        headers["X-Content-Type-Options"] = "nosniff"
        if url in immutable_names:
            headers["Cache-Control"] = IMMUTABLE

    return add_headers


def init_app(app: Flask) -> None:
    """Build the hashed files, serve them with WhiteNoise and compress HTML responses."""
    source = Path(app.static_folder or "static")
    target = Path(app.instance_path) / "static-build"
    manifest = build(source, target, catalogs(Path(app.root_path) / "translations"))
    app.extensions["assets"] = manifest
    app.add_template_global(asset_url)
    # On a phone's network a linked stylesheet costs a first paint one more round trip (and
    # often a new connection), ≈ 150-300 ms; in every page it would cost 1.8 KB each time.
    css = sent_form(STYLESHEET, (source / STYLESHEET).read_bytes()).decode()
    app.extensions["inline_css"] = css
    app.extensions["style_hashes"] = (style_hash(css),)
    app.add_template_global(stylesheet)
    app.after_request(vary_on_stylesheet)

    prefix = (app.static_url_path or "/static").rstrip("/") + "/"
    immutable_urls = frozenset(prefix + hashed for hashed in manifest.values())
    static = WhiteNoise(
        app.wsgi_app,
        max_age=PLAIN_MAX_AGE,
        allow_all_origins=False,
        add_headers_function=_static_headers(immutable_urls),  # a year, not WhiteNoise's ten
    )
    # Only this version's hashed files: older ones may still sit in the build folder.
    for name, hashed in manifest.items():
        static.add_file_to_dictionary(prefix + hashed, str(target / hashed))
        plain = source / name  # a language's copy of a script has no source of its own
        static.add_file_to_dictionary(
            prefix + name, str(plain if plain.is_file() else target / hashed)
        )
    app.wsgi_app = static  # type: ignore[method-assign]

    app.config.setdefault("COMPRESS_ALGORITHM", ["br", "gzip"])
    # Per response, so speed counts as much as size. On the 10-player, 20-round game page with
    # its stylesheet written in (a first visit): brotli quality 5 makes 7,292 B where 4 made
    # 7,878 B, for about 0.35 ms more CPU (docs/performance.md): on a slow phone network the
    # 586 B are worth more (~3 ms at 1.6 Mbps) and keep the first visit within 25 KB. Gzip
    # (what browsers ask for over plain HTTP, e.g. on a LAN) level 6 takes 0.5 ms for 4.5 KB.
    app.config.setdefault("COMPRESS_BR_LEVEL", 5)
    app.config.setdefault("COMPRESS_LEVEL", 6)
    Compress(app)
