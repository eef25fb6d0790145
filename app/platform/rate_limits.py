"""What one address may do, for every device behind it, and how many games may be imported.

Limits per device alone are bypassed by asking the server for fresh device cookies: the writes
also count per address, generously (every table of a café shares one). The game-creation limit
counts requests, and one import creates thousands of games: imports count their games, in the
rate limiter's own storage (so every worker counts in one place).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, TypeVar, cast

from flask import Response, current_app, g, request
from limits import parse_many

from app import rules
from app.platform.extensions import limiter
from app.platform.languages import wait_in_words

F = TypeVar("F", bound=Callable[..., Any])


def address() -> str:
    """Return the rate-limit key of the address a request came from."""
    return f"address:{request.remote_addr}"


def _limit(name: str) -> Callable[[], str]:
    return lambda: str(current_app.config[name])


# Addresses that name a game or a share (a game's public id, a follow or a scorer's token: ~128
# bits each). One that leads nowhere is a guess, whatever the route: every such 404 counts toward
# one allowance per client address, kept under one key (not one per guessed address); past it,
# such answers become 429s. An address that exists is never refused by it: the tables of a café
# share its address with whoever guesses there (guessing 128 bits is hopeless: the allowance is
# there to bound the work and the storage, app/web/errors.py turns the count into the answer).
_SECRETS = ("token", "public_id")


def names_a_secret() -> bool:
    """Say whether this request's route takes a game's or a share's address."""
    return any(name in (request.view_args or {}) for name in _SECRETS)


def count_guess(response: Response) -> float | None:
    """Count a 404 on a route that takes a game's or a share's address; return the seconds to
    wait when this client address has guessed more than it may, else None."""
    if response.status_code != 404 or not limiter.enabled or not names_a_secret():
        return None
    key = address()
    for item in parse_many(str(current_app.config["RATELIMIT_GUESSES"])):
        if not limiter.limiter.hit(item, "guesses", key):
            reset_at, _ = limiter.limiter.get_window_stats(item, "guesses", key)
            return max(1.0, reset_at - time.time())
    return None


def drawings(view: F) -> F:
    """Count a result image drawn (not one served ready) against the address's allowance: each
    costs tens of milliseconds of CPU, where a page costs a few."""
    counted = limiter.shared_limit(
        _limit("RATELIMIT_DRAWINGS_PER_ADDRESS"),
        scope="drawings",
        key_func=address,
        deduct_when=lambda _response: bool(g.get("drew_image")),
    )
    return cast(F, counted(view))


def drawing() -> None:
    """Note that this request draws an image (counted by `drawings` once it is answered)."""
    g.drew_image = True


def writes(view: F) -> F:
    """Count a write (a round, a cancel, an edit, a share…) against the device's allowance and
    its address's."""
    per_address = limiter.limit(_limit("RATELIMIT_WRITES_PER_ADDRESS"), key_func=address)
    return cast(F, limiter.limit(_limit("RATELIMIT_WRITES"))(per_address(view)))


def heavy(view: F) -> F:
    """Count a read or write over all of a device's games (statistics, « Exporter toutes les
    parties », an import, refused or not) against one allowance per device and one per address:
    each costs up to a few hundred milliseconds of CPU with thousands of games, where a page
    costs a few."""
    per_address = limiter.shared_limit(
        _limit("RATELIMIT_HEAVY_PER_ADDRESS"), scope="heavy", key_func=address
    )
    per_device = limiter.shared_limit(_limit("RATELIMIT_HEAVY"), scope="heavy")
    return cast(F, per_device(per_address(view)))


def game_creations(exempt_when: Callable[[], bool] | None = None) -> Callable[[F], F]:
    """Count a new game (or a rematch) against the device's allowance and its address's, except
    the requests `exempt_when` says create nothing. (Counted before the view, not after its
    answer: a burst of requests would all pass before the first was counted.)"""

    def counted(view: F) -> F:
        per_address = limiter.limit(
            _limit("RATELIMIT_GAME_CREATION_PER_ADDRESS"),
            key_func=address,
            methods=["POST"],
            exempt_when=exempt_when,
        )
        per_device = limiter.limit(
            _limit("RATELIMIT_GAME_CREATION"), methods=["POST"], exempt_when=exempt_when
        )
        return cast(F, per_device(per_address(view)))

    return counted


def count_imported_games(count: int, device_hash: str, address: str) -> None:
    """Count `count` imported games for this device and address; raise rules.Refusal, counting
    nothing, if that goes past what either may import."""
    if not limiter.enabled or not count:
        return
    config = current_app.config
    items = [
        (item, key)
        for text, key in (
            (config["RATELIMIT_IMPORTED_GAMES"], f"device:{device_hash}"),
            (config["RATELIMIT_IMPORTED_GAMES_PER_ADDRESS"], address),
        )
        for item in parse_many(text)
    ]
    for item, key in items:
        if not limiter.limiter.test(item, "imported-games", key, cost=count):
            reset_at, _ = limiter.limiter.get_window_stats(item, "imported-games", key)
            window, wait = wait_in_words(item.get_expiry()), wait_in_words(reset_at - time.time())
            too_many = rules.Np_(
                "Ce fichier compte %(num)d partie : avec les parties importées peu "
                "avant, cela dépasse ce qu’un appareil ou une adresse peut importer "
                "(%(most)s parties en %(window)s). Réessayez dans %(wait)s.",
                "Ce fichier compte %(num)d parties : avec les parties importées peu "
                "avant, cela dépasse ce qu’un appareil ou une adresse peut importer "
                "(%(most)s parties en %(window)s). Réessayez dans %(wait)s.",
                count,
                most=item.amount,
                window=window,
                wait=wait,
            )
            raise rules.Refusal.of(too_many)
    for item, key in items:
        limiter.limiter.hit(item, "imported-games", key, cost=count)
