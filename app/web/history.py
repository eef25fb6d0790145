"""The games kept on this phone: past games, statistics, export and import."""

from __future__ import annotations

import gc
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, TypeVar, cast

from flask import (
    Blueprint,
    Response,
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
from app.platform import rate_limits, security
from app.platform.devices import claim_device, current_device_hash
from app.platform.languages import current_language, translate
from app.rules import N_
from app.services import import_file, imports, reads, story, transfer
from app.services.statistics import chosen_game, game_stats, sorted_stats
from app.web.refusals import shown

bp = Blueprint("history", __name__)
T = TypeVar("T")


@bp.get("/historique")
def history() -> ResponseReturnValue:
    """List this device's games, newest first, a page at a time."""
    page = min(max(request.args.get("page", default=1, type=int) or 1, 1), 100_000)
    result = reads.history(current_device_hash(), page, current_app.config["HISTORY_PAGE_SIZE"])
    if page > 1 and not result.games:
        # Past the last page (games deleted since it was linked, an address typed): it said « no
        # game on this device » to a phone that has some, with no way back.
        return redirect(url_for("history.history"))
    return render_template("history/history.html", history=result)


@bp.get("/statistiques")
@rate_limits.heavy
def statistics() -> str:
    """Show per-player statistics over this device's finished games of one game (`jeu`, else the
    most played), sorted by a column, with links to the other games played."""
    device = current_device_hash()
    games = _kept(
        ("statistics", device, reads.history_mark(device)),
        lambda: game_stats(game.scoresheet for game in reads.all_games(device)),
    )
    shown = chosen_game(games, request.args.get("jeu"))
    lines, key, order = sorted_stats(
        shown.lines if shown else [],
        request.args.get("tri", ""),
        request.args.get("ordre"),
        shown.best if shown else rules.Best.LOWEST,
    )
    return render_template(
        "history/statistics.html", games=games, shown=shown, lines=lines, sort=key, order=order
    )


@bp.get("/parties/<public_id>/export.<any(csv, json):kind>")
def export_game(public_id: str, kind: str) -> Response:
    """Download one game as CSV (a spreadsheet) or JSON (to import elsewhere)."""
    found = reads.find_game(public_id, current_device_hash())
    if kind == "csv":
        spreadsheet = transfer.game_csv(found, translate)
        return _download(spreadsheet, "text/csv", transfer.file_name(found, "csv"))
    # The game's story goes with it. Not with « Exporter toutes les parties »: a phone's history
    # of 3,000 games (1.4 MB) would then pass the 2 MB an import takes (docs/export-format.md).
    stories = story.stories_of(current_device_hash(), [public_id])
    document = transfer.export_json([found], stories)
    return _download(document, "application/json", transfer.file_name(found, "json"))


@bp.get("/historique/export.<any(csv, json):kind>")
@rate_limits.heavy
def export_all(kind: str) -> Response:
    """Download all of this device's games, e.g. to move them to a new phone."""
    device = current_device_hash()
    mark = reads.history_mark(device)
    if kind == "csv":
        spreadsheet = _kept(
            ("csv", device, mark, current_language()),
            lambda: transfer.games_csv(reads.all_games(device), translate),
        )
        return _download(spreadsheet, "text/csv", f"{_all_games_file()}.csv")
    document = _kept(("json", device, mark), lambda: transfer.export_json(reads.all_games(device)))
    return _download(document, "application/json", f"{_all_games_file()}.json")


def _all_games_file() -> str:
    # TRANSLATORS: the name a download of every game is saved under, before .csv or .json:
    # lowercase letters, digits and hyphens only.
    return _("6-qui-prend-parties")


# The last few statistics and exports, each under the mark of the games it was computed from
# (reads.history_mark): asked again while nothing changed, one aggregate query instead of
# reading a long history again (3,000 games: 0.2 to 0.5 s of a worker, docs/reliability.md).
_KEPT: OrderedDict[tuple[Any, ...], Any] = OrderedDict()
KEPT = 8  # an export of 3,000 games is ~1.4 MB


def _kept(key: tuple[Any, ...], compute: Callable[[], T]) -> T:
    if key in _KEPT:
        _KEPT.move_to_end(key)
        return cast(T, _KEPT[key])
    # A first reading of a long history makes a few hundred thousand objects (each game's sheet,
    # its totals, the rows out), none of them in a reference cycle: the cycle collector, run
    # again and again over them as they are made, took about 100 ms of the 250 ms of a first
    # reading of 3,000 games (docs/performance.md, « Issue 47 »). Paused while they are made.
    collecting = gc.isenabled()
    gc.disable()
    try:
        value = _KEPT[key] = compute()
    finally:
        if collecting:
            gc.enable()
    while len(_KEPT) > KEPT:
        _KEPT.popitem(last=False)
    return value


def _download(body: str, mimetype: str, filename: str) -> Response:
    response = current_app.response_class(body, mimetype=mimetype)
    response.headers.set("Content-Disposition", "attachment", filename=filename)
    # A device's games: never kept by a shared cache, nor left on disk by the browser.
    response.headers["Cache-Control"] = "private, no-store"
    return response


@bp.post("/historique/import")
@security.large_body
@rate_limits.writes
@rate_limits.heavy
def import_games() -> ResponseReturnValue:
    """Add the games of an exported file; all of them or, if one is wrong, none."""
    upload = request.files.get("fichier")
    data = upload.read() if upload else b""
    try:
        if not data and upload and upload.filename:
            raise rules.Refusal.of(
                N_("Ce fichier est vide\u202f: choisissez un fichier d’export (.json).")
            )
        if not data:
            raise rules.Refusal.of(N_("Choisissez un fichier d’export (.json) à importer."))
        imported = import_file.parse_export(data)
        device, address = claim_device(), rate_limits.address()
        # Only the games written (added, or given rounds) count against the hourly allowance:
        # a file imported again writes none, and is not refused.
        outcome = imports.import_games(
            device,
            imported,
            allow=lambda count: rate_limits.count_imported_games(count, device, address),
        )
    except rules.Refusal as refusal:
        page = reads.history(current_device_hash(), 1, current_app.config["HISTORY_PAGE_SIZE"])
        return render_template("history/history.html", history=page, refusal=shown(refusal)), 422
    flash(" ".join(_import_said(outcome)), "info")
    return redirect(url_for("history.history"), 303)


def _import_said(outcome: imports.Imported) -> list[str]:
    """What an import says it did, one sentence for each thing it did."""
    said = []
    if outcome.added or not outcome.continued:
        said.append(
            ngettext("%(num)d partie importée.", "%(num)d parties importées.", outcome.added)
            if outcome.added
            else _("Aucune partie importée.")
        )
    if outcome.continued:
        said.append(
            ngettext(
                "%(num)d partie de cet appareil complétée par les manches du fichier.",
                "%(num)d parties de cet appareil complétées par les manches du fichier.",
                outcome.continued,
            )
        )
    if outcome.already:
        said.append(
            ngettext(
                "%(num)d déjà présente sur cet appareil.",
                "%(num)d déjà présentes sur cet appareil.",
                outcome.already,
            )
        )
    if outcome.different:
        said.append(
            ngettext(
                "%(num)d partie de cet appareil diffère de sa copie du fichier : "
                "gardée telle qu’elle est ici.",
                "%(num)d parties de cet appareil diffèrent de leur copie du fichier : "
                "gardées telles qu’elles sont ici.",
                outcome.different,
            )
        )
    if outcome.left_out:
        said.append(
            ngettext(
                "%(num)d partie figure plusieurs fois dans le fichier, en copies qui diffèrent : "
                "la première a été prise, les autres laissées de côté.",
                "%(num)d parties figurent plusieurs fois dans le fichier, en copies qui "
                "diffèrent : pour chacune, la première a été prise, les autres laissées de côté.",
                outcome.left_out,
            )
        )
    return said
