"""Security headers on every answer, names shown as text everywhere, oversized bodies refused."""

import base64
import hashlib
import re

import pytest

from .actions import (
    HTMX,
    dump,
    game_page,
    game_url,
    play_round,
    play_rounds,
    start_game,
    version_of,
)
from .html import parse, round_lines, scoreboard, status_text

NAMES = {
    "script": "<script>alert(1)</script>",
    "attribute breakout": '"><img src=x onerror=alert(1)>',
    "single quote breakout": "'><svg onload=alert(1)>",
    "template": "{{7*7}}{%print(1)%}",
    "entity": "&lt;b&gt;&amp;",
}


def csp_directives(response):
    policy = response.headers.get("Content-Security-Policy", "")
    directives = {}
    for part in policy.split(";"):
        words = part.split()
        if words:
            directives[words[0]] = words[1:]
    return directives


def assert_security_headers(response):
    directives = csp_directives(response)
    assert directives.get("default-src") == ["'self'"], response.headers.get(
        "Content-Security-Policy"
    )
    assert directives.get("frame-ancestors") == ["'none'"]
    for sources in directives.values():
        assert "'unsafe-inline'" not in sources and "'unsafe-eval'" not in sources
    assert response.headers.get("X-Content-Type-Options") == "nosniff"
    assert response.headers.get("Referrer-Policy") == "strict-origin-when-cross-origin"
    assert response.headers.get("Permissions-Policy")


def assert_no_inline_code(response):
    """The CSP forbids inline scripts, style attributes and event attributes: the page uses none.
    Its one <style> element is allowed by its hash, which the CSP lists."""
    page = parse(response.data)
    style_sources = csp_directives(response).get("style-src", [])
    for element in page.iter():
        if element.tag == "script":
            assert element.get("src"), "inline <script>"
        if element.tag == "style":
            css = "".join(child for child in element.children if isinstance(child, str))
            digest = base64.b64encode(hashlib.sha256(css.encode()).digest()).decode()
            assert f"'sha256-{digest}'" in style_sources, "inline <style> the CSP does not allow"
        assert "style" not in element.attrs, f"style attribute on <{element.tag}>"
        assert not [a for a in element.attrs if a.startswith("on")], f"event attribute on {element}"


@pytest.fixture
def finished_game(client):
    public_id = start_game(client, ["Alice", "Bob"])
    play_rounds(client, public_id, [70, 3])
    return public_id


def every_kind_of_answer(client, public_id):
    """Yield (what, response) for pages, partials, redirects and errors of each route."""
    url = game_url(public_id)
    yield "home", client.get("/")
    yield "new game", client.get("/parties/nouvelle")
    yield "game", client.get(url)
    yield "game partial", client.get(url, headers=HTMX)
    yield "history", client.get("/historique")
    yield "healthz", client.get("/healthz")
    yield "404", client.get("/parties/inconnue")
    yield "404 page", client.get("/nulle-part")
    yield "405", client.get(f"{url}/revanche")
    yield "refused names", client.post("/parties", data={"players-0": "Alice"})
    yield "ajouter", client.post("/parties", data={"players-0": "A", "ajouter": "1"})
    yield "refused round", play_round(client, public_id, 2, [999, 0])
    yield "cancel redirect", client.post(f"{url}/manches/annuler", data={"number": "1"})
    yield "round redirect", play_round(client, public_id, 1, [1, 2])
    yield "round partial", play_round(client, public_id, 2, [1, 2], htmx=True)
    yield "rematch redirect", client.post(f"{url}/revanche")
    yield "new game redirect", client.post("/parties", data={"players-0": "A", "players-1": "B"})


def test_security_headers_on_every_answer(client, finished_game):
    for what, response in every_kind_of_answer(client, finished_game):
        assert response.status_code < 500, what
        assert_security_headers(response)


def test_only_the_pages_showing_a_key_are_cut_off_from_the_window_that_opened_them(
    client, finished_game
):
    """The scorer and follow addresses let whoever has them in: their pages are kept from any
    window that opened them. A game page shows no key, and the opener policy cost every new tab
    opening one a process of its own before its first paint (docs/performance.md)."""
    url = game_url(finished_game)
    client.post(f"{url}/inviter")
    client.post(f"{url}/partage")
    for page in (f"{url}/inviter", f"{url}/partage"):
        response = client.get(page)
        assert "/rejoindre/" in response.text or "/suivre/" in response.text, page
        assert response.headers.get("Cross-Origin-Opener-Policy") == "same-origin", page
    assert "Cross-Origin-Opener-Policy" not in client.get(url).headers


def test_no_inline_script_or_style_on_any_page(client, finished_game):
    for what, response in every_kind_of_answer(client, finished_game):
        if response.mimetype == "text/html" and response.data:
            assert_no_inline_code(response)


def test_static_files_are_not_sniffed(client):
    page = parse(client.get("/").data)
    scripts = [element.get("src") for element in page.find_all("script")]
    icons = [element.get("href") for element in page.find_all("link", rel="icon")]
    assert scripts and icons

    for url in scripts + icons:
        response = client.get(url)
        assert response.status_code == 200, url
        assert response.headers.get("X-Content-Type-Options") == "nosniff", url
        response.close()


def test_hsts_only_over_https(app):
    plain = app.test_client().get("/")
    secure = app.test_client().get("/", base_url="https://localhost")

    assert "Strict-Transport-Security" not in plain.headers
    assert "max-age=" in secure.headers.get("Strict-Transport-Security", "")


def test_pages_are_not_cached_as_shared(client, finished_game):
    response = client.get(game_url(finished_game))

    assert "no-cache" in response.headers.get("Cache-Control", "") or "no-store" in (
        response.headers.get("Cache-Control", "")
    )


# --- Names are text, never markup ----------------------------------------------------------------


def assert_shown_as_text(response, name):
    body = response.get_data(as_text=True)
    assert response.status_code < 500
    assert name not in body or not re.search(r"[<>\"'&]", name), "raw markup in the page"
    assert name in parse(response.data).text or name in [
        element.get("value") for element in parse(response.data).find_all("input")
    ]
    page = parse(response.data)
    assert not page.find_all("img") or all(i.get("src") != "x" for i in page.find_all("img"))
    assert not [e for e in page.iter() if "onerror" in e.attrs or "onload" in e.attrs]


@pytest.mark.parametrize("name", NAMES.values(), ids=NAMES.keys())
def test_names_with_markup_are_shown_as_text_everywhere(client, name):
    public_id = start_game(client, [name, "Bob"])
    game = client.get(game_url(public_id))
    partial = play_round(client, public_id, 1, [3, 4], htmx=True)
    home = client.get("/")

    assert [row[0] for row in scoreboard(parse(game.data))] == [name, "Bob"]
    for response in (game, partial, home):
        assert_shown_as_text(response, name)

    refused = play_round(client, public_id, 2, ["x", 4])
    assert_shown_as_text(refused, name)
    refused_names = client.post("/parties", data={"players-0": name, "players-1": name})
    assert refused_names.status_code == 422
    assert_shown_as_text(refused_names, name)

    play_round(client, public_id, 2, [70, 4])
    finished = client.get(game_url(public_id))
    assert name in status_text(parse(finished.data))
    assert_shown_as_text(finished, name)
    assert_shown_as_text(client.get("/historique"), name)


def test_markup_typed_as_heads_is_shown_as_text(client, app):
    public_id = start_game(client, ["Alice", "Bob"])
    typed = "<b>x</b>"

    response = play_round(client, public_id, 1, [typed, 4])

    assert response.status_code == 422
    assert "<b>x</b>" not in response.get_data(as_text=True)
    page = parse(response.data)
    assert not page.find_all("b")
    assert page.find("input", name="score-0").get("value") == typed


# --- Sizes ---------------------------------------------------------------------------------------


def test_a_multipart_form_with_too_many_parts_is_refused(client, app):
    public_id = start_game(client, ["Alice", "Bob"])
    before = dump(app)
    data = {f"score-{n}": "1" for n in range(app.config["MAX_FORM_PARTS"] + 1)}
    data["number"] = "1"

    response = client.post(
        f"{game_url(public_id)}/manches", data=data, content_type="multipart/form-data"
    )

    assert response.status_code == 413
    assert dump(app) == before


def test_extra_fields_beyond_the_players_are_ignored(client):
    public_id = start_game(client, ["Alice", "Bob"])
    data = {f"score-{n}": "1" for n in range(1000)}
    data["number"] = "1"
    data["version"] = version_of(client, public_id)

    response = client.post(f"{game_url(public_id)}/manches", data=data)

    assert response.status_code in (303, 413, 422)
    assert round_lines(game_page(client, public_id)) in ([], [[1, 1]])


@pytest.mark.parametrize("public_id", ["\x00", "abc\x00def", "%00", "é" * 22, "A" * 200])
def test_odd_game_addresses_are_404(client, public_id):
    start_game(client, ["Alice", "Bob"])

    responses = [
        client.get(f"/parties/{public_id}"),
        client.post(f"/parties/{public_id}/manches", data={"number": "1", "score-0": "1"}),
        client.post(f"/parties/{public_id}/manches/annuler", data={"number": "1"}),
        client.post(f"/parties/{public_id}/revanche"),
    ]

    assert [r.status_code for r in responses] == [404] * 4
