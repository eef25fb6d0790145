"""The players' names: which can sit at a table, and when two are the same name."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from app.rules.messages import N_, Message, Refusal

MIN_PLAYERS = 2
MAX_PLAYERS = 10
MAX_NAME_LENGTH = 30
MAX_TITLE_LENGTH = 40  # a free game's name


# Characters that show nothing by themselves: format characters (zero-width spaces and joiners,
# direction marks and overrides such as U+202E), marks with nothing to sit on, spaces.
_INVISIBLE = ("Cf", "Mn", "Me", "Zs")


def _without_format_characters(name: str) -> str:
    return "".join(char for char in name if unicodedata.category(char) != "Cf")


def name_key(name: str) -> str:
    """Return the form of a name used to tell players apart: case, outer spaces and invisible
    format characters ignored (« Al\u200bice » is « Alice »)."""
    return _without_format_characters(unicodedata.normalize("NFC", name)).strip().casefold()


def is_invisible(name: str) -> bool:
    """Tell whether a name would show nothing on screen."""
    return all(unicodedata.category(char) in _INVISIBLE for char in name)


def seat_players(typed: Sequence[str], most: int = MAX_PLAYERS) -> list[str]:
    """Return the names that start a game, in seat order, or raise Refusal.

    Blank fields are ignored; `most` is the game's own most players. The index of each error
    is the position of the field as typed.
    """
    seated = [(index, " ".join(name.split())) for index, name in enumerate(typed) if name.strip()]
    seat_errors: dict[int, Message] = {}
    first_seen: dict[str, int] = {}
    for index, name in seated:
        if any(unicodedata.category(char) in ("Cc", "Cs") for char in name):
            seat_errors[index] = N_(
                "Ce nom contient un caractère invisible ou invalide : retapez-le."
            )
        elif is_invisible(name):
            seat_errors[index] = N_(
                "Ce nom ne montre que des caractères invisibles : tapez un nom."
            )
        elif len(name) > MAX_NAME_LENGTH:
            seat_errors[index] = N_(
                "Ce nom fait %(length)s caractères : %(most)s au plus.",
                length=len(name),
                most=MAX_NAME_LENGTH,
            )
        elif name_key(name) in first_seen:
            # The name isolated (U+2068 … U+2069): one ending in U+202E cannot reverse the rest.
            seat_errors[index] = N_(
                "« %(name)s » est déjà à la table : donnez un autre nom.",
                name=f"\u2068{name}\u2069",
            )
        else:
            first_seen[name_key(name)] = index
    table_errors: list[Message] = []
    if len(seated) < MIN_PLAYERS:
        table_errors.append(
            N_(
                "Il faut au moins %(least)s joueurs : saisissez au moins %(least)s noms.",
                least=MIN_PLAYERS,
            )
        )
    if len(seated) > most:
        table_errors.append(N_("On joue à %(most)s au plus : retirez des noms.", most=most))
    if seat_errors or table_errors:
        raise Refusal(seat_errors, table_errors)
    return [name for _, name in seated]
