"""What the assistant and the head counter read from their forms: typed text becomes card
numbers here; what a card may be is decided in app.rules."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from app import rules
from app.forms import whole_number
from app.rules import N_

SEPARATORS = re.compile(r"[\s,;]+")


def typed_fields(formdata: Mapping[str, str], prefix: str, count: int) -> list[str]:
    """Return the text of fields `prefix-0` … `prefix-(count - 1)` as typed, to show it again."""
    return [(formdata.get(f"{prefix}-{index}") or "")[:20] for index in range(count)]


def cards_typed(typed: Sequence[str]) -> list[int | None]:
    """Return the number in each field (None for a blank one), or raise InvalidCards naming the
    fields that hold something else."""
    errors = {
        index: N_("« %(typed)s » n’est pas un numéro de carte.", typed=text.strip())
        for index, text in enumerate(typed)
        if text.strip() and whole_number(text) is None
    }
    if errors:
        raise rules.InvalidCards(errors, [])
    return [whole_number(text) for text in typed]


def pile_typed(text: str) -> list[int]:
    """Return the numbers of a text such as « 55 10, 23 » (spaces, commas), or raise
    InvalidCards naming each word that is not a number."""
    words = [word for word in SEPARATORS.split(text) if word]
    errors = [
        N_("« %(typed)s » n’est pas un numéro de carte.", typed=word[:20])
        for word in words
        if whole_number(word) is None
    ]
    if errors:
        raise rules.InvalidCards({}, errors)
    return [number for word in words if (number := whole_number(word)) is not None]


def step_number(typed: str | None) -> int | None:
    """Return the number of a step a form carries (a round, a turn, a row), or None."""
    return whole_number(typed)


def carried_heads(args: Mapping[str, str], players: int) -> dict[int, int]:
    """Return the heads a round form carries in an address (`heads-2=5`), by seat: those the
    count of a pile reports, and those typed before « Compter les têtes », kept on the way.
    Anything but a whole number of at most three digits is left out (the form checks the rest)."""
    carried: dict[int, int] = {}
    for seat in range(players):
        typed = args.get(f"heads-{seat}", "")
        if typed.isascii() and typed.isdigit() and len(typed) <= 3:
            carried[seat] = int(typed)
    return carried
