"""The forms people fill in, parsed with WTForms: typed text becomes numbers here, and what the
numbers may be is decided in app.rules.

CSRF is checked for every POST by CSRFProtect (see create_app), so these are plain forms.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from werkzeug.datastructures import MultiDict
from wtforms import FieldList, Form, HiddenField, StringField

from app import rules
from app.rules import N_, Message

INITIAL_NAME_FIELDS = 2  # the contract: at least two name fields at first
CREATION_KEY = re.compile(r"[A-Za-z0-9_-]{1,64}")  # what secrets.token_urlsafe gives, and fits
LONGEST_NUMBER = 6  # digits: far more than any head count, limit or round count
SEPARATORS = re.compile(r"[\s,;]+")  # between the cards of a pile: spaces, commas


def whole_number(typed: str | None) -> int | None:
    """Return the whole number a person typed (ASCII digits, spaces around), or None."""
    text = (typed or "").strip()
    if not text or not (text.isascii() and text.isdigit()):
        return None
    digits = text.lstrip("0") or "0"
    # Keeps int() away from huge strings: such a number is refused as too big anyway.
    return int(digits) if len(digits) <= LONGEST_NUMBER else 10**LONGEST_NUMBER


# A minus as people type it: the hyphen of a keyboard, the typographic minus (U+2212) of a phone's
# symbols, a dash that an autocorrect made of it.
MINUS_SIGNS = "-\u2212\u2013"


def score_number(typed: str | None) -> int | None:
    """Return the whole number, maybe negative (« -5 », « −5 »), a person typed, or None."""
    text = (typed or "").strip()
    sign = -1 if text[:1] and text[0] in MINUS_SIGNS else 1
    if text[:1] and text[0] in MINUS_SIGNS + "+":
        text = text[1:].strip()
    value = whole_number(text)
    return None if value is None else sign * value


class NewGameForm(Form):
    """The new-game form: the players, then the choices the chosen game declares (its ends,
    « Autre limite », its variants, a free game's name and winner rule). Fields that do not apply
    to the game chosen are ignored."""

    players = FieldList(
        StringField(), min_entries=INITIAL_NAME_FIELDS, max_entries=rules.MAX_PLAYERS + 5
    )
    game = StringField(default=rules.DEFAULT_GAME.key)  # « Jeu »: a key of rules.GAMES (radios)
    title = StringField(default="")  # a free game's « Nom du jeu »
    best = StringField(default="lowest")  # a free game's « Qui gagne ? »: lowest or highest
    end = StringField(default="above")  # an end of the game's end_choices, other_limit, rounds
    limit = StringField(default="")
    round_count = StringField(default="")
    key = HiddenField()  # one per form shown: the same form sent twice starts one game
    # « Autre jeu, même table »: the game the table played before (its public id), whose
    # evening the new game joins; one this phone may not see is ignored (app/services/games.py).
    after = HiddenField()

    def __init__(self, formdata: Any = None, **kwargs: Any) -> None:
        super().__init__(formdata, **kwargs)
        # A game's variants are boxes named by their keys (« Variante pro »: `pro`), read here
        # rather than declared as fields: the games declare them.
        self.typed: Mapping[str, Any] = formdata or {}

    def creation_key(self) -> str | None:
        """Return the form's key, None if blank, or raise rules.Refusal for a key the page did
        not give (it would be stored, and PostgreSQL refuses a NUL byte outright)."""
        key = self.key.data or ""
        if not key:
            return None
        if not CREATION_KEY.fullmatch(key):
            raise rules.Refusal.of(N_("Le formulaire envoyé est incomplet ou invalide."))
        return key

    def typed_names(self) -> list[str]:
        return [entry.data or "" for entry in self.players]

    def chosen_game(self) -> rules.RoundGame:
        """Return the game chosen (the first offered when none is), or raise rules.Refusal."""
        game = rules.GAMES.get(self.game.data or rules.DEFAULT_GAME.key)
        if game is None:
            raise rules.Refusal({"game": N_("Choisissez un des jeux proposés.")})
        return game

    def most_players(self) -> int:
        """Return the most players the chosen game seats (the counter's most, if it is unknown)."""
        game = rules.GAMES.get(self.game.data or rules.DEFAULT_GAME.key)
        return game.max_players if game else rules.MAX_PLAYERS

    def variant_ticked(self, key: str) -> bool:
        """Tell whether the box of the variant keyed `key` is ticked."""
        return bool(self.typed.get(key))

    def game_rules(self) -> rules.GameRules:
        """Return the game and end rule chosen, or raise rules.Refusal keyed by the field in
        error. Fields that do not apply to the game chosen are ignored."""
        game = self.chosen_game()
        if game.other_limit:  # where a limit may be typed, a number under another rule is asked
            question = self._number_under_another_rule()
            if question:
                raise rules.Refusal(question)
        best = self._best() if game.chooses_best else None
        title = self._title() if game.table_names_it else None
        variants = [variant.key for variant in game.variants if self.variant_ticked(variant.key)]
        end = self.end.data or "above"
        # None: the game's own.
        end_rule: rules.EndRule | None = None
        limit: int | None = None
        round_count: int | None = None
        if end == "rounds" and rules.EndRule.ROUNDS in game.ends:
            end_rule, round_count = rules.EndRule.ROUNDS, self._round_count()
        elif end == "other_limit" and game.other_limit:
            limit = self._limit(game)  # at the game's own end rule
        elif end in game.end_choices:
            end_rule = rules.EndRule(end)
        elif game.default_limit is None:  # no end of its own: the table says which
            wanted = N_(
                "Pour une partie libre, choisissez « Autre limite » ou « Nombre de manches »."
            )
            raise rules.Refusal({"end": wanted})
        return rules.GameRules.of(
            game,
            end=end_rule,
            limit=limit,
            round_count=round_count,
            variants=variants,
            chosen_best=best,
            title=title,
        )

    def _title(self) -> str:
        title = " ".join((self.title.data or "").split())
        if not title or len(title) > rules.MAX_TITLE_LENGTH:
            wanted = N_(
                "Tapez le nom du jeu (%(most)s caractères au plus).", most=rules.MAX_TITLE_LENGTH
            )
            raise rules.Refusal({"title": wanted})
        return title

    def _best(self) -> rules.Best:
        return rules.Best.HIGHEST if self.best.data == "highest" else rules.Best.LOWEST

    def _limit(self, game: rules.RoundGame) -> int:
        low, high = game.limit_range
        limit = whole_number(self.limit.data)
        if limit is None or not low <= limit <= high:
            if game.counts_heads:
                wanted = N_(
                    "Choisissez une limite de %(low)s à %(high)s têtes.", low=low, high=high
                )
            else:
                wanted = N_("Choisissez une limite de %(low)s à %(high)s.", low=low, high=high)
            raise rules.Refusal({"limit": wanted})
        return limit

    def _round_count(self) -> int:
        low, high = rules.ROUND_COUNT_RANGE
        count = whole_number(self.round_count.data)
        if count is None or not low <= count <= high:
            wanted = N_("Choisissez de %(low)s à %(high)s manches.", low=low, high=high)
            raise rules.Refusal({"round_count": wanted})
        return count

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


class DrawnForm(Form):
    """A write's form: it names the version of the game its page was drawn from, so that the
    service acts only on the game that page showed (refusals.check_version)."""

    version = HiddenField()

    def game_version(self) -> int | None:
        return whole_number(self.version.data)


FIELD = "score"  # a round's fields: `score-0`, `score-1` … one per seat
# Their name until December 2026: a round kept in a browser to be sent later (static/waiting.js
# stores the form's fields) or a page drawn before still sends `heads-N`, read as `score-N`.
OLD_FIELD = "heads"


def with_today_names(formdata: Any) -> Any:
    """Return the form's data (or an address's) with a round's `heads-N` fields named
    `score-N`, where only those were sent (a round typed, or a page's address made, before they
    were renamed); otherwise the data as it came."""
    if not formdata or any(key.startswith(f"{FIELD}-") for key in formdata):
        return formdata
    if not any(key.startswith(f"{OLD_FIELD}-") for key in formdata):
        return formdata
    renamed: MultiDict[str, str] = MultiDict()
    for key in formdata:
        name = f"{FIELD}-{key[len(OLD_FIELD) + 1 :]}" if key.startswith(f"{OLD_FIELD}-") else key
        renamed.setlist(name, formdata.getlist(key))
    return renamed


class ScoresForm(DrawnForm):
    """One field per seat (`score-0`, `score-1` …) holding a player's score for the round (the
    heads they took, in 6 qui prend), and who ended the round where the game asks."""

    score = FieldList(StringField(), max_entries=rules.MAX_PLAYERS)
    ended_by = StringField(default="")  # « A fini la manche »: a seat, where the game asks (Skyjo)

    def __init__(self, formdata: Any = None, **kwargs: Any) -> None:
        formdata = with_today_names(formdata)
        super().__init__(formdata, **kwargs)
        # WTForms renumbers what it finds (score-0, score-7 become two seats in a row): keep
        # what was sent, so that a hand-made request is refused rather than guessed.
        sent = [key for key in (formdata or {}) if key.startswith(f"{FIELD}-")]
        self.seats_sent = sorted(sent) == sorted(f"{FIELD}-{s}" for s in range(len(sent))) and all(
            len(formdata.getlist(key)) == 1 for key in sent
        )

    def typed(self) -> list[str]:
        """Return the text of each field as typed, to show it again."""
        return [entry.data or "" for entry in self.score]

    def round_ender(self) -> int | None:
        """Return the seat checked in « A fini la manche », None if none (the rules say whether
        the game needs one)."""
        return whole_number(self.ended_by.data)

    def round(self) -> rules.RoundScores:
        """Return the round typed: the score per seat (negative ones too, the rules say which
        are allowed; a blank field counts as 0) and who ended it — or raise rules.Refusal naming
        the fields that do not hold a whole number."""
        if not self.seats_sent:
            raise rules.Refusal.of(
                N_("Ce formulaire ne correspond pas à la partie : rechargez la page.")
            )
        values: list[int] = []
        errors: dict[int, Message] = {}
        for seat, text in enumerate(self.typed()):
            value = 0 if not text.strip() else score_number(text)
            if value is None:
                # Heads or points alike: the form is read before the game is.
                errors[seat] = N_(
                    "« %(typed)s » n’est pas un nombre entier.", typed=text.strip()[:20]
                )
            else:
                values.append(value)
        if errors:
            raise rules.Refusal(errors)
        return rules.RoundScores(tuple(values), self.round_ender())


class RoundForm(ScoresForm):
    number = HiddenField()  # the round this form records: a repeat records nothing

    def round_number(self) -> int | None:
        return whole_number(self.number.data)


class CancelRoundForm(DrawnForm):
    number = HiddenField()  # the round this form removes: a repeat removes nothing

    def round_number(self) -> int | None:
        return whole_number(self.number.data)


class DealerForm(DrawnForm):
    """« Qui donne ? » and « Changer »: a seat; or « Tirer au sort », which names none."""

    dealer = StringField(default="")
    lots = StringField(default="")

    def seat(self) -> int | None:
        """Return the seat chosen, None to draw lots (a seat not read is -1: no one's)."""
        if self.lots.data:
            return None
        seat = whole_number(self.dealer.data)
        return -1 if seat is None else seat


class RestoreRoundForm(RoundForm):
    """The round this form puts back, as its page showed it: a repeat puts back nothing."""

    def shown(self) -> rules.RoundScores | None:
        try:
            return self.round()
        except rules.Refusal:  # a hand-made form: it showed no round
            return None


class EditRoundForm(ScoresForm):
    """A recorded round's scores, corrected."""


def typed_fields(formdata: Mapping[str, str], prefix: str, count: int) -> list[str]:
    """Return the text of fields `prefix-0` … `prefix-(count - 1)` as typed, to show it again."""
    return [(formdata.get(f"{prefix}-{index}") or "")[:20] for index in range(count)]


def cards_typed(typed: Sequence[str]) -> list[int | None]:
    """Return the number in each field (None for a blank one), or raise rules.Refusal naming the
    fields that hold something else."""
    errors = {
        index: N_("« %(typed)s » n’est pas un numéro de carte.", typed=text.strip())
        for index, text in enumerate(typed)
        if text.strip() and whole_number(text) is None
    }
    if errors:
        raise rules.Refusal(errors)
    return [whole_number(text) for text in typed]


def pile_typed(text: str) -> list[int]:
    """Return the numbers of a text such as « 55 10, 23 » (spaces, commas), or raise
    rules.Refusal naming each word that is not a number."""
    words = [word for word in SEPARATORS.split(text) if word]
    errors = [
        N_("« %(typed)s » n’est pas un numéro de carte.", typed=word[:20])
        for word in words
        if whole_number(word) is None
    ]
    if errors:
        raise rules.Refusal({}, errors)
    return [number for word in words if (number := whole_number(word)) is not None]


def carried_scores(args: Mapping[str, str], players: int) -> dict[int, int]:
    """Return the scores a round form carries in an address (`score-2=5`), by seat: those the
    count of a pile reports, and those typed before « Compter les têtes » or a change of
    language, kept on the way. Anything but a whole number of at most LONGEST_NUMBER digits
    (signed: a Skyjo or free game's score) is left out (the form checks the rest)."""
    carried: dict[int, int] = {}
    for seat in range(players):
        typed = args.get(f"{FIELD}-{seat}", "")
        negative = typed[:1] != "" and typed[0] in MINUS_SIGNS  # « −5 » too, as the form reads it
        digits = typed[1:] if negative else typed
        if digits.isascii() and digits.isdigit() and len(digits) <= LONGEST_NUMBER:
            carried[seat] = -int(digits) if negative else int(digits)
    return carried
