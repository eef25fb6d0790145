"""An English and a German phone play a whole game in their language, with no accessibility violation."""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest
from playwright.sync_api import Page, expect

from .conftest import ACTION_TIMEOUT_MS
from .pages import control, starts_with

pytestmark = pytest.mark.e2e


@dataclass(frozen=True)
class Words:
    """The names a person looks for on screen, in one language (ui-contract « Languages »)."""

    locale: str
    lang: str
    new_game: str
    player: str  # the label of the N-th name field, with {n}
    start: str
    scores: str
    rounds: str
    round: str  # a line of the round sheet, with {n}
    leading: str
    record: str
    not_recorded: str
    heads: str
    wins: str
    chart: str
    past_games: str
    winner: str  # a finished game in the history, with {name} and {total}
    statistics: str
    games_played: str
    won: str
    waiting: (
        str  # the notice of rounds 2 and 3 kept offline (static/waiting.js, its language's copy)
    )
    sent: str  # the notice once they went
    margin: str  # the warning of a row 4 heads from the end, drawn offline (the page's words)
    keep_screen_on: str


ENGLISH = Words(
    locale="en-GB",
    lang="en",
    new_game="New game",
    player="Player {n}",
    start="Start the game",
    scores="Scores",
    rounds="Rounds",
    round="Round {n}",
    leading="leading",
    record="Record round",
    not_recorded="Round 1 was not recorded",
    heads="bullheads",
    wins="wins",
    chart="Scores over the rounds",
    past_games="Past games",
    winner="Winner: {name} ({total})",
    statistics="Statistics",
    games_played="Games played",
    won="Wins",
    waiting="No network: rounds 2 and 3 are waiting, counted in the totals; they will be sent as "
    "soon as the network is back.",
    sent="Network back: everything that was waiting has been sent.",
    margin="Left before the end: 4",
    keep_screen_on="Keep the screen on",
)
GERMAN = Words(
    locale="de-DE",
    lang="de",
    new_game="Neues Spiel",
    player="Spieler {n}",
    start="Spiel starten",
    scores="Punktestand",
    rounds="Runden",
    round="Runde {n}",
    leading="in Führung",
    record="Runde eintragen",
    not_recorded="Runde 1 wurde nicht eingetragen",
    heads="Hornochsen",
    wins="gewinnt",
    chart="Punkteverlauf",
    past_games="Frühere Spiele",
    winner="Gewonnen: {name} ({total})",
    statistics="Statistik",
    games_played="Gespielte Spiele",
    won="Siege",
    waiting="Kein Netz: Die Runden 2 und 3 warten, in den Summen schon gezählt; sie werden gesendet, "
    "sobald das Netz zurück ist.",
    sent="Netz wieder da: Alles Wartende wurde gesendet.",
    margin="Spielraum bis zum Ende: 4",
    keep_screen_on="Bildschirm eingeschaltet lassen",
)


@pytest.fixture
def phone_in(browser, browser_context_args):
    """Open a new phone whose browser prefers this locale (its Accept-Language and navigator)."""
    contexts = []

    def open_phone(locale: str, **extra) -> Page:
        # pytest-playwright's new_context cannot override a locale its session settings hold.
        context = browser.new_context(**{**browser_context_args, "locale": locale, **extra})
        context.set_default_timeout(ACTION_TIMEOUT_MS)
        contexts.append(context)
        return context.new_page()

    yield open_phone
    for context in contexts:
        context.close()


def expect_language(page: Page, words: Words) -> None:
    # Waits for the page in that language: a link followed may still be on its way there.
    expect(page.locator("html")).to_have_attribute("lang", words.lang)


@pytest.mark.parametrize("words", [ENGLISH, GERMAN], ids=["English", "German"])
def test_a_phone_plays_a_whole_game_in_its_language(phone_in, words: Words):
    page = phone_in(words.locale)
    page.goto("/")
    expect_language(page, words)
    control(page, words.new_game).click()
    page.get_by_role("textbox", name=words.player.format(n=1), exact=True).fill("Ada")
    page.get_by_role("textbox", name=words.player.format(n=2), exact=True).fill("Bea")
    page.get_by_role("button", name=words.start, exact=True).click()
    scores = page.get_by_role("table", name=words.scores, exact=True)
    expect(scores).to_be_visible()

    # Each score possible for one of 2 players (at most 79), their sum not: the server says.
    page.get_by_role("spinbutton", name="Ada", exact=True).fill("79")
    page.get_by_role("spinbutton", name="Bea", exact=True).fill("1")
    page.get_by_role("button", name=words.record, exact=True).click()
    expect(page.get_by_role("alert")).to_contain_text(words.not_recorded)
    expect(page.get_by_role("alert")).to_contain_text(words.heads)
    ada = page.get_by_role("spinbutton", name="Ada", exact=True)
    expect(ada).to_have_value("79")

    ada.fill("70")
    page.get_by_role("spinbutton", name="Bea", exact=True).fill("3")
    page.get_by_role("button", name=words.record, exact=True).click()
    expect(page.get_by_role("status").filter(has_text=words.wins)).to_contain_text("Bea")
    bea = scores.get_by_role("rowheader", name=starts_with("Bea"))
    expect(bea).to_have_accessible_name(re.compile(words.leading))
    rounds = page.get_by_role("table", name=words.rounds, exact=True)
    expect(
        rounds.get_by_role("rowheader", name=starts_with(words.round.format(n=1)))
    ).to_be_visible()
    expect(page.get_by_role("img", name=re.compile(words.chart))).to_be_visible()
    expect_language(page, words)

    page.goto("/")
    control(page, words.past_games).click()
    expect(page.get_by_role("heading", name=words.past_games, level=1)).to_be_visible()
    finished = (
        page.get_by_role("main").get_by_role("listitem").get_by_role("link").first
    )  # the game (then « Supprimer la partie »)
    expect(finished).to_contain_text(words.winner.format(name="Bea", total=3))

    page.goto("/")
    control(page, words.statistics).click()
    table = page.get_by_role("table", name=words.statistics, exact=True)
    expect(table.get_by_role("columnheader", name=starts_with(words.games_played))).to_be_visible()
    expect(table.get_by_role("columnheader", name=starts_with(words.won))).to_be_visible()


@pytest.mark.parametrize("words", [ENGLISH, GERMAN], ids=["English", "German"])
def test_the_offline_notices_and_the_screen_switch_speak_the_phones_language(phone_in, words):
    page = phone_in(words.locale)
    page.goto("/parties/nouvelle")
    page.get_by_role("textbox", name=words.player.format(n=1), exact=True).fill("Ada")
    page.get_by_role("textbox", name=words.player.format(n=2), exact=True).fill("Bea")
    page.get_by_role("button", name=words.start, exact=True).click()
    record = page.get_by_role("button", name=words.record, exact=True)
    rounds = page.get_by_role("table", name=words.rounds, exact=True)
    expect(page.get_by_role("table", name=words.scores, exact=True)).to_be_visible()
    if page.evaluate("'wakeLock' in navigator"):  # a secure context: 127.0.0.1 is one
        expect(page.get_by_role("checkbox", name=words.keep_screen_on, exact=True)).to_be_checked()

    for number, heads in enumerate(([1, 2], [3, 4], [58, 6]), start=1):
        page.get_by_role("spinbutton", name="Ada", exact=True).fill(str(heads[0]))
        page.get_by_role("spinbutton", name="Bea", exact=True).fill(str(heads[1]))
        record.click()
        # The form is for the next round before anything is typed for it.
        expect(
            page.get_by_role("columnheader", name=words.round.format(n=number + 1))
        ).to_be_visible()
        if heads == [1, 2]:
            expect(
                rounds.get_by_role("rowheader", name=starts_with(words.round.format(n=1)))
            ).to_be_visible()
            expect(page.get_by_role("spinbutton", name="Ada", exact=True)).to_have_value("")
            page.context.set_offline(True)

    expect(page.get_by_role("status").filter(has_text=words.waiting)).to_have_text(words.waiting)
    expect(page.get_by_role("table", name=words.scores, exact=True)).to_contain_text(words.margin)
    page.context.set_offline(False)
    expect(page.get_by_role("status").filter(has_text=words.sent)).to_have_text(words.sent)
    expect(
        rounds.get_by_role("rowheader", name=starts_with(words.round.format(n=3)))
    ).to_be_visible()


def test_switching_language_mid_round_keeps_the_heads_typed(phone_in):
    page = phone_in("fr-FR")
    page.goto("/parties/nouvelle")
    page.get_by_role("textbox", name="Joueur 1", exact=True).fill("Ada")
    page.get_by_role("textbox", name="Joueur 2", exact=True).fill("Bea")
    page.get_by_role("button", name="Commencer la partie", exact=True).click()
    page.get_by_role("spinbutton", name="Ada", exact=True).fill("5")
    page.get_by_role("spinbutton", name="Bea", exact=True).fill("12")

    page.get_by_role("navigation", name="Langue").get_by_role("link", name="English").click()

    expect_language(page, ENGLISH)
    expect(page.get_by_role("spinbutton", name="Ada", exact=True)).to_have_value("5")
    expect(page.get_by_role("spinbutton", name="Bea", exact=True)).to_have_value("12")
    # Kept for that drawing only: the address is the game's own, a reload shows empty fields.
    assert "score-" not in page.url
    page.reload()
    expect(page.get_by_role("spinbutton", name="Ada", exact=True)).to_have_value("")


def test_switching_language_mid_skyjo_round_keeps_who_ended_it(phone_in):
    """The host's report: the scores came along, « A fini la manche » did not, and the round
    was then refused for it."""
    page = phone_in("fr-FR")
    page.goto("/parties/nouvelle")
    page.get_by_role("group", name="Jeu").get_by_role("radio", name="Skyjo").check()
    page.get_by_role("textbox", name="Joueur 1", exact=True).fill("Ada")
    page.get_by_role("textbox", name="Joueur 2", exact=True).fill("Bea")
    page.get_by_role("button", name="Commencer la partie", exact=True).click()
    page.get_by_role("spinbutton", name="Ada", exact=True).fill("12")
    page.get_by_role("group", name="A fini la manche").get_by_role("radio", name="Bea").check()

    page.get_by_role("navigation", name="Langue").get_by_role("link", name="English").click()

    expect_language(page, ENGLISH)
    expect(page.get_by_role("spinbutton", name="Ada", exact=True)).to_have_value("12")
    expect(page.get_by_role("radio", name="Bea")).to_be_checked()


def new_game_typed(page: Page, game: str, names: list[str]) -> Page:
    """The French new-game form with a game chosen and names typed, not sent."""
    page.goto("/parties/nouvelle")
    page.get_by_role("group", name="Jeu").get_by_role("radio", name=game).check()
    for seat, name in enumerate(names, start=1):
        page.get_by_role("textbox", name=f"Joueur {seat}", exact=True).fill(name)
    return page


def test_switching_language_on_the_new_game_form_keeps_the_names_and_the_game(phone_in):
    page = new_game_typed(phone_in("fr-FR"), "Flip 7", ["Ada", "Bea"])

    page.get_by_role("navigation", name="Langue").get_by_role("link", name="Deutsch").click()

    expect_language(page, GERMAN)
    expect(page.get_by_role("radio", name="Flip 7")).to_be_checked()
    for seat, name in enumerate(["Ada", "Bea"], start=1):
        field = page.get_by_role("textbox", name=GERMAN.player.format(n=seat), exact=True)
        expect(field).to_have_value(name)


def test_switching_language_on_a_rounds_correction_keeps_what_was_corrected(phone_in):
    page = new_game_typed(phone_in("fr-FR"), "Partie libre", ["Ada", "Bea"])
    page.get_by_role("textbox", name="Nom du jeu", exact=True).fill("Belote")
    page.get_by_role("spinbutton", name="Manches", exact=True).fill("3")
    page.get_by_role("button", name="Commencer la partie", exact=True).click()
    page.get_by_role("spinbutton", name="Ada", exact=True).fill("1200")
    page.get_by_role("spinbutton", name="Bea", exact=True).fill("40")
    page.get_by_role("button", name="Valider la manche", exact=True).click()
    page.get_by_role("link", name="Modifier la manche 1").click()
    page.get_by_role("spinbutton", name="Bea", exact=True).fill("-12000")

    page.get_by_role("navigation", name="Langue").get_by_role("link", name="English").click()

    expect_language(page, ENGLISH)
    expect(page.get_by_role("spinbutton", name="Ada", exact=True)).to_have_value("1200")
    expect(page.get_by_role("spinbutton", name="Bea", exact=True)).to_have_value("-12000")


def test_what_was_cleared_after_a_switch_stays_cleared_after_the_next(phone_in):
    """The address of the page in English carried « Bea » and the pro variant: emptied and
    unticked there, they came back with German."""
    page = phone_in("fr-FR")
    page.goto("/parties/nouvelle")
    page.get_by_role("textbox", name="Joueur 1", exact=True).fill("Ada")
    page.get_by_role("textbox", name="Joueur 2", exact=True).fill("Bea")
    page.get_by_role("checkbox", name="Variante pro").check()
    page.get_by_role("navigation", name="Langue").get_by_role("link", name="English").click()
    expect_language(page, ENGLISH)
    page.get_by_role("textbox", name="Player 2", exact=True).fill("")
    page.get_by_role("checkbox", name="Pro variant").uncheck()

    page.get_by_role("navigation", name="Language").get_by_role("link", name="Deutsch").click()

    expect_language(page, GERMAN)
    expect(page.get_by_role("textbox", name="Spieler 1", exact=True)).to_have_value("Ada")
    expect(page.get_by_role("textbox", name="Spieler 2", exact=True)).to_have_value("")
    expect(page.get_by_role("checkbox", name="Profi-Variante")).not_to_be_checked()
