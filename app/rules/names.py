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
# direction marks), marks with nothing to sit on, spaces.
_INVISIBLE = ("Cf", "Mn", "Me", "Zs")

# Unicode's Bidi_Control characters: they change the order in which the text around them is
# drawn. An override (U+202E) shows « \u202eaéL » as « Léa » beside a real Léa, and turned
# « \u202eevil » into « live » on a result picture. No name needs one: a name in Arabic or Hebrew
# letters is drawn right to left by its letters alone.
_DIRECTION_CONTROLS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)

# Characters drawn as nothing that are not format characters (Unicode's
# Default_Ignorable_Code_Point, beyond category Cf): the combining grapheme joiner, Hangul fillers
# (a « name » of one looks empty), variation selectors (« ♥ » and « ♥\ufe0f » read the same).
_IGNORABLE = frozenset(
    "\u034f\u115f\u1160\u17b4\u17b5\u180b\u180c\u180d\u180f\u3164\uffa0"
    + "".join(map(chr, range(0xFE00, 0xFE10)))
    + "".join(map(chr, range(0xE0100, 0xE01F0)))
)


def _shows(char: str) -> bool:
    return unicodedata.category(char) != "Cf" and char not in _IGNORABLE


def name_key(name: str) -> str:
    """Return the form of a name used to tell players apart, as people read it: compatibility
    forms (fullwidth « ＢＯＢ » is « BOB », « ﬁ » is « fi »), case, spaces and characters drawn as
    nothing ignored (« Al\u200bice » is « Alice »)."""
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    return " ".join("".join(filter(_shows, folded)).split())


def is_invisible(name: str) -> bool:
    """Tell whether a name would show nothing on screen."""
    return all(unicodedata.category(c) in _INVISIBLE or c in _IGNORABLE for c in name)


def unreadable(name: str) -> Message | None:
    """Return why a name (a player's, or a free game's « Nom du jeu ») cannot be shown as it was
    typed, or None: a control character (PostgreSQL refuses NUL), one that turns the text
    around, or nothing visible."""
    if any(unicodedata.category(char) in ("Cc", "Cs") for char in name):
        return N_("Ce nom contient un caractère invisible ou invalide : retapez-le.")
    if any(char in _DIRECTION_CONTROLS for char in name):
        return N_(
            "Ce nom contient un caractère qui change le sens de l’écriture : retapez-le sans."
        )
    if is_invisible(name):
        return N_("Ce nom ne montre que des caractères invisibles : tapez un nom.")
    return None


def seat_players(typed: Sequence[str], most: int = MAX_PLAYERS) -> list[str]:
    """Return the names that start a game, in seat order, or raise Refusal.

    Blank fields are ignored; `most` is the game's own most players. The index of each error
    is the position of the field as typed.
    """
    seated = [(index, " ".join(name.split())) for index, name in enumerate(typed) if name.strip()]
    seat_errors: dict[int, Message] = {}
    first_seen: dict[str, int] = {}
    for index, name in seated:
        why = unreadable(name)
        if why is not None:
            seat_errors[index] = why
        elif len(name) > MAX_NAME_LENGTH:
            seat_errors[index] = N_(
                "Ce nom fait %(length)s caractères : %(most)s au plus.",
                length=len(name),
                most=MAX_NAME_LENGTH,
            )
        elif name_key(name) in first_seen:
            # The name isolated (U+2068 … U+2069): one in right-to-left letters keeps to itself.
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
