"""Read an exported JSON file back into games (the format: docs/export-format.md), every round
checked by the rules; app/services/imports.py stores them.

A file that cannot be imported is a rules.Refusal whose Messages the page translates.
"""

from __future__ import annotations

import json
import unicodedata
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Any

from app import rules
from app.rules import N_, Message
from app.rules.sheet import MAX_ROUNDS
from app.services import story
from app.services.transfer import (
    EARLIEST_DATE,
    FORMAT,
    LONGEST_NUMBER,
    MAX_ERRORS_SHOWN,
    MAX_GAMES,
    MAX_PHONE_NUMBER,
    MAX_ROUNDS_IN_FILE,
    MAX_STORY_ENTRIES,
    VERSION,
)


@dataclass(frozen=True)
class ImportedEntry:
    """An entry of a game's story as the file tells it (its phone by number)."""

    at: datetime
    phone: int
    kind: str
    round: int | None
    change: dict[str, Any] | None


@dataclass(frozen=True)
class ImportedGame:
    origin_id: str
    created_at: datetime
    sheet: rules.Scoresheet
    story: tuple[ImportedEntry, ...] = ()  # oldest first; none in files from before stories


def _parse_time(value: Any, *, of_creation: bool = True) -> datetime:
    """Return a creation date (or, not `of_creation`, a story entry's) as stored (UTC, naive),
    within the years the counter can have seen."""
    if not isinstance(value, str) or not value.strip():
        raise rules.Refusal.of(
            N_("date de création absente") if of_creation else N_("date absente")
        )
    written = _as_written(value)
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
        if moment.tzinfo is not None:
            moment = moment.astimezone(UTC).replace(tzinfo=None)
    except (ValueError, OverflowError):  # not a date, or one that leaves the calendar in UTC
        said = (
            N_("date de création illisible (%(date)s)", date=written)
            if of_creation
            else N_("date illisible (%(date)s)", date=written)
        )
        raise rules.Refusal.of(said) from None
    # Far dates break the pages that show them in local time; no game was played before 2000
    # nor tomorrow (a day of margin for a phone whose clock runs ahead).
    if not EARLIEST_DATE <= moment <= datetime.now(UTC).replace(tzinfo=None) + timedelta(days=1):
        raise rules.Refusal.of(
            N_(
                "date de création impossible (%(date)s) : elle doit être entre l’an 2000 et "
                "aujourd’hui",
                date=written,
            )
            if of_creation
            else N_(
                "date impossible (%(date)s) : elle doit être entre l’an 2000 et aujourd’hui",
                date=written,
            )
        )
    return moment


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _parse_game_kind(raw: dict[str, Any]) -> tuple[rules.RoundGame, str | None]:
    """Return the game a record was played at (« 6 qui prend ! » in files from before there were
    others) and, for a free game, its name."""
    key = raw.get("game", rules.DEFAULT_GAME.key)
    if not isinstance(key, str) or key not in rules.GAMES:
        raise rules.Refusal.of(N_("jeu inconnu (%(game)s)", game=_as_written(key)))
    game = rules.game_of(key)
    if not game.table_names_it:
        return game, None
    title = raw.get("title")
    # As the new-game form reads « Nom du jeu »: spaces run together.
    title = " ".join(title.split()) if isinstance(title, str) else ""
    if not title:
        raise rules.Refusal.of(
            N_(
                "partie libre sans nom de jeu (%(most)s caractères au plus)",
                most=rules.MAX_TITLE_LENGTH,
            )
        )
    why = rules.unreadable(title)
    if why is not None:
        raise rules.Refusal.of(N_("nom de jeu invalide : %(why)s", why=why))
    if len(title) > rules.MAX_TITLE_LENGTH:
        raise rules.Refusal.of(
            N_(
                "nom de jeu trop long (%(length)s caractères\u202f: %(most)s au plus)",
                length=len(title),
                most=rules.MAX_TITLE_LENGTH,
            )
        )
    return game, title


def _parse_rules(raw: Any, game: rules.RoundGame, title: str | None) -> rules.GameRules:
    if not isinstance(raw, dict):
        raise rules.Refusal.of(N_("règles absentes"))
    limit = raw.get("limit", rules.GameRules.of(game).limit)  # the game's own
    round_count = raw.get("round_count")
    pro = raw.get("pro", False)
    if not _whole(limit) or not (round_count is None or _whole(round_count)):
        raise rules.Refusal.of(
            N_("règles invalides : la limite et le nombre de manches sont des entiers")
        )
    if not isinstance(pro, bool):
        raise rules.Refusal.of(N_("règles invalides : « pro » vaut true ou false"))
    try:
        end = rules.EndRule(raw.get("end", game.default_end.value))
    except ValueError:
        raise rules.Refusal.of(N_("règles invalides : fin de partie inconnue")) from None
    best = None
    if game.chooses_best:  # a free game says which total wins
        try:
            best = rules.Best(raw.get("best", rules.Best.LOWEST.value))
        except ValueError:
            raise rules.Refusal.of(
                N_("règles invalides : « best » vaut « lowest » ou « highest »")
            ) from None
    try:
        return rules.GameRules(
            game=game,
            end=end,
            limit=limit,
            round_count=round_count,
            variants=frozenset({"pro"}) if pro else frozenset(),  # the export's key "pro"
            chosen_best=best,
            title=title,
        )
    except rules.Refusal as refusal:
        why = refusal.said()
        raise rules.Refusal.of(
            N_("règles de fin de partie invalides : %(why)s", why=why)
        ) from refusal


def _parse_enders(raw: dict[str, Any], rounds: list[Any]) -> list[Any]:
    """Return who ended each round (Skyjo's « A fini la manche »), None where the file says
    nobody; the game's own rules then say whether a round needs one."""
    enders = raw.get("ended_by", [None] * len(rounds))
    if not isinstance(enders, list) or len(enders) != len(rounds):
        raise rules.Refusal.of(N_("« ended_by » : il faut une place (ou null) par manche"))
    if not all(ender is None or _whole(ender) for ender in enders):
        raise rules.Refusal.of(N_("« ended_by » : une place est un entier, à partir de 0"))
    return enders


def _parse_dealers(raw: dict[str, Any], rounds: int, seats: int) -> tuple[list[Any], Any]:
    """Return who dealt (or started) each round and who deals the next, None where the file
    says nobody; files from before dealers were kept have neither: nobody is known. A file with
    rounds added by hand after its dealers has them unknown for those rounds."""
    dealers, dealer = raw.get("dealers", []), raw.get("dealer")
    if not isinstance(dealers, list) or len(dealers) > rounds:
        raise rules.Refusal.of(N_("« dealers » : au plus une place (ou null) par manche"))
    dealers = [*dealers, *[None] * (rounds - len(dealers))]
    if not all(seat is None or (_whole(seat) and 0 <= seat < seats) for seat in [*dealers, dealer]):
        raise rules.Refusal.of(
            N_("« dealers », « dealer » : une place est un entier, de 0 au nombre de joueurs")
        )
    return dealers, dealer


def _parse_game(raw: Any) -> ImportedGame:
    """Return one game of the file, every round checked, or raise rules.Refusal saying why."""
    if not isinstance(raw, dict):
        raise rules.Refusal.of(N_("ce n’est pas une partie"))
    origin = raw.get("id")
    if not isinstance(origin, str) or not 1 <= len(origin) <= 64 or not origin.isprintable():
        raise rules.Refusal.of(N_("identifiant absent ou invalide"))
    created = _parse_time(raw.get("created_at"))
    game_rules = _parse_rules(raw.get("rules"), *_parse_game_kind(raw))
    names = raw.get("players")
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise rules.Refusal.of(N_("liste de joueurs invalide"))
    try:
        players = rules.seat_players(names, game_rules.game.max_players)
    except rules.Refusal as refusal:
        why = refusal.said()
        raise rules.Refusal.of(N_("joueurs invalides : %(why)s", why=why)) from refusal
    if len(players) != len(names):
        raise rules.Refusal.of(N_("joueurs invalides : nom vide"))
    rounds = raw.get("rounds")
    if not isinstance(rounds, list):
        raise rules.Refusal.of(N_("liste des manches invalide"))
    enders = _parse_enders(raw, rounds)
    typed = []
    for number, (scores, ender) in enumerate(zip(rounds, enders, strict=True), start=1):
        if (
            not isinstance(scores, list)
            or len(scores) != len(players)
            or not all(map(_whole, scores))
        ):
            raise rules.Refusal.of(
                N_("manche %(number)s : il faut un nombre entier par joueur", number=number)
            )
        typed.append(rules.RoundScores(tuple(scores), ender))
    try:
        sheet = rules.Scoresheet.played(players, game_rules, typed)
    except rules.WrongRound as wrong:
        raise rules.Refusal.of(
            N_("manche %(number)s : %(why)s", number=wrong.number, why=wrong.said())
        ) from wrong
    dealers, dealer = _parse_dealers(raw, len(rounds), len(players))
    if sheet.is_over:
        dealer = None  # nobody deals once a game is over
    sheet = replace(sheet, dealers=tuple(dealers), dealer=dealer)
    return ImportedGame(origin, created, sheet, _parse_story(raw.get("story", []), len(players)))


def _parse_story(raw: Any, players: int) -> tuple[ImportedEntry, ...]:
    """Return a game's story as the file tells it, or raise rules.Refusal saying what is wrong
    (« le fil de la partie », entry by entry)."""
    if not isinstance(raw, list) or len(raw) > MAX_STORY_ENTRIES:
        raise rules.Refusal.of(
            N_(
                "« story » : une liste de %(most)s changements au plus",
                most=MAX_STORY_ENTRIES,
            )
        )
    told = []
    for number, entry in enumerate(raw, start=1):
        try:
            told.append(_parse_entry(entry, players))
        except rules.Refusal as refusal:
            why = refusal.said()
            raise rules.Refusal.of(
                N_("« story », changement %(number)s : %(why)s", number=number, why=why)
            ) from refusal
    return tuple(told)


def _parse_entry(raw: Any, players: int) -> ImportedEntry:
    if not isinstance(raw, dict):
        raise rules.Refusal.of(N_("ce n’est pas un changement"))
    at = _parse_time(raw.get("at"), of_creation=False)
    phone: Any = raw.get("phone")
    kind, number = raw.get("kind"), raw.get("round")
    if not _whole(phone) or not 1 <= phone <= MAX_PHONE_NUMBER:
        raise rules.Refusal.of(N_("« phone » : un numéro de 1 à %(most)s", most=MAX_PHONE_NUMBER))
    if not isinstance(kind, str) or kind not in story.KINDS:
        raise rules.Refusal.of(N_("« kind » inconnu (%(kind)s)", kind=_as_written(kind)))
    if number is not None and (not _whole(number) or not 1 <= number <= MAX_ROUNDS):
        raise rules.Refusal.of(
            N_("« round » : un numéro de manche de 1 à %(most)s", most=MAX_ROUNDS)
        )
    change = raw.get("change")
    if change is not None and not _fits(change, players):
        raise rules.Refusal.of(
            N_(
                "« change » : des scores (un entier par joueur) et des places (à partir de 0), "
                "rien d’autre"
            )
        )
    return ImportedEntry(at, phone, kind, number, change or None)


def _fits(change: Any, players: int) -> bool:
    """Whether a story entry's `change` holds only what app/services/story.py writes: lists of
    one whole score per player, and seats at the table (or null)."""
    if not isinstance(change, dict) or not set(change) <= {*story.SCORE_KEYS, *story.SEAT_KEYS}:
        return False
    for key, value in change.items():
        if key in story.SCORE_KEYS:
            if not isinstance(value, list) or len(value) != players:
                return False
            if not all(_whole(score) for score in value):
                return False
        elif value is not None and (not _whole(value) or not 0 <= value < players):
            return False
    return True


def _as_written(value: Any) -> str:
    """Return a value as the file wrote it, fit to show in a message: a text as it is (« uno »,
    not Python's « 'uno' »), anything else as JSON (« null », « 2 »), cut at 40 characters."""
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return _printable(text[:40])


def _printable(text: str) -> str:
    """Return text from the file fit to show in a message: control, format and broken characters
    (a lone surrogate cannot even be encoded in a page) become « � »."""
    return "".join("\ufffd" if unicodedata.category(char)[0] == "C" else char for char in text)


def _in_game(number: int, raw: Any, why: Message) -> Message:
    """Say what is wrong with a game, named by its place in the file and its first players."""
    names = raw.get("players") if isinstance(raw, dict) else None
    if isinstance(names, list) and names and all(isinstance(n, str) for n in names):
        # The first four name the game; « … » says there are more.
        shown = [n[:30] for n in names[:4]] + (["…"] if len(names) > 4 else [])
        players = _printable(", ".join(shown))
        return N_(
            "Partie %(number)s (%(players)s) : %(why)s", number=number, players=players, why=why
        )
    return N_("Partie %(number)s : %(why)s", number=number, why=why)


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
    """Return the games of an exported file, every round checked, or raise rules.Refusal: one
    reason for a file that is not an export, else one per wrong game (nothing is kept)."""
    try:
        document = json.loads(data.decode("utf-8-sig"), parse_int=_small_int)
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise rules.Refusal.of(N_("Ce fichier n’est pas un export JSON de parties.")) from None
    except _NumberTooLong as error:
        raise rules.Refusal.of(
            N_(
                "Ce fichier contient un nombre de %(digits)s chiffres : ce n’est pas un export.",
                digits=error.digits,
            )
        ) from None
    except RecursionError:  # the decoder recurses once per level of [ or {
        raise rules.Refusal.of(
            N_("Ce fichier est imbriqué bien trop profondément : ce n’est pas un export.")
        ) from None
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise rules.Refusal.of(N_("Ce fichier n’est pas un export du compteur « 6 qui prend ! »."))
    if type(document.get("version")) is not int or document["version"] != VERSION:
        raise rules.Refusal.of(
            N_(
                "Version de fichier %(version)s inconnue (attendu : %(expected)s).",
                # As JSON, quoted if text: « "1" » is not the number 1.
                version=_as_written(json.dumps(document.get("version"), ensure_ascii=False)),
                expected=VERSION,
            )
        )
    raw_games = document.get("games")
    if not isinstance(raw_games, list) or len(raw_games) > MAX_GAMES:
        raise rules.Refusal.of(
            N_("La liste des parties est absente ou dépasse %(most)s parties.", most=MAX_GAMES)
        )
    rounds = sum(
        len(raw["rounds"])
        for raw in raw_games
        if isinstance(raw, dict) and isinstance(raw.get("rounds"), list)
    )
    if rounds > MAX_ROUNDS_IN_FILE:
        raise rules.Refusal.of(
            N_(
                "Ce fichier compte %(count)s manches en tout\u202f: un import en prend "
                "%(most)s au plus. Importez ses parties en plusieurs fichiers.",
                count=rounds,
                most=MAX_ROUNDS_IN_FILE,
            )
        )
    games, errors = [], []
    for index, raw in enumerate(raw_games, start=1):
        try:
            games.append(_parse_game(raw))
        except rules.Refusal as refusal:
            errors.append(_in_game(index, raw, refusal.said()))
    if len(errors) > MAX_ERRORS_SHOWN:
        hidden = len(errors) - MAX_ERRORS_SHOWN
        errors = [*errors[:MAX_ERRORS_SHOWN], N_("… et %(count)s autres.", count=hidden)]
    if errors:
        raise rules.Refusal(whole=errors)
    return games
