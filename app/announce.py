"""Print the address to open on a phone at the table, and its QR code (used by `make run`)."""

from __future__ import annotations

import os
import socket

import segno


def lan_address() -> str:
    """Return this machine's address on the local network (127.0.0.1 if it has none)."""
    # Connecting a UDP socket sends nothing: it only asks the kernel which interface would be used.
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: a documentation address, never reached
            return probe.getsockname()[0]
        except OSError:
            return "127.0.0.1"


def main() -> None:
    host = os.environ.get("HOST", "0.0.0.0")
    port = os.environ.get("PORT", "8000")
    shown = lan_address() if host in ("0.0.0.0", "::", "") else host
    url = f"http://{shown}:{port}/"
    print(f"\n  « 6 qui prend ! » — ouvrez {url} sur un téléphone du même réseau Wi-Fi :\n")
    segno.make(url, error="m").terminal(compact=True, border=2)
    print(f"\n  (sur cette machine : http://127.0.0.1:{port}/)\n", flush=True)


if __name__ == "__main__":
    main()
