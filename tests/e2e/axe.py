"""axe-core's WCAG 2.2 AA rules on a screen as it is now, in the light and the dark theme."""

from __future__ import annotations

from collections.abc import Sequence

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page

WCAG_22_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
THEMES = ("light", "dark")


def expect_accessible(page: Page, screen: str, themes: Sequence[str] = THEMES) -> None:
    """Fail with axe's report if the screen breaks a rule in any theme (the page's colours
    follow `prefers-color-scheme` at once: one screen set up, checked in both)."""
    for theme in themes:
        page.emulate_media(color_scheme=theme)  # type: ignore[arg-type]
        results = Axe().run(
            page,
            options={
                "runOnly": {"type": "tag", "values": WCAG_22_AA},
                "resultTypes": ["violations"],
            },
        )
        assert results.violations_count == 0, (
            f"{screen}, {theme} ({page.url}):\n{results.generate_report()}"
        )
