"""A finished game's result, said once: the headline, who reached or passed the limit, the rule
in force, the rounds played, and each player's line, best first. The game page, the follow
page, the image, the text for a group chat and BG Stats all say these same Messages."""

from __future__ import annotations

from dataclasses import dataclass

from app.rules.games import Best, EndRule
from app.rules.messages import N_, Message, Names, Np_
from app.rules.scoring import GameRules, ranks
from app.rules.sheet import Scoresheet


@dataclass(frozen=True)
class Placing:
    """One player's line of the result, best first: ties share a rank (1, 1, 3)."""

    seat: int
    name: str
    total: int
    rank: int
    winner: bool
    note: Message | None  # « A dépassé 66 » for whoever ended the game by the limit (lowest wins)


@dataclass(frozen=True)
class Result:
    headline: Message  # « Brice gagne avec 15 têtes ! », « Victoire partagée : … »
    ending: Message  # « Aube a dépassé 66 (70). Fin de la partie après 5 manches. »
    rule: Message  # « Fin : plus de 66 têtes », with the pro variant
    rounds: Message  # « 5 manches »
    placings: tuple[Placing, ...]

    @property
    def winners(self) -> tuple[Placing, ...]:
        return tuple(line for line in self.placings if line.winner)


def placings(sheet: Scoresheet) -> tuple[Placing, ...]:
    """Return the players by rank (best total first), in seat order within a tie."""
    ranked = ranks(sheet.totals, sheet.rules.best)
    # Where the highest total wins, reaching the limit is how one wins: no note in red.
    warns = sheet.rules.best is Best.LOWEST
    lines = (
        Placing(
            seat=seat,
            name=name,
            total=sheet.totals[seat],
            rank=ranked[seat],
            winner=seat in sheet.winners,
            note=crossed(sheet.rules) if seat in sheet.crossers and warns else None,
        )
        for seat, name in enumerate(sheet.players)
    )
    return tuple(sorted(lines, key=lambda line: (line.rank, line.seat)))


def crossed(game_rules: GameRules) -> Message:
    """Say that a total ended the game: « A atteint 66 » or « A dépassé 66 »."""
    if game_rules.end is EndRule.AT_OR_ABOVE:
        return N_("A atteint %(limit)s", limit=game_rules.limit)
    return N_("A dépassé %(limit)s", limit=game_rules.limit)


def result_of(sheet: Scoresheet) -> Result | None:
    """Return what a finished game's result says; None while it goes on."""
    if not sheet.is_over:
        return None
    placed = placings(sheet)
    winners = [line for line in placed if line.winner]
    rounds = Np_("%(num)d manche", "%(num)d manches", len(sheet.rounds))
    headline = _headline(winners, sheet.rules.game.counts_heads)
    return Result(headline, _ending(sheet, placed), rule_in_force(sheet.rules), rounds, placed)


def play_on(sheet: Scoresheet) -> Message | None:
    """Say that a tie for the best total at the end plays another round (Flip 7), naming the
    tied players; None otherwise."""
    if not sheet.rounds or not sheet.rules.plays_on(sheet.totals, len(sheet.rounds)):
        return None
    tied = tuple(sheet.players[seat] for seat in sorted(sheet.leaders))
    return N_(
        "Égalité à %(total)s : une manche de plus, entre %(names)s.",
        total=sheet.totals[min(sheet.leaders)],
        names=Names(tied),
    )


def _headline(winners: list[Placing], heads: bool) -> Message:
    best = winners[0].total
    names = Names(tuple(line.name for line in winners))
    if len(winners) == 1 and heads:
        return Np_(
            "%(name)s gagne avec %(num)d tête\u202f!",
            "%(name)s gagne avec %(num)d têtes\u202f!",
            best,
            name=names,
        )
    if len(winners) == 1:
        return Np_(
            "%(name)s gagne avec %(num)d point\u202f!",
            "%(name)s gagne avec %(num)d points\u202f!",
            best,
            name=names,
        )
    if heads:
        return Np_(
            "Victoire partagée\u202f: %(names)s, à égalité avec %(num)d tête.",
            "Victoire partagée\u202f: %(names)s, à égalité avec %(num)d têtes.",
            best,
            names=names,
        )
    return Np_(
        "Victoire partagée\u202f: %(names)s, à égalité avec %(num)d point.",
        "Victoire partagée\u202f: %(names)s, à égalité avec %(num)d points.",
        best,
        names=names,
    )


def _ending(sheet: Scoresheet, placed: tuple[Placing, ...]) -> Message:
    after = Np_(
        "Fin de la partie après %(num)d manche.",
        "Fin de la partie après %(num)d manches.",
        len(sheet.rounds),
    )
    crossers = [line for line in sorted(placed, key=lambda line: line.seat) if line.note]
    if not crossers:
        return after
    values = {
        "names": Names(tuple(line.name for line in crossers)),
        "limit": sheet.rules.limit,
        "totals": ", ".join(str(line.total) for line in crossers),
        "after": after,
    }
    if sheet.rules.end is EndRule.AT_OR_ABOVE:
        return Np_(
            "%(names)s a atteint %(limit)s (%(totals)s). %(after)s",
            "%(names)s ont atteint %(limit)s (%(totals)s). %(after)s",
            len(crossers),
            **values,
        )
    return Np_(
        "%(names)s a dépassé %(limit)s (%(totals)s). %(after)s",
        "%(names)s ont dépassé %(limit)s (%(totals)s). %(after)s",
        len(crossers),
        **values,
    )


def rule_in_force(game_rules: GameRules) -> Message:
    """Say the end rule (and the variants chosen) in a few words: the image's and BG Stats'
    note."""
    if game_rules.end is EndRule.ROUNDS:
        rule = Np_(
            "Fin\u202f: après %(num)d manche",
            "Fin\u202f: après %(num)d manches",
            game_rules.round_count or 0,
        )
    elif not game_rules.game.counts_heads:
        rule = N_("Fin\u202f: %(limit)s points ou plus", limit=game_rules.limit)
    elif game_rules.end is EndRule.AT_OR_ABOVE:
        rule = N_("Fin\u202f: %(limit)s têtes ou plus", limit=game_rules.limit)
    else:
        rule = N_("Fin\u202f: plus de %(limit)s têtes", limit=game_rules.limit)
    for variant in game_rules.chosen_variants:
        rule = Message(variant.note.text, {**variant.note.values, "rule": rule})
    return rule


def rule_sentence(game_rules: GameRules) -> Message:
    """Say the rule in force in a sentence, for the game page: the end, who wins, the variants
    chosen (6 qui prend's pro deck)."""
    sentence = _end_sentence(game_rules)
    if game_rules.game.tie_plays_on:  # Flip 7: said with the end, whichever the table chose
        tie = N_("À égalité pour la victoire, une manche de plus départage les premiers.")
        sentence = Message("%(sentence)s %(tie)s", {"sentence": sentence, "tie": tie})
    for variant in game_rules.chosen_variants:
        # Only blanks and a space: no words to translate (as Refusal.said).
        sentence = Message("%(sentence)s %(pro)s", {"sentence": sentence, "pro": variant.sentence})
    return sentence


def _end_sentence(game_rules: GameRules) -> Message:
    highest = game_rules.best is Best.HIGHEST
    if game_rules.end is EndRule.ROUNDS:
        if highest:
            return Np_(
                "La partie dure %(num)d manche\u202f; le plus grand total gagne.",
                "La partie dure %(num)d manches\u202f; le plus grand total gagne.",
                game_rules.round_count or 0,
            )
        return Np_(
            "La partie dure %(num)d manche\u202f; le plus petit total gagne.",
            "La partie dure %(num)d manches\u202f; le plus petit total gagne.",
            game_rules.round_count or 0,
        )
    if game_rules.game.counts_heads:
        if game_rules.end is EndRule.AT_OR_ABOVE:
            return N_(
                "La partie s’arrête dès qu’un total atteint %(limit)s têtes\u202f; le plus petit "
                "total gagne.",
                limit=game_rules.limit,
            )
        return N_(
            "La partie s’arrête quand un total dépasse %(limit)s têtes\u202f; le plus petit "
            "total gagne.",
            limit=game_rules.limit,
        )
    if highest:
        return N_(
            "La partie s’arrête dès qu’un total atteint %(limit)s\u202f; le plus grand total "
            "gagne.",
            limit=game_rules.limit,
        )
    return N_(
        "La partie s’arrête dès qu’un total atteint %(limit)s\u202f; le plus petit total gagne.",
        limit=game_rules.limit,
    )
