"""What the game page shows always equals a plain model of the game, whatever people do.

A Hypothesis state machine starts a game, adds valid and refused rounds, cancels, replays earlier
submissions and cancels from the page they were drawn from (a double tap, a retry, a stale
tab) and reloads; after every step the
scoreboard, the round sheet, the entry form and the announcement are read from the page and
compared with the model below, which knows only rules.md.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from .actions import game_url, new_device, round_data, start_game
from .html import form_of, hidden_value, leaders, parse, round_lines, scoreboard, status_text

# rules.md, « What a round can contain »: the most heads one player / all players can take in a
# round, for n players. Copied from the rule sheet on purpose: the model must not ask the app.
MOST_FOR_ONE = {2: 79, 3: 97, 4: 107, 5: 117, 6: 117, 7: 117, 8: 117, 9: 117, 10: 117}
MOST_FOR_ALL = {2: 79, 3: 97, 4: 107, 5: 117, 6: 127, 7: 137, 8: 147, 9: 157, 10: 167}
LIMIT = 66
NAMES = ["Alice", "Bob", "Carla", "David", "Emma", "Farid"]


@dataclass
class Game:
    """The game as a person keeps it on paper."""

    players: list[str]
    rounds: list[list[int]] = field(default_factory=list)

    @property
    def totals(self) -> list[int]:
        return [sum(line[seat] for line in self.rounds) for seat in range(len(self.players))]

    @property
    def is_over(self) -> bool:
        return any(total > LIMIT for total in self.totals)

    @property
    def leaders(self) -> set[str]:
        if not self.rounds:
            return set()
        best = min(self.totals)
        return {name for name, total in zip(self.players, self.totals) if total == best}

    def is_possible(self, heads: list) -> bool:
        n = len(self.players)
        if len(heads) != n or not all(
            isinstance(v, int) and 0 <= v <= MOST_FOR_ONE[n] for v in heads
        ):
            return False
        return 1 <= sum(heads) <= MOST_FOR_ALL[n]

    version: int = 1  # moved by each change, as the page's forms carry it

    def submit(self, number: int, heads: list, drawn: int) -> str:
        """Apply a submission from a page drawn at version `drawn`; return "recorded",
        "refused" (422), "stale" (already recorded with these heads: nothing to do) or "changed"
        (409: the game changed since the page was drawn)."""
        heads = [0 if isinstance(v, str) and not v.strip() else v for v in heads]  # blank is 0
        # « -1 » is a number to the form (a Skyjo or free game's score): the game refuses it,
        # after the version is checked, as any impossible round.
        heads = [
            int(v) if isinstance(v, str) and re.fullmatch(r"-?[0-9]+", v) else v for v in heads
        ]
        if not all(isinstance(v, int) for v in heads):
            return "refused"  # text that is not a number is refused before anything else
        if drawn != self.version:
            recorded = 1 <= number <= len(self.rounds) and self.rounds[number - 1] == heads
            return "stale" if recorded else "changed"
        if self.is_over or not self.is_possible(heads):
            return "refused"
        self.rounds.append(list(heads))
        self.version += 1
        return "recorded"

    def cancel(self, number: int, drawn: int) -> str:
        """Apply « Annuler la manche » from a page drawn at version `drawn`: "cancelled",
        "stale" (that round is already gone) or "changed" (409)."""
        if drawn != self.version:
            return "stale" if number > len(self.rounds) else "changed"
        self.rounds.pop()
        self.version += 1
        return "cancelled"


def possible_round(n: int):
    """Heads of a round that can happen, mostly small so that games last a few rounds."""
    one = st.one_of(st.integers(0, 12), st.integers(0, MOST_FOR_ONE[n]))
    return st.lists(one, min_size=n, max_size=n).filter(
        lambda heads: 1 <= sum(heads) <= MOST_FOR_ALL[n]
    )


def impossible_round(n: int):
    """Heads of a round that cannot happen, or that are not numbers at all."""
    most = MOST_FOR_ONE[n]

    def with_one(value):
        return st.tuples(
            st.integers(0, n - 1), st.lists(st.integers(0, 5), min_size=n, max_size=n)
        ).map(lambda pair: [value if seat == pair[0] else v for seat, v in enumerate(pair[1])])

    return st.one_of(
        st.just([0] * n),
        with_one(most + 1),
        st.integers(most + 1, 10**6).flatmap(with_one),
        st.sampled_from(["", "-1", "2.5", "douze", "1e2", " ", "٣"]).flatmap(with_one),
        st.just([MOST_FOR_ONE[n]] * n)
        if n * MOST_FOR_ONE[n] > MOST_FOR_ALL[n]
        else st.just([0] * n),
    )


def check_page_equals_model(page, model: Game) -> None:
    assert [name for name, _, _ in scoreboard(page)] == model.players
    assert [total for _, total, _ in scoreboard(page)] == model.totals
    assert round_lines(page) == model.rounds
    assert leaders(page) == model.leaders
    form = form_of(page, "Valider la manche")
    announcement = status_text(page)
    if model.is_over:
        assert form is None
        assert "gagne" in announcement or "Victoire partagée" in announcement
        assert all(name in announcement for name in model.leaders)
    else:
        assert form is not None
        assert hidden_value(form, "number") == str(len(model.rounds) + 1)
        assert "gagne" not in announcement and "Victoire partagée" not in announcement
    cancel = form_of(page, "Annuler la manche")
    if model.rounds:
        assert hidden_value(cancel, "number") == str(len(model.rounds))
    else:  # drawn hidden, for a round that waits for the network (static/waiting.js)
        assert cancel is None or "hidden" in cancel.attrs


def run_machine(app):
    class GameAtTheTable(RuleBasedStateMachine):
        @initialize(players=st.integers(2, 6), htmx=st.booleans())
        def start(self, players, htmx):
            self.client = new_device(app)
            self.model = Game(NAMES[:players])
            self.public_id = start_game(self.client, self.model.players)
            self.url = game_url(self.public_id)
            self.sent_rounds: list[tuple[int, list]] = []
            self.sent_cancels: list[int] = []
            self.htmx = htmx

        def post(self, path, data, htmx):
            return self.client.post(path, data=data, headers={"HX-Request": "true"} if htmx else {})

        def submit(self, number, heads, htmx, drawn=None):
            drawn = self.model.version if drawn is None else drawn
            expected = self.model.submit(number, heads, drawn)
            response = self.post(f"{self.url}/manches", round_data(number, heads, drawn), htmx)
            self.sent_rounds.append((number, heads, drawn))
            if expected in ("refused", "changed"):
                assert response.status_code == (422 if expected == "refused" else 409)
                page = parse(response.data)
                assert page.find(role="alert") is not None or self.model.is_over
            else:
                assert response.status_code == (200 if htmx else 303)
            if htmx or expected in ("refused", "changed"):
                assert b'<div id="game"' in response.data

        @rule(data=st.data(), htmx=st.booleans())
        def add_a_possible_round(self, data, htmx):
            heads = data.draw(possible_round(len(self.model.players)))
            self.submit(len(self.model.rounds) + 1, heads, htmx)

        @rule(data=st.data(), htmx=st.booleans())
        def add_an_impossible_round(self, data, htmx):
            heads = data.draw(impossible_round(len(self.model.players)))
            self.submit(len(self.model.rounds) + 1, heads, htmx)

        @precondition(lambda self: self.sent_rounds)
        @rule(data=st.data(), htmx=st.booleans())
        def replay_an_earlier_submission(self, data, htmx):
            number, heads, drawn = data.draw(st.sampled_from(self.sent_rounds))
            self.submit(number, heads, htmx, drawn)

        @precondition(lambda self: self.model.rounds)
        @rule(htmx=st.booleans())
        def cancel_the_last_round(self, htmx):
            self.send_cancel(len(self.model.rounds), self.model.version, htmx)

        def send_cancel(self, number, drawn, htmx):
            expected = self.model.cancel(number, drawn)
            data = {"number": str(number), "version": str(drawn)}
            response = self.post(f"{self.url}/manches/annuler", data, htmx)
            self.sent_cancels.append((number, drawn))
            if expected == "changed":
                assert response.status_code == 409
            else:
                assert response.status_code == (200 if htmx else 303)

        @rule(data=st.data(), htmx=st.booleans())
        def double_tap_a_possible_round(self, data, htmx):
            heads = data.draw(possible_round(len(self.model.players)))
            number = len(self.model.rounds) + 1
            drawn = self.model.version
            self.submit(number, heads, htmx, drawn)
            self.submit(number, heads, htmx, drawn)

        @precondition(lambda self: self.model.rounds)
        @rule(htmx=st.booleans())
        def double_tap_cancel(self, htmx):
            self.cancel_the_last_round(htmx)
            self.send_cancel(*self.sent_cancels[-1], htmx)

        @precondition(lambda self: self.sent_cancels)
        @rule(data=st.data(), htmx=st.booleans())
        def replay_an_earlier_cancel(self, data, htmx):
            self.send_cancel(*data.draw(st.sampled_from(self.sent_cancels)), htmx)

        @rule()
        def reload(self):
            response = self.client.get(self.url)
            assert response.status_code == 200
            check_page_equals_model(parse(response.data), self.model)
            # The export reads the sheet each write keeps in its game's row (reads.all_games).
            exported = self.client.get("/historique/export.json").get_json()["games"]
            assert [record["rounds"] for record in exported] == [self.model.rounds]

        @invariant()
        def the_page_shows_the_model(self):
            response = self.client.get(self.url, headers={"HX-Request": "true"})
            check_page_equals_model(parse(response.data), self.model)

    run_state_machine_as_test(
        GameAtTheTable,
        settings=settings(
            max_examples=25,
            stateful_step_count=15,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
        ),
    )


# SQLite only (not marked storage): the machine sends about a thousand requests, which takes over
# a minute on PostgreSQL here; the same service code runs on both, and the PostgreSQL-specific
# behaviour (row locks, types) is covered by the storage tests and the concurrency tests.
def test_the_page_always_shows_what_a_paper_sheet_would(app):
    run_machine(app)
