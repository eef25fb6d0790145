"""An evening played as a table would (ui-contract « The evening — « La soirée » »): a 6 qui prend
game and its rematch, then a Skyjo through « Autre jeu, même table », on two phones, with the
big screen showing the evening's ranking between two games."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from .pages import GamePage, control, game_started

NAMES = ["Alice", "Bruno", "Chloé"]


def ranking_rows(page):
    """Each row of « Classement de la soirée »: rank, name (its header « 1. Alice »), games,
    wins, mean place."""
    table = page.get_by_role("table", name="Classement de la soirée")
    expect(table).to_be_visible()
    expect(table.get_by_role("columnheader", name=re.compile("^Parties"))).to_be_visible()
    expect(table.get_by_role("columnheader", name=re.compile("^Victoires"))).to_be_visible()
    rows = []
    for row in table.get_by_role("row").all()[1:]:
        rank, name = row.get_by_role("rowheader").inner_text().strip().split(". ", 1)
        figures = [cell.strip() for cell in row.get_by_role("cell").all_inner_texts()]
        rows.append([rank, name, *figures])
    return rows


def test_an_evening_of_three_games_on_two_phones_and_the_big_screen(new_context):
    first = game_started(new_context().new_page(), NAMES)
    control(first.page, "Inviter à marquer").click()
    first.page.get_by_role("button", name="Inviter à marquer").click()
    address = first.page.get_by_role("link", name=re.compile("rejoindre")).get_attribute("href")
    first.page.get_by_role("link", name="Retour à la partie").click()
    first.page.get_by_role("button", name="Partager la partie").click()
    follow = first.page.get_by_role("link", name=re.compile("suivre")).get_attribute("href")
    second = GamePage(new_context().new_page())
    second.page.goto(address or "")
    second.page.get_by_role("button", name="Rejoindre la table").click()
    screen = GamePage(new_context().new_page())
    screen.page.set_viewport_size({"width": 1280, "height": 800})  # the big screen
    screen.page.goto(follow or "")

    # 6 qui prend: Bruno wins, Chloé second, Alice third.
    second.play_round(NAMES, [70, 3, 10], 1)
    expect(screen.result).to_be_visible()
    expect(control(second.page, "La soirée")).to_have_count(0)  # an evening of one game
    second.rematch.click()
    expect(second.scoreboard).to_be_visible()
    # Between two games the big screen shows the evening, until the next game's first round.
    expect(screen.page.get_by_role("table", name="Classement de la soirée")).to_be_visible()
    assert ranking_rows(screen.page)[0][:4] == ["1", "Bruno", "2", "1"]  # the rematch: sat in

    # The rematch: Alice wins, Chloé second, Bruno third.
    second.play_round(NAMES, [2, 70, 5], 1)
    first.page.goto(second.page.url)
    control(first.page, "Autre jeu, même table").click()
    expect(first.page.get_by_role("textbox", name="Joueur 3", exact=True)).to_have_value("Chloé")
    first.page.get_by_role("radio", name="Skyjo").check()
    first.page.get_by_role("button", name="Commencer la partie").click()
    skyjo = GamePage(first.page)
    expect(skyjo.scoreboard).to_be_visible()
    expect(screen.page.get_by_text("Skyjo").first).to_be_visible()  # the screen went on
    expect(screen.page.get_by_role("table", name="Classement de la soirée")).to_be_visible()

    # Skyjo: Alice ends the round with the lowest score; Bruno passes 100.
    for name, value in zip(NAMES, [10, 120, 20], strict=True):
        skyjo.heads_field(name).fill(str(value))
    first.page.get_by_role("group", name="A fini la manche").get_by_role(
        "radio", name="Alice"
    ).check()
    skyjo.validate.click()
    expect(skyjo.result).to_be_visible()

    # By hand: Alice 2 wins (places 3, 1, 1: mean 1.7), Bruno 1 (1, 3, 3: 2.3), Chloé 0.
    expected = [
        ["1", "Alice", "3", "2", "1,7"],
        ["2", "Bruno", "3", "1", "2,3"],
        ["3", "Chloé", "3", "0", "2"],
    ]
    control(first.page, "La soirée").click()
    expect(first.page.get_by_role("heading", level=1)).to_contain_text("La soirée")
    assert ranking_rows(first.page) == expected
    games = first.page.get_by_role("main").get_by_role("listitem")
    expect(games).to_have_count(3)
    expect(games.nth(2)).to_contain_text("Skyjo")
    second.page.goto(first.page.url)  # the other phone of the table: the same evening
    assert ranking_rows(second.page) == expected
    expect(screen.page.get_by_role("table", name="Classement de la soirée")).to_be_visible()
    assert ranking_rows(screen.page) == expected


def evening_of_two_games(page) -> str:
    """A 6 qui prend game Bruno wins and its rematch; return the evening's page's text to send."""
    game = game_started(page, NAMES, [70, 3, 10])
    game.rematch.click()
    expect(game.scoreboard).to_be_visible()
    control(page, "La soirée").click()
    return "La soirée\u202f: 1. Bruno, 1 victoire en 2 parties\u202f; 2. Chloé, 0 victoire en 2 parties\u202f; 3. Alice, 0 victoire en 2 parties"


def test_partager_copies_the_evening_as_text_where_there_is_no_share_sheet(new_context):
    page = new_context(permissions=["clipboard-read", "clipboard-write"]).new_page()
    text = evening_of_two_games(page)

    control(page, "Partager").click()

    expect(page.get_by_role("status").filter(has_text="Résultat copié")).to_be_visible()
    assert page.evaluate("navigator.clipboard.readText()") == text


def test_partager_hands_the_evening_to_the_phones_share_sheet(new_context):
    context = new_context()
    # This Chromium has no share sheet: a phone's is stood in for, to see what the page hands it.
    context.add_init_script("navigator.share = async (data) => { window.__shared = data; };")
    page = context.new_page()
    text = evening_of_two_games(page)

    control(page, "Partager").click()

    page.wait_for_function("() => window.__shared !== undefined")
    assert page.evaluate("window.__shared") == {"text": text}
