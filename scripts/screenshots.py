"""Take the README's screenshots: the main screens on a 360 px phone, light and dark.

Runs the real app (gunicorn on a temporary SQLite database) and drives Chromium with Playwright:
    .venv/bin/python scripts/screenshots.py   # writes docs/screenshots/*.png
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from playwright.sync_api import Page, expect, sync_playwright

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "screenshots"
BIN = Path(sys.executable).parent
PHONE = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True}
NAMES = ["Alice", "Bruno", "Chloé", "Inès", "Oscar"]
ROUNDS = [[5, 12, 3, 8, 1], [20, 4, 9, 2, 7], [11, 6, 30, 5, 3], [18, 2, 14, 9, 6]]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _serve(workdir: Path) -> tuple[subprocess.Popen, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("FLASK_")}
    env.update(
        DATABASE_URL=f"sqlite:///{workdir / 'shots.sqlite'}",
        SECRET_KEY="screenshots",
        INSTANCE_PATH=str(workdir),
        FLASK_RATELIMIT_ENABLED="false",
    )
    subprocess.run(
        [str(BIN / "flask"), "--app", "app", "db", "upgrade"], cwd=ROOT, env=env, check=True
    )
    url = f"http://127.0.0.1:{_free_port()}"
    server = subprocess.Popen(
        [str(BIN / "gunicorn"), "--bind", url.removeprefix("http://"), "app:create_app()"],
        cwd=ROOT,
        env=env,
    )
    for _ in range(300):  # the server's start-up
        try:
            with urllib.request.urlopen(url + "/healthz", timeout=1):
                return server, url
        except OSError:
            time.sleep(0.1)
    server.terminate()
    raise RuntimeError("the app did not start")


def _play(page: Page, rounds: list[list[int]], first: int = 1) -> None:
    for number, heads in enumerate(rounds, start=first):
        for name, value in zip(NAMES, heads, strict=True):
            page.get_by_role("spinbutton", name=name, exact=True).fill(str(value))
        page.get_by_role("button", name="Valider la manche").click()
        expect(
            page.get_by_role("rowheader", name=re.compile(rf"^Manche {number}(?!\d)"))
        ).to_be_visible()


def _shoot(page: Page, name: str) -> None:
    page.evaluate("document.activeElement && document.activeElement.blur()")
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=OUT / f"{name}.png", animations="disabled")


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        server, url = _serve(Path(tmp))
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(
                    executable_path="/usr/bin/chromium", args=["--no-sandbox"]
                )
                for scheme in ("light", "dark"):
                    context = browser.new_context(
                        **PHONE, color_scheme=scheme, locale="fr-FR", base_url=url
                    )
                    page = context.new_page()
                    page.goto("/parties/nouvelle")
                    for seat, name in enumerate(NAMES, start=1):
                        if page.get_by_role("textbox", name=f"Joueur {seat}").count() == 0:
                            page.get_by_role("button", name="Ajouter un joueur").click()
                        page.get_by_role("textbox", name=f"Joueur {seat}").fill(name)
                    _shoot(page, f"new-game-{scheme}")
                    page.get_by_role("button", name="Commencer la partie").click()
                    page.get_by_role("table", name="Scores").wait_for()
                    _play(page, ROUNDS)
                    page.reload()
                    _shoot(page, f"game-{scheme}")
                    _play(page, [[9, 1, 20, 2, 4]], first=len(ROUNDS) + 1)
                    page.reload()
                    _shoot(page, f"result-{scheme}")
                    page.goto("/historique")
                    _shoot(page, f"history-{scheme}")
                    context.close()
                browser.close()
        finally:
            server.terminate()
            server.wait(timeout=15)


if __name__ == "__main__":
    main()
