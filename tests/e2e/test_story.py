"""« Le fil de la partie » with two phones of one table (issue 45.3): phone 1 records, phone 2
corrects; each reads its own entries as « ce téléphone » and the other's by its number."""

from __future__ import annotations

from playwright.sync_api import Locator, Page, expect

from .pages import GamePage, control
from .test_table import _two_scorers


def open_story(phone: GamePage) -> Locator:
    """Tap « Le fil de la partie » and return its list."""
    control(phone.page, "Le fil de la partie").click()
    story = phone.page.get_by_role("list", name="Le fil de la partie", exact=True)
    expect(story).to_be_visible()
    return story


def entry(story: Locator, what: str) -> Locator:
    return story.get_by_role("listitem").filter(has_text=what)


def correct_first_round(page: Page, alice: int) -> None:
    page.goto(f"{page.url}/manches/1")
    page.get_by_role("spinbutton", name="Alice", exact=True).fill(str(alice))
    page.get_by_role("button", name="Enregistrer la manche").click()


def test_each_phone_reads_its_own_entries_as_this_phone(new_context):
    first, second = _two_scorers(new_context)  # phone 1 recorded round 1: 5, 6, 7
    correct_first_round(second.page, 8)
    second.expect_totals({"Alice": 8, "Bruno": 6, "Chloé": 7})
    first.page.reload()

    on_first, on_second = open_story(first), open_story(second)

    newest = on_first.get_by_role("listitem").first  # newest first
    expect(newest).to_contain_text("Manche 1 modifiée")
    expect(newest).to_contain_text("Alice : 5 → 8")
    expect(newest).not_to_contain_text("Bruno")  # only what changed
    expect(newest).to_contain_text("· téléphone 2")
    expect(entry(on_first, "Manche 1 enregistrée")).to_contain_text("· ce téléphone")
    expect(entry(on_second, "Manche 1 modifiée")).to_contain_text("· ce téléphone")
    expect(entry(on_second, "Manche 1 enregistrée")).to_contain_text("· téléphone 1")
