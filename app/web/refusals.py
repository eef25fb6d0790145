"""A refusal as a page shows it: the rules' Refusal in the person's language, for the one partial
that says every refusal (templates/_refusal.html) and the fields that carry their own message."""

from __future__ import annotations

from dataclasses import dataclass, field

from app import rules
from app.platform.languages import translate
from app.services.refusals import GameChanged, Refused


@dataclass(frozen=True)
class ShownRefusal:
    """What is wrong, translated: per field (same keys as the Refusal's) and for the whole form."""

    fields: dict[rules.FieldKey, str] = field(default_factory=dict)
    whole: list[str] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.fields or self.whole)


def shown(refusal: rules.Refusal | None) -> ShownRefusal:
    """Return the refusal in the request's language (nothing to show for None)."""
    if refusal is None:
        return ShownRefusal()
    return ShownRefusal(
        {key: translate(message) for key, message in refusal.fields.items()},
        [translate(message) for message in refusal.whole],
    )


def said(refusal: rules.Refusal) -> str:
    """Return the refusal as one sentence, for a notice (a stale step or round)."""
    return " ".join(translate(message) for message in [*refusal.whole, *refusal.fields.values()])


def status_of(refused: Refused) -> int:
    """409 for a write drawn from an older game (it conflicts with the game as it stands), 422
    for one the rules refuse."""
    return 409 if isinstance(refused, GameChanged) else 422
