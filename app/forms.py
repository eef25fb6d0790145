"""The forms people fill in, parsed with WTForms; what the values may be is decided in app.rules.

CSRF is checked for every POST by CSRFProtect (see create_app), so these are plain forms.
"""

from __future__ import annotations

from wtforms import BooleanField, FieldList, Form, HiddenField, StringField

from app import rules

INITIAL_NAME_FIELDS = 2  # the contract: at least two name fields at first


class NewGameForm(Form):
    players = FieldList(
        StringField(), min_entries=INITIAL_NAME_FIELDS, max_entries=rules.MAX_PLAYERS + 5
    )
    end = StringField(default="above")  # above, at_or_above, other_limit or rounds (radios)
    limit = StringField(default="")
    round_count = StringField(default="")
    pro = BooleanField()
    key = HiddenField()  # one per form shown: the same form sent twice starts one game

    def typed_names(self) -> list[str]:
        return [entry.data or "" for entry in self.players]

    def game_rules(self) -> tuple[rules.GameRules | None, dict[str, str]]:
        """Return the end rule chosen, or the errors that prevent it, keyed by field name."""
        try:
            match self.end.data:
                case "at_or_above":
                    return rules.GameRules(end=rules.EndRule.AT_OR_ABOVE, pro=self.pro.data), {}
                case "other_limit":
                    low, high = rules.LIMIT_RANGE
                    limit = rules.parse_heads(self.limit.data)
                    if limit is None or not low <= limit <= high:
                        return None, {"limit": f"Choisissez une limite de {low} à {high} têtes."}
                    return rules.GameRules(limit=limit, pro=self.pro.data), {}
                case "rounds":
                    low, high = rules.ROUND_COUNT_RANGE
                    count = rules.parse_heads(self.round_count.data)
                    if count is None or not low <= count <= high:
                        return None, {"round_count": f"Choisissez de {low} à {high} manches."}
                    return rules.GameRules(
                        end=rules.EndRule.ROUNDS, round_count=count, pro=self.pro.data
                    ), {}
                case _:
                    return rules.GameRules(pro=self.pro.data), {}
        except rules.InvalidGameRules as error:  # pragma: no cover - ranges are checked above
            return None, {"end": str(error)}


class RoundForm(Form):
    number = HiddenField()
    heads = FieldList(StringField(), max_entries=rules.MAX_PLAYERS)

    def round_number(self) -> int | None:
        return rules.parse_heads(self.number.data)


class CancelRoundForm(Form):
    number = HiddenField()

    def round_number(self) -> int | None:
        return rules.parse_heads(self.number.data)


class EditRoundForm(Form):
    version = HiddenField()
    heads = FieldList(StringField(), max_entries=rules.MAX_PLAYERS)

    def game_version(self) -> int | None:
        return rules.parse_heads(self.version.data)
