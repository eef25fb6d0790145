"""Pages that help at the table: the round assistant, « Compter les têtes », « Règles du jeu »."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from flask_babel import ngettext

from app import rules
from app.platform import rate_limits
from app.platform.devices import current_device_hash
from app.rules.games import six_nimmt
from app.services import reads, round_assistant
from app.web.forms import (
    FIELD,
    cards_typed,
    carried_scores,
    pile_typed,
    typed_fields,
    whole_number,
)
from app.web.htmx import is_htmx, vary_on_htmx
from app.web.refusals import said, shown

bp = Blueprint("assistant", __name__)


@bp.get("/regles")
def game_rules() -> str:
    """Show the rules of the game in the product's words, with the heads of every card."""
    return render_template("assistant/rules.html", cards_by_heads=six_nimmt.cards_by_heads())


@bp.get("/parties/<public_id>/compter")
def count(public_id: str) -> ResponseReturnValue:
    """Count the heads of the cards typed, naming any number that is not a card of this game;
    the heads already typed in the round form come along and go back with the count."""
    found = reads.find_game(public_id, current_device_hash())
    if rules.Tool.HEAD_COUNT not in found.scoresheet.rules.game.tools:  # 6 qui prend's heads
        abort(404)
    sheet = found.scoresheet
    kept = carried_scores(request.args, len(sheet.players))
    typed = request.args.get("cartes", "")[:1000]
    seat = whole_number(request.args.get("joueur"))
    cards: tuple[int, ...] = ()
    refusal: rules.Refusal | None = None
    if "cartes" in request.args:
        try:
            cards = six_nimmt.check_pile(
                pile_typed(typed), len(sheet.players), six_nimmt.pro_deck(sheet.rules.variants)
            )
        except rules.Refusal as refused:
            refusal = refused
    page = render_template(
        "assistant/count.html",
        game=found,
        sheet=sheet,
        typed=typed,
        seat=seat if seat is not None and seat < len(sheet.players) else None,
        detail=[(card, six_nimmt.heads(card)) for card in cards],
        total=six_nimmt.row_heads(cards),
        refusal=shown(refusal),
        kept={f"{FIELD}-{seat}": score for seat, score in kept.items()},
    )
    return page, 422 if refusal else 200


@bp.get("/parties/<public_id>/assistant")
def assistant(public_id: str) -> Response:
    """Show the round assistant: the rows, the turn to place, or the choice a player must make."""
    current = round_assistant.assistant(public_id, current_device_hash())
    if current.dropped:
        flash(
            _(
                "La manche %(number)s a été saisie à la main : "
                "l’assistant a laissé de côté les tours qu’il avait placés.",
                number=current.dropped,
            ),
            "info",
        )
    typed = request.args.get("reprendre", "")[:200].split()  # a turn taken back, to type again
    return vary_on_htmx(current_app.make_response(_page(current, typed=typed)))


@bp.post("/parties/<public_id>/assistant/rangees")
@rate_limits.writes
def lay_rows(public_id: str) -> ResponseReturnValue:
    """Lay the four cards that start the rows."""
    typed = typed_fields(request.form, "row", six_nimmt.ROWS)
    number = whole_number(request.form.get("number"))
    return _step(
        public_id,
        typed,
        lambda cards: round_assistant.lay_rows(
            public_id, _device(), number, cards, version=_version()
        ),
    )


@bp.post("/parties/<public_id>/assistant/rangees/reprendre")
@rate_limits.writes
def clear_rows(public_id: str) -> ResponseReturnValue:
    """Pick the rows up again before any turn, to lay them anew."""
    number = whole_number(request.form.get("number"))
    return _step(
        public_id,
        [],
        lambda _cards: round_assistant.clear_rows(public_id, _device(), number, version=_version()),
    )


@bp.post("/parties/<public_id>/assistant/tours")
@rate_limits.writes
def place_cards(public_id: str) -> ResponseReturnValue:
    """Place the cards the players revealed, or stop at the card whose player must choose."""
    typed = typed_fields(request.form, "card", rules.MAX_PLAYERS)
    turn = whole_number(request.form.get("turn"))
    return _step(
        public_id,
        typed,
        lambda cards: round_assistant.place_cards(
            public_id, _device(), turn, cards, version=_version()
        ),
    )


@bp.post("/parties/<public_id>/assistant/choix")
@rate_limits.writes
def choose_row(public_id: str) -> ResponseReturnValue:
    """Let the player of the too-low card take the row they chose."""
    turn, row = whole_number(request.form.get("turn")), whole_number(request.form.get("row"))
    return _step(
        public_id,
        [],
        lambda _cards: round_assistant.choose_row(
            public_id, _device(), turn, row, version=_version()
        ),
    )


@bp.post("/parties/<public_id>/assistant/annuler")
@rate_limits.writes
def take_back_turn(public_id: str) -> ResponseReturnValue:
    """Take back the last turn (with its row choice), once per tap."""
    turn = whole_number(request.form.get("turn"))
    return _step(
        public_id,
        [],
        lambda _cards: round_assistant.take_back_turn(
            public_id, _device(), turn, version=_version()
        ),
        done=_(
            "Tour %(number)s annulé : ses cartes sont reprises, à placer de nouveau.", number=turn
        ),
    )


def _device() -> str | None:
    return current_device_hash()


def _version() -> int | None:
    """The version of the game the step's page was drawn from (refusals.check_version)."""
    return whole_number(request.form.get("version"))


def _step(
    public_id: str,
    typed: list[str],
    write: Callable[[list[int | None]], round_assistant.Assistant],
    done: str | None = None,
) -> ResponseReturnValue:
    """Do one step of the assistant from the cards typed; answer it, or show what is wrong."""
    try:
        current = write(cards_typed(typed))
    except rules.Refusal as unreadable:  # the form's own: text that is not a number
        current = round_assistant.assistant(public_id, _device())
        return _page(current, refusal=unreadable, typed=typed, status=422)
    except round_assistant.CardsRefused as refused:
        return _page(refused.assistant, refusal=refused.refusal, typed=typed, status=422)
    except round_assistant.SheetChanged as changed:
        return _page(changed.assistant, refusal=changed.refusal, typed=typed, status=409)
    except round_assistant.StaleStep as stale:
        flash(" ".join([said(stale.refusal), _("Voici la table à jour.")]), "info")
        return _answer(stale.assistant)
    if done:
        flash(done, "info")
    return _answer(current)


def _answer(current: round_assistant.Assistant) -> ResponseReturnValue:
    """Answer a step that went through: the assistant's live part for htmx, else a redirect to
    its page (Post/Redirect/Get), carrying the cards of a turn taken back."""
    if is_htmx():
        return _page(current, typed=[str(card) for card in current.taken_back])
    again = " ".join(map(str, current.taken_back)) or None  # None: no argument at all
    return redirect(
        url_for("assistant.assistant", public_id=current.game.public_id, reprendre=again), 303
    )


@dataclass(frozen=True)
class RowView:
    """A row as the page shows it: its number, its cards with their heads, its heads in all."""

    number: int
    cards: tuple[tuple[int, int], ...]
    heads: int


def _rows_view(rows_round: six_nimmt.RowsRound | None) -> list[RowView]:
    if rows_round is None:
        return []
    return [
        RowView(
            number, tuple((card, six_nimmt.heads(card)) for card in row), six_nimmt.row_heads(row)
        )
        for number, row in enumerate(rows_round.rows, start=1)
    ]


def _story(rows_round: six_nimmt.RowsRound | None, names: Sequence[str]) -> list[str]:
    """Say what the last placed turn did, card by card, from the lowest."""
    if rows_round is None or not rows_round.placed or rows_round.waiting:
        return []
    lines = []
    for placement in rows_round.placed[-1].placements:
        name, card, row = names[placement.seat], placement.card, placement.row + 1
        count = six_nimmt.row_heads(placement.taken)
        taken = ngettext(
            "%(cards)s : %(num)d tête",
            "%(cards)s : %(num)d têtes",
            count,
            cards=" ".join(map(str, placement.taken)),
        )
        said = {"name": name, "card": card, "row": row, "taken": taken}
        if isinstance(placement, six_nimmt.SixthCard):
            lines.append(
                _(
                    "%(name)s pose le %(card)s en 6e carte de la rangée %(row)s "
                    "et en ramasse les cinq cartes (%(taken)s).",
                    **said,
                )
            )
        elif isinstance(placement, six_nimmt.RowChosen):
            lines.append(
                _(
                    "%(name)s ramasse la rangée %(row)s (%(taken)s) : "
                    "le %(card)s était trop petit.",
                    **said,
                )
            )
        else:
            lines.append(_("%(name)s : le %(card)s va sur la rangée %(row)s.", **said))
    return lines


def _page(
    current: round_assistant.Assistant,
    *,
    refusal: rules.Refusal | None = None,
    typed: Sequence[str] = (),
    status: int = 200,
) -> tuple[str, int]:
    """Render the assistant: its live part (and the messages) for htmx, the whole page otherwise."""
    template = "assistant/_update.html" if is_htmx() else "assistant/assistant.html"
    return render_template(
        template,
        assistant=current,
        game=current.game,
        sheet=current.game.scoresheet,
        rows_round=current.rows_round,
        row_labels=round_assistant.ROW_LABELS,
        rows=_rows_view(current.rows_round),
        story=_story(current.rows_round, current.game.scoresheet.players),
        story_turn=current.turn_count,
        typed=list(typed),
        refusal=shown(refusal),
    ), status
