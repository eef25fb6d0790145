"""The forms people fill in, parsed with WTForms: typed text becomes numbers here, and what the
numbers may be is decided in app.rules.

CSRF is checked for every POST by CSRFProtect (see create_app), so these are plain forms.
"""

from __future__ import annotations

import re
from typing import Any

from flask import abort
from wtforms import BooleanField, FieldList, Form, HiddenField, StringField

from app import rules
from app.rules import N_, Message

INITIAL_NAME_FIELDS = 2  # the contract: at least two name fields at first
CREATION_KEY = re.compile(r"[A-Za-z0-9_-]{1,64}")  # what secrets.token_urlsafe gives, and fits
LONGEST_NUMBER = 6  # digits: far more than any head count, limit or round count


def whole_number(typed: str | None) -> int | None:
    """Return the whole number a person typed (ASCII digits, spaces around), or None."""
    text = (typed or "").strip()
    if not text or not (text.isascii() and text.isdigit()):
        return None
    digits = text.lstrip("0") or "0"
    # Keeps int() away from huge strings: such a number is refused as too big anyway.
    return int(digits) if len(digits) <= LONGEST_NUMBER else 10**LONGEST_NUMBER


class NewGameForm(Form):
    players = FieldList(
        StringField(), min_entries=INITIAL_NAME_FIELDS, max_entries=rules.MAX_PLAYERS + 5
    )
    end = StringField(default="above")  # above, at_or_above, other_limit or rounds (radios)
    limit = StringField(default="")
    round_count = StringField(default="")
    pro = BooleanField()
    key = HiddenField()  # one per form shown: the same form sent twice starts one game

    def creation_key(self) -> str | None:
        """Return the form's key, None if blank; a key the page did not give is a 400 (it would
        be stored, and PostgreSQL refuses a NUL byte outright)."""
        key = self.key.data or ""
        if not key:
            return None
        if not CREATION_KEY.fullmatch(key):
            abort(400)
        return key

    def typed_names(self) -> list[str]:
        return [entry.data or "" for entry in self.players]

    def game_rules(self) -> tuple[rules.GameRules | None, dict[str, Message]]:
        """Return the end rule chosen, or the errors that prevent it, keyed by field name."""
        pro = bool(self.pro.data)
        question = self._number_under_another_rule()
        if question:
            return None, question
        match self.end.data:
            case "at_or_above":
                return rules.GameRules(end=rules.EndRule.AT_OR_ABOVE, pro=pro), {}
            case "other_limit":
                low, high = rules.LIMIT_RANGE
                limit = whole_number(self.limit.data)
                if limit is None or not low <= limit <= high:
                    return None, {
                        "limit": N_(
                            "Choisissez une limite de %(low)s à %(high)s têtes.", low=low, high=high
                        )
                    }
                return rules.GameRules(limit=limit, pro=pro), {}
            case "rounds":
                low, high = rules.ROUND_COUNT_RANGE
                count = whole_number(self.round_count.data)
                if count is None or not low <= count <= high:
                    return None, {
                        "round_count": N_(
                            "Choisissez de %(low)s à %(high)s manches.", low=low, high=high
                        )
                    }
                return rules.GameRules(end=rules.EndRule.ROUNDS, round_count=count, pro=pro), {}
            case _:
                return rules.GameRules(pro=pro), {}

    def _number_under_another_rule(self) -> dict[str, Message]:
        """Ask which rule was meant when a limit or a round count was typed under another
        option (without JavaScript nothing checks the option for the person)."""
        typed = {
            "limit": ("other_limit", self.limit.data),
            "round_count": ("rounds", self.round_count.data),
        }
        for field, (option, text) in typed.items():
            if (text or "").strip() and (self.end.data or "above") != option:
                return {
                    field: N_(
                        "Vous avez tapé %(typed)s ici, mais une autre fin de partie est cochée :"
                        " cochez l’option de ce champ pour l’appliquer, ou videz-le.",
                        typed=text.strip()[:6],
                    )
                }
        return {}


class HeadsForm(Form):
    """One field per seat (`heads-0`, `heads-1` …) holding the heads a player took."""

    heads = FieldList(StringField(), max_entries=rules.MAX_PLAYERS)

    def __init__(self, formdata: Any = None, **kwargs: Any) -> None:
        super().__init__(formdata, **kwargs)
        # WTForms renumbers what it finds (heads-0, heads-7 become two seats in a row): keep
        # what was sent, so that a hand-made request is refused rather than guessed.
        sent = [key for key in (formdata or {}) if key.startswith("heads-")]
        self.seats_sent = sorted(sent) == sorted(f"heads-{s}" for s in range(len(sent))) and all(
            len(formdata.getlist(key)) == 1 for key in sent
        )

    def typed(self) -> list[str]:
        """Return the text of each field as typed, to show it again."""
        return [entry.data or "" for entry in self.heads]

    def heads_taken(self) -> list[int]:
        """Return the heads per seat — a blank field counts as 0 — or raise InvalidRound
        naming the fields that do not hold a whole number."""
        if not self.seats_sent:
            raise rules.InvalidRound(
                {}, [N_("Ce formulaire ne correspond pas à la partie : rechargez la page.")]
            )
        values: list[int] = []
        errors: dict[int, Message] = {}
        for seat, text in enumerate(self.typed()):
            value = 0 if not text.strip() else whole_number(text)
            if value is None:
                errors[seat] = N_(
                    "« %(typed)s » n’est pas un nombre entier de têtes.", typed=text.strip()[:20]
                )
            else:
                values.append(value)
        if errors:
            raise rules.InvalidRound(errors, [])
        return values


class RoundForm(HeadsForm):
    number = HiddenField()  # the round this form records: a repeat records nothing

    def round_number(self) -> int | None:
        return whole_number(self.number.data)


class CancelRoundForm(Form):
    number = HiddenField()  # the round this form removes: a repeat removes nothing

    def round_number(self) -> int | None:
        return whole_number(self.number.data)


class RestoreRoundForm(CancelRoundForm):
    """The round this form puts back: a repeat puts back nothing."""


class EditRoundForm(HeadsForm):
    version = HiddenField()  # the game's version when the form was shown

    def game_version(self) -> int | None:
        return whole_number(self.version.data)
