"""Export games to CSV and JSON, and import them back from that JSON (see docs/export-format.md).

CSV headers and import refusals are in the request's language (French outside a request); the
JSON format itself is the same in every language.
"""

from __future__ import annotations

import csv
import io
import json
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from flask_babel import gettext as _

from app import rules
from app.platform.languages import translate
from app.storage.models import Game

FORMAT = "six-qui-prend"
VERSION = 1
MAX_GAMES = 5000
EARLIEST_DATE = datetime(2000, 1, 1)
LONGEST_NUMBER = 9  # digits: any count in an export has far fewer
MAX_ERRORS_SHOWN = 20


class ImportRefused(Exception):
    """A file that cannot be imported; nothing from it is kept."""

    def __init__(self, errors: list[str]):
        super().__init__("; ".join(errors))
        self.errors = errors


@dataclass(frozen=True)
class ImportedGame:
    origin_id: str
    created_at: datetime
    sheet: rules.Scoresheet


def _iso(moment: datetime | None) -> str | None:
    return moment.replace(tzinfo=UTC).isoformat().replace("+00:00", "Z") if moment else None


def game_record(game: Game) -> dict[str, Any]:
    sheet = game.scoresheet
    return {
        "id": game.origin_id or game.public_id,
        "created_at": _iso(game.created_at),
        "rules": {
            "end": game.end_rule,
            "limit": game.limit,
            "round_count": game.round_count,
            "pro": game.pro,
        },
        "players": list(sheet.players),
        "rounds": [list(heads) for heads in sheet.rounds],
        "totals": sheet.totals,
        "winners": [sheet.players[seat] for seat in sorted(sheet.winners)],
    }


def export_json(games: Iterable[Game]) -> str:
    document = {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": _iso(datetime.now(UTC).replace(tzinfo=None)),
        "games": [game_record(game) for game in games],
    }
    return json.dumps(document, ensure_ascii=False, indent=1)


class _SpreadsheetWriter:
    """A CSV writer for spreadsheets: a BOM so Excel reads UTF-8, and no cell read as a formula."""

    def __init__(self, out: io.StringIO):
        out.write("\ufeff")
        self._writer = csv.writer(out)

    def writerow(self, cells: Iterable[Any]) -> None:
        # A name like « =1+2 » or « @SUM(A1) » would run as a formula when the file is opened.
        self._writer.writerow(
            "'" + cell
            if isinstance(cell, str) and cell[:1] in ("=", "+", "-", "@", "\t", "\r")
            else cell
            for cell in cells
        )


def game_csv(game: Game) -> str:
    """One row per round, one column per player, as a spreadsheet would hold the paper sheet."""
    sheet = game.scoresheet
    out = io.StringIO()
    writer = _SpreadsheetWriter(out)
    writer.writerow([_("Manche"), *sheet.players])
    for number, heads in enumerate(sheet.rounds, start=1):
        writer.writerow([number, *heads])
    return out.getvalue()


def games_csv(games: Iterable[Game]) -> str:
    """All games: one row per round; the seats' names and heads side by side."""
    out = io.StringIO()
    writer = _SpreadsheetWriter(out)
    seats = range(1, rules.MAX_PLAYERS + 1)
    per_seat = [(_("Joueur %(number)s", number=s), _("Têtes %(number)s", number=s)) for s in seats]
    writer.writerow([_("Partie"), _("Date"), _("Manche"), *[c for pair in per_seat for c in pair]])
    for game in games:
        sheet = game.scoresheet
        for number, heads in enumerate(sheet.rounds, start=1):
            pairs = [v for name, h in zip(sheet.players, heads, strict=True) for v in (name, h)]
            writer.writerow(
                [game.origin_id or game.public_id, _iso(game.created_at), number, *pairs]
            )
    return out.getvalue()


def _parse_time(value: Any) -> datetime:
    """Return a creation date as stored (UTC, naive), within the years the counter can have seen."""
    if not isinstance(value, str):
        raise ValueError(_("date de création absente"))
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
        if moment.tzinfo is not None:
            moment = moment.astimezone(UTC).replace(tzinfo=None)
    except (ValueError, OverflowError):  # not a date, or one that leaves the calendar in UTC
        raise ValueError(
            _("date de création illisible (%(date)s)", date=repr(value[:40]))
        ) from None
    # Far dates break the pages that show them in local time; no game was played before 2000
    # nor tomorrow (a day of margin for a phone whose clock runs ahead).
    if not EARLIEST_DATE <= moment <= datetime.now(UTC).replace(tzinfo=None) + timedelta(days=1):
        raise ValueError(
            _(
                "date de création impossible (%(date)s) : elle doit être entre l’an 2000 et "
                "aujourd’hui",
                date=value[:40],
            )
        )
    return moment


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _parse_rules(raw: Any) -> rules.GameRules:
    if not isinstance(raw, dict):
        raise ValueError(_("règles absentes"))
    limit = raw.get("limit", rules.DEFAULT_LIMIT)
    round_count = raw.get("round_count")
    pro = raw.get("pro", False)
    if not _whole(limit) or not (round_count is None or _whole(round_count)):
        raise ValueError(_("règles invalides : la limite et le nombre de manches sont des entiers"))
    if not isinstance(pro, bool):
        raise ValueError(_("règles invalides : « pro » vaut true ou false"))
    try:
        return rules.GameRules(
            end=rules.EndRule(raw.get("end", "above")),
            limit=limit,
            round_count=round_count,
            pro=pro,
        )
    except rules.Refusal as error:
        raise ValueError(
            _("règles de fin de partie invalides : %(why)s", why=_said(error))
        ) from error
    except ValueError as error:  # an end rule that does not exist
        raise ValueError(_("règles invalides : fin de partie inconnue")) from error


def _parse_game(raw: Any) -> ImportedGame:
    if not isinstance(raw, dict):
        raise ValueError(_("ce n’est pas une partie"))
    origin = raw.get("id")
    if not isinstance(origin, str) or not 1 <= len(origin) <= 64 or not origin.isprintable():
        raise ValueError(_("identifiant absent ou invalide"))
    created = _parse_time(raw.get("created_at"))
    game_rules = _parse_rules(raw.get("rules"))
    names = raw.get("players")
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise ValueError(_("liste de joueurs invalide"))
    try:
        players = rules.seat_players(names)
    except rules.Refusal as error:
        why = _said(error)
        raise ValueError(_("joueurs invalides : %(why)s", why=why)) from error
    if len(players) != len(names):
        raise ValueError(_("joueurs invalides : nom vide"))
    rounds = raw.get("rounds")
    if not isinstance(rounds, list):
        raise ValueError(_("liste des manches invalide"))
    sheet = rules.Scoresheet(tuple(players), (), game_rules)
    for number, heads in enumerate(rounds, start=1):
        if not isinstance(heads, list) or len(heads) != len(players) or not all(map(_whole, heads)):
            raise ValueError(
                _("manche %(number)s : il faut un nombre entier par joueur", number=number)
            )
        if sheet.is_over:
            raise ValueError(_("manche %(number)s : la partie était déjà terminée", number=number))
        try:
            checked = sheet.check_round(heads)
        except rules.Refusal as error:
            raise ValueError(
                _("manche %(number)s : %(why)s", number=number, why=_said(error))
            ) from error
        sheet = sheet.with_round(checked)
    return ImportedGame(origin, created, sheet)


def _said(refusal: rules.Refusal) -> str:
    return " ".join(translate(m) for m in [*refusal.fields.values(), *refusal.whole])


def _printable(text: str) -> str:
    """Return text fit to show in a message: control, format and broken characters (a lone
    surrogate cannot even be encoded in a page) become « � »."""
    return "".join("\ufffd" if unicodedata.category(char)[0] == "C" else char for char in text)


def _refusal(number: int, raw: Any, why: str) -> str:
    """Say what is wrong with a game, named by its place in the file and its first players."""
    names = raw.get("players") if isinstance(raw, dict) else None
    if isinstance(names, list) and names and all(isinstance(n, str) for n in names):
        players = ", ".join(n[:30] for n in names[:4])
        return _(
            "Partie %(number)s (%(players)s) : %(why)s", number=number, players=players, why=why
        )
    return _("Partie %(number)s : %(why)s", number=number, why=why)


class _NumberTooLong(ValueError):
    def __init__(self, digits: int):
        super().__init__(digits)
        self.digits = digits


def _small_int(text: str) -> int:
    # Python refuses to read integers of thousands of digits (ValueError, deep in json); refuse
    # them here, sooner and with a message of our own.
    if len(text.lstrip("-")) > LONGEST_NUMBER:
        raise _NumberTooLong(len(text.lstrip("-")))
    return int(text)


def parse_export(data: bytes) -> list[ImportedGame]:
    """Return the games of an exported file, every round checked, or raise ImportRefused."""
    try:
        document = json.loads(data.decode("utf-8-sig"), parse_int=_small_int)
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise ImportRefused([_("Ce fichier n’est pas un export JSON de parties.")]) from None
    except _NumberTooLong as error:
        raise ImportRefused(
            [
                _(
                    "Ce fichier contient un nombre de %(digits)s chiffres : ce n’est pas un "
                    "export.",
                    digits=error.digits,
                )
            ]
        ) from None
    except RecursionError:  # the decoder recurses once per level of [ or {
        raise ImportRefused(
            [_("Ce fichier est imbriqué bien trop profondément : ce n’est pas un export.")]
        ) from None
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise ImportRefused([_("Ce fichier n’est pas un export du compteur « 6 qui prend ! ».")])
    if type(document.get("version")) is not int or document["version"] != VERSION:
        raise ImportRefused(
            [
                _(
                    "Version de fichier %(version)s inconnue (attendu : %(expected)s).",
                    version=repr(document.get("version")),
                    expected=VERSION,
                )
            ]
        )
    raw_games = document.get("games")
    if not isinstance(raw_games, list) or len(raw_games) > MAX_GAMES:
        raise ImportRefused(
            [_("La liste des parties est absente ou dépasse %(most)s parties.", most=MAX_GAMES)]
        )
    games, errors = [], []
    for index, raw in enumerate(raw_games, start=1):
        try:
            games.append(_parse_game(raw))
        except ValueError as error:
            errors.append(_printable(_refusal(index, raw, str(error))))
    if len(errors) > MAX_ERRORS_SHOWN:
        hidden = len(errors) - MAX_ERRORS_SHOWN
        errors = [*errors[:MAX_ERRORS_SHOWN], _("… et %(count)s autres.", count=hidden)]
    if errors:
        raise ImportRefused(errors)
    return games
