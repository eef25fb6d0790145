"""Page objects for the round assistant and « Compter les têtes », found by role and accessible name."""

from __future__ import annotations

from collections.abc import Sequence

from playwright.sync_api import Locator, expect

from .pages import GamePage, Screen, control, starts_with


class AssistantPage(Screen):
    @classmethod
    def open_from(cls, game: GamePage) -> AssistantPage:
        control(game.page, "Assistant de manche").click()
        screen = cls(game.page)
        expect(screen.heading).to_be_visible()
        return screen

    @property
    def heading(self) -> Locator:
        return self.page.get_by_role("heading", name="Assistant de manche", level=1)

    def row_field(self, number: int) -> Locator:
        return self.page.get_by_role("spinbutton", name=f"Rangée {number}", exact=True)

    @property
    def lay_rows(self) -> Locator:
        return self.page.get_by_role("button", name="Poser les rangées", exact=True)

    def card_field(self, name: str) -> Locator:
        return self.page.get_by_role("spinbutton", name=name, exact=True)

    @property
    def place(self) -> Locator:
        return self.page.get_by_role("button", name="Placer les cartes", exact=True)

    def row(self, number: int) -> Locator:
        """The list of a row's cards, named « Rangée N : … »."""
        return self.page.get_by_role("list", name=starts_with(f"Rangée {number}"))

    def take(self, number: int) -> Locator:
        return self.page.get_by_role("button", name=f"Ramasser la rangée {number}", exact=True)

    @property
    def take_back(self) -> Locator:
        return self.page.get_by_role("button", name="Annuler le tour", exact=True)

    @property
    def alert(self) -> Locator:
        return self.page.get_by_role("alert")

    def type_rows(self, cards: Sequence[int]) -> None:
        for number, card in enumerate(cards, start=1):
            self.row_field(number).fill(str(card))

    def type_cards(self, names: Sequence[str], cards: Sequence[int | str]) -> None:
        for name, card in zip(names, cards, strict=True):
            self.card_field(name).fill(str(card))

    def type_cards_with_keyboard(self, names: Sequence[str], cards: Sequence[int]) -> None:
        """Type a turn as at the table: a card, Enter, the next… Enter on the last places them."""
        expect(self.card_field(names[0])).to_be_focused()
        self.page.keyboard.type(str(cards[0]))
        for name, card in zip(names[1:], cards[1:], strict=True):
            self.page.keyboard.press("Enter")
            expect(self.card_field(name)).to_be_focused()
            self.page.keyboard.type(str(card))
        self.page.keyboard.press("Enter")

    def expect_row(self, number: int, cards: Sequence[int]) -> None:
        expect(self.row(number).get_by_role("listitem")).to_have_count(len(cards))
        for item, card in zip(range(len(cards)), cards, strict=True):
            expect(self.row(number).get_by_role("listitem").nth(item)).to_contain_text(str(card))


class CountPage(Screen):
    @classmethod
    def open_from(cls, game: GamePage) -> CountPage:
        control(game.page, "Compter les têtes").click()
        screen = cls(game.page)
        expect(screen.cards).to_be_visible()
        return screen

    @property
    def cards(self) -> Locator:
        return self.page.get_by_role("textbox", name="Cartes", exact=True)

    @property
    def count(self) -> Locator:
        return self.page.get_by_role("button", name="Compter", exact=True)

    @property
    def answer(self) -> Locator:
        return self.page.get_by_role("status")

    @property
    def alert(self) -> Locator:
        return self.page.get_by_role("alert")
