"""What the rules say to players: a Message (French text and its values), and the one Refusal
that carries them from the rules to the page, per field and for the whole form."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Message:
    """A sentence for the players: a French text with %(name)s blanks, and what fills them.

    The rules cannot know the person's language, and must not import Flask to ask: they say
    what is wrong, and the layer that answers the request translates `text` (the catalogs'
    msgid) and fills in `values` (app.platform.languages.translate). str() gives the French
    sentence (logs, tests).
    """

    text: str
    values: Mapping[str, object] = field(default_factory=dict)
    plural: str | None = None  # the plural's text, when the count in values["num"] chooses

    def __str__(self) -> str:
        count = self.values.get("num")
        text = self.plural if self.plural and isinstance(count, int) and count > 1 else self.text
        return text % {
            name: str(value) if isinstance(value, Message) else value
            for name, value in self.values.items()
        }


@dataclass(frozen=True)
class Names:
    """Players' names inside a sentence, joined as the person's language does (« Alice, Bruno et
    Chloé »): the layer that translates joins them, isolated from the text around them."""

    names: tuple[str, ...]

    def __str__(self) -> str:
        return ", ".join(self.names)


# N_ is gettext's usual name for "mark now, translate later", and one of pybabel's keywords.
def N_(text: str, **values: object) -> Message:
    """Mark a sentence for translation (pybabel extracts N_) and keep its values for later."""
    return Message(text, values)


def Np_(singular: str, plural: str, num: int, **values: object) -> Message:
    """Mark a sentence with a plural, chosen later by `num` in the person's language (pybabel
    extracts Np_ as it does ngettext: scripts/translations.py)."""
    return Message(singular, {"num": num, **values}, plural)


FieldKey = int | str  # a seat, a card's place in a form, or a form field's name


class Refusal(Exception):
    """Something that cannot be: what is wrong with each field (by seat, by card's place, or by
    form field name), and what is wrong with the whole. Every layer raises and reads this one type:
    the rules, the forms, the services (which add the game as it stands), the page's one partial.
    """

    def __init__(
        self,
        fields: Mapping[int, Message] | Mapping[str, Message] | None = None,
        whole: Sequence[Message] = (),
    ):
        self.fields: dict[FieldKey, Message] = {}
        for key, message in (fields or {}).items():
            self.fields[key] = message
        self.whole: list[Message] = list(whole)
        super().__init__("; ".join(map(str, [*self.fields.values(), *self.whole])))

    @classmethod
    def of(cls, message: Message) -> Refusal:
        """Return a refusal of the whole form, for one reason."""
        return cls({}, [message])

    def said(self) -> Message:
        """Return everything this refusal says as one Message, its reasons side by side (where
        there are no fields to put them beside: an imported file's game or round)."""
        first, *others = [*self.fields.values(), *self.whole]
        for other in others:
            # Only blanks and a space: no words to translate, so no msgid (a catalog miss gives
            # the text back as it is, and each reason is translated as a value).
            first = Message("%(said)s %(more)s", {"said": first, "more": other})
        return first
