"""Behind a reverse proxy (PROXY_FIX=1): the client's address, scheme and host are taken from the
proxy's X-Forwarded-* headers, but only when the request came from the proxy itself.

Anyone who reaches the app directly (a port left open, another container) could otherwise name
any address in X-Forwarded-For and get a fresh allowance of every per-address limit with each
request. TRUSTED_PROXIES lists the proxy's addresses or networks (default: this machine).
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from typing import Any

from werkzeug.middleware.proxy_fix import ProxyFix

LOOPBACK = ("127.0.0.1/8", "::1/128")


class TrustedProxyFix:
    """WSGI middleware: ProxyFix for requests from a trusted proxy, the request as is otherwise."""

    def __init__(self, app: Any, trusted: Iterable[str]):
        self.app = app
        self.fixed = ProxyFix(app, x_for=1, x_proto=1, x_host=1)
        self.networks = [ipaddress.ip_network(item.strip(), strict=False) for item in trusted]

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        if self._trusted(environ.get("REMOTE_ADDR", "")):
            return self.fixed(environ, start_response)
        return self.app(environ, start_response)

    def _trusted(self, address: str) -> bool:
        try:
            peer = ipaddress.ip_address(address)
        except ValueError:  # a Unix socket has no address: only this machine reaches it
            return address == "" or address.startswith("unix")
        return any(peer in network for network in self.networks)
