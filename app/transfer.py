"""Export games to CSV and JSON, and import them back from that JSON (see docs/export-format.md)."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from app import rules
from app.models import Game

FORMAT = "six-qui-prend"
VERSION = 1
MAX_GAMES = 5000


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
    writer.writerow(["Manche", *sheet.players])
    for number, heads in enumerate(sheet.rounds, start=1):
        writer.writerow([number, *heads])
    return out.getvalue()


def games_csv(games: Iterable[Game]) -> str:
    """All games: one row per round; the seats' names and heads side by side."""
    out = io.StringIO()
    writer = _SpreadsheetWriter(out)
    seats = range(1, rules.MAX_PLAYERS + 1)
    writer.writerow(
        ["Partie", "Date", "Manche", *[c for s in seats for c in (f"Joueur {s}", f"Têtes {s}")]]
    )
    for game in games:
        sheet = game.scoresheet
        for number, heads in enumerate(sheet.rounds, start=1):
            pairs = [v for name, h in zip(sheet.players, heads, strict=True) for v in (name, h)]
            writer.writerow(
                [game.origin_id or game.public_id, _iso(game.created_at), number, *pairs]
            )
    return out.getvalue()


def _parse_time(value: Any) -> datetime | None:
    if not isinstance(value, str):
        return None
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC).replace(tzinfo=None)
    return moment


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _parse_rules(raw: Any) -> rules.GameRules:
    if not isinstance(raw, dict):
        raise ValueError("règles absentes")
    limit = raw.get("limit", rules.DEFAULT_LIMIT)
    round_count = raw.get("round_count")
    pro = raw.get("pro", False)
    if not _whole(limit) or not (round_count is None or _whole(round_count)):
        raise ValueError("règles invalides : la limite et le nombre de manches sont des entiers")
    if not isinstance(pro, bool):
        raise ValueError("règles invalides : « pro » vaut true ou false")
    try:
        return rules.GameRules(
            end=rules.EndRule(raw.get("end", "above")),
            limit=limit,
            round_count=round_count,
            pro=pro,
        )
    except (ValueError, rules.InvalidGameRules) as error:
        raise ValueError(f"règles de fin de partie invalides ({error})") from error


def _parse_game(raw: Any) -> ImportedGame:
    if not isinstance(raw, dict):
        raise ValueError("ce n’est pas une partie")
    origin = raw.get("id")
    if not isinstance(origin, str) or not 1 <= len(origin) <= 64 or not origin.isprintable():
        raise ValueError("identifiant absent ou invalide")
    created = _parse_time(raw.get("created_at"))
    if created is None:
        raise ValueError("date de création absente ou invalide")
    game_rules = _parse_rules(raw.get("rules"))
    names = raw.get("players")
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise ValueError("liste de joueurs invalide")
    try:
        players = rules.seat_players(names)
    except rules.InvalidPlayers as error:
        raise ValueError(f"joueurs invalides : {error}") from error
    if len(players) != len(names):
        raise ValueError("joueurs invalides : nom vide")
    rounds = raw.get("rounds")
    if not isinstance(rounds, list):
        raise ValueError("liste des manches invalide")
    sheet = rules.Scoresheet(tuple(players), (), game_rules)
    for number, heads in enumerate(rounds, start=1):
        if not isinstance(heads, list) or len(heads) != len(players) or not all(map(_whole, heads)):
            raise ValueError(f"manche {number} : il faut un nombre entier par joueur")
        try:
            checked = sheet.check_round(heads)
        except rules.InvalidRound as error:
            raise ValueError(f"manche {number} : {error}") from error
        except rules.GameOver:
            raise ValueError(f"manche {number} : la partie était déjà terminée") from None
        sheet = sheet.with_round(checked)
    return ImportedGame(origin, created, sheet)


def _who(raw: Any) -> str:
    """Name a game in an error message by its first players, when they can be read."""
    names = raw.get("players") if isinstance(raw, dict) else None
    if isinstance(names, list) and names and all(isinstance(n, str) for n in names):
        return f" ({', '.join(n[:30] for n in names[:4])})"
    return ""


def parse_export(data: bytes) -> list[ImportedGame]:
    """Return the games of an exported file, every round checked, or raise ImportRefused."""
    try:
        document = json.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise ImportRefused(["Ce fichier n’est pas un export JSON de parties."]) from None
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise ImportRefused(["Ce fichier n’est pas un export du compteur « 6 qui prend ! »."])
    if type(document.get("version")) is not int or document["version"] != VERSION:
        raise ImportRefused(
            [f"Version de fichier {document.get('version')!r} inconnue (attendu : {VERSION})."]
        )
    raw_games = document.get("games")
    if not isinstance(raw_games, list) or len(raw_games) > MAX_GAMES:
        raise ImportRefused([f"La liste des parties est absente ou dépasse {MAX_GAMES} parties."])
    games, errors = [], []
    for index, raw in enumerate(raw_games, start=1):
        try:
            games.append(_parse_game(raw))
        except ValueError as error:
            errors.append(f"Partie {index}{_who(raw)} : {error}")
    if errors:
        raise ImportRefused(errors)
    return games
