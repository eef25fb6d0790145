"""A fifth game, defined here and shipped nowhere (issue 44): the proof that a game is one module.

Scored in points to 500, lowest total wins, a round names who ended it, and that player is NOT
doubled (Skyjo's rule would be wrong here, online and offline). The tests register it in
app.rules.GAMES — the integration tests with monkeypatch, the browser tests in the server they
start (`serve`) — and change no file of the app for it.
"""

from __future__ import annotations

from collections.abc import Sequence

from flask import Flask

from app import create_app, rules
from app.rules import N_, Best, EndRule, Message, Refusal, RoundGame, RoundScores

HIGHEST_SCORE = 200


class FiveHundred(RoundGame):
    key = "cinq-cents"
    # Words of its own, in no catalog: every language shows them as written here.
    name = Message("Cinq cents")
    summary = Message(
        "De 2 à 6 joueurs ; le plus petit total gagne ; fin dès qu’un total atteint 500."
    )
    min_players = 2
    max_players = 6
    best = Best.LOWEST
    default_end = EndRule.AT_OR_ABOVE
    default_limit = 500
    ends = (EndRule.AT_OR_ABOVE, EndRule.ROUNDS)
    bgg_id = None
    bgstats_name = "Cinq cents"
    round_ender = True  # who ended the round is said, and changes nothing to the points
    score_range = (0, HIGHEST_SCORE)
    close_to_end = 50

    def check_round(
        self, typed: RoundScores, players: Sequence[str], variants: frozenset[str] = frozenset()
    ) -> RoundScores:
        """Take scores of 0 to 200, and a round that says who ended it."""
        if len(typed.scores) != len(players):
            raise Refusal.of(N_("Il faut %(players)s scores, un par joueur.", players=len(players)))
        errors = {
            seat: Message("De 0 à 200 points.")
            for seat, score in enumerate(typed.scores)
            if not 0 <= score <= HIGHEST_SCORE
        }
        whole = []
        if typed.ended_by is None or not 0 <= typed.ended_by < len(players):
            whole.append(Message("Dites qui a fini la manche."))
        if errors or whole:
            raise Refusal(errors, whole)
        return typed


FIVE_HUNDRED = FiveHundred()


def serve() -> Flask:
    """Return the app as gunicorn serves it, the fifth game registered in this process
    (tests/e2e/test_fifth_game.py: `tests.fifth_game:serve()`)."""
    rules.GAMES[FIVE_HUNDRED.key] = FIVE_HUNDRED
    return create_app(migrations=False)
