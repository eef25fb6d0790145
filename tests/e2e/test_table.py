"""Three phones score one evening (ui-contract « The table: several phones, one evening »):
the first invites, two others join by the scorer address — one without JavaScript — and every
phone scores and sees the same game."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from .pages import GamePage, control, game_started

NAMES = ["Alice", "Bruno", "Chloé"]


def test_three_phones_score_one_game_and_share_its_history(new_context):
    first = game_started(new_context().new_page(), NAMES, [5, 6, 7])
    control(first.page, "Inviter à marquer").click()
    first.page.get_by_role("button", name="Inviter à marquer").click()
    address = first.page.get_by_role("link", name=re.compile("rejoindre"))
    expect(first.page.get_by_role("img", name=re.compile("QR"))).to_be_visible()
    scorer_address = address.get_attribute("href") or ""
    assert "/suivre/" not in scorer_address

    second = GamePage(new_context().new_page())
    third = GamePage(new_context(java_script_enabled=False).new_page())
    for phone in (second, third):
        phone.page.goto(scorer_address)
        phone.page.get_by_role("button", name="Rejoindre la table").click()
        expect(phone.scoreboard).to_be_visible()
        phone.expect_totals({"Alice": 5, "Bruno": 6, "Chloé": 7})

    second.play_round(NAMES, [1, 2, 3], 2)
    third.page.reload()
    third.play_round(NAMES, [0, 4, 1], 3)
    first.page.goto(third.page.url)
    first.expect_totals({"Alice": 6, "Bruno": 12, "Chloé": 11})
    expect(first.round_line(3)).to_be_visible()

    second.page.goto("/historique")
    expect(second.page.get_by_role("main").get_by_role("listitem")).to_have_count(1)


def test_the_follow_address_goes_on_with_the_rematch_live(new_context):
    scorer = game_started(new_context().new_page(), NAMES, [5, 6, 7])
    scorer.page.get_by_role("button", name="Partager la partie").click()
    follow_address = scorer.page.get_by_role("link", name=re.compile("suivre")).get_attribute(
        "href"
    )
    screen = GamePage(new_context().new_page())  # the big screen: JavaScript, no reload
    screen.page.goto(follow_address or "")
    screen.mark_no_reload()
    scorer.page.go_back()
    scorer.play_round(NAMES, [70, 1, 2], 2)
    expect(screen.result).to_be_visible()

    scorer.rematch.click()
    expect(scorer.scoreboard).to_be_visible()
    scorer.play_round(NAMES, [3, 4, 5], 1)

    screen.expect_totals({"Alice": 3, "Bruno": 4, "Chloé": 5})  # within the expect's 10 s
    expect(screen.result).to_have_count(0)
    assert screen.was_not_reloaded()


def _two_scorers(new_context) -> tuple[GamePage, GamePage]:
    first = game_started(new_context().new_page(), NAMES, [5, 6, 7])
    control(first.page, "Inviter à marquer").click()
    first.page.get_by_role("button", name="Inviter à marquer").click()
    address = first.page.get_by_role("link", name=re.compile("rejoindre")).get_attribute("href")
    first.page.get_by_role("link", name="Retour à la partie").click()
    second = GamePage(new_context().new_page())
    second.page.goto(address or "")
    second.page.get_by_role("button", name="Rejoindre la table").click()
    expect(second.scoreboard).to_be_visible()
    return first, second


def test_a_round_from_another_phone_shows_live_and_never_over_what_is_typed(new_context):
    first, second = _two_scorers(new_context)
    first.mark_no_reload()

    second.play_round(NAMES, [1, 2, 3], 2)

    first.expect_totals({"Alice": 6, "Bruno": 8, "Chloé": 10})  # within seconds, no reload
    assert first.was_not_reloaded()
    first.heads_field("Alice").fill("4")  # round 3, being typed here…
    second.play_round(NAMES, [0, 1, 1], 3)  # …while the other phone records its own round 3

    expect(first.page.get_by_role("status").filter(has_text="Un autre téléphone")).to_be_visible()
    expect(first.heads_field("Alice")).to_have_value("4")  # nothing typed is lost
    first.heads_field("Alice").fill("")
    first.expect_totals({"Alice": 6, "Bruno": 9, "Chloé": 11})  # caught up once emptied


def test_a_rematch_on_one_phone_takes_the_tables_other_phones_to_the_new_game(new_context):
    first, second = _two_scorers(new_context)
    second.play_round(NAMES, [70, 1, 2], 2)
    expect(first.result).to_be_visible()  # live, as every round
    old_game = first.page.url

    second.rematch.click()
    expect(second.scoreboard).to_be_visible()

    expect(first.page).to_have_url(second.page.url)  # within the expect's 10 s, no tap
    first.play_round(NAMES, [1, 2, 3], 1)
    second.expect_totals({"Alice": 1, "Bruno": 2, "Chloé": 3})
    first.page.go_back()
    assert first.page.url == old_game
    first.page.get_by_role("link", name="Aller à la nouvelle partie").click()
    first.expect_totals({"Alice": 1, "Bruno": 2, "Chloé": 3})


def test_an_older_game_corrected_after_its_rematch_stays_where_it_is_corrected(new_context):
    """The evening's report: a correction opened the old game again, and its page went to the
    rematch within seconds, every time it was opened: it could never be finished."""
    phone = game_started(new_context().new_page(), NAMES, [5, 6, 7])
    phone.play_round(NAMES, [70, 1, 2], 2)
    old_game = phone.page.url
    phone.rematch.click()
    phone.play_round(NAMES, [1, 2, 3], 1)

    phone.page.goto(old_game)
    phone.page.get_by_role("link", name="Modifier la manche 2").click()
    phone.page.get_by_role("spinbutton", name="Alice", exact=True).fill("10")
    phone.page.get_by_role("button", name="Enregistrer la manche", exact=True).click()
    expect(phone.validate).to_be_visible()  # open again
    phone.mark_no_reload()
    other_tab = GamePage(phone.page.context.new_page())
    other_tab.page.goto(old_game)
    other_tab.play_round(NAMES, [1, 1, 1], 3)

    phone.expect_totals({"Alice": 16, "Bruno": 8, "Chloé": 10})  # live, on the old game
    assert phone.page.url == old_game and phone.was_not_reloaded()


def test_a_phone_removed_from_the_table_is_told_on_its_open_page(new_context):
    first, second = _two_scorers(new_context)

    control(first.page, "Inviter à marquer").click()
    first.page.get_by_role("button", name="Retirer les téléphones invités").click()

    expect(second.page.get_by_text("cette partie appartient à un autre appareil")).to_be_visible()


def test_a_second_tab_of_the_same_phone_follows_the_rounds_of_the_first(new_context):
    first = game_started(new_context().new_page(), NAMES, [5, 6, 7])  # a phone's own game
    second = GamePage(first.page.context.new_page())
    second.page.goto(first.page.url)
    second.mark_no_reload()

    first.play_round(NAMES, [1, 2, 3], 2)

    second.expect_totals({"Alice": 6, "Bruno": 8, "Chloé": 10})  # within seconds, no reload
    assert second.was_not_reloaded()


# --- One true sheet: a page that is no longer current acts on nothing it never saw -----------------


def test_a_round_typed_while_another_phone_recorded_its_own_comes_back_to_check(new_context):
    first, second = _two_scorers(new_context)
    for name, heads in zip(NAMES, [4, 0, 1], strict=True):  # round 2, typed here…
        first.heads_field(name).fill(str(heads))
    second.play_round(NAMES, [1, 1, 1], 2)  # …while the other phone records its round 2
    expect(first.page.get_by_role("status").filter(has_text="Un autre téléphone")).to_be_visible()

    first.validate.click()

    expect(first.alert).to_contain_text("La partie a changé sur un autre téléphone")
    first.expect_totals({"Alice": 6, "Bruno": 7, "Chloé": 8})  # the other phone's round 2
    expect(first.heads_field("Alice")).to_have_value("4")  # for round 3, to check and send
    expect(first.round_line(3)).to_have_count(0)


def test_a_rematch_elsewhere_never_takes_away_a_page_being_typed_in(new_context):
    first, second = _two_scorers(new_context)
    first.heads_field("Alice").fill("4")  # round 2 on its way here…
    second.play_round(NAMES, [70, 1, 2], 2)  # …while the other phone ends the game
    address = first.page.url

    second.rematch.click()
    expect(second.scoreboard).to_be_visible()

    expect(first.page.get_by_role("status").filter(has_text="Un autre téléphone")).to_be_visible()
    expect(first.heads_field("Alice")).to_have_value("4")  # still here, nothing lost
    assert first.page.url == address
    first.validate.click()  # sent: refused, with this game's end, the values and the new game
    expect(first.alert).to_contain_text("elle est terminée")
    expect(first.page.get_by_text("Valeurs envoyées")).to_contain_text("Alice 4")
    expect(first.result).to_contain_text("La table a continué avec une nouvelle partie")
    first.page.get_by_role("link", name="Aller à la nouvelle partie").click()
    expect(first.page).to_have_url(second.page.url)


def test_a_stale_page_without_javascript_cancels_nothing_it_did_not_show(new_context):
    first, _second = _two_scorers(new_context)
    same_phone = first.page.context.storage_state()
    stale = GamePage(new_context(java_script_enabled=False, storage_state=same_phone).new_page())
    stale.page.goto(first.page.url)  # a tab without JavaScript, left open on round 1
    first.cancel_last_round()
    expect(first.restore).to_be_visible()
    first.play_round(NAMES, [2, 2, 2], 1)

    stale.cancel.click()

    expect(stale.alert).to_contain_text("rien n’a été annulé")
    stale.expect_totals({"Alice": 2, "Bruno": 2, "Chloé": 2})
    first.page.reload()
    first.expect_totals({"Alice": 2, "Bruno": 2, "Chloé": 2})
