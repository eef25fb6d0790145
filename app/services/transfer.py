"""Export games to CSV and JSON (see docs/export-format.md); app/services/import_file.py reads
that JSON back.

It knows the rules and nothing of the app: exports read frozen views of the games (the services'
SavedGame), and CSV headers are said through the `translate` the caller passes (French by
default). The JSON format itself is the same in every language.
"""

from __future__ import annotations

import csv
import io
import json
import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import UTC, datetime
from itertools import chain
from typing import Any, Protocol

from app import rules
from app.rules import N_, Message

FORMAT = "six-qui-prend"
VERSION = 1
MAX_GAMES = 5000
# Rounds one import may hold in all: storing them is most of an import's time (2 MB of 250,000
# short rounds: 8 s of a worker on PostgreSQL; 50,000: 3 s). A long history, 5,000 games of ten
# rounds, fits.
MAX_ROUNDS_IN_FILE = 50_000
EARLIEST_DATE = datetime(2000, 1, 1)
LONGEST_NUMBER = 9  # digits: any count in an export has far fewer
MAX_ERRORS_SHOWN = 20
# A game's story (« Le fil de la partie ») in a file: a real game has a few entries a round.
MAX_STORY_ENTRIES = 2000
MAX_PHONE_NUMBER = 999


class ExportedGame(Protocol):
    """What an export reads of a stored game (app.services.saved_game.SavedGame is one)."""

    @property
    def public_id(self) -> str: ...
    @property
    def origin_id(self) -> str | None: ...  # its id on the phone it was first imported from
    @property
    def created_at(self) -> datetime: ...
    @property
    def scoresheet(self) -> rules.Scoresheet: ...


class ToldEntry(Protocol):
    """What an export reads of an entry of a game's story (app.services.story.Entry is one)."""

    @property
    def at(self) -> datetime: ...
    @property
    def phone(self) -> int: ...
    @property
    def kind(self) -> str: ...
    @property
    def round(self) -> int | None: ...
    @property
    def change(self) -> Mapping[str, Any]: ...


Translate = Callable[[Message], str]

ROUND = N_("Manche")
GAME = N_("Partie")
GAME_NAME = N_("Nom du jeu")
DATE = N_("Date")


def _iso(moment: datetime | None) -> str | None:
    return moment.replace(tzinfo=UTC).isoformat().replace("+00:00", "Z") if moment else None


def game_record(game: ExportedGame, story: Sequence[ToldEntry] = ()) -> dict[str, Any]:
    sheet = game.scoresheet
    game_rules = sheet.rules
    record: dict[str, Any] = {
        "id": game.origin_id or game.public_id,
        "created_at": _iso(game.created_at),
        "game": game_rules.game.key,
    }
    if game_rules.game.table_names_it:  # a free game: its name (and below, which total wins)
        record["title"] = game_rules.title
    record["rules"] = {
        "end": game_rules.end.value,
        "limit": game_rules.limit,
        "round_count": game_rules.round_count,
        "pro": "pro" in game_rules.variants,
    }
    if game_rules.game.chooses_best:
        record["rules"]["best"] = game_rules.best.value
    record["players"] = list(sheet.players)
    record["rounds"] = [list(scores) for scores in sheet.rounds]
    if game_rules.game.round_ender:
        record["ended_by"] = list(sheet.enders)
    # Who dealt each round and who deals next, where they were kept (docs/export-format.md).
    if any(dealer is not None for dealer in sheet.dealers):
        record["dealers"] = list(sheet.dealers)
    if sheet.deals_next is not None:
        record["dealer"] = sheet.deals_next
    record["totals"] = sheet.totals
    record["winners"] = [sheet.players[seat] for seat in sorted(sheet.winners)]
    if story:
        record["story"] = [_told(entry) for entry in story]
    return record


def _told(entry: ToldEntry) -> dict[str, Any]:
    """An entry of the story as the file holds it: its phone by number, never by device."""
    told: dict[str, Any] = {"at": _iso(entry.at), "phone": entry.phone, "kind": entry.kind}
    if entry.round is not None:
        told["round"] = entry.round
    if entry.change:
        told["change"] = dict(entry.change)
    return told


def export_json(
    games: Iterable[ExportedGame], stories: Mapping[str, Sequence[ToldEntry]] | None = None
) -> str:
    """The games as one JSON document; each with its story where `stories` has it (by the
    game's public id, oldest entry first)."""
    stories = stories or {}
    header = {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": _iso(datetime.now(UTC).replace(tzinfo=None)),
    }
    # One game a line, each written by json's C encoder: an indented document goes through its
    # pure-Python one, 2 s of CPU for 3,000 games (docs/reliability.md). Still readable, and
    # still one JSON document.
    lines = [f" {json.dumps(key)}: {json.dumps(value)}," for key, value in header.items()]
    records = ",\n".join(
        f"  {json.dumps(game_record(game, stories.get(game.public_id, ())), ensure_ascii=False)}"
        for game in games
    )
    return "{\n" + "\n".join(lines) + '\n "games": [\n' + records + "\n ]\n}"


def _inert(cell: Any) -> Any:
    """Return a cell a spreadsheet shows as typed: a name like « =1+2 » or « @SUM(A1) » would
    run as a formula when the file is opened."""
    return (
        "'" + cell
        if isinstance(cell, str) and cell[:1] in ("=", "+", "-", "@", "\t", "\r")
        else cell
    )


class _SpreadsheetWriter:
    """A CSV writer for spreadsheets: a BOM so Excel reads UTF-8, and no cell read as a formula."""

    SLOT = "\x01"  # in a game's line of text, where a round's number and points go

    def __init__(self, out: io.StringIO):
        out.write("\ufeff")
        self._out = out
        self._writer = csv.writer(out)
        self._line = io.StringIO()
        self._line_writer = csv.writer(self._line)

    def writerow(self, cells: Iterable[Any]) -> None:
        self._writer.writerow(map(_inert, cells))

    def write_rounds(
        self, said: Sequence[str], names: Sequence[str], rounds: Sequence[Sequence[int]]
    ) -> None:
        """Write a game's rows: `said`, each round's number, then each name beside its points.

        The text is made inert and quoted by `csv` once a game, into a line each round fills
        (`str.format`, in C): 3,000 games' 33,000 rows, cell by cell through `csv`, each cell
        checked for a formula, took 0.45 s of CPU in process; the output is the same, byte for
        byte (docs/performance.md, « Heavy reads at 3,000 games »)."""
        said, names = [*map(_inert, said)], [*map(_inert, names)]
        if any(self.SLOT in text for text in [*said, *names]):  # no typed name holds one; still
            for number, points in enumerate(rounds, start=1):
                self._writer.writerow([*said, number, *chain(*zip(names, points, strict=True))])
            return
        self._line.seek(0)
        self._line.truncate()
        self._line_writer.writerow(
            [*said, self.SLOT, *chain(*((name, self.SLOT) for name in names))]
        )
        line = self._line.getvalue().replace("{", "{{").replace("}", "}}").replace(self.SLOT, "{}")
        self._out.write(
            "".join(line.format(number, *points) for number, points in enumerate(rounds, start=1))
        )


def file_name(game: ExportedGame, extension: str) -> str:
    """Return the name a download of this game is saved under: its game (a free game's own name,
    in plain letters) and its date, « skyjo-2026-12-02.csv »."""
    game_rules = game.scoresheet.rules
    letters = unicodedata.normalize("NFKD", (game_rules.title or "").lower())
    plain = "".join(c for c in letters if not unicodedata.combining(c))  # é → e
    stem = re.sub(r"[^a-z0-9]+", "-", plain).strip("-") or game_rules.game.key
    return f"{stem}-{game.created_at:%Y-%m-%d}.{extension}"


def _game_name(game_rules: rules.GameRules, translate: Translate) -> str:
    return game_rules.title or translate(game_rules.game.name)


def game_csv(game: ExportedGame, translate: Translate = str) -> str:
    """The game's name on a line, then one row per round, one column per player, as a
    spreadsheet would hold the paper sheet (the points as the game counts them: Skyjo's doubled
    scores, so that each column adds up to its total)."""
    sheet = game.scoresheet
    out = io.StringIO()
    writer = _SpreadsheetWriter(out)
    writer.writerow([translate(GAME_NAME), _game_name(sheet.rules, translate)])
    writer.writerow([translate(ROUND), *sheet.players])
    for number, points in enumerate(sheet.points, start=1):
        writer.writerow([number, *points])
    return out.getvalue()


def games_csv(games: Iterable[ExportedGame], translate: Translate = str) -> str:
    """All games: one row per round; the seats' names and points side by side (« Têtes » where
    every game is one of 6 qui prend, « Points » where others are among them)."""
    games = list(games)
    heads = all(game.scoresheet.rules.game.counts_heads for game in games)
    out = io.StringIO()
    writer = _SpreadsheetWriter(out)
    seats = range(1, rules.MAX_PLAYERS + 1)
    per_seat = [
        (
            N_("Joueur %(number)s", number=s),
            N_("Têtes %(number)s", number=s) if heads else N_("Points %(number)s", number=s),
        )
        for s in seats
    ]
    header = [GAME, GAME_NAME, DATE, ROUND, *[column for pair in per_seat for column in pair]]
    writer.writerow(map(translate, header))
    named: dict[str, str] = {}
    for game in games:
        sheet = game.scoresheet
        game_rules = sheet.rules
        if not game_rules.title and game_rules.game.key not in named:
            named[game_rules.game.key] = translate(game_rules.game.name)  # once a game, not a row
        name = game_rules.title or named[game_rules.game.key]
        date = _iso(game.created_at) or ""
        writer.write_rounds(
            [game.origin_id or game.public_id, name, date], sheet.players, sheet.points
        )
    return out.getvalue()
