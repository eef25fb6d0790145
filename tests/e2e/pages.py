"""Page objects: the screens as a person (or a screen reader) finds them, by role and accessible name.

Names come from /work/shared/ui-contract.md. No CSS or XPath: if a name changes, these break, as
they should, because people and assistive technologies rely on the same names.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from playwright.sync_api import Locator, Page, expect

from scripts.lib import showcase

# Set on `window` before an action; a full page load wipes it, an htmx swap keeps it.
NO_RELOAD_MARKER = "window.__e2eNoReload"


def control(page: Page | Locator, name: str) -> Locator:
    """A link or a button with exactly this accessible name (the contract allows either)."""
    return page.get_by_role("link", name=name, exact=True).or_(
        page.get_by_role("button", name=name, exact=True)
    )


def starts_with(name: str) -> re.Pattern[str]:
    """Match an accessible name that begins with `name` as a whole word (« Ann » is not « Anna »)."""
    return re.compile(rf"^{re.escape(name)}(?!\w)")


class Screen:
    def __init__(self, page: Page):
        self.page = page

    def mark_no_reload(self) -> None:
        self.page.evaluate(f"{NO_RELOAD_MARKER} = 'still the same page'")

    def was_not_reloaded(self) -> bool:
        return self.page.evaluate(f"{NO_RELOAD_MARKER} === 'still the same page'")

    def has_no_sideways_scroll(self) -> bool:
        return self.page.evaluate(
            "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
        )


class HomePage(Screen):
    def open(self) -> HomePage:
        self.page.goto("/")
        return self

    @property
    def new_game(self) -> Locator:
        return control(self.page, "Nouvelle partie")

    @property
    def resume(self) -> Locator:
        return control(self.page, "Reprendre la partie")

    @property
    def history(self) -> Locator:
        return control(self.page, "Parties précédentes")

    def start_new_game(self) -> NewGamePage:
        self.new_game.click()
        screen = NewGamePage(self.page)
        expect(screen.start).to_be_visible()
        return screen

    def resume_game(self) -> GamePage:
        self.resume.click()
        screen = GamePage(self.page)
        expect(screen.scoreboard).to_be_visible()
        return screen

    def open_history(self) -> HistoryPage:
        self.history.click()
        screen = HistoryPage(self.page)
        expect(screen.heading).to_be_visible()
        return screen


class NewGamePage(Screen):
    def open(self) -> NewGamePage:
        """Go straight to the form (the way from home, « Nouvelle partie », is
        HomePage.start_new_game, which tests of home and of a whole game take)."""
        self.page.goto("/parties/nouvelle")
        expect(self.start).to_be_visible()
        return self

    def name_field(self, seat: int) -> Locator:
        """The text field labelled « Joueur N » (N from 1)."""
        return self.page.get_by_role("textbox", name=f"Joueur {seat}", exact=True)

    @property
    def name_fields(self) -> Locator:
        return self.page.get_by_role("textbox", name=re.compile(r"^Joueur \d+$"))

    @property
    def add_player(self) -> Locator:
        return self.page.get_by_role("button", name="Ajouter un joueur", exact=True)

    @property
    def start(self) -> Locator:
        return self.page.get_by_role("button", name="Commencer la partie", exact=True)

    @property
    def alert(self) -> Locator:
        return self.page.get_by_role("alert")

    def type_names(self, names: Sequence[str]) -> None:
        """Fill « Joueur 1 », « Joueur 2 »…, asking for more fields as needed."""
        for seat, name in enumerate(names, start=1):
            while self.name_fields.count() < seat:
                count = self.name_fields.count()
                self.add_player.click()
                expect(self.name_fields).to_have_count(count + 1)
            self.name_field(seat).fill(name)

    def start_game(self, names: Sequence[str]) -> GamePage:
        self.type_names(names)
        self.start.click()
        game = GamePage(self.page)
        expect(game.scoreboard).to_be_visible()
        return game


class GamePage(Screen):
    @property
    def scoreboard(self) -> Locator:
        return self.page.get_by_role("table", name="Scores", exact=True)

    @property
    def sheet(self) -> Locator:
        return self.page.get_by_role("table", name="Manches", exact=True)

    @property
    def sheet_box(self) -> Locator:
        """The scrollable region around the round sheet, named after it."""
        return self.page.get_by_role("region", name="Manches", exact=True)

    @property
    def validate(self) -> Locator:
        return self.page.get_by_role("button", name="Valider la manche", exact=True)

    @property
    def cancel(self) -> Locator:
        return self.page.get_by_role("button", name="Annuler la manche", exact=True)

    @property
    def new_game(self) -> Locator:
        return control(self.page, "Nouvelle partie")

    @property
    def rematch(self) -> Locator:
        return control(self.page, "Rejouer avec les mêmes joueurs")

    @property
    def result(self) -> Locator:
        """The announcement of the end (other status messages, e.g. « Manche 2 annulée. », aside)."""
        return self.page.get_by_role("status").filter(
            has_text=re.compile("gagne|Victoire partagée")
        )

    @property
    def alert(self) -> Locator:
        return self.page.get_by_role("alert")

    @property
    def heads_fields(self) -> Locator:
        return self.page.get_by_role("spinbutton")

    def heads_field(self, name: str) -> Locator:
        """The number field of the entry form whose label is the player's name."""
        return self.page.get_by_role("spinbutton", name=name, exact=True)

    def expect_players(self, names: Sequence[str]) -> None:
        """Expect these players, in seat order: the round form's fields, each named by its
        player (a row's header also holds the player's mark, « donne », a rank)."""
        expect(self.heads_fields).to_have_count(len(names))
        for field, name in zip(self.heads_fields.all(), names, strict=True):
            expect(field).to_have_accessible_name(name)

    def player_row(self, name: str) -> Locator:
        return self.scoreboard.get_by_role("row").filter(
            has=self.page.get_by_role("rowheader", name=starts_with(name))
        )

    def player_heading(self, name: str) -> Locator:
        return self.scoreboard.get_by_role("rowheader", name=starts_with(name))

    def total_of(self, name: str) -> Locator:
        """The row's first cell: the total (then the last round's « +N », then the field)."""
        return self.player_row(name).get_by_role("cell").first

    def last_round_of(self, name: str) -> Locator:
        return self.player_row(name).get_by_role("cell").nth(1)

    def gauge_of(self, name: str) -> Locator:
        """The gauge towards the limit, named with the player's name."""
        # The name is isolated (U+2068 … U+2069) in the accessible name: it may be right-to-left.
        return self.scoreboard.get_by_role(
            "meter", name=re.compile(rf"^\u2068?{re.escape(name)}(?!\w)")
        )

    @property
    def restore(self) -> Locator:
        return self.page.get_by_role("button", name=re.compile(r"^Rétablir la manche \d+$"))

    @property
    def delete(self) -> Locator:
        return control(self.page, "Supprimer la partie")

    def round_line(self, number: int) -> Locator:
        # The line's header may hold more than its name (e.g. a link to edit it).
        return self.sheet.get_by_role("rowheader", name=starts_with(f"Manche {number}"))

    def expect_totals(self, totals: dict[str, int]) -> None:
        for name, total in totals.items():
            expect(self.total_of(name)).to_have_text(str(total))

    def expect_leaders(self, leaders: Sequence[str], others: Sequence[str]) -> None:
        """The leaders' names carry a crown announced as « en tête »; nobody else's does."""
        for name in leaders:
            expect(self.player_heading(name)).to_have_accessible_name(re.compile("en tête"))
            expect(self.player_heading(name).get_by_role("img")).to_have_count(0)  # decorative
        for name in others:
            expect(self.player_heading(name)).not_to_have_accessible_name(re.compile("en tête"))

    def type_round_with_keyboard(self, names: Sequence[str], heads: Sequence[int | str]) -> None:
        """Type a round as at the table: a value, Enter, the next value… Enter on the last submits.

        Checks on the way that each Enter moved the focus to the next player's field.
        """
        first = self.heads_field(names[0])
        first.fill(str(heads[0]))
        for name, value in zip(names[1:], heads[1:], strict=True):
            self.page.keyboard.press("Enter")
            expect(self.heads_field(name)).to_be_focused()
            self.page.keyboard.type(str(value))
        self.page.keyboard.press("Enter")

    def play_round_with_keyboard(
        self, names: Sequence[str], heads: Sequence[int], number: int
    ) -> None:
        self.type_round_with_keyboard(names, heads)
        self.expect_round_recorded(number)

    def enter_round(self, names: Sequence[str], heads: Sequence[int | str]) -> None:
        """Fill every field and press « Valider la manche » (what works with or without JavaScript)."""
        for name, value in zip(names, heads, strict=True):
            self.heads_field(name).fill(str(value))
        self.validate.click()

    def play_round(self, names: Sequence[str], heads: Sequence[int], number: int) -> None:
        self.enter_round(names, heads)
        self.expect_round_recorded(number)

    def expect_round_recorded(self, number: int) -> None:
        """The round's line, drawn at the tap « envoi… » (with JavaScript), confirmed by the server."""
        expect(self.round_line(number)).to_be_visible()
        expect(self.sheet.get_by_role("rowheader", name=re.compile("envoi…"))).to_have_count(0)

    def cancel_last_round(self) -> None:
        self.cancel.click()


class HistoryPage(Screen):
    def open(self) -> HistoryPage:
        self.page.goto("/historique")
        return self

    @property
    def heading(self) -> Locator:
        return self.page.get_by_role("heading", name="Parties précédentes", exact=True, level=1)

    @property
    def entries(self) -> Locator:
        """One list item per stored game, newest first."""
        return self.page.get_by_role("main").get_by_role("listitem")

    @property
    def games(self) -> Locator:
        """One link per stored game (the one that opens it), newest first."""
        return self.entries.get_by_role("link").filter(
            has_not_text=re.compile("^Supprimer la partie$")
        )


def game_started(
    page: Page, names: Sequence[str], *rounds: Sequence[int], **rules: str
) -> GamePage:
    """Open a game already started by this phone, these rounds played: where a test begins, not
    what it checks (sent as requests; the forms typed and tapped are NewGamePage's and
    GamePage's, in the tests of starting and playing)."""
    showcase.game_started(page, names, *rounds, **rules)
    game = GamePage(page)
    expect(game.scoreboard).to_be_visible()
    return game
