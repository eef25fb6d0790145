"""Take the README's screenshots: the main screens on a 360 px phone, light and dark.

Runs the real app (tests/servers.py: gunicorn on a temporary SQLite database) and drives
Chromium with Playwright:
    .venv/bin/python scripts/screenshots.py   # writes docs/screenshots/*.png
"""

from __future__ import annotations

import re
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import Page, expect, sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.servers import ROOT, running  # the real server, as `make run` starts it

OUT = ROOT / "docs" / "screenshots"
PHONE = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True}
NAMES = ["Alice", "Bruno", "Chloé", "Inès", "Oscar"]
ROUNDS = [[5, 12, 3, 8, 1], [20, 4, 9, 2, 7], [11, 6, 30, 5, 3], [18, 2, 14, 9, 6]]


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
    with (
        tempfile.TemporaryDirectory() as tmp,
        running(f"sqlite:///{tmp}/shots.sqlite", Path(tmp), workers=2) as server,
    ):
        url = server.url
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
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


if __name__ == "__main__":
    main()
