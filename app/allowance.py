"""What one address may do, for every device behind it, and how many games may be imported.

Limits per device alone are bypassed by asking the server for fresh device cookies: the writes
also count per address, generously (every table of a café shares one). The game-creation limit
counts requests, and one import creates thousands of games: imports count their games, in the
rate limiter's own storage (so every worker counts in one place).
"""

from __future__ import annotations

import time

from flask import current_app, request
from flask_babel import ngettext
from limits import parse_many

from app.errors import wait_in_words
from app.extensions import limiter
from app.transfer import ImportRefused


def address() -> str:
    """Return the rate-limit key of the address a request came from."""
    return f"address:{request.remote_addr}"


def address_write_limit() -> str:
    return str(current_app.config["RATELIMIT_WRITES_PER_ADDRESS"])


def address_creation_limit() -> str:
    return str(current_app.config["RATELIMIT_GAME_CREATION_PER_ADDRESS"])


def count_imported_games(count: int, device_hash: str, address: str) -> None:
    """Count `count` imported games for this device and address; raise ImportRefused, counting
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
            raise ImportRefused(
                [
                    ngettext(
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
                ]
            )
    for item, key in items:
        limiter.limiter.hit(item, "imported-games", key, cost=count)
