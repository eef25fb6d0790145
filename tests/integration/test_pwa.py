"""The installed app as the server serves it: manifest, icons, service worker, links on every page."""

from __future__ import annotations

import struct

from .actions import game_url, play_round, start_game
from .html import parse


def links(page, rel: str) -> list[str]:
    return [link.get("href") for link in page.find_all("link", rel=rel)]


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def test_every_page_links_the_manifest_and_an_apple_touch_icon(client):
    public_id = start_game(client, ["Alice", "Bob"])
    play_round(client, public_id, 1, [5, 7])
    pages = ["/", "/parties/nouvelle", game_url(public_id), f"{game_url(public_id)}/manches/1"]
    pages += ["/historique", "/statistiques", "/page-inconnue"]

    for url in pages:
        page = parse(client.get(url).data)
        assert links(page, "manifest") == ["/manifest.webmanifest"], url
        (icon,) = links(page, "apple-touch-icon")
        assert png_size(client.get(icon).data) == (180, 180), url


def test_the_manifest_describes_an_installable_app_with_its_icons(client):
    response = client.get("/manifest.webmanifest")

    manifest = response.get_json(force=True)
    assert response.mimetype == "application/manifest+json"
    assert manifest["name"] and manifest["short_name"]
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
    assert manifest["theme_color"].startswith("#") and manifest["background_color"].startswith("#")
    sizes = {}
    for icon in manifest["icons"]:
        image = client.get(icon["src"])
        assert image.mimetype == icon["type"] == "image/png"
        assert "immutable" in image.headers["Cache-Control"]
        width, height = png_size(image.data)
        assert icon["sizes"] == f"{width}x{height}"
        sizes.setdefault(icon["purpose"], set()).add(width)
    assert sizes["any"] == {192, 512} and sizes["maskable"]


def test_the_service_worker_is_served_at_the_root_revalidated_with_this_versions_files(client):
    page = parse(client.get("/").data)
    used = [link.get("href") for link in page.find_all("link", rel="stylesheet")]
    used += [script.get("src") for script in page.find_all("script")]

    response = client.get("/sw.js")
    again = client.get("/sw.js", headers={"If-None-Match": response.headers["ETag"]})

    assert response.mimetype == "text/javascript"
    assert response.headers["Cache-Control"] == "no-cache"
    assert "Service-Worker-Allowed" not in response.headers  # at the root: its scope is the site
    worker = response.get_data(as_text=True)
    assert used and all(f'"{url}"' in worker for url in used), used
    assert again.status_code == 304


def test_a_new_static_file_makes_a_new_service_worker(app, client):
    before = client.get("/sw.js").get_data(as_text=True)
    app.extensions["assets"] = {
        **app.extensions["assets"],
        "extra.css": "extra.0123456789ab.css",
    }

    after = client.get("/sw.js").get_data(as_text=True)

    assert "/static/extra.0123456789ab.css" in after
    version = next(line for line in before.splitlines() if line.startswith("const VERSION"))
    assert version not in after


def test_each_language_gets_its_own_copy_of_the_offline_script_and_its_own_manifest(client):
    worker = client.get("/sw.js").get_data(as_text=True)
    expected = {
        "fr": ("Pas de réseau", "Compteur «\u202f6 qui prend\u202f!\u202f»"),
        "en": ("No network", "“Take 6!” score counter"),
        "de": ("Kein Netz", "Zähler für „6 nimmt!“"),
    }
    for language, (offline, name) in expected.items():
        headers = {"Accept-Language": language}
        page = parse(client.get("/", headers=headers).data)
        (script,) = [s.get("src") for s in page.find_all("script") if "/pwa." in s.get("src")]
        text = client.get(script).get_data(as_text=True)
        manifest = client.get("/manifest.webmanifest", headers=headers)

        assert f"/pwa.{language}." in script and offline in text, language
        assert "_(" not in text, language  # every text written in, none looked up on the phone
        assert f'"{script}"' in worker, language  # offline, whatever the language chosen
        assert manifest.get_json()["name"] == name and manifest.get_json()["lang"] == language
        assert {"Accept-Language", "Cookie"} <= set(manifest.vary), language
