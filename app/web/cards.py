"""« Compter les cartes »: a round counted from each player's cards, as the game declares its count
(RoundGame.card_count), then put into the game's round form, to check and validate there."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from urllib.parse import urlencode

from flask import Blueprint, abort, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue

from app import rules
from app.platform.devices import current_device_hash
from app.platform.languages import translate
from app.services import reads
from app.web.forms import FIELD
from app.web.refusals import shown

bp = Blueprint("cards", __name__)

HAND = "hand"  # a player's field (or boxes): `hand-0`, `hand-1`…
REPORT = "report"  # the button « Reporter dans la manche »
LONGEST_HAND = 200  # characters typed, or boxes sent, read for one player: far more than a hand


@dataclass(frozen=True)
class HandView:
    """A player's hand as the page shows it: what was ticked or typed, kept as sent; its score
    and how it was made (blank until counted); what is wrong with it."""

    seat: int
    name: str
    typed: tuple[str, ...]
    sum: str = ""
    notes: tuple[str, ...] = ()
    error: str = ""

    @property
    def text(self) -> str:
        """The text typed (a hand typed rather than ticked)."""
        return " ".join(self.typed)


@bp.route("/parties/<public_id>/cartes", methods=["GET", "POST"])
def count_cards(public_id: str) -> ResponseReturnValue:
    """Show each player's cards to tick or type; count them and check them against the deck
    (« Compter »), or put the scores into the game's round form (« Reporter dans la manche »).

    A count writes nothing: the POST is answered with the page itself (no redirect to follow),
    and static/cards.js sends the same form as the person taps."""
    found = reads.find_game(public_id, current_device_hash())
    sheet = found.scoresheet
    picker = sheet.rules.game.card_count
    if picker is None:
        abort(404)
    typed = [_typed(seat) for seat in range(len(sheet.players))]
    counted: Sequence[rules.CountedHand | None] = [None] * len(typed)
    refusal: rules.Refusal | None = None
    if request.method == "POST":
        try:
            counted = picker.count_round(typed, sheet.players)
        except rules.Refusal as refused:
            refusal = refused
            counted = [_hand_alone(picker, hand) for hand in typed]
        if refusal is None and REPORT in request.form and not sheet.is_over:
            # The game's page keeps them for its round form, which always records the next
            # round: one recorded meanwhile on another phone is never written over.
            scores = {f"{FIELD}-{seat}": hand.score for seat, hand in enumerate(counted) if hand}
            return redirect(f"{url_for('game.game', public_id=public_id)}?{urlencode(scores)}", 303)
    fields = refusal.fields if refusal else {}
    hands = [
        HandView(
            seat,
            name,
            typed[seat],
            hand.sum if hand else "",
            tuple(translate(note) for note in hand.notes) if hand else (),
            translate(fields[seat]) if seat in fields else "",
        )
        for seat, (name, hand) in enumerate(zip(sheet.players, counted, strict=True))
    ]
    page = render_template(
        "cards/count.html",
        game=found,
        sheet=sheet,
        picker=picker,
        hands=hands,
        refusal=shown(refusal),
        links={hand.seat: (f"{HAND}-{hand.seat}", hand.name) for hand in hands},
    )
    return page, 422 if refusal else 200


def _typed(seat: int) -> tuple[str, ...]:
    """What the form sent for a player, cut to what a hand could hold (a hand-made form)."""
    if request.method != "POST":
        return ()
    values = request.form.getlist(f"{HAND}-{seat}")[:LONGEST_HAND]
    return tuple(value[:LONGEST_HAND] for value in values)


def _hand_alone(picker: rules.CardCount, typed: Sequence[str]) -> rules.CountedHand | None:
    """Count a hand on its own, in a round the deck refused: its score still shows beside it."""
    try:
        return picker.count_hand(typed)
    except rules.Refusal:
        return None
