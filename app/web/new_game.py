"""The new-game flow: the form that seats the players, « Ajouter un joueur », and starting the
game it describes."""

from __future__ import annotations

import secrets

from flask import Blueprint, render_template, request, url_for
from flask.typing import ResponseReturnValue
from werkzeug.datastructures import MultiDict

from app import rules
from app.platform import rate_limits
from app.platform.devices import claim_device, current_device_hash
from app.services import games, reads
from app.services.refusals import GameNotFound
from app.web.forms import NewGameForm
from app.web.htmx import go_to, is_htmx
from app.web.refusals import shown

bp = Blueprint("new_game", __name__)


@bp.get("/parties/nouvelle")
def new_game() -> str:
    """Show the form that seats the players: empty, or filled from its address (what was typed
    before a language link was followed: static/app.js), or with the names of the game the
    table just played (« Autre jeu, même table »: `?after=<its id>`)."""
    typed = MultiDict(request.args)
    after = typed.get("after", "")
    if after and not any(name.startswith("players-") for name in typed):
        try:
            names = reads.find_game(after, current_device_hash()).scoresheet.players
        except GameNotFound:  # not a game of this phone (any more): a plain new game
            del typed["after"]
        else:
            typed.update({f"players-{seat}": name for seat, name in enumerate(names)})
    form = NewGameForm(typed or None, data={"key": secrets.token_urlsafe(16)})
    return render_template("game/new_game.html", form=form, refusal=None, focus=None)


def _adding_a_player() -> bool:
    # « Ajouter un joueur » sends the new-game form to get one more field: it creates nothing,
    # and a table typing ten names must not spend its games on it (like reading a page).
    return "ajouter" in request.form


def _creates_nothing() -> bool:
    """Whether the new-game form sent creates no game: « Ajouter un joueur », names or a rule
    the form refuses (thirty refused forms left a café's phone no game for an hour), or the
    same form again (a double tap)."""
    if _adding_a_player():
        return True
    form = NewGameForm(request.form)
    try:
        if games.already_created(current_device_hash(), form.creation_key()):
            return True
        rules.seat_players(form.typed_names(), form.game_rules().game.max_players)
    except rules.Refusal:
        return True
    return False


@bp.post("/parties")
@rate_limits.game_creations(exempt_when=_creates_nothing)
def create_game() -> ResponseReturnValue:
    """Start a game with the names typed, or show the form again with what is wrong."""
    form = NewGameForm(request.form)
    if _adding_a_player():
        form, focus = _with_one_more_field(form)
        return _new_game_form(form, status=200, focus=focus)
    try:
        game = games.start_game(
            claim_device(),
            form.typed_names(),
            form.game_rules(),
            form.creation_key(),
            after=form.after.data or None,
        )
    except rules.Refusal as refusal:  # the form's own, or names that cannot sit at a table
        return _new_game_form(form, refusal, status=422)
    return go_to(url_for("game.game", public_id=game.public_id))


def _with_one_more_field(form: NewGameForm) -> tuple[NewGameForm, str | None]:
    """Return the same form with one more empty name field (up to the most players the chosen
    game seats), and the name of that field, to focus it."""
    count = len(form.players.entries)
    if count >= form.most_players():
        return form, None
    data = MultiDict(request.form)
    data[f"players-{count}"] = ""
    return NewGameForm(data), f"players-{count}"


def _new_game_form(
    form: NewGameForm,
    refusal: rules.Refusal | None = None,
    *,
    status: int,
    focus: str | None = None,
) -> tuple[str, int]:
    template = "game/_new_game_form.html" if is_htmx() else "game/new_game.html"
    page = render_template(template, form=form, refusal=shown(refusal), focus=focus)
    return page, status
