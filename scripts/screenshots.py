"""Draw every screen at every size, in the light and the dark theme, and say what looks broken.

Runs the real app (scripts/lib/servers.py: gunicorn on a temporary SQLite database), plays an evening
on one phone (scripts/lib/showcase.py: ten players with long names, a game in progress, a game
over, the assistant waiting for a choice, a follow address), then opens each screen at
360 × 640, 390 × 844, 640 × 360, 768 × 1024, 1280 × 800 and 1920 × 1080 and writes what is in view:
    .venv/bin/python scripts/screenshots.py                  # docs/screenshots/<screen>-<size>-<theme>.png
    .venv/bin/python scripts/screenshots.py --language de    # in German, to /tmp/screenshots-de
    .venv/bin/python scripts/screenshots.py --only game,follow --out /tmp/shots
Each picture's problems (scripts/lib/layout.py: a word cut across lines, a clipped name, the page
scrolling sideways, an overlap) are printed; the layout tests fail on them.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scripts.lib.layout import problems
from scripts.lib.servers import ROOT, running  # the real server, as `make run` starts it
from scripts.lib.showcase import evening

SIZES = {"360x640": (360, 640), "390x844": (390, 844), "640x360": (640, 360), "768x1024": (768, 1024),
         "1280x800": (1280, 800), "1920x1080": (1920, 1080)}  # fmt: skip
LOCALES = {"fr": "fr-FR", "en": "en-GB", "de": "de-DE"}
ARGS = ["--no-sandbox", "--disable-gpu"]


def round_games(page) -> dict[str, str]:
    """Play a Skyjo and a Flip 7 game on this phone (issue 32); return their addresses."""
    games = {}
    for name, game, players, rounds in (
        (
            "skyjo",
            "Skyjo",
            ["Éléonore Wolfeschlegelstein", "Bruno", "Chloé"],
            [([-5, 12, 30], 1), ([40, 9, 0], 2), ([3, 2, 60], 0)],
        ),
        (
            "flip7",
            "Flip 7",
            ["Anastasia Konstantinopoulou", "Bruno", "Chloé", "David"],
            [([171, 20, 0, 45], None), ([29, 88, 13, 60], None)],
        ),
    ):
        page.goto("/parties/nouvelle")
        page.get_by_role("group", name="Jeu").get_by_role("radio", name=game).check()
        for seat, player in enumerate(players, start=1):
            if page.get_by_label(f"Joueur {seat}", exact=True).count() == 0:
                page.get_by_role("button", name="Ajouter un joueur").click()
            page.get_by_label(f"Joueur {seat}", exact=True).fill(player)
        page.get_by_role("button", name="Commencer la partie").click()
        page.get_by_role("table", name="Scores").wait_for()
        for number, (scores, ender) in enumerate(rounds, start=1):
            for player, score in zip(players, scores, strict=True):
                page.get_by_role("spinbutton", name=player, exact=True).fill(str(score))
            if ender is not None:
                enders = page.get_by_role("group", name="A fini la manche")
                enders.get_by_role("radio", name=players[ender], exact=True).check()
            page.get_by_role("button", name="Valider la manche").click()
            page.get_by_role("rowheader", name=f"Manche {number}").first.wait_for()
        games[name] = page.url
    # « Compter les cartes » of each (Skyjo's game goes on; Flip 7's ended: its rematch), and
    # the evening the Flip 7 game and its rematch make (issues 45 and 46).
    games["skyjo-cards"] = f"{games['skyjo']}/cartes"
    page.get_by_role("button", name="Rejouer avec les mêmes joueurs").click()
    page.get_by_role("table", name="Scores").wait_for()
    games["flip7-cards"] = f"{page.url}/cartes"
    games["evening"] = f"{page.url}/soiree"
    return games


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--language", choices=LOCALES, default="fr")
    parser.add_argument("--out", type=Path)
    parser.add_argument("--only", help="screens, comma-separated (default: all)")
    parser.add_argument("--sizes", help="sizes, comma-separated (default: all)")
    parser.add_argument("--themes", default="light,dark")
    args = parser.parse_args()
    out = args.out or (
        ROOT / "docs" / "screenshots"
        if args.language == "fr"
        else Path(f"/tmp/screenshots-{args.language}")
    )
    out.mkdir(parents=True, exist_ok=True)
    sizes = args.sizes.split(",") if args.sizes else list(SIZES)
    found = 0
    with (
        tempfile.TemporaryDirectory() as tmp,
        running(f"sqlite:///{tmp}/shots.sqlite", Path(tmp), workers=2) as server,
        sync_playwright() as p,
    ):
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
        setup = browser.new_context(locale="fr-FR", base_url=server.url)
        played = evening(setup.new_page())
        other_games = round_games(setup.new_page())
        phone = setup.storage_state()
        setup.close()
        screens = {**played.screens(), **other_games}
        wanted = args.only.split(",") if args.only else list(screens)
        for size in sizes:
            width, height = SIZES[size]
            for theme in args.themes.split(","):
                context = browser.new_context(
                    storage_state=phone,
                    viewport={"width": width, "height": height},
                    is_mobile=width < 1000,
                    has_touch=width < 1000,
                    color_scheme=theme,
                    locale=LOCALES[args.language],
                    base_url=server.url,
                )
                page = context.new_page()
                for name in wanted:
                    page.goto(screens[name])
                    page.evaluate("document.activeElement && document.activeElement.blur()")
                    picture = out / f"{name}-{size}-{theme}.png"
                    page.screenshot(path=picture, animations="disabled")
                    for problem in problems(page):
                        found += 1
                        print(f"{name} {size} {theme}: {problem}")
                context.close()
        browser.close()
    print(f"{found} problems; pictures in {out}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
