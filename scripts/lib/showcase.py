"""An evening on one phone, every screen in it: the screens the layout tests look at
(tests/e2e/test_layout.py, tests/e2e/test_accessibility.py) and scripts/screenshots.py draws, at every size.

`evening(page)` plays it once through the phone's own requests (fast: what is looked at is the
screens, not the way there) and returns where each screen is; a context made later with the same
storage state is the same phone, in any language or size.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from playwright.sync_api import Page, expect

_HIDDEN_FIELD = re.compile(r'<input type="hidden" name="([^"]+)" value="([^"]*)">')

# Long real names (German words and names are long too), two near the 30 characters a name may
# have: a name is never cut, never clipped.
NAMES = [
    "Éléonore Wolfeschlegelstein",
    "Anastasia Konstantinopoulou",
    "Chloé",
    "Élodie",
    "Alice",
    "Jean-Baptiste",
    "Bruno",
    "Damien",
    "Inès",
    "Marie-Christine",
]
ROUNDS = [
    [5, 12, 3, 8, 1, 7, 2, 9, 4, 6],
    [20, 4, 9, 2, 7, 11, 3, 5, 8, 1],
    [11, 6, 30, 5, 3, 2, 14, 9, 6, 10],
    [18, 2, 14, 9, 6, 20, 8, 13, 5, 4],
]
LAST_ROUND = [15, 0, 2, 3, 9, 1, 1, 1, 1, 1]  # Éléonore goes above 66: Marie-Christine wins
ROWS = [10, 20, 30, 40]
TURN = [5, 41, 42, 43, 44, 45, 46, 47, 48, 49]  # Éléonore's 5 is below every row: a choice


@dataclass(frozen=True)
class Evening:
    """The address of each screen, for the phone that played the evening."""

    playing: str  # a ten-player game in progress
    fresh: str  # a ten-player game before its first round
    finished: str  # a ten-player game over, Marie-Christine the winner
    follow: str  # the follow address of the game in progress
    follow_over: str  # the follow address of the game over: the table's big screen at the end
    join: str  # its scorer address (« Rejoindre la table »)

    def screens(self) -> dict[str, str]:
        return {
            "home": "/",
            "new-game": "/parties/nouvelle",
            "game": self.playing,
            "first-round": self.fresh,
            "result": self.finished,
            "story": f"{self.finished}/fil",
            "edit-round": f"{self.playing}/manches/2",
            "history": "/historique",
            "statistics": "/statistiques",
            "rules": "/regles",
            "assistant": f"{self.playing}/assistant",
            "count": f"{self.playing}/compter?cartes=55+10+23+11+5",
            "share": f"{self.playing}/partage",
            "follow": self.follow,
            "follow-result": self.follow_over,
            "invite": f"{self.playing}/inviter",
            "join": self.join,
        }


def game_started(page: Page, names: Sequence[str], *rounds: Sequence[int], **rules: str) -> None:
    """Open a game already started by this phone, these rounds played (`rules`: the new-game
    form's other fields, as `game="libre", title="Yams"`).

    The new-game form and each round's are sent as requests of the phone's own (its cookies, the
    hidden fields as the page gives them), then the game is opened."""
    form = page.request.get("/parties/nouvelle")
    fields = dict(_HIDDEN_FIELD.findall(form.text()))
    fields.update({f"players-{seat}": name for seat, name in enumerate(names)}, **rules)
    started = page.request.post("/parties", form=fields)  # 303, followed to the game
    assert started.ok and "/parties/" in started.url, (started.status, started.url)
    for number, heads in enumerate(rounds, start=1):
        typed = {f"score-{seat}": str(value) for seat, value in enumerate(heads)}
        # A game played forward only: round N is drawn from version N (each round moves it once).
        token = {"csrf_token": fields["csrf_token"], "number": str(number), "version": str(number)}
        played = page.request.post(f"{started.url}/manches", form={**token, **typed})
        assert played.ok and played.url == started.url, (number, played.status, played.url)
    page.goto(started.url)


def _path(url: str) -> str:
    return re.sub(r"^https?://[^/]+", "", url)


def evening(page: Page) -> Evening:
    """Play the evening on this phone: a finished game, one in progress with its follow address,
    and the assistant waiting for Éléonore's choice."""
    game_started(page, NAMES, *ROUNDS, LAST_ROUND)
    finished = _path(page.url)
    follow_over = _follow_address(page)
    game_started(page, NAMES)
    fresh = _path(page.url)
    game_started(page, NAMES, *ROUNDS)
    playing = _path(page.url)
    follow_path = _follow_address(page)
    page.goto(f"{playing}/inviter")
    page.get_by_role("button", name="Inviter à marquer").click()
    join = page.get_by_role("link", name=re.compile("rejoindre"))
    expect(join).to_be_visible()
    join_path = _path(join.get_attribute("href") or "")
    page.goto(f"{playing}/assistant")
    for number, card in enumerate(ROWS, start=1):
        page.get_by_role("spinbutton", name=f"Rangée {number}", exact=True).fill(str(card))
    page.get_by_role("button", name="Poser les rangées").click()
    for name, card in zip(NAMES, TURN, strict=True):
        page.get_by_role("spinbutton", name=name, exact=True).fill(str(card))
    page.get_by_role("button", name="Placer les cartes").click()
    expect(page.get_by_role("button", name="Ramasser la rangée 1")).to_be_visible()
    return Evening(
        playing=playing,
        fresh=fresh,
        finished=finished,
        follow=follow_path,
        follow_over=follow_over,
        join=join_path,
    )


def _follow_address(page: Page) -> str:
    """Share the game on screen; return its follow address."""
    page.get_by_role("button", name="Partager la partie").click()
    follow = page.get_by_role("link", name=re.compile("suivre"))
    expect(follow).to_be_visible()
    return _path(follow.get_attribute("href") or "")
