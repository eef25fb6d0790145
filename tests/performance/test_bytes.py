"""Bytes on the wire: what a phone downloads to open a game, first time and again.

The page is parsed for what it really links to (stylesheets, scripts, icons) and each is fetched
as a browser would, with Accept-Encoding: br, gzip; the compressed bodies are added up.
"""

from __future__ import annotations

import gzip
import re

import brotli
import pytest

from app.platform.static_files import STYLESHEET_HEADER

from .table import Device, static_references

# Issues 45–47 on a 10 × 20 game, from 25,553 B (issue 43) to 26,053–26,060 (five runs; the
# random ids compress a little differently from run to run): who deals and each player's colour
# and marker about +424 (the « Qui donne ? » form 144, the marks' and the form's CSS about 150,
# the marks and the « donne » of Scores and Manches the rest; a long name wrapping right after
# its mark on a phone, 25), the page's own range check for a round drawn at the tap +44, the link
# to « Le fil de la partie » +16. At 1.6 Mbps the 507 B more are 2.5 ms of a first visit. The
# budget: that, and 20 B for the runs' spread.
FIRST_VISIT_BUDGET = 25 * 1024 + 480
REPEAT_VISIT_BUDGET = 6 * 1024
BROWSER = {"Accept-Encoding": "gzip, deflate, br"}
# Fetched without a link in the page: the service worker that static/pwa.js registers.
SERVICE_WORKER = "/sw.js"
# Under stable names on purpose (app/platform/installed_app.py), revalidated rather than cached for a year.
STABLE_NAMES = {"/manifest.webmanifest"}

# Nothing here depends on the database: SQLite alone is enough.


@pytest.fixture
def big_game(app, client) -> str:
    """The heaviest page a table sees: 10 players, 20 rounds, the game still going."""
    return Device(app, client).store_game(players=10, rounds=20)


GAMES = [
    pytest.param((5, 10), id="5-players-10-rounds"),
    pytest.param((10, 20), id="10-players-20-rounds"),
]


def _visit(client, url: str) -> tuple[str, dict[str, int]]:
    """Fetch a page and everything it links to; return its HTML and the bytes of each response."""
    page = client.get(url, headers=BROWSER)
    assert page.status_code == 200
    sizes = {url: len(page.data)}
    # The test client does not decode; the same answer is parsed.
    decode = {"br": brotli.decompress, "gzip": gzip.decompress}.get(
        page.headers.get("Content-Encoding", ""), bytes
    )
    html = decode(page.data).decode()
    for reference in static_references(html):
        response = client.get(reference, headers=BROWSER)
        assert response.status_code == 200, reference
        sizes[reference] = len(response.data)
        response.close()
    sizes[SERVICE_WORKER] = len(client.get(SERVICE_WORKER, headers=BROWSER).data)
    return html, sizes


def _report(sizes: dict[str, int]) -> str:
    return "\n".join(f"  {size:>6} B  {url}" for url, size in sizes.items())


@pytest.mark.parametrize("shape", GAMES)
def test_first_visit_to_a_game_downloads_at_most_25_kb(app, client, shape):
    game = Device(app, client).store_game(*shape)

    _, sizes = _visit(client, f"/parties/{game}")

    assert len(sizes) >= 4, (
        f"the page should link its stylesheet, scripts and icon:\n{_report(sizes)}"
    )
    assert sum(sizes.values()) <= FIRST_VISIT_BUDGET, _report(sizes)


@pytest.mark.parametrize("shape", GAMES)
def test_repeat_visit_to_a_game_downloads_at_most_6_kb(app, client, shape):
    url = f"/parties/{Device(app, client).store_game(*shape)}"
    html, _ = _visit(client, url)
    cached = [
        ref
        for ref in static_references(html)
        if "immutable" in client.get(ref, headers=BROWSER).headers.get("Cache-Control", "")
    ]

    # The service worker, which keeps the static files, says it holds the stylesheet.
    again = client.get(url, headers={**BROWSER, STYLESHEET_HEADER: _stylesheet_url(client)})
    fetched = {url: len(again.data)}
    for reference in static_references(html):
        if reference not in cached:  # a file not cached for good is asked for again
            fetched[reference] = len(client.get(reference, headers=BROWSER).data)

    assert sum(fetched.values()) <= REPEAT_VISIT_BUDGET, _report(fetched)


def test_static_files_have_content_hashed_names_cached_for_a_year(client, big_game):
    page = client.get(f"/parties/{big_game}")
    references = static_references(page.get_data(as_text=True))

    assert references
    for reference in set(references) - STABLE_NAMES:
        response = client.get(reference, headers=BROWSER)
        cache = response.headers.get("Cache-Control", "")
        assert "immutable" in cache and "max-age=31536000" in cache, (reference, cache)
        assert (
            response.headers.get("Content-Encoding") in ("br", "gzip")
            or len(response.data) < 300
            or response.mimetype == "image/png"  # compressed by its own format
        ), reference
        response.close()


def test_static_files_are_sent_in_the_encoding_the_browser_accepts(app, client):
    page = client.get("/")
    script = next(
        ref for ref in static_references(page.get_data(as_text=True)) if ref.endswith(".js")
    )
    plain = client.get(script, headers={"Accept-Encoding": "identity"}).data

    as_brotli = client.get(script, headers={"Accept-Encoding": "br"})
    as_gzip = client.get(script, headers={"Accept-Encoding": "gzip"})

    assert as_brotli.headers["Content-Encoding"] == "br"
    assert brotli.decompress(as_brotli.data) == plain
    assert as_gzip.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(as_gzip.data) == plain
    assert "Accept-Encoding" in as_gzip.headers.get("Vary", "")


def test_the_plain_name_of_a_static_file_still_works_without_the_long_cache(client):
    response = client.get("/static/app.css")

    assert response.status_code == 200
    assert "immutable" not in response.headers.get("Cache-Control", "")


def test_pages_are_compressed_for_browsers_that_accept_it(client, big_game):
    url = f"/parties/{big_game}"
    plain = client.get(url, headers={"Accept-Encoding": "identity"})
    as_brotli = client.get(url, headers={"Accept-Encoding": "br"})
    as_gzip = client.get(url, headers={"Accept-Encoding": "gzip"})
    htmx = client.get(url, headers={"Accept-Encoding": "br", "HX-Request": "true"})

    assert "Content-Encoding" not in plain.headers
    assert as_brotli.headers["Content-Encoding"] == "br"
    assert as_gzip.headers["Content-Encoding"] == "gzip"
    # Same page, smaller: only the per-request CSRF token may differ between two renderings.
    assert len(brotli.decompress(as_brotli.data)) == len(plain.data)
    assert len(gzip.decompress(as_gzip.data)) == len(plain.data)
    assert len(as_brotli.data) < len(plain.data) / 3
    assert htmx.headers["Content-Encoding"] == "br"
    assert {"Accept-Encoding", "HX-Request"} <= {v.strip() for v in htmx.headers["Vary"].split(",")}


def test_the_stylesheet_is_in_the_page_unless_the_service_worker_holds_it(client):
    first = client.get("/").get_data(as_text=True)
    again = client.get("/").get_data(as_text=True)  # cookies kept: the cache may be gone
    stylesheet = _stylesheet_url(client)
    held = client.get("/", headers={STYLESHEET_HEADER: stylesheet}).get_data(as_text=True)
    older = client.get("/", headers={STYLESHEET_HEADER: "/static/app.0123456789ab.css"})

    for page in (first, again, older.get_data(as_text=True)):
        assert "<style>" in page and not [r for r in static_references(page) if r.endswith(".css")]
    assert "<style>" not in held and stylesheet in static_references(held)


def _stylesheet_url(client) -> str:
    """The stylesheet's URL in this version, as the service worker has it (sw.js's list)."""
    worker = client.get(SERVICE_WORKER).get_data(as_text=True)
    return next(
        url
        for url in re.findall(r'"(/static/[^"]+)"', worker)
        if re.search(r"/app\.\w+\.css$", url)
    )
