"""« Compter les cartes » (issue 46) on a phone, with and without JavaScript: a Skyjo and a Flip 7
game played as a table would, every round counted from the cards and put into the round form,
the totals worked out by hand."""

from __future__ import annotations

import re
from collections.abc import Sequence

import pytest
from playwright.sync_api import Locator, Page, expect

from scripts.lib.layout import problems

from .axe import expect_accessible
from .pages import GamePage, NewGamePage, control

pytestmark = pytest.mark.e2e

TRIO = ["Alice", "Bruno", "Chloé"]


class CardCountPage:
    """The count's page: a group per player (Flip 7) or a field per player (Skyjo)."""

    def __init__(self, page: Page):
        self.page = page

    def hand(self, name: str) -> Locator:
        return self.page.get_by_role("group", name=name, exact=True)

    def card(self, name: str, card: str) -> Locator:
        return self.hand(name).get_by_role("checkbox", name=card, exact=True)

    def tick(self, name: str, cards: Sequence[str]) -> None:
        for card in cards:
            self.card(name, card).check()

    def cards_field(self, name: str) -> Locator:
        return self.page.get_by_role("textbox", name=name, exact=True)

    @property
    def count(self) -> Locator:
        return self.page.get_by_role("button", name="Compter", exact=True)

    @property
    def report(self) -> Locator:
        return self.page.get_by_role("button", name="Reporter dans la manche", exact=True)

    @property
    def alert(self) -> Locator:
        return self.page.get_by_role("alert")


def start(page: Page, game: str) -> GamePage:
    form = NewGamePage(page).open()
    form.page.get_by_role("group", name="Jeu").get_by_role("radio", name=game).check()
    form.type_names(TRIO)
    form.start.click()
    found = GamePage(page)
    expect(found.scoreboard).to_be_visible()
    return found


def open_count(game: GamePage) -> CardCountPage:
    control(game.page, "Compter les cartes").click()
    expect(game.page.get_by_role("heading", name="Compter les cartes")).to_be_visible()
    return CardCountPage(game.page)


def report(count: CardCountPage, game: GamePage, scores: Sequence[int]) -> None:
    """« Reporter dans la manche »: the round form filled in, nothing recorded yet."""
    count.report.click()
    for name, score in zip(TRIO, scores, strict=True):
        expect(game.heads_field(name)).to_have_value(str(score))


def skyjo_round(
    game: GamePage,
    typed: Sequence[str],
    sums: Sequence[int],
    ender: str,
    number: int,
    *,
    script: bool,
) -> None:
    count = open_count(game)
    for name, cards in zip(TRIO, typed, strict=True):
        count.cards_field(name).fill(cards)
    if not script:
        count.count.click()
    for name, total in zip(TRIO, sums, strict=True):
        expect(count.cards_field(name)).to_have_accessible_description(
            re.compile(rf"(= |^Cartes.* ){re.escape(str(total).replace('-', '−'))}$")
        )
    report(count, game, sums)
    game.page.get_by_role("group", name="A fini la manche").get_by_role("radio", name=ender).check()
    game.validate.click()
    expect(game.round_line(number)).to_be_visible()


def flip_7_round(
    game: GamePage,
    hands: Sequence[Sequence[str]],
    scores: Sequence[int],
    number: int,
    *,
    script: bool,
) -> None:
    count = open_count(game)
    for name, cards in zip(TRIO, hands, strict=True):
        count.tick(name, cards)
    if not script:
        count.count.click()
    for name, score in zip(TRIO, scores, strict=True):
        expect(count.hand(name)).to_have_accessible_description(re.compile(rf"(= |^|\s){score}$"))
    report(count, game, scores)
    game.validate.click()
    expect(game.round_line(number)).to_be_visible()


@pytest.fixture
def page_without_script(new_context) -> Page:
    return new_context(java_script_enabled=False).new_page()


@pytest.mark.parametrize("script", [True, False], ids=["with JavaScript", "without JavaScript"])
def test_a_skyjo_game_counted_from_the_cards_every_round(
    page: Page, page_without_script: Page, script: bool
):
    phone = page if script else page_without_script
    game = start(phone, "Skyjo")

    count = open_count(game)  # a card no deck has: refused, named, what was typed kept
    count.cards_field("Bruno").fill("1 13")
    count.count.click()
    expect(count.alert).to_contain_text("13")
    expect(count.cards_field("Bruno")).to_have_value("1 13")
    control(phone, "Retour à la partie").click()

    skyjo_round(
        game, ["12 -2 0 5 5", "1 2 3", "-1 −1 4 4 10"], [20, 6, 16], "Bruno", 1, script=script
    )
    game.expect_totals({"Alice": 20, "Bruno": 6, "Chloé": 16})  # Bruno lowest: not doubled
    skyjo_round(game, ["3, 3, -2", "10 11 12 9", "0 0 1"], [4, 42, 1], "Bruno", 2, script=script)
    game.expect_totals({"Alice": 24, "Bruno": 90, "Chloé": 17})  # 42 doubled: 84
    skyjo_round(game, ["5 5 5 5", "7 8", "12 12 12 12 -2"], [20, 15, 46], "Alice", 3, script=script)
    game.expect_totals({"Alice": 64, "Bruno": 105, "Chloé": 63})  # Alice's 20 doubled
    expect(game.result).to_contain_text("Chloé gagne")
    expect(control(phone, "Compter les cartes")).to_have_count(0)  # the game is over


@pytest.mark.parametrize("script", [True, False], ids=["with JavaScript", "without JavaScript"])
def test_a_flip_7_game_counted_from_the_cards_every_round(
    page: Page, page_without_script: Page, script: bool
):
    phone = page if script else page_without_script
    game = start(phone, "Flip 7")

    count = open_count(game)  # the ×2 for two players: refused, named, every tick kept
    count.tick("Alice", ["12", "×2"])
    count.tick("Bruno", ["3", "×2"])
    if not script:
        count.count.click()
    expect(count.alert).to_contain_text(
        "Le paquet n’a qu’une carte ×2, cochée ici pour Alice et Bruno."
    )
    expect(count.card("Alice", "12")).to_be_checked()
    expect(count.card("Bruno", "×2")).to_be_checked()
    control(phone, "Retour à la partie").click()

    flip_7_round(
        game,
        [["3", "5", "12", "×2", "+4"], ["9", "Perdu"], ["7", "+2"]],
        [44, 0, 9],
        1,
        script=script,
    )
    game.expect_totals({"Alice": 44, "Bruno": 0, "Chloé": 9})
    seven = [str(number) for number in range(1, 8)]
    flip_7_round(
        game, [[*seven, "+10"], ["12", "11", "10", "×2"], []], [53, 66, 0], 2, script=script
    )
    game.expect_totals({"Alice": 97, "Bruno": 66, "Chloé": 9})
    best = [*map(str, range(6, 13)), "×2", "+2", "+4", "+6", "+8", "+10"]
    flip_7_round(game, [best, ["12"], ["0"]], [171, 12, 0], 3, script=script)
    game.expect_totals({"Alice": 268, "Bruno": 78, "Chloé": 9})
    expect(game.result).to_contain_text("Alice gagne avec 268 points")


def test_a_flip_7_count_shows_how_each_score_is_made_as_cards_are_tapped(page: Page):
    game = start(page, "Flip 7")
    count = open_count(game)
    count.tick("Alice", ["3", "5"])
    expect(count.hand("Alice")).to_contain_text("3 + 5 = 8")
    count.tick("Alice", ["12", "×2", "+4"])
    expect(count.hand("Alice")).to_contain_text("(3 + 5 + 12) × 2 + 4 = 44")
    count.tick("Bruno", [str(number) for number in range(1, 8)])
    expect(count.hand("Bruno")).to_contain_text("Flip 7\u202f: +15")
    expect(count.alert).to_have_count(0)
    # A whole hand fits a phone's width: 19 cards, no sideways scroll.
    assert page.evaluate(
        "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    )
    box = count.hand("Alice").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 360
    last = count.card("Alice", "Perdu").bounding_box()
    assert last is not None and last["x"] + last["width"] <= box["x"] + box["width"]


@pytest.mark.parametrize("game", ["Flip 7", "Skyjo"])
def test_the_count_with_a_refusal_breaks_no_wcag_22_aa_rule(page: Page, game: str):
    count = open_count(start(page, game))
    if game == "Flip 7":
        count.tick("Alice", ["12", "×2", "+4"])
        count.tick("Bruno", ["×2"])
    else:
        count.cards_field("Alice").fill("12 -2 0 5 5")
        count.cards_field("Bruno").fill("13")
    count.count.click()
    expect(count.alert).to_be_visible()
    expect_accessible(page, f"count of {game}'s cards")


@pytest.mark.parametrize("size", [(360, 640), (390, 844), (640, 360), (768, 1024), (1280, 800)])
def test_a_counted_flip_7_round_is_whole_at_every_size(browser, base_url, size):
    width, height = size
    phone = browser.new_context(
        base_url=base_url,
        viewport={"width": width, "height": height},
        is_mobile=width < 1000,
        has_touch=width < 1000,
        locale="fr-FR",
    )
    phone.set_default_timeout(15_000)
    page = phone.new_page()
    count = open_count(start(page, "Flip 7"))
    count.tick("Alice", ["3", "5", "12", "×2", "+4", "+10"])
    count.tick("Bruno", [*map(str, range(6, 13)), "+10"])  # the +10 twice: refused
    count.count.click()
    expect(count.alert).to_be_visible()
    assert problems(page) == []
    box = count.hand("Bruno").bounding_box()
    last = count.card("Bruno", "Perdu").bounding_box()
    assert box is not None and last is not None
    assert box["x"] >= 0 and last["x"] + last["width"] <= box["x"] + box["width"] <= width
    phone.close()
